"""topi's data movement (TVM's topi.transform): take."""
from .. import te

__all__ = ["take"]


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
