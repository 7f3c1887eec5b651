"""relax.op: graph operators. call_tir calls a prim_func."""
from ..block_builder import call_tir

__all__ = ["call_tir"]
