"""relax's nn.attention kept whole in the graph (a tir.composite, printed
as R.nn.attention / R.nn.attention_bias) until LegalizeOps replaces it by
its parts; on a GPU target, DispatchAttention (the default pipeline's
library dispatch) makes it one fused kernel instead. Checked against
numpy in float64 on the CPU; the fused kernel with its thread loops made
serial (a check of the values it computes, not of races), and built for
CUDA through ptxas."""
import os

import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax
from tensorir.relax.backend import DispatchAttention, attention_kernel, schedule_attention
from test_cuda import serial_on_cpu

HAVE_PTXAS = os.path.exists("/usr/local/cuda/bin/ptxas")
RNG = np.random.default_rng(7)


def reference(q, k, v, bias=None, scale=None, causal_mask=None):
    """numpy's attention over (batch, sequence, heads, features), float64."""
    q, k, v = (x.astype("float64").transpose(0, 2, 1, 3) for x in (q, k, v))
    scores = q @ k.transpose(0, 1, 3, 2) * (scale or 1 / np.sqrt(q.shape[-1]))
    if bias is not None:
        b, h, s, t = scores.shape
        scores = scores + (bias if bias.shape == (b, h, s, t)
                           else np.broadcast_to(bias, (b * h, s, t)).reshape(b, h, s, t))
    if causal_mask is not None:
        s, t = scores.shape[-2:]
        offset = 0 if causal_mask == "TopLeft" else t - s
        scores = np.where(np.arange(t)[None, :] <= np.arange(s)[:, None] + offset, scores,
                          -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3)


def module(q_shape, k_shape, v_shape, dtype="float32", bias_shape=None, **attrs):
    """main(q, k, v[, bias]) = R.nn.attention(...)."""
    params = [relax.Var(n, relax.TensorStructInfo(s, dtype))
              for n, s in (("q", q_shape), ("k", k_shape), ("v", v_shape))]
    if bias_shape is not None:
        params.append(relax.Var("bias", relax.TensorStructInfo(bias_shape, dtype)))
    bb = relax.BlockBuilder()
    with bb.function("main", params):
        with bb.dataflow():
            out = bb.emit_output(relax.op.nn.attention(*params[:3], *params[3:], **attrs))
        bb.emit_func_output(out)
    return bb.get()


def test_attention_is_one_operator_until_legalized():
    mod = module((1, 8, 2, 16), (1, 12, 2, 16), (1, 12, 2, 8), scale=0.25,
                 causal_mask="BottomRight")
    text = mod.script()
    assert text.count("R.nn.attention(") == 1
    assert "R.matmul" not in text and "R.nn.softmax" not in text
    assert "tir.composite \"nn.attention\"" in mod.mlir()
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(text))
    legal = relax.transform.LegalizeOps()(mod)
    assert "tir.composite" not in legal.mlir()
    assert {"batch_matmul", "softmax"} <= set(legal.function_names())


def test_attention_bias_prints_as_attention_bias():
    mod = module((1, 4, 2, 8), (1, 4, 2, 8), (1, 4, 2, 8), bias_shape=(1, 2, 4, 4))
    text = mod.script()
    assert text.count("R.nn.attention_bias(") == 1
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(text))


@pytest.mark.parametrize("case", [
    dict(),
    dict(scale=0.3),
    dict(causal_mask="TopLeft"),
    dict(causal_mask="BottomRight", keys=9),
    dict(bias_shape=(2, 3, 5, 7)),
    dict(bias_shape=(5, 7)),
])
def test_attention_computes_what_numpy_does_on_cpu(case):
    case = dict(case)
    keys = case.pop("keys", 7)
    shapes = [(2, 5, 3, 4), (2, keys, 3, 4), (2, keys, 3, 6)]
    bias_shape = case.pop("bias_shape", None)
    mod = module(*shapes, bias_shape=bias_shape, **case)
    args = [RNG.standard_normal(s).astype("float32") for s in shapes]
    if bias_shape is not None:
        args.append(RNG.standard_normal(bias_shape).astype("float32"))
    got = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())["main"](*args).numpy()
    bias = args[3] if bias_shape is not None else None
    np.testing.assert_allclose(got, reference(*args[:3], bias, **case), rtol=1e-5, atol=1e-6)


def test_attention_of_symbolic_sequence_lengths_on_cpu():
    shapes = [(1, "s", 2, 8), (1, "t", 2, 8), (1, "t", 2, 8)]
    mod = module(*shapes)
    assert "R.nn.attention(" in mod.script()
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    for s, t in ((3, 5), (6, 2)):
        args = [RNG.standard_normal(shape).astype("float32")
                for shape in ((1, s, 2, 8), (1, t, 2, 8), (1, t, 2, 8))]
        np.testing.assert_allclose(vm["main"](*args).numpy(), reference(*args), rtol=1e-5,
                                   atol=1e-6)


