"""IR nodes shown as TVMScript: `str(node)` and `node.script()` of a
statement, expression, buffer or region on its own (TVM's script() of a
node). Functions print with the C++ printer (PrimFunc.script), and nodes
go back to tir through the extension (tir.function.from_nodes), not
through this text. Every Var and Buffer of one printout gets one name: its
hint, or the hint with `_1`, `_2`, ... when another object already has it.
"""
import keyword
import math

from ..ir.node import Node, Op, Range
from . import expr as E
from . import stmt as S
from .analysis import undefined_vars
from .buffer import Buffer, BufferRegion, MatchBufferRegion

__all__ = ["script", "Printer"]

# Names the printed text itself uses: a variable must not shadow them.
_RESERVED = {"T", "I", "R", "range"}

_AXIS = {S.IterVar.DataPar: "spatial", S.IterVar.CommReduce: "reduce",
         S.IterVar.Ordered: "scan", S.IterVar.Opaque: "opaque"}
_KIND = {S.ForKind.PARALLEL: "parallel", S.ForKind.VECTORIZED: "vectorized",
         S.ForKind.UNROLLED: "unroll", S.ForKind.SERIAL: "serial"}
# Python's precedence: or 1, and 2, not 3, comparisons 4, + - 9,
# * / // % 10, unary minus 11, atoms 12 (bitwise operations print as
# T.bitwise_and / T.shift_left / ... calls, as TVMScript's parser reads them).
_BINARY = {E.Add: ("+", 9), E.Sub: ("-", 9), E.Mul: ("*", 10), E.FloorDiv: ("//", 10),
           E.FloorMod: ("%", 10)}
# Calls whose result dtype TVMScript writes first.
_DTYPE_FIRST = {"tir.call_extern", "tir.call_pure_extern", "tir.call_llvm_intrin",
                "tir.call_llvm_pure_intrin"}
_COMPARE = {E.EQ: "==", E.NE: "!=", E.LT: "<", E.LE: "<=", E.GT: ">", E.GE: ">="}
_CALLS = {E.Min: "T.min", E.Max: "T.max", E.Mod: "T.truncmod"}


