"""The CUDA path from Python: build(target="cuda"), device arrays, calls,
timing, export and tir_runtime (the runtime through ctypes), and the errors
for bad input.

Where there is no GPU, the runtime is driven by a stand-in driver with no
GPU behind it (test/lib/FakeCUDA: device memory is host memory, launches
are checked and recorded but run nothing), each check in a subprocess of
its own (the driver is loaded once per process). Tests that compute on a
real GPU run when one is there and are skipped, visibly, otherwise; they
also run on the GPU machine through scripts/gpu-check.sh."""
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T

from conftest import LIB_DIR, ROOT

FAKE = os.path.join(LIB_DIR, "libtir_fake_cuda.so")
PYTHONPATH = os.pathsep.join(p for p in sys.path if p)
HAVE_GPU = tvm.cuda(0).exist


@T.prim_func
def vadd(A: T.Buffer((1000,), "float32"), B: T.Buffer((1000,), "float32"),
         C: T.Buffer((1000,), "float32")):
    T.func_attr({"global_symbol": "vadd", "tir.noalias": True})
    for i in range(1000):
        with T.block("C"):
            vi = T.axis.spatial(1000, i)
            C[vi] = A[vi] + B[vi]


def bound_vadd(threads=128):
    sch = tvm.tir.Schedule(vadd)
    (i,) = sch.get_loops(sch.get_block("C"))
    bx, tx = sch.split(i, factors=[None, threads])
    sch.bind(bx, "blockIdx.x")
    sch.bind(tx, "threadIdx.x")
    return sch.mod


def serial_on_cpu(mod):
    """`mod` (an IRModule or a prim_func) with its loops bound to GPU threads
    made serial: built for the CPU, it computes what the GPU's threads do
    where each step between barriers is a loop nest of its own (a check of
    the values, not of the absence of races)."""
    if not isinstance(mod, tvm.IRModule):
        mod = tvm.IRModule({"main": mod})
    return tvm.IRModule.from_mlir(re.sub(r' thread_binding<"[^"]*">', "", mod.mlir()))


def check_matmul_serially(mod, shapes):
    """`mod`'s matmul C = A @ B (float32) built for the CPU with its thread
    loops serial (serial_on_cpu), against numpy in float64, for each
    (rows, k, n) of `shapes`."""
    lib = tvm.build(serial_on_cpu(mod), target="llvm")
    for m, k, n in shapes:
        rng = np.random.default_rng(m)
        a = rng.standard_normal((m, k)).astype("float32")
        b = rng.standard_normal((k, n)).astype("float32")
        c = np.full((m, n), np.nan, "float32")
        lib[lib.functions[0]](a, b, c)
        np.testing.assert_allclose(c, a.astype("float64") @ b, rtol=1e-4, atol=1e-4)


def run_with_driver(code, driver=FAKE, **env):
    """Runs `code` in a fresh Python with the driver `driver`; returns its
    output, failing with its output if it fails."""
    assert os.path.exists(FAKE), "the fake driver is not built (tir_fake_cuda)"
    environ = dict(os.environ, PYTHONPATH=PYTHONPATH, TIR_CUDA_DRIVER=driver,
                   **{k: str(v) for k, v in env.items()})
    prelude = textwrap.dedent(f"""
        import sys, ctypes
        sys.path.insert(0, {os.path.join(ROOT, 'python', 'tests')!r})
        import numpy as np
        import tensorir as tvm
        import tir_runtime as rt
        from test_cuda import bound_vadd

        # The stand-in driver's counters: allocations live, stream-ordered
        # allocations, copies to the device, launches, the pool's release
        # threshold.
        def fake_counters(count=5):
            fake = ctypes.CDLL({FAKE!r})
            fake.fakeCounters.restype = ctypes.POINTER(ctypes.c_longlong)
            return list(fake.fakeCounters()[:count])
        """)
    result = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                            env=environ, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_build_for_cuda_needs_no_gpu():
    lib = tvm.build(bound_vadd(), target="cuda")
    assert lib.target == "cuda"
    assert lib.functions == ["vadd"]
    cpu = tvm.build(vadd, target="llvm")
    assert cpu.target == "cpu"


