"""Graph functions with symbolic dimensions (relax's R.Tensor(("n", 784))):
written in TVMScript, with BlockBuilder and exported from relax.frontend.nn;
printed with their shape variables; legalized, fused, compiled once and run
at several batch sizes against numpy; the runtime's checks of the sizes a
shape variable names; and the operators that take static shapes only,
R.call_dps_packed and nn.extern refused clearly."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax, topi
from tensorir.registry import remove_global_func
from tensorir.relax.frontend import nn
from tensorir.script import ir as I
from tensorir.script import relax as R
from tensorir.script import tir as T

RNG = np.random.default_rng(11)


@I.ir_module
class MLP:
    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float32"), w0: R.Tensor((8, 16), dtype="float32"),
             b0: R.Tensor((8,), dtype="float32"),
             w1: R.Tensor((4, 8), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv0: R.Tensor((n, 8), dtype="float32") = R.matmul(x, R.permute_dims(w0)) + b0
            lv1 = R.nn.relu(lv0)
            lv2 = R.nn.softmax(R.matmul(lv1, R.permute_dims(w1)), axis=1)
            R.output(lv2)
        return lv2


def _weights():
    return [RNG.standard_normal(s).astype("float32") for s in ((8, 16), (8,), (4, 8))]


def _mlp_reference(x, w0, b0, w1):
    h = np.maximum(x @ w0.T + b0, 0) @ w1.T
    e = np.exp(h - h.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _vm(mod):
    return relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())


def test_tvmscript_prints_the_shape_variable():
    text = MLP.script()
    assert 'def main(x: R.Tensor(("n", 16), dtype="float32")' in text
    assert '-> R.Tensor(("n", 4), dtype="float32"):' in text
    assert "n = T.int64()" in text
    assert 'R.Tensor((n, 8), dtype="float32") = R.matmul(x, lv, out_dtype="void")' in text
    assert MLP["main"].params[0].struct_info.shape[0].name == "n"


@pytest.mark.parametrize("fuse", [False, True])
def test_one_build_runs_every_batch_size(fuse):
    mod = relax.get_pipeline("zero")(MLP) if fuse else relax.transform.LegalizeOps()(MLP)
    text = mod.script()
    # The legalized functions keep the variable: buffers of n rows.
    assert "n = T.int32()" in text and "(n, 16)" in text
    assert 'out_sinfo=R.Tensor((n, 8), dtype="float32")' in text
    if fuse:
        assert "def fused_matmul_add_relu(" in text
    vm = _vm(mod)
    weights = _weights()
    for n in (1, 3, 8):
        x = RNG.standard_normal((n, 16)).astype("float32")
        y = vm["main"](x, *weights).numpy()
        assert y.shape == (n, 4)
        np.testing.assert_allclose(y, _mlp_reference(x, *weights), rtol=1e-4, atol=1e-5)


def test_the_runtime_checks_what_a_shape_variable_names():
    @I.ir_module
    class Add:
        @R.function
        def main(x: R.Tensor(("n", 4), "float32"),
                 y: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), "float32"):
            with R.dataflow():
                z = R.add(x, y)
                R.output(z)
            return z

    vm = _vm(Add)
    x, y = np.ones((3, 4), "float32"), np.full((3, 4), 2, "float32")
    np.testing.assert_array_equal(vm["main"](x, y).numpy(), x + y)
    with pytest.raises(ValueError, match="it is 'n', which is 3 .*every size named 'n' must "
                                         "be the same"):
        vm["main"](x, np.ones((2, 4), "float32"))
    with pytest.raises(ValueError, match=r"argument 0 \('x'\) of 'main': expected shape "
                                         r"\[\?, 4\], got \[3, 5\]"):
        vm["main"](np.ones((3, 5), "float32"), y)


def test_block_builder_with_a_shape_variable_and_emit_te():
    n = T.int64()
    x = relax.Var("x", R.Tensor((n, 6), "float32"))
    b = relax.Var("b", R.Tensor((6,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, b]):
        with bb.dataflow():
            lv0 = bb.emit_te(topi.nn.relu, x)
            gv = bb.emit_output(bb.emit(lv0 * x + b))
        bb.emit_func_output(gv)
    mod = bb.get()
    text = mod.script()
    # te's function takes the variable as its buffers' size, not as a
    # parameter of its own.
    assert "def relu(x_1: T.handle, compute_1: T.handle):" in text
    assert 'R.call_tir(cls.relu, (x,), out_sinfo=R.Tensor((n, 6), dtype="float32"))' in text
    xs, bs = RNG.standard_normal((5, 6)).astype("float32"), np.arange(6, dtype="float32")
    out = _vm(mod)["main"](xs, bs).numpy()
    np.testing.assert_allclose(out, np.maximum(xs, 0) * xs + bs, rtol=1e-6)


def test_operators_without_a_dynamic_form_refuse_symbolic_shapes():
    x = relax.Var("x", R.Tensor(("n", 3, 8, 8), "float32"))
    w = relax.Var("w", R.Tensor((4, 3, 3, 3), "float32"))
    with pytest.raises(ValueError, match=r"relax.op.nn.max_pool2d: data has the shape "
                                         r"\(n, 3, 8, 8\) with shape variables; this "
                                         "operator takes static shapes"):
        relax.op.nn.max_pool2d(x, pool_size=(2, 2))
    assert [str(d) for d in relax.op.nn.conv2d(x, w).struct_info.shape] == ["n", "4", "6", "6"]
    # A reduction keeps shape variables on the axes it keeps, not on those
    # it reduces.
    assert [str(d) for d in relax.op.sum(x, axis=1).struct_info.shape] == ["n", "8", "8"]
    with pytest.raises(ValueError, match=r"relax.op.sum: reduces axes \[0\] of \(n, 3, 8, "
                                         r"8\); shape variables size the kept axes only"):
        relax.op.sum(x, axis=0)
    # A dimension that is an affine form of shape variables is one (named
    # by its text); another expression is no size.
    m = T.int64()
    assert str(R.Tensor((m * 2, 4), "float32").shape[0]) == "2 * m"
    with pytest.raises(ValueError, match="dimension m // 2 is an expression that is not "
                                         "affine"):
        R.Tensor((m // 2, 4), "float32")


class Linear2(nn.Module):
    def __init__(self):
        self.fc1 = nn.Linear(12, 6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        return self.fc2(nn.relu(self.fc1(x)))


def test_nn_spec_with_a_named_dimension_exports_a_symbolic_function():
    mod, params = Linear2().export_tvm({"forward": {"x": nn.spec.Tensor(("n", 12),
                                                                        "float32")}})
    assert 'x: R.Tensor(("n", 12), dtype="float32")' in mod.script()
    weights = [RNG.standard_normal(p.shape).astype("float32") for _, p in params]
    vm = _vm(mod)
    w1, b1, w2, b2 = weights
    for n in (2, 7):
        x = RNG.standard_normal((n, 12)).astype("float32")
        y = vm["forward"](x, *weights).numpy()
        np.testing.assert_allclose(y, np.maximum(x @ w1.T + b1, 0) @ w2.T + b2, rtol=1e-5,
                                   atol=1e-5)


@T.prim_func
def _scaled(a: T.handle, b: T.handle):
    m = T.int64()
    A = T.match_buffer(a, (m, 3), "float32")
    B = T.match_buffer(b, (m, 3), "float32")
    for i, j in T.grid(m, 3):
        with T.block("scale"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)


class Mixed(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(5, 3)

    def forward(self, x):
        n = x.shape[0]
        h = nn.tensor_expr_op(topi.nn.relu, "relu", [self.fc(x)])
        return nn.tensor_ir_op(_scaled, "scaled", [h],
                               out=nn.Tensor.placeholder((n, 3), "float32"))


def test_nn_tensor_expr_op_and_tensor_ir_op_run():
    mod, params = Mixed().export_tvm({"forward": {"x": nn.spec.Tensor(("n", 5), "float32")}})
    text = mod.script()
    assert "R.call_tir(cls.scaled, (lv3,)" in text
    w, b = [RNG.standard_normal(p.shape).astype("float32") for _, p in params]
    x = RNG.standard_normal((4, 5)).astype("float32")
    y = _vm(mod)["forward"](x, w, b).numpy()
    np.testing.assert_allclose(y, np.maximum(x @ w.T + b, 0) * 2, rtol=1e-5, atol=1e-6)


class External(nn.Module):
    def forward(self, x):
        return nn.extern("env.scale", [x], out=nn.Tensor.placeholder(x.shape, "float32"))


def test_call_dps_packed_prints_and_runs_the_registered_function():
    mod, _ = External().export_tvm({"forward": {"x": nn.spec.Tensor(("n", 2), "float32")}})
    text = mod.script()
    assert ('lv = R.call_dps_packed("env.scale", (x,), out_sinfo=R.Tensor((n, 2), '
            'dtype="float32"))') in text
    assert "def env" not in text  # declared, not printed
    vm = _vm(mod)
    x = RNG.standard_normal((3, 2)).astype("float32")
    # Not registered: the call fails, naming the function.
    with pytest.raises(LookupError, match="no packed function named 'env.scale'"):
        vm["forward"](x)

    def scale(a, out):
        out[:] = a.numpy() * 3

    tvm.register_global_func("env.scale", scale, override=True)
    try:
        np.testing.assert_allclose(vm["forward"](x).numpy(), x * 3, rtol=1e-6)

        def broken(a, out):
            raise RuntimeError("scale broke")

        tvm.register_global_func("env.scale", broken, override=True)
        # The function's own exception comes back.
        with pytest.raises(RuntimeError, match="scale broke"):
            vm["forward"](x)
    finally:
        remove_global_func("env.scale")

    @I.ir_module
    class Parsed:
        @R.function
        def main(x: R.Tensor((2, 2), "float32")) -> R.Tensor((2, 2), "float32"):
            with R.dataflow():
                y = R.call_dps_packed("env.scale", (x,), out_sinfo=R.Tensor((2, 2), "float32"))
                R.output(y)
            return y

    assert 'R.call_dps_packed("env.scale", (x,)' in Parsed.script()


@I.ir_module
class PurePacked:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")):
        # Runs for what it does: a result of unknown shape is no value.
        _ = R.call_pure_packed("test.env.fill", y, sinfo_args=R.Object)
        z = R.call_pure_packed("test.env.add", x, y,
                               sinfo_args=R.Tensor((2, 3), "float32"))
        return z


def test_call_pure_packed_returns_its_result_and_keeps_calls_for_their_effects():
    def fill(a):
        a[:] = np.full(a.shape, 2.0, a.dtype)

    tvm.register_global_func("test.env.fill", fill, override=True)
    tvm.register_global_func("test.env.add", lambda a, b: tvm.nd.array(a.numpy() + b.numpy()),
                             override=True)
    text = PurePacked.script()
    assert 'R.call_pure_packed("test.env.add", x, y, sinfo_args=R.Tensor((2, 3)' in text
    assert 'R.call_pure_packed("test.env.fill", y, sinfo_args=R.Object)' in text
    vm = _vm(PurePacked)
    x = RNG.standard_normal((2, 3)).astype("float32")
    y = np.zeros((2, 3), "float32")
    np.testing.assert_allclose(vm["main"](x, y).numpy(), x + 2, rtol=1e-6)
    np.testing.assert_allclose(y, 2)  # written in place by the packed function
    # A result of another shape than the call declares is refused.
    tvm.register_global_func("test.env.add", lambda a, b: tvm.nd.array(np.zeros(3, "float32")),
                             override=True)
    with pytest.raises(ValueError, match=r"returned a float32 tensor of shape \(3,\); its "
                                         r"call \(R.call_pure_packed\) declares float32 of "
                                         r"shape \(2, 3\)"):
        vm["main"](x, y)


@I.ir_module
class AnyShape:
    @R.function
    def main(x: R.Tensor(ndim=2, dtype="float32"), y: R.Tensor(ndim=2, dtype="float32")):
        t = (x, y)
        return R.call_pure_packed("test.env.tile", t[0], t[1],
                                  sinfo_args=R.Tensor(ndim=2, dtype="float32"))


def test_a_packed_result_of_unknown_shape_is_returned_as_the_function_returns_it():
    tvm.register_global_func(
        "test.env.tile", lambda a, b: tvm.nd.array(np.tile(a.numpy() + b.numpy(), (1, 2))),
        override=True)
    text = AnyShape.script()
    # Parameters of a rank and no shape take any shape: a variable per dimension.
    assert 'x: R.Tensor(("x_dim0", "x_dim1"), dtype="float32")' in text
    assert ('R.call_pure_packed("test.env.tile", x, y, sinfo_args=R.Tensor(ndim=2, '
            'dtype="float32"))') in text
    tvm.ir.assert_structural_equal(tvm.script.from_source(text), AnyShape)
    vm = _vm(AnyShape)
    for shape in ((2, 3), (4, 1)):
        x, y = RNG.random(shape, dtype=np.float32), RNG.random(shape, dtype=np.float32)
        out = vm["main"](x, y)
        np.testing.assert_allclose(out.numpy(), np.tile(x + y, (1, 2)), rtol=1e-6)
    # Each dimension is a variable of its own: shapes that differ reach the
    # packed function, whose error is the call's.
    with pytest.raises(ValueError, match="could not be broadcast together"):
        vm["main"](np.zeros((2, 2), "float32"), np.zeros((3, 2), "float32"))


@I.ir_module
class Closures:
    @R.function
    def add_env(x: R.Tensor((2, 3), "float32"), env: R.Tensor((2, 3), "float32")):
        return R.call_pure_packed("test.env.add_any", x, env, sinfo_args=R.Tensor())

    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Object:
        cls = Closures
        clo = R.make_closure(cls.add_env, (x,))
        res = R.invoke_pure_closure(clo, (y,), sinfo_args=R.Tensor())
        return res


def test_a_closure_calls_its_function_and_a_kept_result_passes_through_calls():
    tvm.register_global_func("test.env.add_any",
                             lambda a, b: tvm.nd.array(a.numpy() + b.numpy()), override=True)
    vm = _vm(Closures)
    x, y = RNG.random((2, 3), dtype=np.float32), RNG.random((2, 3), dtype=np.float32)
    np.testing.assert_allclose(vm["main"](x, y).numpy(), x + y, rtol=1e-6)
    # main returns what add_env's packed call returned, through the call.
    assert "cls.add_env(x, y)" in Closures.script()


def test_a_packed_result_of_unknown_shape_is_no_value_to_compute_with():
    with pytest.raises(Exception, match=r"is R.Tensor\(ndim=2\), a tensor of no known shape"):
        @R.function
        def f(x: R.Tensor((2, 3), "float32")):
            y = R.call_pure_packed("test.env.any", x, sinfo_args=R.Tensor(ndim=2))
            z = R.add(y, y)
            return z


@I.ir_module
class RowsGiven:
    @R.function
    def main(x: R.Tensor(("i", 5), "float32"), rows: R.Prim(value="i")):
        i = T.int64()
        with R.dataflow():
            y = R.exp(x)
            R.output(y)
        return y


def test_a_scalar_parameter_is_the_shape_variable_it_names():
    text = RowsGiven.script()
    assert 'i: R.Prim(value="i")' in text
    assert tvm.ir.structural_equal(tvm.script.from_source(text), RowsGiven)
    vm = _vm(RowsGiven)
    x = RNG.standard_normal((3, 5)).astype("float32")
    np.testing.assert_allclose(vm["main"](x, 3).numpy(), np.exp(x), rtol=1e-6)
    # The tensor's rows and the scalar name one size: checked before it runs.
    with pytest.raises(ValueError, match="it is 'i', which is 7"):
        vm["main"](x, 7)


def test_scalar_parameters_refused_by_name():
    with pytest.raises(NotImplementedError, match="int64 scalars only"):
        R.Prim("float32")
    x = relax.Var("x", R.Tensor((10, 5), "float32"))
    i = relax.Var("i", R.Prim(value="i"))
    bb = relax.BlockBuilder()
    # (10, 5) into (i, 5, 5): equal element counts only where i is 2.
    with pytest.raises(ValueError, match="the shape variables differ"):
        with bb.function("main", [x, i]):
            out = bb.emit(relax.op.reshape(x, (relax.struct_info.SymDim("i"), 5, 5)))
            bb.emit_func_output(out)


@I.ir_module
class Heads:
    @R.function
    def main(x: R.Tensor((2, "n", 256), "float32")):
        n = T.int64()
        with R.dataflow():
            y = R.reshape(x, (2, n, 4, 64))
            z = R.permute_dims(y, (0, 2, 1, 3))
            w = R.reshape(z, (8, n, -1))
            R.output(w)
        return w


def test_reshapes_keep_their_shape_variables():
    text = Heads.script()
    assert "R.reshape(x, R.shape([2, n, 4, 64]))" in text
    assert "R.reshape(lv1, R.shape([8, n, 64]))" in text
    assert tvm.ir.structural_equal(tvm.script.from_source(text), Heads)
    vm = _vm(relax.get_pipeline("zero")(Heads))
    for n in (1, 5):
        x = RNG.standard_normal((2, n, 256)).astype("float32")
        want = x.reshape(2, n, 4, 64).transpose(0, 2, 1, 3).reshape(8, n, 64)
        np.testing.assert_allclose(vm["main"](x).numpy(), want)


def test_reshapes_the_element_count_of_which_is_unknown_are_refused():
    x = relax.Var("x", R.Tensor(("n", 4), "float32"))
    n, m = relax.struct_info.SymDim("n"), relax.struct_info.SymDim("m")
    with pytest.raises(ValueError, match="the shape variables differ"):
        relax.op.reshape(x, (m, 4))
    with pytest.raises(ValueError, match=r"4 and 6 elements per value"):
        relax.op.reshape(x, (n, 6))
    assert relax.op.reshape(x, (2, n, -1)).struct_info.shape[2] == 2


def _mean_rows(x, axis):
    return topi.divide(topi.sum(x, axis, keepdims=True), 8)


@I.ir_module
class EmittedTe:
    @R.function
    def main(x: R.Tensor(("n", 8), "float32"), y: R.Tensor(("n", 8), "float32")):
        with R.dataflow():
            m = R.emit_te(_mean_rows, x, axis=1)
            s = R.emit_te(topi.add, m, R.const(1, "float32"))
            z = R.emit_te(topi.multiply, y, s)
            R.output(z)
        return z


def test_r_emit_te_makes_prim_funcs_that_fuse_and_run():
    names = set(EmittedTe.function_names())
    assert {"main", "_mean_rows", "add", "multiply"} <= names
    fused = relax.transform.FuseTIR()(relax.transform.FuseOps()(
        relax.transform.AnnotateTIROpPattern()(EmittedTe)))
    # One prim_func; the rows n read from x, the first buffer they size.
    prims = [name for name in fused.function_names() if name != "main"]
    assert prims == ["fused__mean_rows_add_multiply"], prims
    x = RNG.standard_normal((5, 8)).astype("float32")
    y = RNG.standard_normal((5, 8)).astype("float32")
    want = y * (x.mean(axis=1, keepdims=True) + 1)
    for mod in (EmittedTe, fused):
        np.testing.assert_allclose(_vm(mod)["main"](x, y).numpy(), want, rtol=1e-5)


def _conv2d_reference(x, w):
    """NCHW x OIHW, stride 1, no padding, by windows."""
    kh, kw = w.shape[2:]
    out_h, out_w = x.shape[2] - kh + 1, x.shape[3] - kw + 1
    windows = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(2, 3))
    return np.einsum("nchwij,ocij->nohw", windows[:, :, :out_h, :out_w], w)


def test_a_convolution_of_symbolic_batch_and_image_size_runs_for_each_size():
    @I.ir_module
    class Conv:
        @R.function
        def main(x: R.Tensor(("n", 3, "h", "w"), "float32"),
                 wt: R.Tensor((8, 3, 3, 3), "float32")):
            n, h, w = T.int64(), T.int64(), T.int64()
            with R.dataflow():
                y = R.nn.conv2d(x, wt)
                z = R.nn.relu(y)
                R.output(z)
            return z

    assert "R.Tensor((n, 8, h - 2, w - 2)" in Conv.script()
    vm = relax.VirtualMachine(tvm.compile(relax.get_pipeline("default")(Conv), "llvm"),
                              tvm.cpu())
    rng = np.random.default_rng(0)
    wt = rng.random((8, 3, 3, 3), dtype=np.float32)
    for shape in ((1, 3, 8, 8), (2, 3, 10, 7)):
        x = rng.random(shape, dtype=np.float32)
        out = vm["main"](x, wt).numpy()
        np.testing.assert_allclose(out, np.maximum(_conv2d_reference(x, wt), 0), rtol=1e-5,
                                   atol=1e-5)


def test_a_strided_or_padded_convolution_of_a_symbolic_image_size_is_refused():
    with pytest.raises(Exception, match="symbolic spatial size .* takes stride 1"):
        @R.function
        def strided(x: R.Tensor((1, 3, "h", "h"), "float32"),
                    wt: R.Tensor((8, 3, 3, 3), "float32")):
            return R.nn.conv2d(x, wt, strides=[2, 2])

    with pytest.raises(Exception, match="nn.pad: data has the shape"):
        @R.function
        def padded(x: R.Tensor(("n", 3, 8, 8), "float32"),
                   wt: R.Tensor((8, 3, 3, 3), "float32")):
            return R.nn.conv2d(x, wt, padding=[1, 1])
