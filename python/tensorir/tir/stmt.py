"""tvm.tir.stmt: the IR's statements as Python objects.

For (with ForKind), Block and BlockRealize (with IterVar), BufferStore,
SeqStmt, IfThenElse, LetStmt, AllocateConst, DeclBuffer, Evaluate. tir
allocates buffers in blocks (Block.alloc_buffers, T.alloc_buffer), so
TVM's Allocate has no node here, and DeclBuffer declares buffers over
AllocateConst's data only; nor has AttrStmt: tir keeps loop and block
attributes as annotations (For.annotations, Block.annotations).
"""
import enum

from ..ir.node import Node, Range
from .expr import PrimExpr, Var, convert

__all__ = ["Stmt", "ForKind", "For", "IterVar", "Block", "BlockRealize", "BufferStore",
           "SeqStmt", "IfThenElse", "LetStmt", "AllocateConst", "DeclBuffer", "Evaluate",
           "stmt_seq"]


class Stmt(Node):
    """A statement."""


class ForKind(enum.IntEnum):
    """How a loop runs (TVM's tir.ForKind)."""
    SERIAL = 0
    PARALLEL = 1
    VECTORIZED = 2
    UNROLLED = 3
    THREAD_BINDING = 4


def _stmt(value, what):
    if isinstance(value, (list, tuple)):
        return stmt_seq(*value)
    if not isinstance(value, Stmt):
        raise TypeError(f"{what} is a tir statement, got {type(value).__name__}")
    return value


def _var(value, what):
    value = convert(value) if not isinstance(value, Var) else value
    if not isinstance(value, Var):
        raise TypeError(f"{what} is a tir.Var, got {type(value).__name__}")
    return value


class For(Stmt):
    """`for loop_var in range(min, min + extent)` of a ForKind; a
    THREAD_BINDING loop names its thread (`thread_binding`, an IterVar or
    the thread tag)."""

    _fields = ("loop_var", "min", "extent", "kind", "body", "thread_binding", "annotations")

    def __init__(self, loop_var, min, extent, kind, body, thread_binding=None,  # noqa: A002
                 annotations=None, step=None, span=None):
        self.loop_var = _var(loop_var, "For's loop_var")
        self.min, self.extent = convert(min), convert(extent)
        for what, value in (("loop_var", self.loop_var), ("min", self.min),
                            ("extent", self.extent)):
            if value.dtype not in ("int32", "int64"):
                raise TypeError(f"For's {what} is an int32 or int64, got a {value.dtype}")
        self.kind = ForKind(kind)
        self.body = _stmt(body, "For's body")
        if isinstance(thread_binding, str):
            thread_binding = IterVar(None, Var(thread_binding), IterVar.ThreadIndex,
                                     thread_binding)
        if self.kind == ForKind.THREAD_BINDING and thread_binding is None:
            raise ValueError("a THREAD_BINDING loop needs its thread_binding")
        self.thread_binding = thread_binding
        self.annotations = dict(annotations or {})
        if step is not None and convert(step) != 1:
            raise ValueError("tir loops step by 1")
        self.span = span


class IterVar(Node):
    """A block's iteration variable: its domain (a Range), the Var, its
    kind (DataPar, CommReduce, ...) and, for a thread, its tag."""

    DataPar = 0
    ThreadIndex = 1
    CommReduce = 2
    Ordered = 3
    Opaque = 4
    DimInfo = 4
    Unrolled = 5
    Vectorized = 6
    Parallelized = 7
    Tensorized = 8

    _fields = ("dom", "var", "iter_type", "thread_tag")

    def __init__(self, dom, var, iter_type, thread_tag="", span=None):
        if dom is not None and not isinstance(dom, Range):
            dom = Range(*dom) if isinstance(dom, (list, tuple)) else Range(0, dom)
        self.dom, self.var = dom, _var(var, "IterVar's var")
        self.iter_type, self.thread_tag, self.span = int(iter_type), thread_tag, span


class Block(Stmt):
    """A block (TVM's tir.Block): its iteration variables, read and write
    regions, name, body, init statement, the buffers it allocates and
    matches, and annotations."""

    _fields = ("iter_vars", "reads", "writes", "name_hint", "body", "init", "alloc_buffers",
               "match_buffers", "annotations")

    def __init__(self, iter_vars, reads, writes, name_hint, body, init=None,
                 alloc_buffers=None, match_buffers=None, annotations=None, span=None):
        from .buffer import Buffer, BufferRegion, MatchBufferRegion
        self.iter_vars = list(iter_vars)
        self.reads, self.writes = list(reads), list(writes)
        for field, items, cls in (("iter_vars", self.iter_vars, IterVar),
                                  ("reads", self.reads, BufferRegion),
                                  ("writes", self.writes, BufferRegion),
                                  ("alloc_buffers", list(alloc_buffers or []), Buffer),
                                  ("match_buffers", list(match_buffers or []),
                                   MatchBufferRegion)):
            for item in items:
                if not isinstance(item, cls):
                    raise TypeError(f"Block's {field} are {cls.__name__}s, got a "
                                    f"{type(item).__name__}")
        self.name_hint = str(name_hint)
        self.body = _stmt(body, "Block's body")
        self.init = None if init is None else _stmt(init, "Block's init")
        self.alloc_buffers = list(alloc_buffers or [])
        self.match_buffers = list(match_buffers or [])
        self.annotations = dict(annotations or {})
        self.span = span

    def _rebuild(self, values):
        block = Block(*values, span=self.span)
        # What the block was read with, to tell stale regions (FromNodes.cpp).
        if hasattr(self, "_read_with"):
            block._read_with = self._read_with
        # Which regions a script gave (the others are inferred).
        if hasattr(self, "_regions_given"):
            block._regions_given = self._regions_given
        return block


