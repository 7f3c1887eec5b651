"""relax.op's layout operators: broadcast_to and strided_slice (copies
through an affine map), expand_dims and squeeze (reshapes: views once
built)."""
from ..expr import Call
from ..struct_info import TensorStructInfo
from ._common import axes_of, integers, tensor_of

__all__ = ["broadcast_to", "expand_dims", "squeeze", "strided_slice"]


def broadcast_to(x, shape):
    """x read at the indices of `shape` with NumPy broadcasting."""
    from ..._shapes import broadcast_shape
    info = tensor_of(x, "broadcast_to", "x")
    shape = tuple(integers(shape, "broadcast_to", "shape"))
    if broadcast_shape(tuple(info.shape), shape, "relax.op.broadcast_to") != shape:
        raise ValueError(f"relax.op.broadcast_to: shape {tuple(info.shape)} does not "
                         f"broadcast to {shape}")
    return Call("relax.broadcast_to", [x], TensorStructInfo(shape, info.dtype),
                {"shape": list(shape)})


def strided_slice(x, axes, begin, end, strides=None, assume_inbound=False):
    """Python's x[begin:end:stride] on each axis of `axes` (out-of-range
    bounds clamped, negative ones from the end)."""
    info = tensor_of(x, "strided_slice", "x")
    rank = len(info.shape)
    axes = integers(axes, "strided_slice", "axes")
    begin = integers(begin, "strided_slice", "begin")
    end = integers(end, "strided_slice", "end")
    strides = integers(strides, "strided_slice", "strides") if strides is not None \
        else [1] * len(axes)
    if not len(axes) == len(begin) == len(end) == len(strides):
        raise ValueError("relax.op.strided_slice: axes, begin, end and strides have "
                         f"{len(axes)}, {len(begin)}, {len(end)} and {len(strides)} values")
    shape = list(info.shape)
    starts, stops = [], []
    for k, axis in enumerate(axes):
        if not -rank <= axis < rank:
            raise ValueError(f"relax.op.strided_slice: axis {axis} is outside {rank} "
                             "dimensions")
        axes[k] = axis % rank
        if strides[k] == 0:
            raise ValueError("relax.op.strided_slice: a stride is 0")
        picked = range(shape[axes[k]])[slice(begin[k], end[k], strides[k])]
        if len(picked) == 0:
            raise ValueError(f"relax.op.strided_slice: the slice of axis {axes[k]} is empty")
        starts.append(picked.start)
        stops.append(picked.stop)
        shape[axes[k]] = len(picked)
    return Call("relax.strided_slice", [x], TensorStructInfo(tuple(shape), info.dtype),
                {"axes": axes, "begin": starts, "end": stops, "strides": strides})


def expand_dims(x, axis):
    """x with new axes of size 1 at `axis` (positions in the result)."""
    from . import reshape
    info = tensor_of(x, "expand_dims", "x")
    axes = axes_of(axis, len(info.shape) + len(integers(axis, "expand_dims", "axis")),
                   "expand_dims")
    shape, rest = [], iter(info.shape)
    for i in range(len(info.shape) + len(axes)):
        shape.append(1 if i in axes else next(rest))
    return reshape(x, shape)


def squeeze(x, axis=None):
    """x without its axes of size 1 (those of `axis`, or all; an axis of
    another size stays, as in PyTorch)."""
    from . import reshape
    info = tensor_of(x, "squeeze", "x")
    axes = axes_of(axis, len(info.shape), "squeeze")
    return reshape(x, [d for i, d in enumerate(info.shape) if not (i in axes and d == 1)])
