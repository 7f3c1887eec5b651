"""tvm.arith.Analyzer.simplify: tir's index arithmetic (the C++
simplifyIndexExpr, through the extension) over IR nodes and over the
symbolic sizes written outside a function."""
import pytest

import tensorir as tvm
from tensorir import tir
from tensorir.script import tir as T


def test_index_expressions_simplify_as_tir_simplifies_them():
    a = tvm.arith.Analyzer()
    i, j = tir.Var("i"), tir.Var("j")
    assert tvm.ir.structural_equal(a.simplify(i * 4 + j - j), i * 4)
    assert tvm.ir.structural_equal(a.simplify((i * 8 + j) // 8), i + j // 8)
    folded = a.simplify((i * 8) % 4)
    assert isinstance(folded, tir.IntImm) and folded.value == 0
    assert a.simplify(tir.Max(i, i)) is i
    assert tvm.ir.structural_equal(a.simplify(tir.Min(i + 1 - 1, 3)), tir.Min(i, 3))


def test_symbolic_sizes_stay_symbolic_sizes():
    a = tvm.arith.Analyzer()
    assert repr(a.simplify((T.vscale() * 2) * 2)) == "T.vscale() * 4"
    assert repr(a.simplify(T.vscale() * 4 // 4)) == "T.vscale()"
    assert repr(a.simplify(T.ceildiv(128, 4 * T.vscale()))) == "T.ceildiv(128, T.vscale() * 4)"
    assert a.simplify(T.floordiv(9, 2)) == 4


def test_what_is_not_an_integer_expression_is_refused():
    with pytest.raises(TypeError, match="integer expression"):
        tvm.arith.Analyzer().simplify(tir.FloatImm("float32", 1.0) + 1.0)
