"""Analyzer.simplify: integer expressions simplified by tir's index
arithmetic (the C++ simplifyIndexExpr, through the extension), the one the
verifier, the schedule primitives and the lowering use.

It takes tvm.tir nodes (`i * 4 + j - j`, also the sizes written outside a
function, `T.ceildiv(n, 4 * T.vscale())`) and gives back nodes: an IntImm
when the expression folds to a constant. What index
expressions hold (+ - * // % T.ceildiv over variables, T.vscale() and
constants) is simplified as one; T.min / T.max over simplified operands;
anything else comes back as it is.
"""
from .._ext import ext
from ..tir import expr as E
from ..tir.function import node_classes


class Analyzer:
    """tvm.arith.Analyzer (the simplifier only)."""

    def simplify(self, expr, steps=2):
        if isinstance(expr, (int, E.IntImm)):
            return expr
        node = expr
        if not isinstance(node, E.PrimExpr) or node.dtype not in ("int32", "int64"):
            raise TypeError(f"Analyzer.simplify takes an integer expression, got "
                            f"{type(expr).__name__}")
        result = ext.simplify_index(node, node_classes())
        if isinstance(result, E.IntImm):
            return E.IntImm(expr.dtype, result.value)
        return result
