"""Graph level, high-level operators: relax.op.* on tensors (upstream linalg
in MLIR), printed as R.* and parsed back, legalized into prim_funcs when
built, and run against numpy and PyTorch (the seed's high-level MLP)."""
import numpy as np
import pytest

from tensorir import relax
from tensorir.script import from_source

from relax_helpers import graph as graph_of
from relax_helpers import run


build_run = run


def graph(shapes, body):
    return graph_of([(s, "float32") for s in shapes], body)


BINARY = [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
          ("divide", np.divide), ("maximum", np.maximum), ("minimum", np.minimum)]


@pytest.mark.parametrize("name,reference", BINARY)
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)),
                                    ((2, 3, 4), (3, 1))])
def test_broadcasting_binary(name, reference, shapes):
    mod = graph(shapes, getattr(relax.op, name))
    assert f"R.{name}(x0, x1)" in mod.script()
    a = np.random.rand(*shapes[0]).astype("float32") + 0.5
    b = np.random.rand(*shapes[1]).astype("float32") + 0.5
    np.testing.assert_allclose(build_run(mod, a, b).numpy(), reference(a, b), rtol=1e-6)


@pytest.mark.parametrize("case", ["matmul", "batch_matmul", "permute", "relu", "softmax0",
                                  "softmax", "reshape", "flatten"])
def test_operator(case):
    ops = relax.op
    table = {
        "matmul": ([(4, 6), (6, 5)], lambda a, b: ops.matmul(a, b), lambda a, b: a @ b),
        "batch_matmul": ([(2, 4, 6), (2, 6, 5)], lambda a, b: ops.matmul(a, b),
                         lambda a, b: a @ b),
        "permute": ([(2, 3, 4)], lambda a: ops.permute_dims(a, [2, 0, 1]),
                    lambda a: a.transpose(2, 0, 1)),
        "relu": ([(3, 4)], lambda a: ops.nn.relu(a), lambda a: np.maximum(a, 0)),
        "softmax0": ([(3, 4)], lambda a: ops.nn.softmax(a, axis=0),
                     lambda a: np.exp(a) / np.exp(a).sum(0, keepdims=True)),
        "softmax": ([(3, 4)], lambda a: ops.nn.softmax(a),
                    lambda a: np.exp(a) / np.exp(a).sum(1, keepdims=True)),
        "reshape": ([(2, 6)], lambda a: ops.reshape(a, (3, -1)), lambda a: a.reshape(3, 4)),
        "flatten": ([(2, 3, 2, 2)], lambda a: ops.flatten(a), lambda a: a.reshape(2, 12)),
    }
    shapes, body, reference = table[case]
    mod = graph(shapes, body)
    data = [np.random.rand(*s).astype("float32") - 0.5 for s in shapes]
    np.testing.assert_allclose(build_run(mod, *data).numpy(), reference(*data),
                               rtol=1e-5, atol=1e-6)
    parsed = from_source(mod.script(show_meta=True))
    assert parsed.mlir() == mod.mlir()


def test_graph_mlir_is_upstream_linalg():
    mod = graph([(1, 8), (4, 8)], lambda x, w: relax.op.linear(x, w))
    text = mod.mlir()
    assert "linalg.transpose ins(%arg1 : tensor<4x8xf32>)" in text
    assert "linalg.matmul ins(%arg0, %transposed : tensor<1x8xf32>, tensor<8x4xf32>)" in text


def test_operator_shape_errors_name_the_operator():
    x = relax.Var("x", relax.TensorStructInfo((3, 4), "float32"))
    y = relax.Var("y", relax.TensorStructInfo((5,), "float32"))
    with pytest.raises(ValueError, match=r"relax.op.add: shapes \(3, 4\) and \(5,\) do not "
                                         r"broadcast"):
        relax.op.add(x, y)
    with pytest.raises(ValueError, match=r"relax.op.matmul: shapes \(3, 4\) and \(3, 4\) do "
                                         "not multiply"):
        relax.op.matmul(x, x)
    with pytest.raises(ValueError, match="cannot reshape"):
        relax.op.reshape(x, (5, -1))
    with pytest.raises(ValueError, match="not a permutation"):
        relax.op.permute_dims(x, [0, 0])


torch = pytest.importorskip("torch", reason="PyTorch (Debian's python3-torch) is not installed")
fx = pytest.importorskip("torch.fx")
nn = torch.nn
from seed_fx import MLP, from_fx, map_param  # noqa: E402


def map_nn_relu_op(bb, node_map, node, nn_mod):
    A = node_map[node.args[0]]
    return bb.emit(relax.op.nn.relu(A))


def map_nn_linear_op(bb, node_map, node, nn_mod):
    x = node_map[node.args[0]]
    w = map_param(nn_mod.weight)
    if nn_mod.bias is not None:
        b = map_param(nn_mod.bias)
    return bb.emit(relax.op.linear(x, w, b))


