"""Graph level: relax's reductions (sum, mean, max, min, prod, variance,
std), layout operators (broadcast_to, strided_slice, concat, tile, flip,
split, stack, expand_dims, squeeze), take, the tensor makers (full, zeros,
ones, arange) and the operators made of others (nn.log_softmax,
nn.layer_norm): built, printed and parsed back to the same module, run
against numpy; refusals name the operator and the rule."""
import re

import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax
from tensorir.relax import op as R
from tensorir.script import from_source

from relax_helpers import graph, run


def check(mod, args, expected):
    again = from_source(mod.script(show_meta=True))
    tvm.ir.assert_structural_equal(mod, again)
    out = run(mod, *args)
    outs = [o.numpy() for o in out] if isinstance(expected, list) else [out.numpy()]
    for o, e in zip(outs, expected if isinstance(expected, list) else [expected]):
        assert o.shape == np.shape(e)
        np.testing.assert_allclose(o, e, rtol=1e-5, atol=1e-6)


X = np.random.default_rng(0).standard_normal((2, 3, 4)).astype("float32")


@pytest.mark.parametrize("name,reference", [("sum", np.sum), ("mean", np.mean),
                                            ("max", np.max), ("min", np.min),
                                            ("prod", np.prod), ("variance", np.var),
                                            ("std", np.std)])
@pytest.mark.parametrize("axis,keepdims", [(None, False), ([1], True), ([0, 2], False),
                                           (-1, False)])
def test_reductions(name, reference, axis, keepdims):
    mod = graph([((2, 3, 4), "float32")],
                lambda x: getattr(R, name)(x, axis=axis, keepdims=keepdims))
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    check(mod, [X], reference(X, axis=np_axis, keepdims=keepdims))


def test_integer_reductions_and_refusals():
    xi = np.arange(-6, 6, dtype="int32").reshape(3, 4)
    mod = graph([((3, 4), "int32")], lambda x: [R.sum(x, [1]), R.max(x, [0]), R.min(x)])
    check(mod, [xi], [xi.sum(1), xi.max(0), xi.min()])
    x = relax.Var("x", relax.TensorStructInfo((3, 4), "int32"))
    with pytest.raises(TypeError, match=r"relax\.op\.mean: takes floating-point tensors, "
                                        r"not int32"):
        R.mean(x)
    with pytest.raises(ValueError, match=r"relax\.op\.sum: axis 2 is outside 2 dimensions"):
        R.sum(x, [2])
    with pytest.raises(ValueError, match=r"relax\.op\.sum: axes \[1, -1\] repeat an axis"):
        R.sum(x, [1, -1])


def test_layouts():
    mod = graph([((2, 3, 4), "float32")], lambda x: [
        R.broadcast_to(R.sum(x, [1], keepdims=True), (5, 2, 3, 4)),
        R.strided_slice(x, [1, 2], [0, -1], [2, -5], [1, -2]),
        R.strided_slice(x, [2], [1], [100]),
        R.tile(x, [2, 1, 3]),
        R.tile(x, [2, 1, 1, 1]),
        R.flip(x, 1),
        R.expand_dims(x, [0, -1]),
        R.squeeze(R.expand_dims(x, 1)),
    ])
    check(mod, [X], [np.broadcast_to(X.sum(1, keepdims=True), (5, 2, 3, 4)),
                     X[:, 0:2, -1:-5:-2], X[:, :, 1:], np.tile(X, [2, 1, 3]),
                     np.tile(X, [2, 1, 1, 1]), X[:, ::-1], X[None, ..., None], X])


def test_concat_split_and_stack():
    y = np.random.default_rng(1).standard_normal((2, 1, 4)).astype("float32")
    mod = graph([((2, 3, 4), "float32"), ((2, 1, 4), "float32")], lambda x, z: [
        R.concat([x, z, x], axis=1), R.concat((z,), axis=-1),
        R.stack([x, x], axis=3)] + list(R.split(x, [1, 2], axis=1).fields)
        + list(R.split(x, 2, axis=2).fields))
    check(mod, [X, y], [np.concatenate([X, y, X], 1), y, np.stack([X, X], 3)]
          + np.split(X, [1, 2], axis=1) + np.split(X, 2, axis=2))
    a = relax.Var("a", relax.TensorStructInfo((2, 3), "float32"))
    b = relax.Var("b", relax.TensorStructInfo((3, 3), "float32"))
    with pytest.raises(ValueError, match=r"relax\.op\.concat: tensor 1 of shape \(3, 3\) "
                                         r"does not fit \(2, 3\) off axis 1"):
        R.concat([a, b], axis=1)
    with pytest.raises(ValueError, match=r"relax\.op\.split: axis 0 of size 2 does not "
                                         r"split into 3 equal parts"):
        R.split(a, 3)


@pytest.mark.parametrize("mode", ["fast", "clip", "wrap"])
def test_take_gathers_with_indices_kept_inside(mode):
    indices = np.array([[0, 4], [-1, 2]], "int64")
    table = np.arange(15, dtype="float32").reshape(5, 3)
    mod = graph([((5, 3), "float32"), ((2, 2), "int64")], lambda x, i: [
        R.take(x, i, axis=0, mode=mode), R.take(x, i, axis=1, mode=mode),
        R.take(x, relax.const(2, "int64"), axis=0), R.take(x, i, mode=mode)])
    fix = (lambda i, n: np.mod(i, n)) if mode == "wrap" else \
        (lambda i, n: np.clip(i, 0, n - 1))
    check(mod, [table, indices], [table[fix(indices, 5)], table[:, fix(indices, 3)],
                                  table[2], table.reshape(-1)[fix(indices, 15)]])
    x = relax.Var("x", relax.TensorStructInfo((5, 3), "float32"))
    with pytest.raises(TypeError, match=r"relax\.op\.take: the indices hold float32"):
        R.take(x, x, axis=0)


