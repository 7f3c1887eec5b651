"""TVMScript, as tir's printer writes it, read into the IR's Python objects.

The C++ printer (`tir-translate --tir-to-tvmscript`, Module.tvmscript) is
the one place that maps tir's MLIR form onto TVM's concepts (blocks,
iteration variables, regions, predicates); this reader takes its output
apart with Python's `ast` and builds tvm.tir nodes, so MLIR -> nodes needs
no second walk of the MLIR. Its input is the printer's canonical form: a
construct the printer never writes is refused with the line it is on.

A name the printer binds to a value (`v = A[vi] * 2.0`, an alias in
TVMScript) becomes a LetStmt over the statements after it, which prints
back as the same alias.
"""
import ast

from ..ir.node import Range
from . import expr as E
from . import stmt as S
from ..script.values import dotted_name
from .buffer import Buffer, BufferRegion, MatchBufferRegion

__all__ = ["read_function", "ReadError"]

_DTYPES = set(E.INT_DTYPES) | set(E.FLOAT_DTYPES)
_KINDS = {"serial": S.ForKind.SERIAL, "parallel": S.ForKind.PARALLEL,
          "vectorized": S.ForKind.VECTORIZED, "unroll": S.ForKind.UNROLLED,
          "thread_binding": S.ForKind.THREAD_BINDING}
_AXES = {"spatial": S.IterVar.DataPar, "S": S.IterVar.DataPar,
         "reduce": S.IterVar.CommReduce, "R": S.IterVar.CommReduce,
         "scan": S.IterVar.Ordered, "opaque": S.IterVar.Opaque}
_BINARY = {ast.Add: E.Add, ast.Sub: E.Sub, ast.Mult: E.Mul, ast.FloorDiv: E.FloorDiv,
           ast.Mod: E.FloorMod, ast.Div: E.Div}
_COMPARE = {ast.Eq: E.EQ, ast.NotEq: E.NE, ast.Lt: E.LT, ast.LtE: E.LE, ast.Gt: E.GT,
            ast.GtE: E.GE}
_NODE_CALLS = {"max": E.Max, "min": E.Min, "floordiv": E.FloorDiv, "floormod": E.FloorMod,
               "truncdiv": E.Div, "truncmod": E.Mod}


class ReadError(ValueError):
    """The text is not in the printer's TVMScript form."""


def _t(node):
    """'name' for `T.name` ("axis.spatial" for T.axis.spatial), else None."""
    return dotted_name(node, "T") or None


