"""tvm.arith: the Analyzer's simplifier over symbolic integer expressions
(tvm.tir.expr.PrimExpr: vscale, integers and + - * floordiv floormod
ceildiv min max)."""
from .analyzer import Analyzer

__all__ = ["Analyzer"]
