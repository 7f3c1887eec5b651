"""tvm.tir.Buffer, BufferRegion and MatchBufferRegion as IR nodes.

A Buffer is a name, a shape (PrimExprs; a dimension that is not known is
None where a signature is read without the IR), a dtype, a storage scope
and, for a view (T.match_buffer), its strides and element offset. Buffers
compare by identity: the body of a PrimFunc uses the very Buffer objects
of its buffer_map and of the blocks' alloc_buffers.
"""
from ..ir.node import Node, Range
from .expr import BufferLoad, PrimExpr, Var, convert

__all__ = ["Buffer", "BufferLoad", "BufferRegion", "MatchBufferRegion", "decl_buffer"]

_ELEMENT_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "bf16": "bfloat16",
                   "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
                   "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
                   "index": "int64"}


def _dim(d):
    """A shape entry as a PrimExpr (None stays: a dimension not known)."""
    return None if d is None else convert(d)


class Buffer(Node):
    """A buffer: name, shape, dtype, scope; strides / elem_offset for views."""

    _fields = ("name", "shape", "dtype", "scope_name", "strides", "elem_offset",
               "offset_factor", "data_alignment")

    def __init__(self, name, shape, dtype="float32", scope="global", strides=None,
                 elem_offset=None, offset_factor=0, data_alignment=-1, span=None):
        self.name, self.dtype = str(name), str(dtype)
        self.shape = [_dim(d) for d in (shape if isinstance(shape, (list, tuple)) else [shape])]
        self.scope_name = scope or "global"
        self.strides = [convert(s) for s in strides] if strides else []
        self.elem_offset = None if elem_offset is None else convert(elem_offset)
        self.offset_factor, self.data_alignment, self.span = offset_factor, data_alignment, span
        self.data = Var(self.name, "handle")
        self.data.buffer = self  # what a call taking the handle passes

    def scope(self):
        return self.scope_name

    def _rebuild(self, values):
        buf = Buffer(*values)
        if hasattr(self, "axis_separators"):
            buf.axis_separators = list(self.axis_separators)
        return buf

    @property
    def ndim(self):
        return len(self.shape)

    def __getitem__(self, indices):
        """`B[i, j]`: a BufferLoad; with slices, a BufferRegion."""
        items = list(indices) if isinstance(indices, tuple) else [indices]
        if any(isinstance(i, slice) for i in items):
            region = []
            for i in items:
                if isinstance(i, slice):
                    region.append(Range(0 if i.start is None else i.start, i.stop))
                else:
                    region.append(Range.from_min_extent(i, 1))
            return BufferRegion(self, region)
        return BufferLoad(self, items)

    def vload(self, begin, dtype=None):
        return BufferLoad(self, begin)

    def script(self, **_):
        shape = ", ".join("?" if d is None else d.script() for d in self.shape)
        return f'T.Buffer(({shape}{"," if len(self.shape) == 1 else ""}), "{self.dtype}")'


class BufferRegion(Node):
    """The part of a buffer a block reads or writes: one Range per
    dimension (TVM's BufferRegion, as T.reads / T.writes write it)."""

    _fields = ("buffer", "region")

    def __init__(self, buffer, region=None, span=None):
        self.buffer, self.span = buffer, span
        self.region = list(region) if region is not None else [
            Range.from_min_extent(0, d) for d in buffer.shape if d is not None]

    @staticmethod
    def full_region(buffer):
        return BufferRegion(buffer)


class MatchBufferRegion(Node):
    """A buffer declared as a view of a region of another
    (T.match_buffer in a block)."""

    _fields = ("buffer", "source")

    def __init__(self, buffer, source, span=None):
        self.buffer, self.source, self.span = buffer, source, span


def decl_buffer(shape, dtype="float32", name="buffer", data=None, strides=None,
                elem_offset=None, scope="", data_alignment=-1, offset_factor=0,
                buffer_type="", axis_separators=None, span=None):
    """TVM's tir.decl_buffer: a Buffer of `shape` and `dtype`."""
    if isinstance(shape, (int, PrimExpr)):
        shape = [shape]
    return Buffer(name, shape, dtype, scope or "global", strides, elem_offset,
                  offset_factor, data_alignment, span)


def buffers_of(names, shapes, element_types):
    """[BufferRegion] for a block's accessed buffers as its handle gives
    them (names, shapes with -1 for a runtime dimension, MLIR element
    types)."""
    return [BufferRegion(Buffer(n, [None if d < 0 else d for d in s],
                                _ELEMENT_DTYPES.get(t, t)))
            for n, s, t in zip(names or [], shapes or [], element_types or [])]
