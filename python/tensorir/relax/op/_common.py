"""Checks the operators share."""
from ..expr import Expr
from ..struct_info import TensorStructInfo


def tensor_of(x, op, what):
    if not isinstance(x, Expr) or not isinstance(x.struct_info, TensorStructInfo):
        raise TypeError(f"relax.op.{op}: {what} is not a tensor (a relax Var, constant or "
                        f"call), got {type(x).__name__}")
    return x.struct_info


def binary_shape(a, b, op):
    out = []
    for i in range(max(len(a), len(b))):
        da = a[len(a) - 1 - i] if i < len(a) else 1
        db = b[len(b) - 1 - i] if i < len(b) else 1
        if da != db and 1 not in (da, db):
            raise ValueError(f"relax.op.{op}: shapes {a} and {b} do not broadcast "
                             f"(dimension {da} against {db})")
        out.append(db if da == 1 else da)
    return tuple(reversed(out))
