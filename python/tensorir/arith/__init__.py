"""tvm.arith: the Analyzer's simplifier over integer expressions (tir's
index arithmetic, through the extension)."""
from .analyzer import Analyzer

__all__ = ["Analyzer"]
