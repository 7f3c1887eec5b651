"""topi's data movement (TVM's topi.transform): take, squeeze, transpose,
concatenate, split, broadcast_to, full, cast, trilu."""
from .. import te

__all__ = ["broadcast_to", "cast", "concatenate", "full", "split", "squeeze", "take",
           "transpose", "trilu"]


def take(a, indices, axis=0):
    """The slices of `a` along `axis` at `indices` (an integer tensor): the
    result's shape is a's with that dimension replaced by indices' shape
    (an embedding lookup with axis 0). Indices out of range are clipped to
    it (TVM's mode "clip")."""
    if not str(indices.dtype).startswith(("int", "uint")):
        raise TypeError(f"topi.take: indices are integers, got {indices.dtype}")
    shape = [int(d) for d in a.shape]
    axis = int(axis) % len(shape)
    index_shape = [int(d) for d in indices.shape]
    rank = len(index_shape)
    out_shape = shape[:axis] + index_shape + shape[axis + 1:]

    def element(*i):
        where = indices(*i[axis:axis + rank]).astype("int64")
        where = te.max(te.min(where, shape[axis] - 1), 0)
        return a(*i[:axis], where, *i[axis + rank:])

    return te.compute(out_shape, element, name="T_take")


def _axis(axis, ndim, what):
    a = int(axis)
    if not -ndim <= a < ndim:
        raise ValueError(f"topi.{what}: axis {a} of a {ndim}-D tensor")
    return a % ndim


def squeeze(a, axis=None):
    """`a` without its dimensions of size 1 (those of `axis`, or all):
    block `T_squeeze`."""
    shape = list(a.shape)
    ndim = len(shape)
    if axis is None:
        drop = {d for d, e in enumerate(shape) if isinstance(e, int) and e == 1
                or getattr(e, "value", None) == 1}
    else:
        axes = [axis] if isinstance(axis, int) else list(axis)
        drop = {_axis(x, ndim, "squeeze") for x in axes}
        for d in drop:
            if int(shape[d]) != 1:
                raise ValueError(f"topi.squeeze: dimension {d} has size {shape[d]}, not 1")
    kept = [d for d in range(ndim) if d not in drop]

    def element(*i):
        index = [0] * ndim
        for k, d in enumerate(kept):
            index[d] = i[k]
        return a[tuple(index)]

    return te.compute(tuple(shape[d] for d in kept), element, name="T_squeeze")


def transpose(a, axes=None):
    """`a` with its dimensions permuted (reversed when axes is None): block
    `T_transpose`."""
    ndim = len(a.shape)
    axes = list(range(ndim))[::-1] if axes is None else [_axis(x, ndim, "transpose")
                                                          for x in axes]
    if sorted(axes) != list(range(ndim)):
        raise ValueError(f"topi.transpose: {axes} is not a permutation of {ndim} axes")

    def element(*i):
        index = [None] * ndim
        for k, d in enumerate(axes):
            index[d] = i[k]
        return a[tuple(index)]

    return te.compute(tuple(a.shape[d] for d in axes), element, name="T_transpose")


def concatenate(a_tuple, axis=0):
    """The tensors of `a_tuple` one after the other along `axis`: block
    `T_concat`, each element read from the tensor its index falls in."""
    tensors = list(a_tuple)
    if not tensors:
        raise ValueError("topi.concatenate: no tensors")
    ndim = len(tensors[0].shape)
    axis = _axis(axis, ndim, "concatenate")
    offsets, total = [], 0
    for t in tensors:
        if len(t.shape) != ndim:
            raise ValueError("topi.concatenate: the tensors differ in rank")
        offsets.append(total)
        total = total + t.shape[axis]
    shape = list(tensors[0].shape)
    shape[axis] = total

    def element(*i):
        def read(k):
            index = list(i)
            index[axis] = i[axis] - offsets[k] if k else i[axis]
            return tensors[k][tuple(index)]
        value = read(len(tensors) - 1)
        for k in range(len(tensors) - 2, -1, -1):
            value = te.if_then_else(i[axis] < offsets[k + 1], read(k), value)
        return value

    return te.compute(tuple(shape), element, name="T_concat")


def split(ary, indices_or_sections, axis=0):
    """`ary` cut along `axis` into equal sections (an int) or at the given
    indices: one block per part (`T_split_sections`, `T_split`)."""
    ndim = len(ary.shape)
    axis = _axis(axis, ndim, "split")
    extent = int(ary.shape[axis])
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0 or extent % n:
            raise ValueError(f"topi.split: {extent} elements do not split into {n} sections")
        starts = [k * (extent // n) for k in range(n)]
        name = "T_split_sections"
    else:
        starts = [0] + [int(k) for k in indices_or_sections]
        if any(b < a for a, b in zip(starts, starts[1:])) or starts[-1] > extent:
            raise ValueError(f"topi.split: indices {starts[1:]} do not split {extent} "
                             f"elements (axis {axis})")
        name = "T_split"
    ends = starts[1:] + [extent]
    def reader(begin):
        def element(*i):
            index = list(i)
            index[axis] = i[axis] + begin
            return ary[tuple(index)]
        return element

    parts = []
    for begin, end in zip(starts, ends):
        shape = list(ary.shape)
        shape[axis] = end - begin
        parts.append(te.compute(tuple(shape), reader(begin), name=name))
    return parts


def broadcast_to(data, shape):
    """`data` broadcast (numpy rules) to `shape`: block `T_broadcast_to`."""
    shape = tuple(shape)
    offset = len(shape) - len(data.shape)
    if offset < 0:
        raise ValueError(f"topi.broadcast_to: {len(data.shape)}-D data to {len(shape)}-D")

    def element(*i):
        index = [0 if isinstance(e, int) and e == 1 or getattr(e, "value", None) == 1
                 else i[offset + k] for k, e in enumerate(data.shape)]
        return data[tuple(index)]

    return te.compute(shape, element, name="T_broadcast_to")


def full(shape, dtype, fill_value):
    """A tensor of `shape` filled with `fill_value`: block `T_full`."""
    value = te.const(fill_value, dtype) if not isinstance(fill_value, te.Expr) \
        else fill_value.astype(dtype)
    return te.compute(tuple(shape), lambda *i: value, name="T_full")


def cast(x, dtype):
    """`x` converted to `dtype` element-wise: block `compute`."""
    return te.compute(x.shape, lambda *i: x[i].astype(dtype), name="compute")


def trilu(data, k, upper):
    """The upper (or lower) triangle of the last two dimensions from
    diagonal `k` on, zeros elsewhere: block `trilu`."""
    zero = te.const(0, data.dtype)

    def element(*i):
        row, col = i[-2], i[-1]
        keep = (col - row >= k) if upper else (col - row <= k)
        return te.if_then_else(keep, data[i], zero)

    return te.compute(data.shape, element, name="trilu")
