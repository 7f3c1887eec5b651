"""IR nodes on their own: `str(node)` / `node.script()` (TVM's script() of
a statement or expression) and the fragments structural equality compares.

A statement or expression is built into tir as a fragment: function
@fragment whose arguments are the node's free variables and buffers, in
order of first use, and whose result is an expression's value
(fragment_from_nodes, python/extension/FromNodes.cpp). The C++ TVMScript
printer, the printer of functions, prints its body. Regions, ranges,
buffers and iteration variables print as their parts do; a node with no
tir form prints as its class and fields.
"""
from .._ext import ext
from ..ir.node import Node, Op, Range
from . import expr as E
from . import stmt as S
from .analysis import undefined_vars
from .buffer import Buffer, BufferRegion, MatchBufferRegion

__all__ = ["fragment", "script"]

_AXIS = {S.IterVar.DataPar: "spatial", S.IterVar.CommReduce: "reduce",
         S.IterVar.Ordered: "scan", S.IterVar.Opaque: "opaque"}


def free_buffers(node):
    """The Buffers `node` reads or writes without declaring them (block
    allocations and matches, DeclBuffer), in order of first use."""
    declared, found, seen = set(), [], set()

    def walk(n):
        if isinstance(n, S.Block):
            declared.update(id(b) for b in n.alloc_buffers)
            declared.update(id(m.buffer) for m in n.match_buffers)
        elif isinstance(n, S.DeclBuffer):
            declared.add(id(n.buffer))
        b = None
        if isinstance(n, (E.BufferLoad, S.BufferStore, BufferRegion)):
            b = n.buffer
        elif isinstance(n, E.Var) and n.dtype == "handle":
            b = getattr(n, "buffer", None)  # a buffer's data a call takes
        if b is not None and id(b) not in declared and id(b) not in seen:
            seen.add(id(b))
            found.append(b)
        if isinstance(n, Buffer):
            return
        if isinstance(n, Node):
            for _, v in n.fields():
                walk(v)
        elif isinstance(n, (list, tuple)):
            for v in n:
                walk(v)
    walk(node)
    return found


def fragment(node):
    """(native module holding @fragment, free Vars, free Buffers) of a
    statement or expression; ValueError when it has no tir form."""
    if isinstance(node, S.Block):
        # A block on its own is realized at its iteration variables.
        node = S.BlockRealize([iv.var for iv in node.iter_vars], True, node)
    if not isinstance(node, (S.Stmt, E.PrimExpr)):
        raise ValueError(f"a {type(node).__name__} is not a statement or expression")
    free_vars, bufs = undefined_vars(node), free_buffers(node)
    try:
        native = ext.fragment_from_nodes(node, isinstance(node, E.PrimExpr), free_vars, bufs)
    except (TypeError, RuntimeError) as e:  # a field the builder cannot read
        raise ValueError(f"{type(node).__name__}: {e}") from None
    return native, free_vars, bufs


_PRINTING = set()  # ids of the nodes being printed (an error message may print them)


def script(node):
    """`node` (a statement, expression, buffer, region, ...) as TVMScript."""
    if isinstance(node, (S.Stmt, E.PrimExpr)):
        if id(node) in _PRINTING:
            return _fields(node)
        _PRINTING.add(id(node))
        try:
            native = fragment(node)[0]
            return native.tvmscript_fragment().rstrip("\n")
        except ValueError:
            return _fields(node)
        finally:
            _PRINTING.discard(id(node))
    if isinstance(node, BufferRegion):
        return f"{node.buffer.name}[{', '.join(_range(r) for r in node.region)}]"
    if isinstance(node, MatchBufferRegion):
        return f"{node.buffer.name} = T.match_buffer({script(node.source)})"
    if isinstance(node, Buffer):
        return Buffer.script(node)
    if isinstance(node, Range):
        return f"Range({script(node.min)}, {script(node.extent)})"
    if isinstance(node, S.IterVar):
        dom = "" if node.dom is None else f", {script(node.dom)}"
        tag = f', "{node.thread_tag}"' if node.thread_tag else ""
        kind = _AXIS.get(node.iter_type, str(node.iter_type))
        return f"IterVar({node.var.name}{dom}, {kind}{tag})"
    if isinstance(node, Op):
        return Op.script(node)
    return _fields(node)


def _range(r):
    """A region's range as a slice (`lo:hi`), or its index when it is one
    element."""
    if isinstance(r.extent, E.IntImm) and r.extent.value == 1:
        return script(r.min)
    return f"{script(r.min)}:{script(E.make_binary(E.Add, r.min, r.extent))}"


def _fields(node):
    """A node with no tir form (a vector, a Let): its class and fields."""
    if isinstance(node, E.Var):
        return node.name
    if isinstance(node, (E.IntImm, E.FloatImm)):
        return script(node)
    if isinstance(node, Buffer):
        return node.name
    if isinstance(node, Node):
        parts = ", ".join(_fields(v) for _, v in node.fields())
        return f"T.{type(node).__name__}({parts})"
    if isinstance(node, (list, tuple)):
        return "[" + ", ".join(_fields(v) for v in node) + "]"
    return repr(node)
