"""relax.op's layout operators: broadcast_to, strided_slice, tile and
concat (copies through affine maps), expand_dims and squeeze (reshapes:
views once built), and flip, split, stack and repeat made of those."""
import numpy as np

from ..expr import Call
from ..struct_info import TensorStructInfo
from ._common import axes_of, integers, tensor_of

__all__ = ["broadcast_to", "concat", "expand_dims", "flip", "repeat", "split", "squeeze",
           "stack", "strided_slice", "tile"]


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
        # Past the front (reversed to index 0) is -(size + 1), so that the
        # bound reads the same again (-1 would be the last index).
        stops.append(picked.stop if picked.stop >= 0 else -shape[axes[k]] - 1)
        shape[axes[k]] = len(picked)
    return Call("relax.strided_slice", [x], TensorStructInfo(tuple(shape), info.dtype),
                {"axes": axes, "begin": starts, "end": stops, "strides": strides})


def expand_dims(x, axis):
    """x with new axes of size 1 at `axis` (positions in the result)."""
    from . import reshape
    info = tensor_of(x, "expand_dims", "x", symbolic=True)  # a reshape
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
    info = tensor_of(x, "squeeze", "x", symbolic=True)  # a reshape
    axes = axes_of(axis, len(info.shape), "squeeze")
    return reshape(x, [d for i, d in enumerate(info.shape) if not (i in axes and d == 1)])


def concat(tensors, *more, axis=0):
    """The tensors one after another along `axis` (R.concat((x, y),
    axis=0); the printed form R.concat(x, y, axis=0) too)."""
    tensors = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
    tensors += list(more)
    if not tensors:
        raise ValueError("relax.op.concat: takes at least one tensor")
    infos = [tensor_of(t, "concat", f"tensor {k}") for k, t in enumerate(tensors)]
    rank = len(infos[0].shape)
    axis = axes_of(axis, rank, "concat")[0]
    shape = list(infos[0].shape)
    for k, info in enumerate(infos[1:], 1):
        if info.dtype != infos[0].dtype:
            raise ValueError(f"relax.op.concat: tensor {k} holds {info.dtype}, tensor 0 "
                             f"{infos[0].dtype}")
        if len(info.shape) != rank or any(a != b for i, (a, b) in
                                          enumerate(zip(info.shape, infos[0].shape))
                                          if i != axis):
            raise ValueError(f"relax.op.concat: tensor {k} of shape {tuple(info.shape)} "
                             f"does not fit {tuple(infos[0].shape)} off axis {axis}")
        shape[axis] += info.shape[axis]
    return Call("relax.concat", tensors, TensorStructInfo(tuple(shape), infos[0].dtype),
                {"axis": axis})


def tile(x, repeats):
    """x repeated `repeats` times along each axis (leading axes added when
    repeats is longer), as numpy.tile."""
    info = tensor_of(x, "tile", "x")
    repeats = integers(repeats, "tile", "repeats")
    if any(r < 1 for r in repeats):
        raise ValueError(f"relax.op.tile: repeats {repeats} are not all >= 1")
    shape = list(info.shape)
    rank = max(len(shape), len(repeats))
    shape = [1] * (rank - len(shape)) + shape
    repeats = [1] * (rank - len(repeats)) + repeats
    if rank != len(info.shape):
        from . import reshape
        x = reshape(x, shape)
    out = tuple(d * r for d, r in zip(shape, repeats))
    return Call("relax.tile", [x], TensorStructInfo(out, info.dtype), {"repeats": repeats})


def flip(data, axis):
    """data reversed along `axis`."""
    info = tensor_of(data, "flip", "data")
    axis = axes_of(axis, len(info.shape), "flip")[0]
    return strided_slice(data, [axis], [info.shape[axis] - 1], [-info.shape[axis] - 1], [-1])


def split(x, indices_or_sections, axis=0):
    """A tuple of parts of x along `axis`: `indices_or_sections` equal parts,
    or the parts between the given indices."""
    from ..expr import Tuple
    info = tensor_of(x, "split", "x")
    axis = axes_of(axis, len(info.shape), "split")[0]
    size = info.shape[axis]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections < 1 or size % sections:
            raise ValueError(f"relax.op.split: axis {axis} of size {size} does not split "
                             f"into {sections} equal parts")
        bounds = [size // sections * k for k in range(1, sections)]
    else:
        bounds = integers(indices_or_sections, "split", "indices_or_sections")
    edges = [0] + [min(max(b, 0), size) for b in bounds] + [size]
    parts = []
    for begin, end in zip(edges, edges[1:]):
        if end <= begin:
            raise ValueError(f"relax.op.split: the part [{begin}, {end}) of axis {axis} is "
                             "empty")
        parts.append(strided_slice(x, [axis], [begin], [end]) if (begin, end) != (0, size)
                     else x)
    return Tuple(parts)


def stack(tensors, axis=0):
    """The tensors along a new axis `axis`."""
    tensors = list(tensors)
    if not tensors:
        raise ValueError("relax.op.stack: takes at least one tensor")
    rank = len(tensor_of(tensors[0], "stack", "tensor 0").shape)
    axis = axes_of(axis, rank + 1, "stack")[0]
    return concat([expand_dims(t, axis) for t in tensors], axis=axis)


def repeat(data, repeats, axis=None):
    """numpy.repeat: each element `repeats` times along `axis` (of the
    flattened tensor without one): a unit axis after it broadcast to
    `repeats`, then folded in."""
    from . import reshape
    info = tensor_of(data, "repeat", "data")
    repeats = int(getattr(repeats, "value", repeats))
    if repeats < 1:
        raise ValueError(f"relax.op.repeat: repeats is at least 1, not {repeats}")
    shape = [int(d) for d in info.shape]
    if axis is None:
        data, shape, axis = reshape(data, [int(np.prod(shape))]), [int(np.prod(shape))], 0
    axis = axes_of(axis, len(shape), "repeat")[0]
    if repeats == 1:
        return data
    spread = shape[:axis + 1] + [repeats] + shape[axis + 1:]
    copies = broadcast_to(expand_dims(data, [axis + 1]), spread)
    return reshape(copies, shape[:axis] + [shape[axis] * repeats] + shape[axis + 1:])