def test_target_options():
    with pytest.raises(ValueError, match="-arch names a GPU as sm_XY"):
        tvm.build(bound_vadd(), target="cuda -arch=90")
    with pytest.raises(ValueError, match="option -mcpu is not supported for cuda"):
        tvm.build(bound_vadd(), target="cuda -mcpu=skylake")
    with pytest.raises(ValueError, match="-format is isa"):
        tvm.build(bound_vadd(), target="cuda -format=elf")


def test_unbound_loops_refused_for_cuda():
    with pytest.raises(ValueError, match="did you forget to bind"):
        tvm.build(vadd, target="cuda")


def test_no_driver():
    out = run_with_driver("""
        dev = tvm.cuda(0)
        print("exist", dev.exist)
        try:
            tvm.nd.array(np.zeros(4, "float32"), dev)
        except rt.TIRError as e:
            print("array:", e)
        lib = tvm.build(bound_vadd(), target="cuda")
        a = np.zeros(1000, "float32")
        try:
            lib["vadd"](a, a, a.copy())
        except ValueError as e:
            print("call:", e)
        """, driver="/nonexistent/libcuda.so.1")
    assert "exist False" in out
    assert "array: no CUDA driver: cannot load '/nonexistent/libcuda.so.1'" in out
    assert "an NVIDIA driver is needed to run on the GPU" in out
    assert ("call: argument 0 ('A') of 'vadd': is on cpu(0); the function runs on a "
            "CUDA GPU: copy it there first") in out


def test_device_arrays_and_launch():
    out = run_with_driver("""
        dev = tvm.cuda(0)
        assert dev.exist and dev.device_name == "Fake GPU 0", dev.device_name
        assert dev.compute_version == "9.0" and dev.max_threads_per_block == 1024
        x = np.arange(1000, dtype="float32")
        a = tvm.nd.array(x, dev)
        assert a.shape == (1000,) and a.dtype == "float32" and a.device == dev
        assert (a.numpy() == x).all()
        c = tvm.nd.empty((1000,), "float32", dev)
        lib = tvm.build(bound_vadd(), target="cuda")
        lib["vadd"](a, a, c)
        fake = ctypes.CDLL({fake!r})
        fake.fakeLastLaunch.restype = ctypes.POINTER(ctypes.c_longlong)
        print("launch", list(fake.fakeLastLaunch()[:7]))
        t = lib.time_evaluator("vadd", dev, number=4, repeat=2)(a, a, c)
        print("timed", len(t.results), round(t.mean * 1e3, 3))
        """.replace("{fake!r}", repr(FAKE)))
    # 8 blocks of 128 threads, no dynamic shared memory.
    assert "launch [8, 1, 1, 128, 1, 1, 0]" in out
    # The fake driver's events say 1 ms for the 4 calls.
    assert "timed 2 0.25" in out


def test_wrong_devices():
    out = run_with_driver("""
        lib = tvm.build(bound_vadd(), target="cuda")
        a0 = tvm.nd.array(np.ones(1000, "float32"), tvm.cuda(0))
        a1 = tvm.nd.array(np.ones(1000, "float32"), tvm.cuda(1))
        try:
            lib["vadd"](a0, a1, a0)
        except ValueError as e:
            print("mixed:", e)
        try:
            tvm.nd.array(np.ones(4, "float32"), tvm.cuda(5))
        except rt.TIRError as e:
            print("missing:", e)
        """, FAKE_CUDA_DEVICES=2)
    assert ("mixed: argument 1 ('B') of 'vadd': is on cuda(1), another argument on "
            "cuda(0); a call runs on one GPU") in out
    assert "missing: there is no CUDA device 5 (2 devices found)" in out


def test_gpu_array_to_cpu_function():
    out = run_with_driver("""
        from test_cuda import vadd
        lib = tvm.build(vadd, target="llvm")
        a = tvm.nd.array(np.ones(1000, "float32"), tvm.cuda(0))
        try:
            lib["vadd"](a, a, np.zeros(1000, "float32"))
        except ValueError as e:
            print("cpu:", e)
        """)
    assert ("cpu: argument 0 ('A') of 'vadd': is on cuda(0); the function runs on the "
            "CPU: copy it there first (.numpy())") in out