class _Reader:
    def __init__(self, text):
        self.text = text
        self.scopes = [{}]

    def error(self, node, message):
        line = getattr(node, "lineno", 0)
        source = self.text.splitlines()[line - 1].strip() if line else ""
        raise ReadError(f"line {line}: {message}: {source}")

    # ----------------------------------------------------------------- names
    def bind(self, name, value):
        self.scopes[-1][name] = value

    def lookup(self, node):
        for scope in reversed(self.scopes):
            if node.id in scope:
                return scope[node.id]
        self.error(node, f"unknown name {node.id!r}")

    # ----------------------------------------------------------- expressions
    def expr(self, node):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                return E.IntImm("bool", node.value)
            if isinstance(node.value, int):
                return E.IntImm("int32", node.value)
            if isinstance(node.value, float):
                return E.FloatImm("float32", node.value)
            if isinstance(node.value, str):
                return E.StringImm(node.value)
        if isinstance(node, ast.Name):
            value = self.lookup(node)
            if isinstance(value, Buffer):
                self.error(node, "a buffer is not a value here")
            return value
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.UnaryOp):
            value = self.expr(node.operand)
            if isinstance(node.op, ast.Not):
                return E.Not(value)
            if isinstance(node.op, ast.USub):
                if isinstance(value, (E.IntImm, E.FloatImm)):
                    return type(value)(value.dtype, -value.value)
                return E.Sub(E.const(0, value.dtype), value)
        if isinstance(node, ast.BoolOp):
            cls = E.And if isinstance(node.op, ast.And) else E.Or
            result = self.expr(node.values[0])
            for v in node.values[1:]:
                result = cls(result, self.expr(v))
            return result
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            return _COMPARE[type(node.ops[0])](self.expr(node.left),
                                               self.expr(node.comparators[0]))
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            buf = self.lookup(node.value)
            if isinstance(buf, Buffer) and node.attr in ("data", "elem_offset"):
                return getattr(buf, node.attr)
        if isinstance(node, ast.Call):
            return self.call(node)
        self.error(node, "no tir expression for this")

    def subscript(self, node):
        if isinstance(node.value, ast.Attribute) and node.value.attr == "strides":
            buf = self.lookup(node.value.value)
            return buf.strides[self.static_int(node.slice)]
        buf = self.lookup(node.value)
        if not isinstance(buf, Buffer):
            self.error(node, "only buffers are indexed")
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return E.BufferLoad(buf, [self.expr(i) for i in items])

    def static_int(self, node):
        value = self.expr(node)
        if not isinstance(value, E.IntImm):
            self.error(node, "an integer constant is expected")
        return value.value

    def call(self, node):
        name = _t(node.func)
        args = node.args
        if name in _DTYPES:
            if not args:
                self.error(node, "a typed constant needs its value")
            value = args[0]
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                number = float(value.value)
            elif isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
                number = -value.operand.value
            elif isinstance(value, ast.Constant):
                number = value.value
            else:
                return E.Cast(name, self.expr(value))
            if name in E.FLOAT_DTYPES:
                return E.const(number, name)
            number = int(number)
            if name.startswith("uint") and number < 0:  # printed as the signed bits
                number %= 2 ** int(name[4:])
            return E.const(number, name)
        if name == "Cast":
            return E.Cast(args[0].value, self.expr(args[1]))
        if name == "Select":
            return E.Select(*[self.expr(a) for a in args])
        if name in _NODE_CALLS:
            return _NODE_CALLS[name](self.expr(args[0]), self.expr(args[1]))
        if name in ("ceildiv",):
            a, b = self.expr(args[0]), self.expr(args[1])
            return E.Call(a.dtype, "tir.ceildiv", [a, b])
        if name == "vscale":
            return E.Call("int32", "tir.vscale", [])
        if name == "if_then_else":
            c, t, f = (self.expr(a) for a in args)
            return E.Call(t.dtype, "tir.if_then_else", [c, t, f])
        if name in ("call_extern", "call_pure_extern", "call_llvm_intrin",
                    "call_llvm_pure_intrin"):
            values = [self.expr(a) for a in args[1:]]
            return E.Call(args[0].value, "tir." + name, values)
        if name is not None:
            values = [self.expr(a) for a in args]
            dtype = values[0].dtype if values else "int32"
            return E.Call(dtype, "tir." + name, values)
        self.error(node, "no tir expression for this call")

    # -------------------------------------------------------------- buffers
    def shape(self, node):
        items = node.elts if isinstance(node, ast.Tuple) else [node]
        return [self.expr(i) for i in items]

    def keywords(self, node):
        return {k.arg: k.value for k in node.keywords}

    def buffer(self, name, call, source=None):
        """A Buffer for T.Buffer / T.alloc_buffer / T.match_buffer's
        shape, dtype and keywords."""
        args = call.args[1:] if source is not None or _t(call.func) == "match_buffer" \
            else call.args
        shape = self.shape(args[0])
        dtype = args[1].value if len(args) > 1 else "float32"
        kw = self.keywords(call)
        buf = Buffer(name, shape, dtype, scope=kw["scope"].value if "scope" in kw else "global",
                     offset_factor=kw["offset_factor"].value if "offset_factor" in kw else 0)
        if "axis_separators" in kw:
            buf.axis_separators = [e.value for e in kw["axis_separators"].elts]
        if _t(call.func) == "match_buffer" and source is not None:
            buf.elem_offset = E.Var(f"{name}_elem_offset", "int32")
            buf.strides = [E.Var(f"{name}_s{i}", "int32") for i in range(len(shape))]
        return buf

    def region(self, node):
        """`A[i, lo:hi]` as a BufferRegion."""
        buf = self.lookup(node.value)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        ranges = []
        for item in items:
            if isinstance(item, ast.Slice):
                ranges.append(Range(self.expr(item.lower), self.expr(item.upper)))
            else:
                ranges.append(Range.from_min_extent(self.expr(item), 1))
        return BufferRegion(buf, ranges)

    # ----------------------------------------------------------- statements
    def body(self, stmts):
        """The statements of one suite as one Stmt (a LetStmt takes the
        statements after its alias as its body)."""
        out = []
        for k, stmt in enumerate(stmts):
            if (isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)
                    and not self.is_buffer_decl(stmt.value)):
                value = self.expr(stmt.value)
                var = E.Var(stmt.targets[0].id, value.dtype)
                self.scopes.append({stmt.targets[0].id: var})
                rest = self.body(stmts[k + 1:]) if k + 1 < len(stmts) else \
                    S.Evaluate(E.IntImm("int32", 0))
                self.scopes.pop()
                out.append(S.LetStmt(var, value, rest))
                break
            out.append(self.statement(stmt))
        out = [s for s in out if s is not None]
        if not out:
            return S.Evaluate(E.IntImm("int32", 0))
        return S.stmt_seq(*out)

    @staticmethod
    def is_buffer_decl(value):
        return isinstance(value, ast.Call) and _t(value.func) in ("alloc_buffer",
                                                                  "match_buffer")

    def statement(self, stmt):
        if isinstance(stmt, ast.For):
            return self.for_loop(stmt)
        if isinstance(stmt, ast.With):
            call = stmt.items[0].context_expr
            if _t(getattr(call, "func", None)) == "block":
                return self.block(stmt, call)
            self.error(stmt, "only T.block opens a scope here")
        if isinstance(stmt, ast.Assign):
            target = stmt.targets[0]
            if isinstance(target, ast.Subscript):
                buf = self.lookup(target.value)
                items = target.slice.elts if isinstance(target.slice, ast.Tuple) \
                    else [target.slice]
                return S.BufferStore(buf, self.expr(stmt.value), [self.expr(i) for i in items])
            self.error(stmt, "a buffer declaration outside a block's head")
        if isinstance(stmt, ast.If):
            cond = self.expr(stmt.test)
            then = self.scoped(stmt.body)
            other = self.scoped(stmt.orelse) if stmt.orelse else None
            return S.IfThenElse(cond, then, other)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            name = _t(stmt.value.func)
            if name == "evaluate":
                return S.Evaluate(self.expr(stmt.value.args[0]))
        self.error(stmt, "no tir statement for this")

    def scoped(self, stmts):
        self.scopes.append({})
        try:
            return self.body(stmts)
        finally:
            self.scopes.pop()

    def for_loop(self, stmt):
        targets = stmt.target.elts if isinstance(stmt.target, ast.Tuple) else [stmt.target]
        it = stmt.iter
        name = "range" if isinstance(it.func, ast.Name) and it.func.id == "range" \
            else _t(it.func)
        kw = self.keywords(it)
        if name == "grid":
            ranges = [(E.IntImm("int32", 0), self.expr(a)) for a in it.args]
            kinds = [S.ForKind.SERIAL] * len(ranges)
        elif name == "range" or name in _KINDS:
            if len(it.args) == 1:
                lo, hi = E.IntImm("int32", 0), self.expr(it.args[0])
            else:
                lo, hi = self.expr(it.args[0]), self.expr(it.args[1])
            ranges = [(lo, hi)]
            kinds = [_KINDS.get(name, S.ForKind.SERIAL)]
        else:
            self.error(stmt, "unknown loop")
        loop_vars = [E.Var(t.id, "int32") for t in targets]
        self.scopes.append({t.id: v for t, v in zip(targets, loop_vars)})
        body = self.body(stmt.body)
        self.scopes.pop()
        annotations = self.dict(kw["annotations"]) if "annotations" in kw else {}
        thread = kw["thread"].value if "thread" in kw else None
        for var, (lo, hi), kind in reversed(list(zip(loop_vars, ranges, kinds))):
            extent = E.simplify_sub(hi, lo) if not isinstance(lo, E.IntImm) or lo.value \
                else hi
            body = S.For(var, lo, extent, kind, body, thread, annotations)
        return body

    def dict(self, node):
        return {k.value: self.literal(v) for k, v in zip(node.keys, node.values)}

    def literal(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.literal(e) for e in node.elts]
        if isinstance(node, ast.Dict):
            return self.dict(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.literal(node.operand)
        return self.expr(node)

    def block(self, stmt, call):
        name = call.args[0].value
        self.scopes.append({})
        iter_vars, values, predicate = [], [], E.IntImm("bool", 1)
        reads = writes = None
        annotations, allocs, matches, init = {}, [], [], None
        rest = list(stmt.body)
        while rest:
            s = rest[0]
            head = s.value if isinstance(s, (ast.Assign, ast.Expr)) else None
            kind = _t(head.func) if isinstance(head, ast.Call) else None
            if isinstance(s, ast.Assign) and kind and kind.startswith("axis."):
                dom = head.args[0]
                if isinstance(dom, ast.Tuple):
                    r = Range(self.expr(dom.elts[0]), self.expr(dom.elts[1]))
                else:
                    r = Range.from_min_extent(0, self.expr(dom))
                var = E.Var(s.targets[0].id, "int32")
                values.append(self.expr(head.args[1]))
                iter_vars.append(S.IterVar(r, var, _AXES[kind[5:]]))
                self.bind(var.name, var)
            elif kind == "where":
                predicate = self.expr(head.args[0])
            elif kind in ("reads", "writes"):
                regions = [self.region(a) for a in head.args]
                if kind == "reads":
                    reads = regions
                else:
                    writes = regions
            elif kind == "block_attr":
                annotations = self.dict(head.args[0])
            elif isinstance(s, ast.Assign) and kind == "alloc_buffer":
                buf = self.buffer(s.targets[0].id, head)
                allocs.append(buf)
                self.bind(buf.name, buf)
            elif isinstance(s, ast.Assign) and kind == "match_buffer":
                source = self.region(head.args[0])
                buf = self.buffer(s.targets[0].id, head, source)
                matches.append(MatchBufferRegion(buf, source))
                self.bind(buf.name, buf)
            elif (isinstance(s, ast.With) and
                  _t(getattr(s.items[0].context_expr, "func", None)) == "init"):
                init = self.scoped(s.body)
            else:
                break
            rest.pop(0)
        body = self.scoped(rest)
        self.scopes.pop()
        block = S.Block(iter_vars, reads or [], writes or [], name, body, init, allocs,
                        matches, annotations)
        block._read_with = (block.body, block.init, list(block.reads), list(block.writes),
                            list(block.match_buffers))
        return S.BlockRealize(values, predicate, block)


def read_function(text):
    """(name, params, buffer_map, body, private) of the one @T.prim_func in
    `text` (the printer's output)."""
    tree = ast.parse(text)
    fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)), None)
    if fn is None:
        raise ReadError("no function in the text")
    r = _Reader(text)
    params, buffer_map = [], {}
    for arg in fn.args.args:
        ann = arg.annotation
        if isinstance(ann, ast.Call) and _t(ann.func) == "Buffer":
            var = E.Var(arg.arg, "handle")
            buf = r.buffer(arg.arg, ann)
            buffer_map[var] = buf
            r.bind(arg.arg, buf)
        else:
            dtype = _t(ann)
            var = E.Var(arg.arg, "handle" if dtype == "handle" else dtype)
            r.bind(arg.arg, var)
        params.append(var)
    stmts = list(fn.body)
    allocs = []
    while stmts:
        s = stmts[0]
        call = s.value if isinstance(s, ast.Assign) else None
        kind = _t(call.func) if isinstance(call, ast.Call) else None
        if kind == "int32" and not call.args:
            r.bind(s.targets[0].id, E.SizeVar(s.targets[0].id, "int32"))
        elif kind == "match_buffer":
            handle = r.lookup(call.args[0])
            buf = r.buffer(s.targets[0].id, call)
            buffer_map[handle] = buf
            r.bind(buf.name, buf)
        elif kind == "alloc_buffer":
            buf = r.buffer(s.targets[0].id, call)
            allocs.append(buf)
            r.bind(buf.name, buf)
        else:
            break
        stmts.pop(0)
    body = r.scoped(stmts)
    root = S.Block([], [], [], "root", body, alloc_buffers=allocs)
    private = any(isinstance(d, ast.Call) and any(k.arg == "private" for k in d.keywords)
                  for d in fn.decorator_list)
    return fn.name, params, buffer_map, S.BlockRealize([], E.IntImm("bool", 1), root), private
