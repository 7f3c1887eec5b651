"""Checks the operators share."""
from ..._shapes import broadcast_shape
from ..expr import Expr
from ..struct_info import TensorStructInfo


def tensor_of(x, op, what):
    if not isinstance(x, Expr) or not isinstance(x.struct_info, TensorStructInfo):
        raise TypeError(f"relax.op.{op}: {what} is not a tensor (a relax Var, constant or "
                        f"call), got {type(x).__name__}")
    return x.struct_info


def binary_shape(a, b, op):
    return broadcast_shape(a, b, f"relax.op.{op}")
