"""fp32 GEMM 1024^3, the same schedule (bench/gemm_schedule.py) built by
tir and by Apache TVM (the apache-tvm wheel from PyPI, in a virtual
environment under the build folder, never a dependency of the package), on
1 and 2 threads in one run; prints GFLOP/s and tir / TVM.

    /usr/bin/python3 bench/gemm_peers.py [--cpu icelake-server]

TVM runs in a process of its own (its `tvm` is not tensorir's); the venv
is made on first use (build/peers-venv: pip install apache-tvm). TVM 0.27,
the wheel PyPI has, spells blocks `T.sblock` and takes `s_tir=True` prim
functions; the schedule is the same calls."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = 1024

RUN = r'''
import json, os, sys, numpy as np
sys.path.insert(0, {bench!r})
import gemm_schedule
N = {n}
if {tvm_peer}:
    import tvm
    from tvm.script import tirx as T
    @T.prim_func(s_tir=True)
    def gemm(A: T.Buffer((N, N), "float32"), B: T.Buffer((N, N), "float32"),
             C: T.Buffer((N, N), "float32")):
        T.func_attr({{"global_symbol": "gemm", "tir.noalias": True}})
        for i, j, r in T.grid(N, N, N):
            with T.sblock("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    mod = gemm_schedule.schedule(tvm, gemm, "get_sblock")
    target = tvm.target.Target({{"kind": "llvm", "mcpu": {cpu!r}, "num-cores": 2}})
    lib = tvm.compile(mod, target=target)
    run = lib.mod
    dev = tvm.cpu()
    array = lambda x: tvm.runtime.tensor(x, dev)
else:
    import tensorir as tvm
    sys.path.insert(0, os.path.join({bench!r}, "gpu"))
    import programs
    mod = gemm_schedule.schedule(tvm, programs.matmul(N, N, N), "get_block")
    run = tvm.build(mod, target="llvm -mcpu=" + {cpu!r})
    dev = tvm.cpu()
    array = tvm.nd.array
rng = np.random.default_rng(0)
a = rng.standard_normal((N, N)).astype("float32")
b = rng.standard_normal((N, N)).astype("float32")
A, B, C = array(a), array(b), array(np.zeros((N, N), "float32"))
run["gemm"](A, B, C)
err = float(np.abs(C.numpy() - a.astype("float64") @ b).max())
t = min(run.time_evaluator("gemm", dev, number=5, repeat=7)(A, B, C).results)
print(json.dumps({{"gflops": 2 * N ** 3 / t / 1e9, "err": err}}))
'''


def measure(python, threads, tvm_peer, cpu, env_extra):
    env = dict(os.environ, TVM_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads),
               **env_extra)
    code = RUN.format(bench=os.path.join(ROOT, "bench"), n=N, tvm_peer=tvm_peer, cpu=cpu)
    # (A file: TVMScript parses the function's source.)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
    try:
        out = subprocess.run([python, f.name], env=env, capture_output=True, text=True,
                             timeout=600)
    finally:
        os.unlink(f.name)
    if out.returncode != 0:
        sys.exit(f"{'TVM' if tvm_peer else 'tir'} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu", default="native")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    cpu = args.cpu
    if cpu == "native":
        cpu = subprocess.run(["/usr/lib/llvm-22/bin/llc", "--version"], capture_output=True,
                             text=True).stdout.split("Host CPU:")[-1].split()[0]
    venv = os.path.join(args.build_dir, "peers-venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run(["/usr/bin/python3", "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "apache-tvm"],
                       check=True)
    version = subprocess.run([python, "-c", "import tvm; print(tvm.__version__)"],
                             capture_output=True, text=True).stdout.strip()
    tir_env = {"PYTHONPATH": os.pathsep.join([os.path.join(ROOT, "python"),
                                              os.path.join(args.build_dir, "python")])}
    print(f"fp32 GEMM {N}^3, the schedule of bench/gemm_schedule.py, CPU {cpu}; "
          f"Apache TVM {version}; best of 7 x 5 calls")
    print("| threads | tir GFLOP/s | TVM GFLOP/s | tir / TVM |")
    print("|---|---|---|---|")
    for threads in (1, 2):
        mine = measure("/usr/bin/python3", threads, False, cpu, tir_env)
        peer = measure(python, threads, True, cpu, {})
        for name, r in (("tir", mine), ("TVM", peer)):
            if r["err"] > 1e-2:
                sys.exit(f"{name} computed a wrong product (max abs error {r['err']})")
        print(f"| {threads} | {mine['gflops']:.1f} | {peer['gflops']:.1f} | "
              f"{mine['gflops'] / peer['gflops']:.2f}x |")


if __name__ == "__main__":
    main()
