"""tvm.tir.Buffer as a read-only view of a function's buffer parameter.

A PrimFunc's `params` and `buffer_map` (TVM's fields) are read off the
function's MLIR signature: each parameter is a Var named as in TVMScript,
and each buffer parameter maps to a Buffer with its name, shape (ints; a
runtime dimension is the Var of its dimension name, or None) and dtype.
The IR as Python objects (constructible, mutable) is not here yet.
"""
import re

from ..te import Var

__all__ = ["Buffer", "BufferLoad", "BufferRegion", "decl_buffer", "function_signature"]

_ELEMENT_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "bf16": "bfloat16",
                   "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
                   "index": "int64"}


class Buffer:
    """A buffer parameter: name, shape, dtype and storage scope."""

    def __init__(self, name, shape, dtype, scope="global"):
        self.name, self.shape, self.dtype, self._scope = name, list(shape), dtype, scope

    def scope(self):
        return self._scope

    def __getitem__(self, indices):
        """`B[i, j]`: a load of the buffer (TVM's BufferLoad)."""
        return BufferLoad(self, list(indices) if isinstance(indices, tuple) else [indices])

    def __repr__(self):
        return f"Buffer({self.name!r}, {self.shape}, {self.dtype!r})"


class BufferLoad:
    """`B[indices]` of a Buffer (TVM's tir.BufferLoad): an element of a
    buffer, which index maps and pad values refuse (they are expressions
    of their indices only)."""

    def __init__(self, buffer, indices):
        self.buffer, self.indices, self.dtype = buffer, indices, buffer.dtype

    def __repr__(self):
        return f"{self.buffer.name}[{', '.join(map(str, self.indices))}]"


class BufferRegion:
    """A buffer a block reads or writes (TVM's BufferRegion, as
    `sch.get(block).reads` lists them). Only the buffer is here: the region
    itself comes with the IR as Python objects."""

    def __init__(self, buffer):
        self.buffer = buffer

    def __repr__(self):
        return f"BufferRegion({self.buffer!r})"


def decl_buffer(shape, dtype="float32", name="buffer", data=None, strides=None,
                elem_offset=None, scope="", data_alignment=-1, offset_factor=0,
                buffer_type="", axis_separators=None, span=None):
    """TVM's tir.decl_buffer: a Buffer of `shape` and `dtype` (the layout
    arguments are accepted for TVM's signature; the buffer is dense)."""
    if isinstance(shape, int):
        shape = [shape]
    return Buffer(name, shape, dtype, scope or "global")


def buffers_of(names, shapes, element_types):
    """[BufferRegion] for a block's accessed buffers as its handle gives
    them (names, shapes with -1 for a runtime dimension, MLIR element
    types)."""
    return [BufferRegion(Buffer(n, [None if d < 0 else d for d in s],
                                _ELEMENT_DTYPES.get(t, t)))
            for n, s, t in zip(names or [], shapes or [], element_types or [])]


def _split_top_level(text):
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts


def function_signature(text, name):
    """[(Var, Buffer or None)] for the parameters of `func.func @name` in
    the MLIR `text`."""
    head = text.index(f"@{name}(") + len(name) + 2
    depth, end = 1, head
    while depth:
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        end += 1
    params = []
    for arg in _split_top_level(text[head:end - 1]):
        ssa, _, rest = arg.strip().partition(":")
        named = re.search(r'tir\.name = "([^"]*)"', rest)
        pname = named.group(1) if named else ssa.strip().lstrip("%")
        memref = re.match(r"\s*memref<(.*)>", rest.split("{")[0].strip())
        if not memref:
            dtype = _ELEMENT_DTYPES.get(rest.split("{")[0].strip(), "int32")
            params.append((Var(pname, dtype), None))
            continue
        fields = _split_top_level(memref.group(1))
        dims = fields[0].strip().split("x")
        scope = next((f.strip().strip('"') for f in fields[1:] if f.strip().startswith('"')),
                     "global")
        shape = [int(d) if d.isdigit() else None for d in dims[:-1]]
        dtype = _ELEMENT_DTYPES.get(dims[-1], dims[-1])
        params.append((Var(pname, "handle"), Buffer(pname, shape, dtype, scope)))
    return params
