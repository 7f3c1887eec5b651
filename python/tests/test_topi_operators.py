"""topi's operators emitted as prim_funcs (BlockBuilder.emit_te / call_te),
built and run against numpy, and FuseOps / FuseTIR on what they make:
TVM's groups (a convolution with the element-wise work after it, branches
that meet again) computing what the unfused module computes."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax, topi
from tensorir.script import relax as R

RNG = np.random.default_rng(11)


def _run(mod, *args):
    ex = tvm.compile(mod, "llvm")
    out = relax.VirtualMachine(ex, tvm.cpu())["main"](*args)
    return [o.numpy() for o in out] if isinstance(out, (list, tuple)) else out.numpy()


def _one_op(shapes, f, param_dtype="float32", **kwargs):
    """A module whose main emits te function `f` on parameters of `shapes`."""
    bb = relax.BlockBuilder()
    params = [relax.Var(f"x{k}", R.Tensor(list(s), param_dtype))
              for k, s in enumerate(shapes)]
    with bb.function("main", params):
        with bb.dataflow():
            out = bb.emit_output(bb.call_te(f, *params, **kwargs))
        bb.emit_func_output(out)
    return bb.get()


def _data(*shape, dtype="float32"):
    return RNG.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("name, shapes, f, kwargs, reference", [
    ("squeeze", [(1, 3, 1, 4)], topi.squeeze, {}, lambda a: a.squeeze()),
    ("squeeze_axis", [(1, 3, 1, 4)], topi.squeeze, {"axis": [2]}, lambda a: a.squeeze(2)),
    ("transpose", [(2, 3, 4)], topi.transpose, {"axes": [2, 0, 1]},
     lambda a: a.transpose(2, 0, 1)),
    ("broadcast_to", [(3, 1)], topi.broadcast_to, {"shape": (2, 3, 4)},
     lambda a: np.broadcast_to(a, (2, 3, 4))),
    ("cast", [(3, 4)], topi.cast, {"dtype": "float16"}, lambda a: a.astype("float16")),
    ("trilu", [(4, 5)], topi.trilu, {"k": 1, "upper": True}, lambda a: np.triu(a, 1)),
    ("sum", [(3, 4, 5)], topi.sum, {"axis": [0, 2], "keepdims": True},
     lambda a: a.sum(axis=(0, 2), keepdims=True)),
    ("matmul", [(3, 4), (5, 4)], topi.matmul, {"transp_b": True}, lambda a, b: a @ b.T),
])
def test_operator_matches_numpy(name, shapes, f, kwargs, reference):
    args = [_data(*s) for s in shapes]
    np.testing.assert_allclose(_run(_one_op(shapes, f, **kwargs), *args), reference(*args),
                               rtol=1e-5, atol=1e-5)


def test_concatenate_and_split():
    a, b = _data(2, 3), _data(2, 5)
    mod = _one_op([(2, 3), (2, 5)], lambda x, y: topi.concatenate((x, y), axis=1))
    joined = _run(mod, a, b)
    np.testing.assert_allclose(joined, np.concatenate([a, b], axis=1))
    parts = _run(_one_op([(2, 8)], topi.split, indices_or_sections=[3], axis=1), joined)
    np.testing.assert_allclose(parts[0], a)
    np.testing.assert_allclose(parts[1], b)
    with pytest.raises(ValueError, match=r"topi.split: indices \[3\] do not split 2 elements"):
        _one_op([(2, 8)], topi.split, indices_or_sections=[3])


def test_full_and_left_shift():
    x = np.arange(6, dtype="int32").reshape(2, 3)
    mod = _one_op([(2, 3)], lambda a: topi.left_shift(a, topi.full((2, 3), "int32", 2)),
                  param_dtype="int32")
    np.testing.assert_array_equal(_run(mod, x), x << 2)


def _conv2d_reference(x, w, stride, pad):
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, f, oh, ow), "float32")
    for i in range(oh):
        for j in range(ow):
            window = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, :, i, j] = np.tensordot(window, w, axes=([1, 2, 3], [1, 2, 3]))
    return out


def test_conv2d_pool2d_upsampling():
    x, w = _data(1, 3, 8, 8), _data(4, 3, 3, 3)
    conv = _one_op([(1, 3, 8, 8), (4, 3, 3, 3)], topi.nn.conv2d, strides=2, padding=1,
                   dilation=1)
    np.testing.assert_allclose(_run(conv, x, w), _conv2d_reference(x, w, 2, 1), rtol=1e-4,
                               atol=1e-5)
    pool = _one_op([(1, 3, 8, 8)], topi.nn.pool2d, kernel=(2, 2), stride=(2, 2),
                   dilation=(1, 1), padding=(0, 0, 0, 0), pool_type="max")
    np.testing.assert_allclose(_run(pool, x), x.reshape(1, 3, 4, 2, 4, 2).max(axis=(3, 5)))
    up = _one_op([(1, 3, 8, 8)], topi.nn.upsampling, scale_h=2.0, scale_w=2.0)
    np.testing.assert_allclose(_run(up, x), x.repeat(2, axis=2).repeat(2, axis=3))


def _conv_block():
    """TVM's FuseOps example: conv2d, then a scalar add of it and its sum
    with that (a diamond), then two convolutions of the result."""
    bb = relax.BlockBuilder()
    x = relax.Var("x", R.Tensor((1, 4, 8, 8), "float32"))
    w1 = relax.Var("w1", R.Tensor((4, 4, 3, 3), "float32"))
    w2 = relax.Var("w2", R.Tensor((4, 4, 1, 1), "float32"))
    with bb.function("main", [x, w1, w2]):
        with bb.dataflow():
            lv0 = bb.emit_te(topi.add, x, relax.const(1, "float32"))
            lv1 = bb.emit_te(topi.nn.conv2d, lv0, w1, strides=1, padding=1, dilation=1)
            lv2 = bb.emit_te(topi.add, relax.const(1, "float32"), lv1)
            lv3 = bb.emit_te(topi.add, lv1, lv2)
            lv4 = bb.emit_te(topi.nn.conv2d, lv3, w2, strides=1, padding=0, dilation=1)
            gv = bb.emit_output(bb.call_te(topi.nn.relu, lv4))
        bb.emit_func_output(gv)
    return bb.get()


def test_fuse_ops_groups_a_convolution_with_the_diamond_after_it():
    mod = relax.transform.AnnotateTIROpPattern()(_conv_block())
    grouped = relax.transform.FuseOps()(mod)
    names = grouped.function_names()
    # The add before the first convolution stays apart (element-wise work
    # does not join a matmul-like step after it).
    assert "fused_conv2d_add1_add2" in names and "fused_conv2d1_relu" in names, names
    text = grouped.script()
    assert text.count('R.func_attr({"Primitive": True})') == 2
    fused = relax.transform.FuseTIR()(grouped)
    assert fused.function_names() == ["add", "fused_conv2d_add1_add2",
                                       "fused_conv2d1_relu", "main"]
    x, w1, w2 = _data(1, 4, 8, 8), _data(4, 4, 3, 3), _data(4, 4, 1, 1)
    expected = _run(mod, x, w1, w2)
    for m in (grouped, fused):
        np.testing.assert_allclose(_run(m, x, w1, w2), expected, rtol=1e-5, atol=1e-5)


def test_fuse_ops_leaves_operators_not_legalized_and_fuse_tir_leaves_other_functions():
    bb = relax.BlockBuilder()
    x = relax.Var("x", R.Tensor((4, 4), "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            lv = bb.emit(relax.op.exp(x))
            gv = bb.emit_output(relax.op.add(lv, x))
        bb.emit_func_output(gv)
    mod = bb.get()
    assert relax.transform.FuseOps()(mod).function_names() == ["main"]
    assert relax.transform.FuseTIR()(mod).function_names() == ["main"]
