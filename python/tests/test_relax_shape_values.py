"""Shapes and integers as graph values (relax's R.Shape, R.Prim,
R.shape([...]), R.prim_value(...)): parameters whose dimensions define or
are checked against shape variables, results computed from the variables,
printed, parsed, compiled, exported and called."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax
from tensorir.runtime import ShapeTuple
from tensorir.script import ir as I
from tensorir.script import relax as R
from tensorir.script import tir as T


def _vm(mod):
    return relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())


@I.ir_module
class Scaled:
    @R.function
    def main(shape: R.Shape(["m", "n"])):
        m = T.int64()
        n = T.int64()
        return R.shape([2 * m, 3 * n])


@I.ir_module
class Mixed:
    @R.function
    def main(_n: R.Prim(value="n"), _shape: R.Shape(["n*2", "m*2"]), _m: R.Prim(value="m")):
        n = T.int64()
        m = T.int64()
        return R.shape([n * n, m + 1, n // 2, m % 4])


@I.ir_module
class Square:
    @R.function
    def main(x: R.Prim(value="n")):
        n = T.int64()
        return R.prim_value(n * n - 1)


def test_a_shape_parameter_defines_its_variables_and_a_shape_is_returned():
    vm = _vm(Scaled)
    result = vm["main"](ShapeTuple([2, 3]))
    assert isinstance(result, ShapeTuple) and result == (4, 9)
    assert vm["main"]((5, 1)) == (10, 3)  # a tuple of ints is a shape too


def test_shape_dimensions_named_by_forms_are_checked():
    vm = _vm(Mixed)
    assert vm["main"](6, ShapeTuple([12, 14]), 7) == (36, 8, 3, 3)
    with pytest.raises(RuntimeError, match=r"'2 \* m'.*which is 2"):
        vm["main"](6, ShapeTuple([12, 14]), 1)
    with pytest.raises(ValueError, match="takes 3 arguments, got 1"):
        vm["main"](ShapeTuple([2]))


def test_an_integer_result_is_a_python_int():
    vm = _vm(Square)
    result = vm["main"](5)
    assert type(result) is int and result == 24


def test_arguments_of_the_wrong_kind_are_refused():
    scaled, square = _vm(Scaled), _vm(Square)
    with pytest.raises(ValueError, match="a shape of 2 dimensions, got 3"):
        scaled["main"](ShapeTuple([2, 3, 4]))
    with pytest.raises(TypeError, match="is a shape"):
        scaled["main"](2)
    with pytest.raises(TypeError, match="ShapeTuple"):
        square["main"](ShapeTuple([2]))


def test_shape_values_print_and_parse_back():
    for mod, expected in ((Scaled, 'R.shape([2 * m, 3 * n])'),
                          (Mixed, 'R.shape([n * n, m + 1, n // 2, m % 4])'),
                          (Square, 'R.prim_value(n * n - 1)')):
        text = mod.script()
        assert expected in text, text
        again = tvm.script.from_source(text)
        tvm.ir.assert_structural_equal(again, mod)
    assert 'shape: R.Shape(["m", "n"])' in Scaled.script()
    assert '-> R.Prim(value="n * n - 1")' in Square.script()


def test_a_shape_of_a_tensor_dimension():
    @I.ir_module
    class Flat:
        @R.function
        def main(x: R.Tensor(("n", 4), "float32")):
            n = T.int64()
            return R.shape([n * 4])

    assert _vm(Flat)["main"](np.zeros((3, 4), "float32")) == (12,)


def test_an_exported_library_keeps_how_values_convert(tmp_path):
    path = str(tmp_path / "shapes.so")
    tvm.compile(Mixed, "llvm").export_library(path)
    vm = relax.VirtualMachine(tvm.runtime.load_module(path), tvm.cpu())
    assert vm["main"](2, ShapeTuple([4, 12]), 6) == (4, 7, 1, 2)


def test_bad_shape_expressions_are_refused_by_name():
    with pytest.raises(Exception, match="is not an integer expression"):
        @R.function
        def true_division(x: R.Prim(value="n")):
            n = T.int64()
            return R.shape([n / 2])

    with pytest.raises(Exception, match="names its dimensions"):
        @R.function
        def unnamed(s: R.Shape(ndim=2)):
            return R.shape([1])


@I.ir_module
class Cast:
    @R.function
    def main(x: R.Tensor(dtype="float32")) -> R.Shape:
        n, m = T.int64(), T.int64()
        _ = R.match_cast(x, R.Tensor((n, m), "float32"))
        return R.shape([n * 2, m * 3])


def test_match_cast_gives_a_parameter_of_no_shape_its_shape():
    vm = _vm(Cast)
    assert vm["main"](np.zeros((32, 16), "float32")) == (64, 48)
    with pytest.raises(ValueError, match=r"float32.*R\.match_cast asserts its dtype"):
        vm["main"](np.zeros((1, 2), "int32"))
    with pytest.raises(ValueError, match=r"rank.*R\.match_cast asserts its dtype, ndim"):
        vm["main"](np.zeros((1,), "float32"))
    assert 'x: R.Tensor(("n", "m"), dtype="float32")' in Cast.script()


def test_match_cast_of_a_value_of_another_shape_is_refused():
    with pytest.raises(Exception, match="a cast to .* is taken of a parameter of no shape"):
        @R.function
        def recast(x: R.Tensor((4, 4), "float32")):
            y = R.match_cast(x, R.Tensor((2, 8), "float32"))
            return y

    with pytest.raises(Exception, match="is never"):
        @R.function
        def wrong_rank(x: R.Tensor(ndim=3, dtype="float32")):
            n, m = T.int64(), T.int64()
            y = R.match_cast(x, R.Tensor((n, m), "float32"))
            return y


def test_an_argument_made_by_a_python_call_is_a_python_value():
    from tensorir import te, tir

    def scale(x, k):
        return te.compute(x.shape, lambda i: x[i] * k, name="scaled")

    @I.ir_module
    class Scale:
        @R.function
        def main(x: R.Tensor((4,), "float32")):
            with R.dataflow():
                y = R.emit_te(scale, x, tir.const(2.0, "float32"))
                R.output(y)
            return y

    out = _vm(Scale)["main"](np.arange(4, dtype="float32"))
    np.testing.assert_allclose(out.numpy(), [0, 2, 4, 6])