def test_attention_refuses_what_does_not_fit():
    q = relax.Var("q", relax.TensorStructInfo((1, 4, 2, 8), "float32"))
    k = relax.Var("k", relax.TensorStructInfo((1, 4, 2, 6), "float32"))
    with pytest.raises(ValueError, match="relax.op.nn.attention: query .* do not fit"):
        relax.op.nn.attention(q, k, k)
    with pytest.raises(ValueError, match="causal_mask 'Left' is not"):
        relax.op.nn.attention(q, q, q, causal_mask="Left")
    bias = relax.Var("b", relax.TensorStructInfo((3, 4, 4), "float32"))
    with pytest.raises(ValueError, match="bias \\(3, 4, 4\\) is neither"):
        relax.op.nn.attention(q, q, q, bias)


def dispatched(mod, target="cuda"):
    return DispatchAttention(tvm.target.Target(target))(mod)


@pytest.mark.parametrize("dtype, tolerance", [("float16", 2e-3), ("float32", 1e-5)])
@pytest.mark.parametrize("case", [dict(), dict(causal_mask="TopLeft", scale=0.2),
                                  dict(bias_shape=(1, 2, 8, 64))])
def test_gpu_dispatch_makes_one_kernel_that_computes_attention(dtype, tolerance, case):
    case = dict(case)
    shapes = [(1, 8, 2, 32), (1, 64, 2, 32), (1, 64, 2, 32)]
    bias_shape = case.pop("bias_shape", None)
    mod = dispatched(module(*shapes, dtype=dtype, bias_shape=bias_shape, **case))
    assert "tir.composite" not in mod.mlir()
    assert mod._native.call_tir_callees("main") == ["attention"]
    kernel = mod["attention"]
    assert "thread_binding<\"blockIdx.x\">" in kernel.script() or \
        "T.thread_binding" in kernel.script()
    # The kernel alone, its thread loops serial, on the CPU.
    args = [RNG.standard_normal(s).astype(dtype) for s in shapes]
    if bias_shape is not None:
        args.append(RNG.standard_normal(bias_shape).astype(dtype))
    public = kernel.with_attr("global_symbol", "attention")
    lib = tvm.build(serial_on_cpu(tvm.IRModule({"attention": public})), target="llvm")
    out = tvm.nd.array(np.full((1, 8, 2, 32), np.nan, dtype))
    lib["attention"](*(tvm.nd.array(a) for a in args), out)
    want = reference(*args[:3], args[3] if bias_shape else None, **case)
    err = np.linalg.norm(out.numpy().astype("float64") - want) / np.linalg.norm(want)
    assert err < tolerance


def kernel_on_cpu(mod, args, out_shape, dtype="float32"):
    """The dispatched kernel of `mod` run on `args` on the CPU, its thread
    loops serial."""
    public = mod["attention"].with_attr("global_symbol", "attention")
    lib = tvm.build(serial_on_cpu(tvm.IRModule({"attention": public})), target="llvm")
    out = tvm.nd.array(np.zeros(out_shape, dtype))
    lib["attention"](*(tvm.nd.array(a) for a in args), out)
    return out.numpy()


def test_gpu_dispatch_of_one_query_a_block_of_one_row():
    # Decoding: one query against the keys so far; a block takes one row.
    shapes = [(2, 1, 2, 32), (2, 96, 2, 32), (2, 96, 2, 32)]
    mod = dispatched(module(*shapes))
    assert mod._native.call_tir_callees("main") == ["attention"]
    args = [RNG.standard_normal(s).astype("float32") for s in shapes]
    np.testing.assert_allclose(kernel_on_cpu(mod, args, (2, 1, 2, 32)), reference(*args),
                               rtol=1e-5, atol=1e-6)


def test_gpu_kernel_masks_as_the_parts_do():
    # BottomRight with more queries than keys: the first rows see no key,
    # NaN in the kernel as in the legalized parts (and numpy).
    shapes = [(1, 40, 1, 32), (1, 32, 1, 32), (1, 32, 1, 32)]
    args = [RNG.standard_normal(s).astype("float32") for s in shapes]
    mod = module(*shapes, causal_mask="BottomRight")
    parts = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())["main"](*args).numpy()
    fused = kernel_on_cpu(dispatched(mod), args, (1, 40, 1, 32))
    with np.errstate(invalid="ignore"):
        want = reference(*args, causal_mask="BottomRight")
    np.testing.assert_array_equal(np.isnan(fused), np.isnan(want))
    np.testing.assert_array_equal(np.isnan(parts), np.isnan(want))
    seen = ~np.isnan(want)
    np.testing.assert_allclose(fused[seen], want[seen], rtol=1e-5, atol=1e-6)


