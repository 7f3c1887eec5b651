"""LLVM's OpenMP runtime registers each process in a file named for its pid
(/dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid>). A process killed while it
registered leaves the file empty or zeroed, and libomp, starting in a later
process given the same pid, dies on it: SIGBUS reading past the end of the
empty file, abort ("found unknown library already initialized") on the zeroed
one. Killed processes are common where tests and tuners time out, so the
runtime clears its own pid's leftover before libomp starts. Each case runs in
a fresh process that plants the leftover for itself, then runs a parallel
loop: compiled in process, and through an exported library (tir-run)."""
import os
import subprocess
import sys

import pytest

from conftest import built_tool

PARALLEL = '''
import os, subprocess, sys
import numpy as np
import tensorir as tvm
from tensorir.script import tir as T

@T.prim_func
def double(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
    for i in T.parallel(64):
        for j in range(64):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)

def plant():
    for folder in ("/dev/shm", "/tmp"):
        if os.path.isdir(folder):
            path = f"{folder}/__KMP_REGISTERED_LIB_{os.getpid()}_{os.getuid()}"
            with open(path, "wb") as f:
                f.write(b"\\0" * int(sys.argv[1]))

plant()  # left by a process gone before this one started
mode = sys.argv[2]
if mode == "jit":
    lib = tvm.build(double)
    a = np.arange(64 * 64, dtype="float32").reshape(64, 64)
    b = np.zeros_like(a)
    lib["double"](a, b)
    np.testing.assert_array_equal(b, 2 * a)
else:
    path = os.path.join(sys.argv[3], "double.so")
    tvm.build(double).export_library(path)
    # tir-run loads the library in a process of its own: plant there too.
    code = ("import os, subprocess, sys\\n"
            "size = int(sys.argv[1])\\n"
            "for folder in ('/dev/shm', '/tmp'):\\n"
            "    p = f'{folder}/__KMP_REGISTERED_LIB_{os.getpid()}_{os.getuid()}'\\n"
            "    open(p, 'wb').write(b'\\\\0' * size)\\n"
            "os.execv(sys.argv[2], sys.argv[2:])\\n")
    subprocess.run([sys.executable, "-c", code, sys.argv[1], sys.argv[4], path,
                    "--entry", "double", "--num-threads", "2",
                    "--output-dir", sys.argv[3]], check=True)
print("ran")
'''


def _leftovers(pid):
    return [f"{folder}/__KMP_REGISTERED_LIB_{pid}_{os.getuid()}"
            for folder in ("/dev/shm", "/tmp")]


@pytest.mark.parametrize("size", [0, 1024], ids=["empty", "zeroed"])
@pytest.mark.parametrize("mode", ["jit", "exported"])
def test_a_leftover_registration_does_not_kill_the_next_process(size, mode, tmp_path):
    args = [str(size), mode]
    if mode == "exported":
        tir_run = built_tool("tir-run")
        if tir_run is None:
            pytest.skip("tir-run is not built")
        args += [str(tmp_path), tir_run]
    env = dict(os.environ, OMP_NUM_THREADS="2")
    script = tmp_path / "case.py"
    script.write_text(PARALLEL)
    proc = subprocess.Popen([sys.executable, str(script), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=300)
    try:
        assert proc.returncode == 0 and "ran" in out, (
            f"exit {proc.returncode}\n{out}\n{err[-4000:]}")
    finally:
        for path in _leftovers(proc.pid):
            if os.path.exists(path) and os.path.getsize(path) < 1024:
                os.unlink(path)
