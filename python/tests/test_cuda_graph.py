"""Models on the GPU: a module with graph functions built for CUDA
(tvm.compile(mod, "cuda"), relax.build) runs its graph functions on the
host with their tensors in GPU memory: intermediates from the runtime's
stream-ordered allocator, constants (weights) copied to the device once,
at the first call, and freed with the library.

Where there is no GPU, the runtime runs on the stand-in driver
(test/lib/FakeCUDA: device memory is host memory, kernels run nothing),
whose counters show what the host code asked for; the numbers are checked
on a GPU (against PyTorch for ResNet-18) where one is, and skipped, visibly,
here."""
import os
import sys

import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax

from test_cuda import HAVE_GPU, run_with_driver

HAVE_PTXAS = os.path.exists("/usr/local/cuda/bin/ptxas")


def mlp():
    """x @ W1 + b1, ReLU, @ W2, softmax: three constants, four kernels'
    worth of intermediates."""
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((4, 64), "float32"))
    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((64, 128)).astype("float32")
    b1 = rng.standard_normal((128,)).astype("float32")
    w2 = rng.standard_normal((128, 32)).astype("float32")
    with bb.function("main", [x]):
        with bb.dataflow():
            h = bb.emit(relax.op.nn.relu(relax.op.add(
                relax.op.matmul(x, relax.const(w1)), relax.const(b1))))
            y = bb.emit(relax.op.nn.softmax(relax.op.matmul(h, relax.const(w2)), axis=-1))
            gv = bb.emit_output(y)
        bb.emit_func_output(gv)
    return bb.get(), (w1, b1, w2)


def reference(x, weights):
    w1, b1, w2 = weights
    z = np.maximum(x @ w1 + b1, 0) @ w2
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_a_model_builds_for_cuda_with_default_schedules():
    """tvm.compile for CUDA gives the unscheduled kernels dlight's default
    schedules (as TVM's build does); the host code allocates through the
    runtime, never malloc."""
    mod, _ = mlp()
    ex = tvm.compile(mod, target="cuda")
    assert ex.target == "cuda"
    source = ex.get_source()
    for call in ("mgpuMemAlloc", "mgpuMemFree", "tirCudaConstant", "tirCudaReleaseConstant"):
        assert f"@{call}(" in source, call
    assert "@malloc(" not in source and "@free(" not in source


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas)")
def test_the_model_assembles_with_ptxas(tmp_path):
    mod, _ = mlp()
    for arch in ("sm_80", "sm_90"):
        ex = relax.build(mod, target=f"cuda -arch={arch} -format=bin")
        ex.export_library(str(tmp_path / f"mlp_{arch}.so"))


def test_graph_memory_on_the_fake_driver(tmp_path):
    """Counters of the stand-in driver: [allocations live, stream-ordered
    allocations, copies to the device, launches, the pool's release
    threshold]. The input is one allocation and one copy; the first call
    adds its result and the three constants (three copies), and allocates
    and frees its intermediates in order with its launches; the second
    call copies no constant again; freeing the results and then the
    library leaves the input alone."""
    path = str(tmp_path / "mlp.so")
    mod, _ = mlp()
    tvm.compile(mod, target="cuda").export_library(path)
    out = run_with_driver(f"""
        import gc
        from tensorir import relax
        counters = fake_counters
        ex = tvm.runtime.load_module({path!r})
        dev = tvm.cuda(0)
        vm = relax.VirtualMachine(ex, dev)
        x = tvm.nd.array(np.ones((4, 64), "float32"), dev)
        print("input", counters())
        y = vm["main"](x)
        print("first", counters(), y.shape, y.device)
        y2 = vm["main"](x)
        print("second", counters())
        del y, y2
        gc.collect()
        print("results freed", counters()[0])
        del vm, ex
        gc.collect()
        print("library freed", counters()[0])
        """)
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert lines["input"] == "[1, 0, 1, 0, 0]", out
    live, ordered, copies, launches, threshold = eval(lines["first"].split("]")[0] + "]")
    assert (live, copies, threshold) == (1 + 1 + 3, 1 + 3, -1), out
    # Fused as relax's default pipeline fuses (tvm.compile runs it): the
    # first matmul with its bias and ReLU, the second, the softmax; the
    # two intermediates between them.
    assert (ordered, launches) == (2, 3), out
    assert lines["first"].endswith("(4, 32) cuda(0)"), out
    again = eval(lines["second"])
    assert again == [live + 1, 2 * ordered, copies, 2 * launches, -1], out
    assert lines["results"] == "freed 4", out
    assert lines["library"] == "freed 1", out


def test_the_device_must_match_the_build():
    mod, _ = mlp()
    gpu = tvm.compile(mod, target="cuda")
    with pytest.raises(ValueError, match=r"built for a GPU \(cuda\); run it on one"):
        relax.VirtualMachine(gpu, tvm.cpu(0))
    cpu = tvm.compile(mod, target="llvm")
    with pytest.raises(ValueError, match="built for the CPU; build it for the GPU"):
        relax.VirtualMachine(cpu, tvm.cuda(0))
    with pytest.raises(ValueError, match="a graph function runs on one GPU"):
        relax.VirtualMachine(gpu, [tvm.cuda(0), tvm.cuda(1)])


def test_host_arrays_are_refused_on_the_fake_driver():
    """A GPU build's graph function takes arrays in GPU memory, as its
    prim_funcs do (TVM's VM would hand host memory to the kernels)."""
    out = run_with_driver("""
        from tensorir import relax
        sys.path.insert(0, %r)
        from test_cuda_graph import mlp
        vm = relax.VirtualMachine(tvm.compile(mlp()[0], target="cuda"), tvm.cuda(0))
        try:
            vm["main"](np.ones((4, 64), "float32"))
        except Exception as e:
            print(type(e).__name__, e)
        """ % os.path.dirname(os.path.abspath(__file__)))
    assert "argument 0 ('x') of 'main': is on cpu(0); the function runs on a CUDA GPU" in out


