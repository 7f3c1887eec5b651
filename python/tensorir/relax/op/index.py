"""relax.op's indexing operators. take: the elements of x along `axis` at
the positions `indices` holds (x flattened when axis is None; out-of-range
indices clamped ("fast", "clip") or wrapped ("wrap"), so no read leaves
x). gather_elements: per element, as torch.gather. slice_scatter: a
strided slice of the data replaced by a source."""
from ..expr import Call
from ..struct_info import TensorStructInfo
from ._common import axes_of, number, tensor_of

__all__ = ["gather_elements", "slice_scatter", "take"]


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


def gather_elements(data, indices, axis=0):
    """out[i] = data[i with `axis` at indices[i]] (out-of-range indices
    clamped); the result has the indices' shape."""
    info = tensor_of(data, "gather_elements", "data")
    index = tensor_of(indices, "gather_elements", "indices")
    if not index.dtype.startswith("int"):
        raise TypeError(f"relax.op.gather_elements: the indices hold {index.dtype}, not "
                        "integers")
    rank = len(info.shape)
    axis = axes_of(axis, rank, "gather_elements")[0]
    if len(index.shape) != rank or any(index.shape[d] > info.shape[d] for d in range(rank)
                                       if d != axis):
        raise ValueError(f"relax.op.gather_elements: indices {tuple(index.shape)} do not "
                         f"fit data {tuple(info.shape)} off axis {axis}")
    return Call("relax.gather_elements", [data, indices],
                TensorStructInfo(tuple(index.shape), info.dtype), {"axis": axis})


def slice_scatter(input_tensor, src, start, end, step, axis=0):
    """input_tensor with range(start, end, step) of `axis` taken from src."""
    info = tensor_of(input_tensor, "slice_scatter", "input_tensor")
    src_info = tensor_of(src, "slice_scatter", "src")
    rank = len(info.shape)
    axis = axes_of(axis, rank, "slice_scatter")[0]
    picked = range(info.shape[axis])[slice(number(start, "slice_scatter", "start"),
                                           number(end, "slice_scatter", "end"),
                                           number(step, "slice_scatter", "step"))]
    if picked.step < 1 or len(picked) == 0:
        raise ValueError("relax.op.slice_scatter: the slice is empty or goes backwards")
    want = tuple(len(picked) if d == axis else info.shape[d] for d in range(rank))
    if tuple(src_info.shape) != want or src_info.dtype != info.dtype:
        raise ValueError(f"relax.op.slice_scatter: src {src_info.dtype}{tuple(src_info.shape)} "
                         f"does not fill the slice {info.dtype}{want}")
    return Call("relax.slice_scatter", [input_tensor, src], info,
                {"axis": axis, "start": picked.start, "end": picked.stop, "step": picked.step})