def test_gpu_dispatch_is_for_cuda_targets():
    shapes = [(1, 8, 2, 32), (1, 64, 2, 32), (1, 64, 2, 32)]
    assert "tir.composite" in dispatched(module(*shapes), "rocm").mlir()


@pytest.mark.parametrize("shapes, why", [
    ([(1, "s", 2, 32), (1, "s", 2, 32), (1, "s", 2, 32)], "symbolic"),
    ([(1, 8, 2, 32), (1, 40, 2, 32), (1, 40, 2, 32)], "keys not whole warps"),
    ([(1, 8, 2, 16), (1, 64, 2, 16), (1, 64, 2, 16)], "features not whole warps"),
    ([(1, 8, 2, 32), (1, 8192, 2, 32), (1, 8192, 2, 32)], "a row's scores over 48 KiB"),
])
def test_gpu_dispatch_leaves_what_the_kernel_does_not_take(shapes, why):
    mod = dispatched(module(*shapes))
    assert "tir.composite" in mod.mlir(), why
    assert mod.function_names() == ["main"]


def test_dispatch_is_a_gpu_pipeline_step_only():
    from tensorir.relax.pipeline import library_dispatch_passes
    assert library_dispatch_passes("llvm") == []
    assert [type(p).__name__ for p in library_dispatch_passes("cuda")] == \
        ["SimplifyLayouts", "DispatchAttention"]


def test_kernel_reads_and_writes_pytorchs_layout_and_is_not_fused():
    # PyTorch's attention (batch, heads, sequence, features) reaches
    # nn.attention through permute_dims, and its result goes back through
    # one: the kernel reads and writes that layout, the permutes go, and
    # the pipeline's FuseOps leaves the scheduled kernel whole.
    q = relax.Var("q", relax.TensorStructInfo((1, 2, 32, 32), "float32"))
    k = relax.Var("k", relax.TensorStructInfo((1, 2, 64, 32), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [q, k]):
        with bb.dataflow():
            x = bb.emit(relax.op.permute_dims(q, [0, 2, 1, 3]))
            y = bb.emit(relax.op.permute_dims(k, [0, 2, 1, 3]))
            z = bb.emit(relax.op.nn.attention(x, y, y, causal_mask="BottomRight"))
            out = bb.emit_output(relax.op.permute_dims(z, [0, 2, 1, 3]))
        bb.emit_func_output(out)
    mod = relax.get_pipeline("zero")(dispatched(bb.get()))
    assert mod._native.call_tir_callees("main") == ["attention"]
    assert not tvm.tir.transform.is_unscheduled(mod["attention"])
    # The whole graph on the CPU, the kernel's thread loops serial.
    args = [RNG.standard_normal(s).astype("float32") for s in ((1, 2, 32, 32), (1, 2, 64, 32))]
    vm = relax.VirtualMachine(tvm.compile(serial_on_cpu(mod), "llvm"), tvm.cpu())
    got = vm["main"](*args).numpy()
    bshd = [a.transpose(0, 2, 1, 3) for a in args]
    want = reference(bshd[0], bshd[1], bshd[1], causal_mask="BottomRight").transpose(0, 2, 1, 3)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_tvm_compile_for_cuda_dispatches_attention():
    mod = module((2, 128, 4, 64), (2, 128, 4, 64), (2, 128, 4, 64), dtype="float16")
    source = tvm.compile(mod, target="cuda").get_source()
    # One kernel for the attention: no matmul or softmax kernels beside it.
    assert "attention" in source
    assert "matmul" not in source and "softmax" not in source


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas)")
def test_model_with_attention_assembles_with_ptxas(tmp_path):
    mod = module((2, 128, 4, 64), (2, 128, 4, 64), (2, 128, 4, 64), dtype="float16",
                 causal_mask="TopLeft")
    for arch in ("sm_80", "sm_90"):
        ex = relax.build(mod, target=f"cuda -arch={arch} -format=bin")
        ex.export_library(str(tmp_path / f"attention_{arch}.so"))


def test_schedule_attention_of_kernel_without_batch():
    # attention_kernel with batch 1: the schedule's output order is fixed.
    func = attention_kernel(1, 16, 64, 2, 32, 32, "float32")
    sch = schedule_attention(func, rows=4)
    q, k, v = (RNG.standard_normal(s).astype("float32")
               for s in ((1, 16, 2, 32), (1, 64, 2, 32), (1, 64, 2, 32)))
    lib = tvm.build(serial_on_cpu(sch.mod), target="llvm")
    out = tvm.nd.array(np.zeros((1, 16, 2, 32), "float32"))
    lib[lib.functions[0]](tvm.nd.array(q), tvm.nd.array(k), tvm.nd.array(v), out)
    np.testing.assert_allclose(out.numpy(), reference(q, k, v), rtol=1e-5, atol=1e-6)