def test_packed_calls_are_refused_in_a_gpu_build():
    from tensorir.script import relax as R

    @tvm.script.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")):
            with R.dataflow():
                y = R.call_dps_packed("my_func", (x,), out_sinfo=R.Tensor((4,), "float32"))
                R.output(y)
            return y

    with pytest.raises(Exception, match="calls a packed function .* packed functions are "
                                        "called on CPU builds only"):
        tvm.compile(Module, target="cuda")


@pytest.mark.skipif(not HAVE_GPU, reason="needs an NVIDIA GPU")
def test_mlp_on_the_gpu():
    mod, weights = mlp()
    vm = relax.VirtualMachine(tvm.compile(mod, target="cuda"), tvm.cuda(0))
    x = np.random.default_rng(1).standard_normal((4, 64)).astype("float32")
    for _ in range(2):  # the second call reuses the constants' copies
        y = vm["main"](tvm.nd.array(x, tvm.cuda(0)))
        np.testing.assert_allclose(y.numpy(), reference(x, weights), rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(not HAVE_GPU, reason="needs an NVIDIA GPU")
def test_resnet18_on_the_gpu_matches_pytorch():
    torch = pytest.importorskip("torch")
    torchvision = pytest.importorskip("torchvision")
    if not hasattr(torch, "export"):
        pytest.skip("needs torch >= 2 (torch.export)")
    from tensorir.relax.frontend.torch import from_exported_program
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    mod = from_exported_program(torch.export.export(model, (x,)))
    vm = relax.VirtualMachine(tvm.compile(mod, target="cuda"), tvm.cuda(0))
    out = vm["main"](tvm.nd.array(x.numpy(), tvm.cuda(0)))
    out = out[0] if isinstance(out, (tuple, list, tvm.ir.Array)) else out
    with torch.no_grad():
        expected = model(x).numpy()
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-3, atol=1e-3)


def dynamic_batch():
    """relu(x @ W) and twice it, for x of n rows (a shape variable), as a
    tuple."""
    bb = relax.BlockBuilder()
    n = tvm.tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 16), "float32"))
    w = relax.const(np.ones((16, 8), "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit(relax.op.nn.relu(relax.op.matmul(x, w)))
            z = bb.emit(relax.op.add(y, y))
            gv = bb.emit_output(relax.Tuple([z, y]))
        bb.emit_func_output(gv)
    return bb.get()


def test_dynamic_shapes_on_the_fake_driver(tmp_path):
    """A shape variable sizes the intermediates (gpu.alloc of dynamic
    sizes) and the results; dlight's Fallback binds the dynamic loops.
    Fused as static shapes are: matmul and ReLU one function, whose two
    kernels pass the product through GPU memory the function allocates
    (a stream-ordered allocation of its own), then the add."""
    path = str(tmp_path / "dynamic.so")
    ex = tvm.compile(dynamic_batch(), target="cuda")
    assert "@fused_matmul_relu(" in ex.get_source()
    ex.export_library(path)
    out = run_with_driver(f"""
        from tensorir import relax
        counters = lambda: fake_counters(4)
        vm = relax.VirtualMachine(tvm.runtime.load_module({path!r}), tvm.cuda(0))
        for n in (5, 300):
            x = tvm.nd.array(np.ones((n, 16), "float32"), tvm.cuda(0))
            before = counters()
            z, y = vm["main"](x)
            after = counters()
            print(n, z.shape, y.shape, z.device, [a - b for a, b in zip(after, before)])
        """)
    # Per call: three stream-ordered allocations (the two results and the
    # fused function's product, which it frees), three launches. The
    # first call also copies the weight (live: the results and the copy);
    # at the second, the first call's results are freed as the new ones
    # replace them.
    assert "5 (5, 8) (5, 8) cuda(0) [3, 3, 1, 3]" in out, out
    assert "300 (300, 8) (300, 8) cuda(0) [0, 3, 0, 3]" in out, out


def test_arrays_on_another_gpu_than_the_vm_are_refused():
    out = run_with_driver("""
        from tensorir import relax
        sys.path.insert(0, %r)
        from test_cuda_graph import mlp
        vm = relax.VirtualMachine(tvm.compile(mlp()[0], target="cuda"), tvm.cuda(1))
        try:
            vm["main"](tvm.nd.array(np.ones((4, 64), "float32"), tvm.cuda(0)))
        except ValueError as e:
            print(e)
        """ % os.path.dirname(os.path.abspath(__file__)), FAKE_CUDA_DEVICES=2)
    assert "argument 0 of 'main' is on cuda(0); the VirtualMachine runs on cuda(1)" in out


def test_timing_a_gpu_virtual_machine_on_the_fake_driver():
    """vm.time_evaluator on a GPU times the function with device events
    (the stand-in driver's events say 1 ms for the calls they bracket)."""
    out = run_with_driver("""
        from tensorir import relax
        sys.path.insert(0, %r)
        from test_cuda_graph import mlp
        vm = relax.VirtualMachine(tvm.compile(mlp()[0], target="cuda"), tvm.cuda(0))
        x = tvm.nd.array(np.ones((4, 64), "float32"), tvm.cuda(0))
        timing = vm.time_evaluator("main", tvm.cuda(0), number=4, repeat=2)(x)
        print("runs", len(timing.results), timing.mean > 0)
        """ % os.path.dirname(os.path.abspath(__file__)))
    assert "runs 2 True" in out, out


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
