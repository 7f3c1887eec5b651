"""Analyzer.simplify: a modest rewriter for PrimExpr.

Integers fold; x + 0, x - 0, x * 1, x * 0, x floordiv 1, x floormod 1,
x ceildiv 1, min/max of equal operands simplify; a constant factor goes to
the right (`4 * vscale` is `vscale * 4`) and constant factors multiply
(`(vscale * 2) * 2` is `vscale * 4`); `(x * c) floordiv c` and
`(x * c) ceildiv c` are `x`, `(x * c) floormod c` is 0. Nothing else is
rewritten: what is left is equivalent, not canonical.
"""
from ..tir.expr import IntImm
from ..tir.size_expr import BinaryExpr, SymbolicExpr as PrimExpr, fold


def _simplify(e):
    if not isinstance(e, BinaryExpr):
        return e
    a, b = _simplify(e.a), _simplify(e.b)
    op = e.op
    if isinstance(a, int) and isinstance(b, int):
        return fold(op, a, b)
    if op == "mul" and isinstance(a, int):
        a, b = b, a  # the constant factor on the right
    if op == "add" and isinstance(a, int):
        a, b = b, a
    if op in ("add", "sub") and b == 0:
        return a
    if op == "add" and isinstance(a, int) and a == 0:
        return b
    if op == "mul":
        if b == 0:
            return 0
        if b == 1:
            return a
        if isinstance(b, int) and isinstance(a, BinaryExpr) and a.op == "mul" \
                and isinstance(a.b, int):
            return _simplify(BinaryExpr("mul", a.a, a.b * b))
    if op in ("floordiv", "ceildiv") and b == 1:
        return a
    if op == "floormod" and b == 1:
        return 0
    if op in ("floordiv", "ceildiv", "floormod") and isinstance(b, int) and b != 0 \
            and isinstance(a, BinaryExpr) and a.op == "mul" and isinstance(a.b, int) \
            and a.b % b == 0:
        return 0 if op == "floormod" else _simplify(BinaryExpr("mul", a.a, a.b // b))
    if op in ("min", "max") and a == b:
        return a
    return BinaryExpr(op, a, b)


class Analyzer:
    """tvm.arith.Analyzer (the simplifier only)."""

    def simplify(self, expr, steps=2):
        """An equivalent, simpler expression: an IntImm when it folds to an
        integer, else a PrimExpr; ints and IntImms come back as they are."""
        if isinstance(expr, (int, IntImm)):
            return expr
        if not isinstance(expr, PrimExpr):
            raise TypeError(f"Analyzer.simplify takes an integer expression, got "
                            f"{type(expr).__name__}")
        result = _simplify(expr)
        return IntImm(expr.dtype, result) if isinstance(result, int) else result
