"""relax.op's sorting operators: argsort, sort, topk, median, bucketize.

A sort along an axis of n elements is built from the element-wise and
reduction operators, as a rank count: the rank of element i is the number of
elements before it (smaller, or equal at a lower index: a stable order; NaN
after every number, or before in descending order, as PyTorch sorts), and
position k of the order holds the index whose rank is k. Each step compares
every pair along the axis: n^2 comparisons, the cost of this form for long
axes (FuseOps puts them into the reductions; legalized alone, each step
stores its n-by-n comparisons)."""
import numpy as np

from ..expr import Tuple, const
from ._common import axes_of, tensor_of

__all__ = ["argsort", "bucketize", "median", "sort", "topk"]


def _integer_dtype(dtype, op):
    dtype = str(dtype)
    if dtype not in ("int32", "int64"):
        raise ValueError(f"relax.op.{op}: dtype is int32 or int64, not {dtype!r}")
    return dtype


def _placed(values, axis, rank):
    """A constant of 2-D `values` laid out at axes `axis` and `axis` + 1 of
    a tensor of `rank` + 1 dimensions (to broadcast against it)."""
    trailing = rank - 1 - axis
    return const(np.asarray(values).reshape(values.shape + (1,) * trailing))


def _ranks(data, axis, descending, op):
    """Each element's position in the stable order along `axis` (int64)."""
    from . import astype, expand_dims, sum as reduce_sum
    from .binary import equal, greater, less, logical_and, logical_or
    from .unary import isnan, logical_not
    info = tensor_of(data, op, "data")
    if info.dtype == "bool":
        raise TypeError(f"relax.op.{op}: sorts numbers, not bool tensors (R.astype first)")
    rank = len(info.shape)
    n = int(info.shape[axis])
    at_i, at_j = expand_dims(data, [axis + 1]), expand_dims(data, [axis])
    first = greater if descending else less
    before = first(at_j, at_i)
    same = equal(at_j, at_i)
    if info.dtype.startswith(("float", "bfloat")):
        nan_i, nan_j = isnan(at_i), isnan(at_j)
        # NaN is the largest: last ascending, first descending.
        nan_first = logical_and(nan_j, logical_not(nan_i)) if descending else \
            logical_and(nan_i, logical_not(nan_j))
        before = logical_or(before, nan_first)
        same = logical_or(same, logical_and(nan_i, nan_j))
    # Equal elements keep their order: j before i when j < i (two aranges
    # broadcast against each other, not an n-by-n constant).
    index = np.arange(n, dtype="int64")
    lower = less(_placed(index[None, :], axis, rank), _placed(index[:, None], axis, rank))
    before = logical_or(before, logical_and(same, lower))
    return reduce_sum(astype(before, "int64"), [axis + 1])


def _positions(ranks, axis, rank, n, first, count, dtype):
    """The indices holding ranks first .. first + count - 1 along `axis`."""
    from . import astype, expand_dims, sum as reduce_sum
    from .binary import equal
    from .search import where
    wanted = np.arange(first, first + count, dtype="int64")[:, None]
    hit = equal(expand_dims(ranks, [axis]), _placed(wanted, axis, rank))
    index = np.arange(n, dtype="int64")[None, :]
    picked = where(hit, _placed(index, axis, rank), const(np.array(0, "int64")))
    out = reduce_sum(picked, [axis + 1])
    return out if dtype == "int64" else astype(out, dtype)


def argsort(data, axis=-1, descending=False, dtype="int32"):
    """The indices that sort `data` along `axis` (stable)."""
    info = tensor_of(data, "argsort", "data")
    rank = len(info.shape)
    axis = axes_of(axis, rank, "argsort")[0]
    dtype = _integer_dtype(dtype, "argsort")
    ranks = _ranks(data, axis, bool(descending), "argsort")
    return _positions(ranks, axis, rank, int(info.shape[axis]), 0, int(info.shape[axis]),
                      dtype)


def sort(x, axis=-1, descending=False):
    """`x` sorted along `axis`."""
    from .index import gather_elements
    info = tensor_of(x, "sort", "x")
    axis = axes_of(axis, len(info.shape), "sort")[0]
    return gather_elements(x, argsort(x, axis, descending, "int64"), axis)


