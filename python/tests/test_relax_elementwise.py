"""Graph level, element-wise operators (relax.op's unary, binary,
comparison, bitwise, logical, predicate, where, clip and astype): each built
as one linalg.generic, printed as R.<op> and parsed back to the same module,
built and run against numpy; their refusals name the operator and the
rule; BindParams makes parameters constants."""
import math

import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax
from tensorir.relax import op as R
from tensorir.script import from_source

from relax_helpers import graph
from relax_helpers import run as run_main


def run(mod, *args):
    return run_main(mod, *args).numpy()


def roundtrip(mod):
    """The module printed and parsed back is the same module."""
    again = from_source(mod.script(show_meta=True))
    tvm.ir.assert_structural_equal(mod, again)


_erf = np.vectorize(math.erf, otypes=[np.float64])

UNARY = {
    "abs": np.abs, "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin,
    "asinh": np.arcsinh, "atan": np.arctan, "atanh": np.arctanh, "ceil": np.ceil,
    "cos": np.cos, "cosh": np.cosh, "erf": _erf, "exp": np.exp, "floor": np.floor,
    "log": np.log, "negative": np.negative, "round": np.round,
    "rsqrt": lambda x: 1 / np.sqrt(x), "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "sin": np.sin, "sinh": np.sinh, "sign": np.sign, "sqrt": np.sqrt, "square": np.square,
    "tan": np.tan, "tanh": np.tanh, "trunc": np.trunc,
    "nn.gelu": lambda x: x / 2 * (1 + _erf(x / np.sqrt(2))),
    "nn.gelu_tanh": lambda x: x / 2 * (1 + np.tanh(np.sqrt(2 / np.pi)
                                                   * (x + 0.044715 * x ** 3))),
    "nn.silu": lambda x: x / (1 + np.exp(-x)),
}


def _operator(name):
    target = R
    for part in name.split("."):
        target = getattr(target, part)
    return target


def _domain(name, shape):
    """Inputs each function is defined on (halves included for rounding)."""
    rng = np.random.default_rng(0)
    if name == "acosh":
        return (1 + 3 * rng.random(shape)).astype("float32")
    if name in ("acos", "asin", "atanh"):
        return (1.8 * rng.random(shape) - 0.9).astype("float32")
    if name in ("log", "sqrt", "rsqrt"):
        return (0.1 + 4 * rng.random(shape)).astype("float32")
    x = (6 * rng.random(shape) - 3).astype("float32")
    x.flat[:4] = [-2.5, -0.5, 0.5, 1.5]  # halves round to even
    return x


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_operators_compute_what_numpy_does(name):
    mod = graph([((4, 8), "float32")], _operator(name))
    assert f"R.{name}(x0)" in mod.script()
    roundtrip(mod)
    x = _domain(name, (4, 8))
    np.testing.assert_allclose(run(mod, x), UNARY[name](x.astype("float64")), rtol=2e-6,
                               atol=2e-6)


BINARY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "maximum": np.maximum, "minimum": np.minimum, "power": np.power, "mod": np.fmod,
    "floor_mod": np.mod, "floor_divide": np.floor_divide,
}
COMPARISONS = {
    "equal": np.equal, "not_equal": np.not_equal, "less": np.less,
    "less_equal": np.less_equal, "greater": np.greater, "greater_equal": np.greater_equal,
}


@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize("name", sorted(BINARY) + sorted(COMPARISONS))
def test_binary_operators_broadcast_and_follow_numpy(name, dtype):
    mod = graph([((3, 4), dtype), ((4,), dtype)], _operator(name))
    assert f"R.{name}(x0, x1)" in mod.script()
    roundtrip(mod)
    rng = np.random.default_rng(1)
    if dtype == "int32":
        a = rng.integers(-9, 10, (3, 4)).astype(dtype)
        b = rng.integers(1, 5, (4,)).astype(dtype) * np.array([1, -1, 1, -1], dtype)
        if name == "power":
            a, b = np.abs(a), np.abs(b)  # integer powers of negatives overflow quickly
    else:
        a = (rng.random((3, 4)) * 8 - 4).astype(dtype)
        b = (rng.random(4) * 3 + 0.5).astype(dtype) * np.array([1, -1, 1, -1], dtype)
        a[0, :2] = b[:2]
        if name == "power":
            a = np.abs(a)  # equal elements for the comparisons
    reference = (BINARY.get(name) or COMPARISONS[name])(a, b)
    if dtype == "int32" and name == "divide":
        reference = np.trunc(a / b).astype(dtype)  # C's (and TVM's) integer division
    out = run(mod, a, b)
    assert out.dtype == reference.dtype, (out.dtype, reference.dtype)
    np.testing.assert_allclose(out, reference, rtol=1e-5)


