"""relax.op.take: the elements of x along `axis` at the positions
`indices` holds (x flattened when axis is None). Out-of-range indices are
clamped ("fast", "clip") or wrapped ("wrap"), so no read leaves x."""
from ..expr import Call
from ..struct_info import TensorStructInfo
from ._common import axes_of, tensor_of

__all__ = ["take"]


def take(x, indices, axis=None, mode="fast"):
    info = tensor_of(x, "take", "x")
    index = tensor_of(indices, "take", "indices")
    if not index.dtype.startswith("int"):
        raise TypeError(f"relax.op.take: the indices hold {index.dtype}, not integers")
    if mode not in ("fast", "clip", "wrap"):
        raise ValueError(f"relax.op.take: mode {mode!r} is not 'fast', 'clip' or 'wrap'")
    if axis is None:
        from . import reshape
        size = 1
        for d in info.shape:
            size *= d
        x, info, axis = reshape(x, [size]), TensorStructInfo((size,), info.dtype), 0
    if len(info.shape) == 0:
        raise ValueError("relax.op.take: x is a scalar (0-d tensor)")
    axis = axes_of(axis, len(info.shape), "take")[0]
    shape = tuple(info.shape[:axis]) + tuple(index.shape) + tuple(info.shape[axis + 1:])
    return Call("relax.take", [x, indices], TensorStructInfo(shape, info.dtype),
                {"axis": axis, "mode": mode})
