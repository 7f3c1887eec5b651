"""relax.op.where: elements of x1 where the condition holds, else of x2
(the three broadcast together)."""
from ..._shapes import broadcast_shape
from ..expr import Call
from ..struct_info import TensorStructInfo
from ._common import tensor_of

__all__ = ["where"]


def where(condition, x1, x2):
    c = tensor_of(condition, "where", "condition")
    a, b = tensor_of(x1, "where", "x1"), tensor_of(x2, "where", "x2")
    if c.dtype != "bool":
        raise TypeError(f"relax.op.where: the condition holds {c.dtype}, not bool")
    if a.dtype != b.dtype:
        raise ValueError(f"relax.op.where: the values' dtypes differ ({a.dtype} and "
                         f"{b.dtype})")
    shape = broadcast_shape(broadcast_shape(tuple(c.shape), tuple(a.shape), "relax.op.where"),
                            tuple(b.shape), "relax.op.where")
    return Call("relax.where", [condition, x1, x2], TensorStructInfo(shape, a.dtype))