def test_launch_over_device_limits():
    out = run_with_driver("""
        lib = tvm.build(bound_vadd(threads=256), target="cuda")
        a = tvm.nd.array(np.ones(1000, "float32"), tvm.cuda(0))
        c = tvm.nd.empty((1000,), "float32", tvm.cuda(0))
        try:
            lib["vadd"](a, a, c)
        except ValueError as e:
            print("threads:", e)
        """, FAKE_CUDA_MAX_THREADS=128)
    assert ("threads: 'vadd': cannot launch kernel 'vadd_kernel' on cuda(0) (Fake GPU 0): "
            "256 threads per block; the device allows 128") in out
    out = run_with_driver("""
        lib = tvm.build(bound_vadd(), target="cuda")
        a = tvm.nd.array(np.ones(1000, "float32"), tvm.cuda(0))
        c = tvm.nd.empty((1000,), "float32", tvm.cuda(0))
        try:
            lib["vadd"](a, a, c)
        except ValueError as e:
            print("shared:", e)
        """, FAKE_CUDA_MAX_SHARED=4096, FAKE_CUDA_KERNEL_SHARED=8192)
    assert ("8192 bytes of shared memory per block; the device allows 4096") in out


def test_export_and_tir_runtime(tmp_path):
    path = str(tmp_path / "vadd_cuda.so")
    tvm.build(bound_vadd(), target="cuda").export_library(path)
    out = run_with_driver(f"""
        lib = rt.load_module({path!r})
        print("target", lib.target, lib.functions)
        dev = rt.cuda(0)
        x = np.arange(1000, dtype="float32")
        a, c = rt.array(x, dev), rt.empty((1000,), "float32", dev)
        lib["vadd"](a, a, c)
        assert (a.numpy() == x).all()
        try:
            lib["vadd"](x, x, x.copy())
        except rt.TIRError as e:
            print("host array:", e)
        print(lib.time_evaluator("vadd", dev, number=2)(a, a, c))
        loaded = tvm.load_module({path!r})
        print("tvm target", loaded.target)
        """)
    assert "target cuda ['vadd']" in out
    assert "host array: argument 0 ('A') of 'vadd': is on cpu(0)" in out
    assert "tvm target cuda" in out


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
def test_vadd_on_gpu():
    dev = tvm.cuda(0)
    lib = tvm.build(bound_vadd(), target="cuda")
    rng = np.random.default_rng(0)
    x, y = (rng.standard_normal(1000).astype("float32") for _ in range(2))
    a, b = tvm.nd.array(x, dev), tvm.nd.array(y, dev)
    c = tvm.nd.array(np.full(1000, np.nan, "float32"), dev)
    lib["vadd"](a, b, c)
    np.testing.assert_allclose(c.numpy(), x + y, rtol=1e-6)


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
def test_tiled_matmul_on_gpu():
    sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
    import programs
    mod = programs.schedule_matmul_tiled(programs.matmul(256, 256, 256))
    dev = tvm.cuda(0)
    lib = tvm.build(mod, target="cuda")
    rng = np.random.default_rng(1)
    x, y = (rng.standard_normal((256, 256)).astype("float32") for _ in range(2))
    c = tvm.nd.array(np.full((256, 256), np.nan, "float32"), dev)
    lib["gemm"](tvm.nd.array(x, dev), tvm.nd.array(y, dev), c)
    np.testing.assert_allclose(c.numpy(), x.astype("float64") @ y, rtol=1e-4, atol=1e-4)