def topk(data, k=1, axis=-1, ret_type="both", largest=True, dtype="int32"):
    """The k largest (or smallest) elements along `axis`, in order, and
    their indices: (values, indices), or one of them by `ret_type`."""
    from .index import gather_elements
    info = tensor_of(data, "topk", "data")
    rank = len(info.shape)
    axis = axes_of(axis, rank, "topk")[0]
    dtype = _integer_dtype(dtype, "topk")
    n, k = int(info.shape[axis]), int(k)
    if not 1 <= k <= n:
        raise ValueError(f"relax.op.topk: k is between 1 and the axis' size {n}, not {k}")
    if ret_type not in ("both", "values", "indices"):
        raise ValueError(f"relax.op.topk: ret_type is 'both', 'values' or 'indices', not "
                         f"{ret_type!r}")
    ranks = _ranks(data, axis, bool(largest), "topk")
    indices = _positions(ranks, axis, rank, n, 0, k, dtype)
    if ret_type == "indices":
        return indices
    values = gather_elements(data, indices, axis)
    return values if ret_type == "values" else Tuple([values, indices])


def median(x, axis=None, keepdims=False):
    """The lower median (element (n - 1) // 2 of the sorted order; NaN
    where there is one): along one axis (values, indices), or of all the
    elements its value."""
    from . import reshape, squeeze
    from .index import gather_elements
    info = tensor_of(x, "median", "x")
    rank = len(info.shape)
    whole = axis is None
    if whole:
        x, axis, rank = reshape(x, [int(np.prod([int(d) for d in info.shape]))]), 0, 1
    axes = axes_of(axis, rank, "median")
    if len(axes) != 1:
        raise ValueError(f"relax.op.median: takes one axis, not {axes}")
    axis = axes[0]
    n = int(x.struct_info.shape[axis])
    ranks = _ranks(x, axis, False, "median")
    indices = _positions(ranks, axis, rank, n, (n - 1) // 2, 1, "int64")
    if x.struct_info.dtype.startswith(("float", "bfloat")):
        # A NaN makes the median NaN (PyTorch's median; nanmedian skips
        # them): the first NaN, which sorts after every number.
        from . import argmax, astype, expand_dims
        from .statistical import max as reduce_max
        from .search import where
        from .unary import isnan
        nans = astype(isnan(x), "int32")
        first_nan = expand_dims(argmax(nans, axis), [axis])
        indices = where(expand_dims(astype(reduce_max(nans, [axis]), "bool"), [axis]),
                        astype(first_nan, "int64"), indices)
    values = gather_elements(x, indices, axis)
    if whole:
        return reshape(values, [1] * len(info.shape) if keepdims else [])
    if not keepdims:
        values, indices = squeeze(values, [axis]), squeeze(indices, [axis])
    return Tuple([values, indices])


def bucketize(input_tensor, boundaries, out_int32=False, right=False):
    """The bucket of each element among sorted `boundaries`: the number of
    boundaries below it (at or below it with `right`; NaN after all),
    PyTorch's torch.bucketize."""
    from . import astype, expand_dims, sum as reduce_sum
    from .binary import less, less_equal
    info = tensor_of(input_tensor, "bucketize", "input_tensor")
    edges = tensor_of(boundaries, "bucketize", "boundaries")
    if len(edges.shape) != 1:
        raise ValueError(f"relax.op.bucketize: boundaries are 1-D, not of shape "
                         f"{tuple(edges.shape)}")
    if info.dtype != edges.dtype:
        raise ValueError(f"relax.op.bucketize: the input holds {info.dtype}, the boundaries "
                         f"{edges.dtype}; R.astype one first")
    at = expand_dims(input_tensor, [-1])
    below = (less_equal if right else less)(boundaries, at)
    if info.dtype.startswith(("float", "bfloat")):
        from .binary import logical_or
        from .unary import isnan
        below = logical_or(below, isnan(at))  # NaN after every boundary
    return reduce_sum(astype(below, "int32" if out_int32 else "int64"), [-1])