def test_makers_and_composite_operators():
    mod = graph([((2, 3, 4), "float32")], lambda x: [
        R.full((2, 2), 1.5), R.zeros((3,), "int32"), R.ones_like(x),
        R.full_like(x, relax.const(7, "int32")), R.arange(1, 10, 3, "float32"),
        R.nn.log_softmax(x, axis=1),
        R.nn.layer_norm(x, relax.const(np.full(4, 2.0, "float32")),
                        relax.const(np.full(4, 0.5, "float32")), [-1], 1e-5)])
    shifted = X - X.max(1, keepdims=True)
    normalized = (X - X.mean(-1, keepdims=True)) / np.sqrt(X.var(-1, keepdims=True) + 1e-5)
    check(mod, [X], [np.full((2, 2), 1.5), np.zeros(3, "int32"), np.ones_like(X),
                     np.full_like(X, 7), np.arange(1, 10, 3, dtype="float32"),
                     shifted - np.log(np.exp(shifted).sum(1, keepdims=True)),
                     normalized * 2 + 0.5])
    with pytest.raises(ValueError, match=r"relax\.op\.arange: arange\(3, 1, 1\) is empty"):
        R.arange(3, 1)


def test_an_untuned_models_constant_weights_are_laid_out_for_its_kernels():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 3, 10, 10)).astype("float32")
    w = rng.standard_normal((64, 3, 3, 3)).astype("float32")
    d = rng.standard_normal((48, 64)).astype("float32")
    mod = graph([((1, 3, 10, 10), "float32")],
                lambda v: R.matmul(R.mean(R.nn.relu(R.nn.conv2d(v, relax.const(w), padding=1)),
                                          axis=[2, 3]),
                                   R.permute_dims(relax.const(d))))
    built = tvm.compile(mod, "llvm")
    text = built._source.script()
    # The convolution reads its weight in tiles of 32 output channels, each
    # contiguous, as relax.transform.RewriteWeightLayouts lays it out (the
    # matmul's folded transpose, [64, 48], has its columns last already and
    # no whole tiles of them), and vectorizes along them.
    assert re.search(r'T\.Buffer\(\(2, 3, 3, 3, 32\), "float32"\)', text), text
    assert "T.vectorized(32)" in text
    with tvm.transform.PassContext(config={"relax.default_cpu_schedule": False}):
        naive = tvm.compile(mod, "llvm")
    assert "(2, 3, 3, 3, 32)" not in naive._source.script()
    got = relax.VirtualMachine(built, tvm.cpu())["main"](x).numpy()
    want = relax.VirtualMachine(naive, tvm.cpu())["main"](x).numpy()
    conv = np.zeros((1, 64, 10, 10), "float32")
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    for r in range(3):
        for s in range(3):
            conv += np.einsum("nchw,fc->nfhw", padded[:, :, r:r + 10, s:s + 10], w[:, :, r, s])
    np.testing.assert_allclose(want, np.maximum(conv, 0).mean((2, 3)) @ d.T, rtol=1e-4,
                               atol=1e-4)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_rewrite_weight_layouts_moves_only_constant_weights():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 8)).astype("float32")
    w = rng.standard_normal((64, 8)).astype("float32")

    def shapes(mod):
        return sorted(tuple(int(d) for d in b.shape) for _, f in mod.functions_items()
                      if isinstance(f, tvm.tir.PrimFunc) for b in f.buffer_map.values())

    def legalized(mod):
        return relax.transform.FoldConstant()(relax.transform.LegalizeOps()(mod))

    # A constant weight (the transpose folded: [8, 64]) in tiles of 32
    # columns.
    const = legalized(graph([((4, 8), "float32")],
                            lambda v: R.matmul(v, R.permute_dims(relax.const(w)))))
    moved = relax.transform.RewriteWeightLayouts()(const)
    assert (2, 8, 32) in shapes(moved) and (8, 64) not in shapes(moved), shapes(moved)
    with tvm.transform.PassContext(config={"relax.default_cpu_schedule": False}):
        got = relax.VirtualMachine(tvm.compile(moved, "llvm"), tvm.cpu())["main"](x)
    np.testing.assert_allclose(got.numpy(), x @ w.T, rtol=1e-4, atol=1e-5)
    # A matmul that a call also passes a parameter's transpose keeps its
    # layout: the weight's layout is the callee's, for every call.
    shared = legalized(graph([((4, 8), "float32"), ((64, 8), "float32")],
                             lambda v, p: R.add(R.matmul(v, R.permute_dims(relax.const(w))),
                                                R.matmul(v, R.permute_dims(p)))))
    assert shapes(relax.transform.RewriteWeightLayouts()(shared)) == shapes(shared)


def test_an_untuned_model_gets_the_default_cpu_schedule():
    x = np.random.default_rng(2).standard_normal((1, 3, 16, 16)).astype("float32")
    w = relax.const(np.random.default_rng(3).standard_normal((8, 3, 3, 3)).astype("float32"))
    mod = graph([((1, 3, 16, 16), "float32")],
                lambda d: R.nn.relu(R.nn.conv2d(d, w, padding=1)))
    built = tvm.compile(mod, "llvm")
    text = built._source.script()  # what was built
    assert "T.parallel" in text and "T.vectorized" in text
    with tvm.transform.PassContext(config={"relax.default_cpu_schedule": False}):
        naive = tvm.compile(mod, "llvm")
    assert "T.parallel" not in naive._source.script()
    got = relax.VirtualMachine(built, tvm.cpu())["main"](x).numpy()
    want = relax.VirtualMachine(naive, tvm.cpu())["main"](x).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