class Printer:
    def __init__(self):
        self.names = {}        # id(object) -> name
        self.taken = set()
        self.keep = []         # keeps named objects alive (ids stay unique)
        self.lines = []
        self.live = set()  # ids of the variables and buffers in scope

    # ----------------------------------------------------------------- names
    def name(self, obj, hint=None):
        key = id(obj)
        if key not in self.names:
            base = "".join(c if c.isalnum() or c == "_" else "_"
                           for c in (hint or getattr(obj, "name", None) or "v")) or "v"
            if base[0].isdigit() or base in _RESERVED or keyword.iskeyword(base):
                base = "v_" + base
            candidate, n = base, 0
            while candidate in self.taken:
                n += 1
                candidate = f"{base}_{n}"
            self.taken.add(candidate)
            self.names[key] = candidate
            self.keep.append(obj)
        return self.names[key]

    def define(self, obj):
        """Names `obj` (a Var or Buffer) and puts it in scope; its name."""
        name = self.buffer(obj) if isinstance(obj, Buffer) else self.name(obj)
        self.live.add(id(obj))
        if isinstance(obj, Buffer):
            self.live.update(id(v) for v in [obj.data, obj.elem_offset] + obj.strides
                             if isinstance(v, E.Var))
        return name

    def undefine(self, objs):
        for obj in objs:
            self.live.discard(id(obj))
            if isinstance(obj, Buffer):
                for v in [obj.data, obj.elem_offset] + obj.strides:
                    self.live.discard(id(v))

    def buffer(self, buf):
        name = self.name(buf)
        # A view's fields read as its attributes.
        if buf.elem_offset is not None and isinstance(buf.elem_offset, E.Var):
            self.names.setdefault(id(buf.elem_offset), f"{name}.elem_offset")
            self.keep.append(buf.elem_offset)
        for i, s in enumerate(buf.strides):
            if isinstance(s, E.Var):
                self.names.setdefault(id(s), f"{name}.strides[{i}]")
                self.keep.append(s)
        self.names.setdefault(id(buf.data), f"{name}.data")
        self.keep.append(buf.data)
        return name

    # ----------------------------------------------------------- expressions
    def expr(self, e, parent=0):
        text, prec = self._expr(e)
        return f"({text})" if prec < parent else text

    def _expr(self, e):
        if isinstance(e, (int, float)) and not isinstance(e, bool):
            e = E.convert(e)
        if isinstance(e, E.IntImm):
            if e.dtype == "bool":
                return ("True" if e.value else "False"), 12
            if e.dtype == "int32":
                return str(e.value), (11 if e.value < 0 else 12)
            return f"T.{e.dtype}({e.value})", 12
        if isinstance(e, E.FloatImm):
            value = repr(e.value) if math.isfinite(e.value) else f'"{e.value}"'
            return f"T.{e.dtype}({value})", 12
        if isinstance(e, E.StringImm):
            return '"' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"', 12
        if isinstance(e, E.Var):
            if id(e) not in self.live:
                raise ValueError(f"variable {e.name} is used where no statement defines it "
                                 "(a loop, block or LetStmt around the use, or the "
                                 "function's parameters)")
            return self.names[id(e)], 12
        if type(e) in _BINARY:
            op, prec = _BINARY[type(e)]
            return f"{self.expr(e.a, prec)} {op} {self.expr(e.b, prec + 1)}", prec
        if isinstance(e, E.Div):
            if e.a.dtype.split("x")[0] in E.FLOAT_DTYPES:
                return f"{self.expr(e.a, 10)} / {self.expr(e.b, 11)}", 10
            return f"T.truncdiv({self.expr(e.a)}, {self.expr(e.b)})", 12
        if type(e) in _CALLS:
            return f"{_CALLS[type(e)]}({self.expr(e.a)}, {self.expr(e.b)})", 12
        if type(e) in _COMPARE:
            return f"{self.expr(e.a, 5)} {_COMPARE[type(e)]} {self.expr(e.b, 5)}", 4
        if isinstance(e, E.And):
            return f"{self.expr(e.a, 2)} and {self.expr(e.b, 3)}", 2
        if isinstance(e, E.Or):
            return f"{self.expr(e.a, 1)} or {self.expr(e.b, 2)}", 1
        if isinstance(e, E.Not):
            return f"not {self.expr(e.a, 3)}", 3
        if isinstance(e, E.Cast):
            return f'T.Cast("{e.dtype}", {self.expr(e.value)})', 12
        if isinstance(e, E.Select):
            return (f"T.Select({self.expr(e.condition)}, {self.expr(e.true_value)}, "
                    f"{self.expr(e.false_value)})"), 12
        if isinstance(e, E.BufferLoad):
            return f"{self.buffer_use(e.buffer)}[{self.indices(e.indices)}]", 12
        if isinstance(e, E.Call):
            name = e.op.name[4:] if e.op.name.startswith("tir.") else e.op.name
            args = [self.expr(a) for a in e.args]
            if e.op.name in _DTYPE_FIRST:
                args.insert(0, f'"{e.dtype}"')
            return f"T.{name}({', '.join(args)})", 12
        if isinstance(e, E.Ramp):
            return f"T.Ramp({self.expr(e.base)}, {self.expr(e.stride)}, {e.lanes})", 12
        if isinstance(e, E.Broadcast):
            return f"T.Broadcast({self.expr(e.value)}, {e.lanes})", 12
        if isinstance(e, E.Let):
            var = self.name(e.var)
            return f"T.Let({self.expr(e.body)}, where={{{var}: {self.expr(e.value)}}})", 12
        raise TypeError(f"cannot print a {type(e).__name__} as a tir expression")

    def buffer_use(self, buf):
        if id(buf) not in self.live:
            raise ValueError(f"buffer {buf.name} is used where nothing declares it (a "
                             "parameter's buffer_map, alloc_buffers or match_buffers)")
        return self.names[id(buf)]

    def indices(self, items):
        return ", ".join(self.expr(i) for i in items) if items else "()"

    def region(self, r):
        parts = []
        for rng in r.region:
            if isinstance(rng.extent, E.IntImm) and rng.extent.value == 1:
                parts.append(self.expr(rng.min))
            else:
                end = _end(rng)
                parts.append(f"{self.expr(rng.min)}:{self.expr(end)}")
        return f"{self.buffer_use(r.buffer)}[{', '.join(parts) or '()'}]"

    def value(self, v):
        """An annotation value."""
        if isinstance(v, bool) or v is None or isinstance(v, (int, float, str)):
            return repr(v)
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(self.value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{self.value(k)}: {self.value(x)}"
                                   for k, x in v.items()) + "}"
        if isinstance(v, E.PrimExpr):
            return self.expr(v)
        raise TypeError(f"annotation value of type {type(v).__name__}")

    # ----------------------------------------------------------- statements
    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def stmt(self, s, indent):
        if isinstance(s, S.SeqStmt):
            for x in s.seq:
                self.stmt(x, indent)
        elif isinstance(s, S.For):
            self.for_loop(s, indent)
        elif isinstance(s, S.BlockRealize):
            self.block(s, indent)
        elif isinstance(s, S.BufferStore):
            self.emit(indent, f"{self.buffer_use(s.buffer)}[{self.indices(s.indices)}] = "
                              f"{self.expr(s.value)}")
        elif isinstance(s, S.LetStmt):
            value = self.expr(s.value)
            self.emit(indent, f"{self.define(s.var)} = {value}")
            self.stmt(s.body, indent)
            self.undefine([s.var])
        elif isinstance(s, S.Evaluate):
            self.emit(indent, f"T.evaluate({self.expr(s.value)})")
        elif isinstance(s, S.IfThenElse):
            self.emit(indent, f"if {self.expr(s.condition)}:")
            self.stmt(s.then_case, indent + 1)
            if s.else_case is not None:
                self.emit(indent, "else:")
                self.stmt(s.else_case, indent + 1)
        elif isinstance(s, S.Block):
            # A block on its own (TVM prints it so): no values to bind.
            self.block(S.BlockRealize([iv.var for iv in s.iter_vars], True, s), indent,
                       realize_values=False)
        else:
            raise TypeError(f"cannot print a {type(s).__name__} as a tir statement")

    def for_loop(self, loop, indent):
        grid = [loop]
        while (_plain(grid[-1]) and isinstance(grid[-1].body, S.For) and _plain(grid[-1].body)
               and not any(any(v is x.loop_var for x in grid)
                           for v in undefined_vars(grid[-1].body.extent))):
            grid.append(grid[-1].body)
        if len(grid) > 1:
            extents = ", ".join(self.expr(x.extent) for x in grid)
            names = ", ".join(self.define(x.loop_var) for x in grid)
            self.emit(indent, f"for {names} in T.grid({extents}):")
            self.stmt(grid[-1].body, indent + 1)
            self.undefine([x.loop_var for x in grid])
            return
        start, stop = self.expr(loop.min), self.expr(_end(Range.from_min_extent(loop.min,
                                                                               loop.extent)))
        if _plain(loop):
            head = f"range({stop})"
        elif loop.kind == S.ForKind.THREAD_BINDING:
            tag = loop.thread_binding.thread_tag if isinstance(loop.thread_binding, S.IterVar) \
                else str(loop.thread_binding)
            head = f'T.thread_binding({start}, {stop}, thread="{tag}"'
        elif loop.kind == S.ForKind.SERIAL and not loop.annotations:
            head = f"range({start}, {stop})"
        else:
            head = f"T.{_KIND[loop.kind]}({start}, {stop}"
        if not head.startswith("range"):
            if loop.annotations:
                head += f", annotations={self.value(loop.annotations)}"
            head += ")"
        self.emit(indent, f"for {self.define(loop.loop_var)} in {head}:")
        self.stmt(loop.body, indent + 1)
        self.undefine([loop.loop_var])

    def block(self, realize, indent, realize_values=True):
        b = realize.block
        self.emit(indent, f'with T.block("{b.name_hint}"'
                          f'{"" if realize_values else ", no_realize=True"}):')
        indent += 1
        for iv, value in zip(b.iter_vars, realize.iter_values):
            dom = (self.expr(iv.dom.extent) if _is_zero(iv.dom.min) else
                   f"({self.expr(iv.dom.min)}, {self.expr(_end(iv.dom))})")
            if iv.iter_type not in _AXIS:
                raise ValueError(f"block {b.name_hint}: iter_type {iv.iter_type} has no "
                                 "TVMScript axis")
            binding = f", {self.expr(value)}" if realize_values else ""
            text = f"T.axis.{_AXIS[iv.iter_type]}({dom}{binding})"
            self.emit(indent, f"{self.define(iv.var)} = {text}")
        if not (isinstance(realize.predicate, E.IntImm) and realize.predicate.value):
            self.emit(indent, f"T.where({self.expr(realize.predicate)})")
        self.emit(indent, f"T.reads({', '.join(self.region(r) for r in b.reads)})")
        self.emit(indent, f"T.writes({', '.join(self.region(r) for r in b.writes)})")
        if b.annotations:
            self.emit(indent, f"T.block_attr({self.value(b.annotations)})")
        for buf in b.alloc_buffers:
            self.emit(indent, f"{self.define(buf)} = T.alloc_buffer({self.buffer_args(buf)})")
        for m in b.match_buffers:
            source = self.region(m.source)
            self.emit(indent, f"{self.define(m.buffer)} = T.match_buffer({source}, "
                              f"{self.buffer_args(m.buffer)}, offset_factor=1)")
        if b.init is not None:
            self.emit(indent, "with T.init():")
            self.stmt(b.init, indent + 1)
        self.stmt(b.body, indent)
        self.undefine([iv.var for iv in b.iter_vars] + b.alloc_buffers +
                      [m.buffer for m in b.match_buffers])

    def buffer_args(self, buf):
        text = f'{self.shape(buf)}, "{buf.dtype}"'
        if buf.scope() != "global":
            text += f', scope="{buf.scope()}"'
        if getattr(buf, "axis_separators", None):
            text += f", axis_separators={list(buf.axis_separators)}"
        return text

    def shape(self, buf):
        dims = [self.expr(d) for d in buf.shape]
        return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def _plain(loop):
    return (isinstance(loop, S.For) and loop.kind == S.ForKind.SERIAL
            and _is_zero(loop.min) and not loop.annotations)