def test_tir_exec_runner(tmp_path):
    """tir-exec, the runner that links only the runtime: a CPU build against
    itself agrees; a GPU build on the fake driver (which runs no kernel)
    leaves its output as it was, which the runner reports as wrong."""
    from conftest import built_tool
    runner = built_tool("tir-exec")
    if runner is None:
        pytest.skip("tir-exec is not built")
    cpu, gpu = str(tmp_path / "vadd_cpu.so"), str(tmp_path / "vadd_cuda.so")
    tvm.build(vadd, target="llvm").export_library(cpu)
    tvm.build(bound_vadd(), target="cuda").export_library(gpu)
    out = subprocess.run([runner, cpu, "--reference", cpu, "--repeat", "3"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "C: relative error 0 against the reference (0 elements differ): ok" in out.stdout
    assert "per call (3 calls, host clock)" in out.stdout
    listing = subprocess.run([runner, gpu, "--list"], capture_output=True, text=True)
    assert "(cuda)" in listing.stdout and "vadd(A: float32[1000]" in listing.stdout
    env = dict(os.environ, TIR_CUDA_DRIVER=FAKE)
    out = subprocess.run([runner, gpu, "--reference", cpu], capture_output=True,
                         text=True, env=env)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "(1000 elements differ): WRONG" in out.stdout
    out = subprocess.run([runner, gpu, "--reference", cpu], capture_output=True,
                         text=True, env=dict(os.environ, TIR_CUDA_DRIVER="/nonexistent.so"))
    assert out.returncode == 2
    assert "no CUDA driver: cannot load '/nonexistent.so'" in out.stderr


@pytest.mark.skipif(not os.path.exists("/usr/local/cuda/bin/ptxas"),
                    reason="no CUDA toolkit (ptxas) for -format=bin")
def test_cubin_export(tmp_path):
    """-format=bin embeds a cubin (ptxas) rather than PTX: the library
    registers it through mgpuModuleLoad, and it launches as the PTX does."""
    path = str(tmp_path / "vadd_cubin.so")
    tvm.build(bound_vadd(), target="cuda -arch=sm_90 -format=bin").export_library(path)
    with open(path, "rb") as f:
        data = f.read()
    assert b"\x7fELF" in data[16:]  # the cubin, an ELF image, inside the library
    assert b".version" not in data  # and no PTX text
    out = run_with_driver(f"""
        lib = rt.load_module({path!r})
        dev = rt.cuda(0)
        a, c = rt.array(np.ones(1000, "float32"), dev), rt.empty((1000,), "float32", dev)
        lib["vadd"](a, a, c)
        fake = ctypes.CDLL({FAKE!r})
        fake.fakeLastLaunch.restype = ctypes.POINTER(ctypes.c_longlong)
        print("launch", list(fake.fakeLastLaunch()[:6]))
        """)
    assert "launch [8, 1, 1, 128, 1, 1]" in out


def test_streams():
    """TVM's raw streams: launches go to the stream set for the device, and
    back to the default stream when it is unset; the default stream cannot
    be freed; the CPU has none."""
    out = run_with_driver("""
        dev = tvm.cuda(0)
        lib = tvm.build(bound_vadd(), target="cuda")
        a, c = tvm.nd.array(np.ones(1000, "float32"), dev), tvm.nd.empty((1000,), "float32", dev)
        fake = ctypes.CDLL({fake!r})
        fake.fakeLastLaunch.restype = ctypes.POINTER(ctypes.c_longlong)
        s = dev.create_raw_stream()
        dev.set_raw_stream(s)
        lib["vadd"](a, a, c)
        print("on the stream", fake.fakeLastLaunch()[7] == s)
        dev.sync(s)
        dev.set_raw_stream(None)
        lib["vadd"](a, a, c)
        print("on the default", fake.fakeLastLaunch()[7] == 0)
        dev.free_raw_stream(s)
        try:
            dev.free_raw_stream(None)
        except rt.TIRError as e:
            print("default:", e)
        try:
            tvm.cpu(0).create_raw_stream()
        except ValueError as e:
            print("cpu:", e)
        """.replace("{fake!r}", repr(FAKE)))
    assert "on the stream True" in out
    assert "on the default True" in out
    assert "default: the device's default stream cannot be destroyed" in out
    assert "cpu: create_raw_stream: cpu(0) has no streams; they are a GPU's" in out
