"""Checks the operators share."""
import operator

from ..._shapes import broadcast_shape
from ..expr import Expr
from ..._ext import ext
from ..struct_info import TensorStructInfo, is_symbolic


def tensor_of(x, op, what, symbolic=False):
    """The struct info of the tensor operand `what` of operator `op`; a
    shape with shape variables only where the operator takes them (or
    `symbolic`: an operator made of ones that do)."""
    if isinstance(x, Expr) and hasattr(x.struct_info, "matches"):
        raise TypeError(f"relax.op.{op}: {what} is {x.struct_info!r}, a tensor of no "
                        "known shape; operators take tensors of known shapes")
    if not isinstance(x, Expr) or not isinstance(x.struct_info, TensorStructInfo):
        raise TypeError(f"relax.op.{op}: {what} is not a tensor (a relax Var, constant or "
                        f"call), got {type(x).__name__}")
    info = x.struct_info
    if is_symbolic(info.shape) and not symbolic and \
            not ext.graph_operator_takes_dynamic_shapes(op):
        raise ValueError(f"relax.op.{op}: {what} has the shape "
                         f"({', '.join(map(str, info.shape))}) with shape variables; this "
                         "operator takes static shapes (the element-wise operators, matmul, "
                         "permute_dims, nn.softmax, the reshapes and the convolutions take "
                         "symbolic ones)")
    return info


def binary_shape(a, b, op):
    return broadcast_shape(a, b, f"relax.op.{op}")


def number(value, op, what):
    """A Python number from an int / float, an IntImm / FloatImm or an
    R.prim_value (relax.PrimValue)."""
    value = getattr(value, "value", value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if hasattr(value, "__index__"):
            return operator.index(value)
        raise TypeError(f"relax.op.{op}: {what} is a number, got {type(value).__name__}")
    return value


def integers(values, op, what):
    """A list of ints from an int, a list / tuple / shape of ints or
    R.prim_values."""
    if isinstance(values, (list, tuple)) or hasattr(values, "values"):
        values = list(getattr(values, "values", values))
    else:
        values = [values]
    out = []
    for v in values:
        v = number(v, op, what)
        if not isinstance(v, int):
            raise TypeError(f"relax.op.{op}: {what} holds integers, got {v!r}")
        out.append(v)
    return out


def axes_of(axis, rank, op):
    """Sorted axes in [0, rank) from None (all), an int or a list."""
    if axis is None:
        return list(range(rank))
    axes = integers(axis, op, "axis")
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"relax.op.{op}: axis {a} is outside {rank} dimensions")
    normalized = sorted({a % rank for a in axes})
    if len(normalized) != len(axes):
        raise ValueError(f"relax.op.{op}: axes {axes} repeat an axis")
    return normalized