def _is_zero(e):
    return isinstance(e, E.IntImm) and e.value == 0


def _end(rng):
    if _is_zero(rng.min):
        return rng.extent
    # min + (x - min) is x (a range read as [min, x)).
    if isinstance(rng.extent, E.Sub) and (
            rng.extent.b is rng.min or (isinstance(rng.min, E.IntImm)
                                        and isinstance(rng.extent.b, E.IntImm)
                                        and rng.extent.b.value == rng.min.value)):
        return rng.extent.a
    if isinstance(rng.min, E.IntImm) and isinstance(rng.extent, E.IntImm):
        return E.IntImm(rng.min.dtype, rng.min.value + rng.extent.value)
    return E.Add(rng.min, rng.extent)


def script(node):
    """`node` (a statement, expression, buffer or region) as TVMScript."""
    p = Printer()
    # Outside a function, free variables and buffers print by their names.
    _name_free(p, node)
    if isinstance(node, S.Stmt):
        p.stmt(node, 0)
        return "\n".join(p.lines)
    if isinstance(node, E.PrimExpr):
        return p.expr(node)
    if isinstance(node, BufferRegion):
        return p.region(node)
    if isinstance(node, MatchBufferRegion):
        return f"{p.buffer(node.buffer)} = T.match_buffer({p.region(node.source)})"
    if isinstance(node, Buffer):
        return Buffer.script(node)
    if isinstance(node, Range):
        return Range.script(node)
    if isinstance(node, S.IterVar):
        kind = _AXIS.get(node.iter_type, str(node.iter_type))
        dom = "" if node.dom is None else f", {Range.script(node.dom)}"
        tag = f', "{node.thread_tag}"' if node.thread_tag else ""
        return f"IterVar({p.name(node.var)}{dom}, {kind}{tag})"
    if isinstance(node, Op):
        return Op.script(node)
    raise TypeError(f"cannot print a {type(node).__name__}")


def _name_free(p, node, seen=None):
    """Names every Var and Buffer `node` reaches, so that a statement or
    expression prints on its own."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Buffer):
            p.define(n)
            continue
        if isinstance(n, E.Var):
            p.define(n)
            continue
        if isinstance(n, Node):
            stack.extend(v for _, v in reversed(n.fields()))
        elif isinstance(n, (list, tuple)):
            stack.extend(reversed(n))
        elif isinstance(n, dict):
            stack.extend(n.values())