class BlockRealize(Stmt):
    """A block where it runs: the values of its iteration variables and a
    predicate (T.where)."""

    _fields = ("iter_values", "predicate", "block")

    def __init__(self, iter_values, predicate, block, span=None):
        self.iter_values = [convert(v) for v in iter_values]
        self.predicate = convert(predicate)
        if self.predicate.dtype != "bool":
            raise TypeError(f"BlockRealize's predicate is a boolean, got a "
                            f"{self.predicate.dtype}")
        if not isinstance(block, Block):
            raise TypeError(f"BlockRealize takes a tir.Block, got {type(block).__name__}")
        if len(self.iter_values) != len(block.iter_vars):
            raise ValueError(f"BlockRealize of block '{block.name_hint}': "
                             f"{len(self.iter_values)} values for "
                             f"{len(block.iter_vars)} iteration variables")
        self.block, self.span = block, span


class BufferStore(Stmt):
    """`buffer[indices] = value`."""

    _fields = ("buffer", "value", "indices")

    def __init__(self, buffer, value, indices, span=None):
        from .buffer import Buffer
        if not isinstance(buffer, Buffer):
            raise TypeError(f"BufferStore takes a tir.Buffer, got {type(buffer).__name__}")
        self.buffer, self.value = buffer, convert(value, buffer.dtype)
        if self.value.dtype != buffer.dtype:
            raise TypeError(f"BufferStore to {buffer.name}: a {self.value.dtype} value into a "
                            f"{buffer.dtype} buffer (convert it with tvm.tir.Cast)")
        self.indices = [convert(i) for i in (indices if isinstance(indices, (list, tuple))
                                             else [indices])]
        if len(self.indices) != len(buffer.shape):
            raise ValueError(f"BufferStore to {buffer.name}: {len(self.indices)} indices for "
                             f"{len(buffer.shape)} dimensions")
        self.span = span


class SeqStmt(Stmt):
    """Statements in order."""

    _fields = ("seq",)

    def __init__(self, seq, span=None):
        self.seq = [_stmt(s, "SeqStmt's element") for s in seq]
        self.span = span

    def __getitem__(self, i):
        return self.seq[i]

    def __len__(self):
        return len(self.seq)


class IfThenElse(Stmt):
    """`if condition: then_case else: else_case` (else_case may be None)."""

    _fields = ("condition", "then_case", "else_case")

    def __init__(self, condition, then_case, else_case=None, span=None):
        self.condition = convert(condition)
        if self.condition.dtype != "bool":
            raise TypeError(f"IfThenElse's condition is a boolean, got a "
                            f"{self.condition.dtype}; compare it first (x != 0)")
        self.then_case = _stmt(then_case, "IfThenElse's then_case")
        self.else_case = None if else_case is None else _stmt(else_case,
                                                              "IfThenElse's else_case")
        self.span = span


class LetStmt(Stmt):
    """`var = value`, then `body`."""

    _fields = ("var", "value", "body")

    def __init__(self, var, value, body, span=None):
        self.var = _var(var, "LetStmt's var")
        self.value = convert(value, self.var.dtype)
        if self.value.dtype != self.var.dtype:
            raise TypeError(f"LetStmt binds the {self.var.dtype} variable {self.var.name} to a "
                            f"{self.value.dtype} value")
        self.body = _stmt(body, "LetStmt's body")
        self.span = span


class AllocateConst(Stmt):
    """Constant data (`data`, numbers in row-major order, of `dtype` and
    `extents`) behind the handle `buffer_var`, for `body` (TVM's
    AllocateConst; a DeclBuffer in the body names the buffer over it)."""

    _fields = ("buffer_var", "dtype", "extents", "data", "body")

    def __init__(self, buffer_var, dtype, extents, data, body, annotations=None, span=None):
        self.buffer_var = _var(buffer_var, "AllocateConst's buffer_var")
        self.dtype = str(dtype)
        self.extents = [convert(e) for e in extents]
        self.data = [float(v) if self.dtype.startswith(("float", "bfloat")) else int(v)
                     for v in getattr(data, "flat", data)]
        self.body = _stmt(body, "AllocateConst's body")
        self.annotations = dict(annotations or {})
        self.span = span


class DeclBuffer(Stmt):
    """`buffer` declared over data in scope (its `data` handle), for
    `body`."""

    _fields = ("buffer", "body")

    def __init__(self, buffer, body, span=None):
        from .buffer import Buffer
        if not isinstance(buffer, Buffer):
            raise TypeError(f"DeclBuffer takes a tir.Buffer, got {type(buffer).__name__}")
        self.buffer, self.body, self.span = buffer, _stmt(body, "DeclBuffer's body"), span


class Evaluate(Stmt):
    """An expression evaluated for its effect (T.evaluate)."""

    _fields = ("value",)

    def __init__(self, value, span=None):
        self.value, self.span = convert(value), span


def _flatten(items, out):
    for s in items:
        if isinstance(s, SeqStmt):
            out.extend(s.seq)
        elif isinstance(s, (list, tuple)):
            _flatten(s, out)
        elif isinstance(s, PrimExpr):
            out.append(Evaluate(s))
        else:
            out.append(_stmt(s, "a statement"))
    return out


def stmt_seq(*stmts):
    """One statement for several: a SeqStmt, or the statement itself."""
    flat = _flatten(stmts, [])
    if not flat:
        raise ValueError("stmt_seq of no statements")
    return flat[0] if len(flat) == 1 else SeqStmt(flat)