def test_seed_mlp_high_level():
    torch.manual_seed(0)
    mlp = MLP()
    mod = from_fx(fx.symbolic_trace(mlp), input_shapes=[(1, 784)], call_function_map={},
                  call_module_map={torch.nn.Linear: map_nn_linear_op,
                                   torch.nn.ReLU: map_nn_relu_op})
    assert list(mod.functions) == ["main"]
    text = mod.script()
    for line in [
            'lv: R.Tensor((784, 128), dtype="float32") = '
            'R.permute_dims(metadata["relax.expr.Constant"][0], axes=[1, 0])',
            'lv1: R.Tensor((1, 128), dtype="float32") = R.matmul(x, lv, out_dtype="void")',
            'lv2: R.Tensor((1, 128), dtype="float32") = '
            'R.add(lv1, metadata["relax.expr.Constant"][1])',
            'lv3: R.Tensor((1, 128), dtype="float32") = R.nn.relu(lv2)',
            'lv4: R.Tensor((128, 10), dtype="float32") = '
            'R.permute_dims(metadata["relax.expr.Constant"][2], axes=[1, 0])',
            'lv5: R.Tensor((1, 10), dtype="float32") = R.matmul(lv3, lv4, out_dtype="void")',
            'lv6: R.Tensor((1, 10), dtype="float32") = '
            'R.add(lv5, metadata["relax.expr.Constant"][3])',
            'gv: R.Tensor((1, 10), dtype="float32") = lv6']:
        assert line in text, line
    x = np.random.rand(1, 784).astype("float32")
    expected = mlp(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(build_run(mod, x).numpy(), expected, rtol=1e-4, atol=1e-4)


def test_the_graph_builder_refuses_steps_after_finish_and_unknown_operators():
    from tensorir._ext import ext
    b = ext.GraphBuilder("main", [("x", [4], "float32")])
    with pytest.raises(NotImplementedError, match=r"relax\.nn\.frobnicate has no graph form "
                                                  r"\(operators with one: add, "):
        b.call_operator("nn.frobnicate", [0], [4], "float32", {})
    with pytest.raises(IndexError, match="no graph value has handle 3"):
        b.finish([3])
    module = b.finish([0])  # still open after the bad handle
    assert "return %arg0" in str(module)
    with pytest.raises(ValueError, match="already finished"):
        b.call_operator("nn.relu", [0], [4], "float32", {})


@pytest.mark.parametrize("name,kwargs,reference", [
    ("cumsum", {"axis": 1}, lambda a: np.cumsum(a, 1)),
    ("cumsum", {"axis": 0, "exclusive": True}, lambda a: np.cumsum(a, 0) - a),
    ("cumsum", {}, lambda a: np.cumsum(a)),
    ("cumprod", {"axis": -1}, lambda a: np.cumprod(a, -1)),
    ("cumprod", {"axis": 0, "exclusive": True}, lambda a: np.cumprod(a, 0) / a),
])
def test_running_sums_and_products(name, kwargs, reference):
    mod = graph([(3, 4)], lambda a: getattr(relax.op, name)(a, **kwargs))
    assert f"R.{name}(" in mod.script()
    a = np.random.rand(3, 4).astype("float32") + 0.5
    np.testing.assert_allclose(build_run(mod, a).numpy(), reference(a), rtol=1e-5)
    assert from_source(mod.script(show_meta=True)).mlir() == mod.mlir()


def test_a_running_sum_converts_to_its_dtype_first():
    mod = graph([(2, 5)], lambda a: relax.op.cumsum(a, axis=1, dtype="int32"))
    a = np.array([[0.5, 1.9, -1.7, 2.2, 3.0], [1.1, 1.1, 1.1, 1.1, 1.1]], "float32")
    out = build_run(mod, a).numpy()
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, np.cumsum(a.astype("int32"), 1))
    with pytest.raises(ValueError, match="relax.op.cumsum: scans along one axis"):
        relax.op.cumsum(relax.Var("x", relax.TensorStructInfo((2, 5), "float32")), axis=[0, 1])


@pytest.mark.parametrize("subscripts,shapes", [
    ("ii", [(4, 4)]), ("ii->i", [(4, 4)]), ("ij,jk->ik", [(4, 3), (3, 5)]),
    ("i,j->ij", [(3,), (2,)]), ("ij,ij", [(2, 3), (2, 3)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]),
    ("ij->ji", [(2, 5)])])
def test_einsum(subscripts, shapes):
    mod = graph(shapes, lambda *xs: relax.op.einsum(xs, subscripts=subscripts))
    assert f'R.einsum(({", ".join(f"x{k}" for k in range(len(shapes)))}' in mod.script()
    data = [np.random.rand(*s).astype("float32") for s in shapes]
    np.testing.assert_allclose(build_run(mod, *data).numpy(), np.einsum(subscripts, *data),
                               rtol=1e-5)
    assert from_source(mod.script(show_meta=True)).mlir() == mod.mlir()


def test_einsum_refusals_name_the_rule():
    x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
    y = relax.Var("y", relax.TensorStructInfo((4, 5), "float32"))
    with pytest.raises(ValueError, match="letter 'j' has sizes 3 and 4"):
        relax.op.einsum((x, y), "ij,jk->ik")
    with pytest.raises(ValueError, match="name 1 operand"):
        relax.op.einsum((x, y), "ij->ji")
    with pytest.raises(ValueError, match="output subscripts 'q' are not letters"):
        relax.op.einsum((x,), "ij->q")
    with pytest.raises(NotImplementedError, match="'...'"):
        relax.op.einsum((x,), "...j->j")


