"""tvm.ir.Array: what TVM gives back for a sequence of objects, such as
the results of a function returning a tuple. Here an immutable sequence
(a tuple), so that indexing, unpacking and len work as on TVM's."""

__all__ = ["Array"]


class Array(tuple):
    """A tuple, under TVM's name for it."""

    def __repr__(self):
        return f"Array({list(self)!r})"