@pytest.mark.parametrize("name,reference", [
    ("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
    ("bitwise_xor", np.bitwise_xor), ("left_shift", np.left_shift),
    ("right_shift", np.right_shift)])
def test_bitwise_operators_on_integers(name, reference):
    mod = graph([((2, 5), "int32"), ((2, 5), "int32")], _operator(name))
    roundtrip(mod)
    a = np.array([[5, -6, 7, 0, 12], [1, 2, 3, -4, 255]], "int32")
    b = np.array([[3, 1, 2, 4, 0], [7, 1, 2, 3, 4]], "int32")
    np.testing.assert_array_equal(run(mod, a, b), reference(a, b))
    mod = graph([((5,), "int32")], R.bitwise_not)
    np.testing.assert_array_equal(run(mod, a[0]), ~a[0])


def test_logical_operators_predicates_and_where():
    x = np.array([1.0, np.inf, -np.inf, np.nan, -2.0, 0.0], "float32")
    for name, reference in [("isinf", np.isinf), ("isnan", np.isnan),
                            ("isfinite", np.isfinite)]:
        mod = graph([((6,), "float32")], _operator(name))
        roundtrip(mod)
        np.testing.assert_array_equal(run(mod, x), reference(x))

    def body(a, b):
        both = R.logical_and(R.isfinite(a), R.logical_not(R.less(a, b)))
        return R.where(both, a, R.negative(b))

    mod = graph([((6,), "float32"), ((1,), "float32")], body)
    roundtrip(mod)
    b = np.array([-1.0], "float32")
    expected = np.where(np.isfinite(x) & ~(x < b), x, -b)
    np.testing.assert_array_equal(run(mod, x, b), expected)


def test_clip_and_astype():
    mod = graph([((2, 3), "float32")], lambda x: R.clip(x, -1, 2.5))
    assert "R.clip(x0, max=2.5, min=-1)" in mod.script()
    roundtrip(mod)
    x = np.array([[-3.0, -1.0, 0.25], [2.5, 7.0, -0.5]], "float32")
    np.testing.assert_array_equal(run(mod, x), np.clip(x, -1, 2.5))
    # Integers clip to the whole numbers inside the bounds.
    mod = graph([((4,), "int32")], lambda x: R.clip(x, -1.5, 2.5))
    np.testing.assert_array_equal(run(mod, np.array([-5, -1, 2, 9], "int32")), [-1, -1, 2, 2])
    # Conversions: floats truncate to integers; "not zero" to bool; bool to 1.
    for dtype in ["int32", "int8", "float64", "bool"]:
        mod = graph([((4,), "float32")], lambda x, dtype=dtype: R.astype(x, dtype))
        assert f'R.astype(x0, dtype="{dtype}")' in mod.script()
        roundtrip(mod)
        x = np.array([-2.75, 0.0, 0.5, 3.9], "float32")
        np.testing.assert_array_equal(run(mod, x), x.astype(dtype))
    mod = graph([((3,), "bool")], lambda x: R.astype(x, "float32"))
    np.testing.assert_array_equal(run(mod, np.array([True, False, True])), [1.0, 0.0, 1.0])


def test_refusals_name_the_operator_and_the_rule():
    f32 = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
    i32 = relax.Var("i", relax.TensorStructInfo((4,), "int32"))
    with pytest.raises(TypeError, match=r"relax\.op\.exp: takes floating-point tensors, not "
                                        r"int32 \(R\.astype first\)"):
        R.exp(i32)
    with pytest.raises(TypeError, match=r"relax\.op\.bitwise_and: takes integer or bool "
                                        r"tensors, not float32"):
        R.bitwise_and(f32, f32)
    with pytest.raises(ValueError, match=r"relax\.op\.add: the operands' dtypes differ "
                                         r"\(float32 and int32\)"):
        R.add(f32, i32)
    with pytest.raises(TypeError, match=r"relax\.op\.where: the condition holds float32"):
        R.where(f32, f32, f32)
    with pytest.raises(ValueError, match=r"relax\.op\.clip: min 3 is above max 1"):
        R.clip(f32, 3, 1)
    with pytest.raises(ValueError, match=r"relax\.op\.astype: unsupported dtype 'complex64'"):
        R.astype(f32, "complex64")
    with pytest.raises(ValueError, match=r"relax\.op\.greater: shapes \(4,\) and \(3,\) do "
                                         r"not broadcast"):
        R.greater(f32, relax.Var("y", relax.TensorStructInfo((3,), "float32")))


def test_an_operator_held_by_a_variable_is_called_in_tvmscript():
    from tensorir.script import ir as I
    from tensorir.script import relax as R  # noqa: N811 - TVMScript's name

    def module(relax_op):
        @I.ir_module
        class Module:
            @R.function
            def main(x: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
                with R.dataflow():
                    lv = relax_op(x)
                    gv = R.multiply(lv, R.const(2.0))
                    R.output(gv)
                return gv
        return Module

    tvm.ir.assert_structural_equal(module(R.sin), module(relax.op.sin))
    with pytest.raises(ValueError):
        tvm.ir.assert_structural_equal(module(R.sin), module(R.cos))
    x = np.array([[0.0, 1.0], [2.0, 3.0]], "float32")
    np.testing.assert_allclose(run(module(R.tanh), x), 2 * np.tanh(x), rtol=1e-6)


def test_bind_params_makes_parameters_constants():
    x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((3,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w]):
        with bb.dataflow():
            out = bb.emit_output(bb.emit(R.multiply(x, w)))
        bb.emit_func_output(out)
    mod = bb.get()
    weights = np.array([1.0, -2.0, 0.5], "float32")
    bound = relax.transform.BindParams("main", {"w": tvm.nd.array(weights)})(mod)
    assert "def main(x: R.Tensor((2, 3), dtype=\"float32\"))" in bound.script()
    xs = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_array_equal(run(bound, xs), xs * weights)
    assert relax.transform.BindParams("main", {})(mod) is mod
    with pytest.raises(ValueError, match=r"BindParams: parameter 'w' of 'main' is a "
                                         r"tensor<3xf32>, the value given a tensor<4xf32>"):
        relax.transform.BindParams("main", {"w": np.zeros(4, "float32")})(mod)
    with pytest.raises(KeyError, match="'main' has no parameter 'v'"):
        relax.transform.BindParams("main", {"v": weights})(mod)
    with pytest.raises(KeyError, match="no graph function 'other'"):
        relax.transform.BindParams("other", {"w": weights})(mod)


def test_a_graph_function_prints_alone_naming_its_callees():
    mod = relax.transform.LegalizeOps()(graph([((4,), "float32")], R.exp))
    text = mod["main"].script()
    assert "@R.function" in text and "R.call_tir(exp, (x0,)" in text
    assert "@T.prim_func" not in text