def test_repeat_triangles_rms_norm_and_relu6_compute_what_numpy_does():
    x = np.random.default_rng(3).standard_normal((2, 3, 4)).astype("float32")
    w = np.random.default_rng(4).standard_normal((3, 4)).astype("float32")
    mod = graph_of([((2, 3, 4), "float32"), ((3, 4), "float32")],
                   lambda a, b: [relax.op.repeat(a, 2, 1), relax.op.repeat(a, 3),
                                 relax.op.triu(a, 1), relax.op.tril(a, -1),
                                 relax.op.nn.rms_norm(a, b, [-2, -1]),
                                 relax.op.nn.relu6(relax.op.multiply(a, a))])
    got = [g.numpy() for g in build_run(mod, x, w)]
    want = [np.repeat(x, 2, 1), np.repeat(x, 3), np.triu(x, 1), np.tril(x, -1),
            x / np.sqrt((x * x).mean(axis=(1, 2), keepdims=True) + 1e-5) * w,
            np.clip(x * x, 0, 6)]
    for g, w_ in zip(got, want):
        np.testing.assert_allclose(g, w_, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="relax.op.triu: x has at least 2 dimensions"):
        graph([(4,)], lambda a: relax.op.triu(a))
    with pytest.raises(ValueError, match=r"relax.op.nn.rms_norm: weight has shape \(4,\)"):
        graph_of([((2, 3, 4), "float32"), ((4,), "float32")],
                 lambda a, b: relax.op.nn.rms_norm(a, b, [-2, -1]))


def test_softplus_and_prelu_compute_what_numpy_does():
    x = (np.random.default_rng(5).standard_normal((2, 3, 4)) * 15).astype("float32")
    alpha = np.array([0.1, 0.2, 0.3], "float32")
    mod = graph_of([((2, 3, 4), "float32"), ((3,), "float32")],
                   lambda a, b: [relax.op.nn.softplus(a, 2.0, 10.0),
                                 relax.op.nn.prelu(a, b, 1)])
    soft, leaky = (g.numpy() for g in build_run(mod, x, alpha))
    want = np.where(2 * x > 10, x, np.log1p(np.exp(2 * x)) / 2)
    np.testing.assert_allclose(soft, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(leaky, np.where(x >= 0, x, x * alpha[None, :, None]), rtol=1e-6)
    with pytest.raises(ValueError, match=r"relax.op.nn.prelu: alpha has shape \(4,\)"):
        graph_of([((2, 3, 4), "float32"), ((4,), "float32")],
                 lambda a, b: relax.op.nn.prelu(a, b, 1))


@pytest.mark.parametrize("shapes", [((2, 3, 4, 5), (5, 6)), ((4,), (4, 6)), ((3, 4), (4,)),
                                    ((2, 1, 3, 4), (5, 4, 2)), ((4,), (4,))])
def test_matmul_broadcasts_its_batches_as_numpy_does(shapes):
    mod = graph(shapes, relax.op.matmul)
    a = np.random.rand(*shapes[0]).astype("float32")
    b = np.random.rand(*shapes[1]).astype("float32")
    np.testing.assert_allclose(build_run(mod, a, b).numpy(), np.matmul(a, b), rtol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_matmul_of_rows_by_a_matrix_is_one_step_that_fuses_with_its_epilogue(dtype):
    # N-D rows times a matrix is one call (no reshapes around it, as TVM
    # legalizes it), so the ReLU after it fuses into the same kernel.
    mod = graph_of([((2, 3, 4), dtype), ((4, 5), dtype)],
                   lambda a, b: relax.op.nn.relu(relax.op.matmul(a, b)))
    assert "R.reshape" not in mod.script() and "R.matmul(x0, x1)" in mod.script()
    fused = relax.get_pipeline("zero")(mod)
    assert len(set(fused.function_names()) - {"main"}) == 1
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 5, (2, 3, 4)).astype(dtype)
    b = rng.integers(-4, 5, (4, 5)).astype(dtype)
    np.testing.assert_allclose(build_run(mod, a, b).numpy(), np.maximum(np.matmul(a, b), 0))


def test_matmul_refusals_name_the_shapes():
    x = relax.Var("x", relax.TensorStructInfo((2, 3, 4), "float32"))
    y = relax.Var("y", relax.TensorStructInfo((5, 6), "float32"))
    with pytest.raises(ValueError, match=r"shapes \(2, 3, 4\) and \(5, 6\) do not multiply "
                                         r"\(x1's last dimension 4 is not x2's rows 5\)"):
        relax.op.matmul(x, y)
    n = relax.Var("n", relax.TensorStructInfo(("b", 3, 4), "float32"))
    with pytest.raises(ValueError, match="with shape variables multiply only"):
        relax.op.matmul(n, relax.Var("w", relax.TensorStructInfo((4, 2), "float32")))
