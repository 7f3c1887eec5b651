"""TVMScript (TVM v0.23 syntax) to tir, through Python's ast.

The parser walks the function's syntax tree and writes tir in its MLIR
syntax, every op located at the Python line it comes from, so that both the
parser's errors and MLIR's verifier errors point into the Python source.
"""
import ast
import inspect
import textwrap

from ..ir import IRModule

DTYPES = {
    "float16": "f16", "float32": "f32", "float64": "f64", "bfloat16": "bf16",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "i8", "uint16": "i16", "uint32": "i32", "uint64": "i64",
    "bool": "i1",
}
LOOP_KINDS = {"serial": "", "parallel": " parallel", "vectorized": " vectorized",
              "unroll": " unrolled"}
ITER_KINDS = {"spatial": "spatial", "S": "spatial", "reduce": "reduce",
              "R": "reduce", "scan": "scan", "opaque": "opaque"}


class ScriptError(Exception):
    """A TVMScript construct the parser does not accept, located in the
    Python source."""


class Value:
    """An SSA value (`text` is its name) or, for index arithmetic kept in
    affine form, an affine expression over SSA names. `type` is an MLIR type;
    `literal` is the Python number of an untyped literal."""

    def __init__(self, text, type, affine=False, literal=None):
        self.text, self.type, self.affine, self.literal = text, type, affine, literal

    @property
    def is_index(self):
        return self.type == "index"


class Buffer:
    def __init__(self, ssa, shape, dtype):
        self.ssa, self.shape, self.dtype = ssa, shape, dtype

    @property
    def element(self):
        return DTYPES[self.dtype]

    def memref(self, dims):
        parts = [str(d) if isinstance(d, int) else "?" for d in dims]
        return "memref<" + "x".join(parts + [self.element]) + ">"

    @property
    def type(self):
        return self.memref(self.shape)


class FunctionParser:
    def __init__(self, source, filename, line_offset, node):
        self.source, self.filename, self.line_offset = source, filename, line_offset
        self.node = node
        self.lines = []
        self.indent = 1
        self.scopes = [dict()]
        self.names_in_use = [set()]
        self.counter = 0

    # ----------------------------------------------------------------- utils
    def error(self, node, message):
        line = getattr(node, "lineno", 1) + self.line_offset
        col = getattr(node, "col_offset", 0) + 1
        raise ScriptError(f"{self.filename}:{line}:{col}: error: {message}")

    def loc(self, node):
        line = getattr(node, "lineno", 1) + self.line_offset
        col = getattr(node, "col_offset", 0) + 1
        return f' loc("{self.filename}":{line}:{col})'

    def emit(self, text):
        self.lines.append("  " * self.indent + text)

    def fresh(self, hint="t"):
        self.counter += 1
        return f"%{hint}{self.counter}"

    def ssa_name(self, name):
        """A name not visible in any enclosing scope (sibling scopes may reuse
        names, nested ones may not)."""
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in name) or "v"
        if base[0].isdigit():
            base = "v" + base
        candidate, n = base, 0
        while any(candidate in used for used in self.names_in_use):
            n += 1
            candidate = f"{base}_{n}"
        self.names_in_use[-1].add(candidate)
        return "%" + candidate

    def push(self):
        self.scopes.append(dict())
        self.names_in_use.append(set())

    def pop(self):
        self.scopes.pop()
        self.names_in_use.pop()

    def bind(self, name, value):
        self.scopes[-1][name] = value

    def lookup(self, node, name):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        self.error(node, f"undefined name '{name}'")

    @staticmethod
    def is_t(node, *names):
        """Whether `node` is T.<name> (or T.<a>.<b> for dotted names)."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id != "T":
            return False
        return ".".join(reversed(parts)) in names

    @staticmethod
    def t_name(node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id == "T":
            return ".".join(reversed(parts))
        return None

    def const_int(self, node):
        value = self.static_value(node)
        if not isinstance(value, int):
            self.error(node, "expected an integer constant")
        return value

    def static_value(self, node):
        """A Python constant, tuple or list of them (dtype strings, shapes)."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(self.static_value(e) for e in node.elts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self.static_value(node.operand)
            return -v if isinstance(v, (int, float)) else None
        return None

    # ------------------------------------------------------------- signature
    def parse(self):
        fn = self.node
        params, body = [], list(fn.body)
        handles = {}
        for arg in fn.args.args:
            if arg.annotation is None:
                self.error(arg, f"parameter '{arg.arg}' needs a type annotation "
                                "(T.Buffer(...), T.handle or T.int32)")
            params.append((arg, arg.annotation))
        # Scalars first: buffer shapes may use them.
        signature = {}
        for arg, ann in params:
            kind = self.t_name(ann.func if isinstance(ann, ast.Call) else
                               ann.value if isinstance(ann, ast.Subscript) else ann)
            if kind in ("int32", "int64", "int16", "int8", "uint32", "uint64"):
                ssa = self.ssa_name(arg.arg)
                # In affine expressions a parameter is a symbol.
                self.bind(arg.arg, Value(f"symbol({ssa})", "index", affine=True))
                signature[arg.arg] = f'{ssa}: index {{tir.name = "{arg.arg}"}}'
        for arg, ann in params:
            if arg.arg in signature:
                continue
            if self.is_t(ann, "handle"):
                handles[arg.arg] = arg
                continue
            if isinstance(ann, (ast.Call, ast.Subscript)):
                head = ann.func if isinstance(ann, ast.Call) else ann.value
                if self.t_name(head) == "Buffer":
                    buf = self.buffer_decl(ann, arg.arg)
                    self.bind(arg.arg, buf)
                    signature[arg.arg] = f'{buf.ssa}: {buf.type} {{tir.name = "{arg.arg}"}}'
                    continue
            self.error(ann, f"unsupported parameter type for '{arg.arg}'")
        # T.handle parameters take their buffer from T.match_buffer.
        rest = []
        for stmt in body:
            if (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
                    and self.is_t(stmt.value.func, "match_buffer")
                    and isinstance(stmt.value.args[0], ast.Name)
                    and stmt.value.args[0].id in handles):
                handle = stmt.value.args[0].id
                name = stmt.targets[0].id
                buf = self.buffer_from_args(stmt.value, stmt.value.args[1:], name)
                self.bind(name, buf)
                signature[handle] = f'{buf.ssa}: {buf.type} {{tir.name = "{name}"}}'
                del handles[handle]
            else:
                rest.append(stmt)
        if handles:
            self.error(handles[next(iter(handles))],
                       f"T.handle parameter '{next(iter(handles))}' has no T.match_buffer")
        order = [signature[arg.arg] for arg, _ in params]
        header = f"func.func @{fn.name}({', '.join(order)})"
        self.lines.append(header + " {")
        self.statements(rest)
        self.emit("return" + self.loc(fn))
        self.lines.append("}" + self.loc(fn))
        return "\n".join(self.lines)

    def buffer_decl(self, ann, name):
        if isinstance(ann, ast.Call):
            return self.buffer_from_args(ann, ann.args, name, ann.keywords)
        # T.Buffer[(shape), "dtype"] (older spelling)
        items = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        return self.buffer_from_args(ann, items, name)

    def buffer_from_args(self, node, args, name, keywords=()):
        if not args:
            self.error(node, "a buffer needs a shape")
        shape_node = args[0]
        dims = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [shape_node]
        shape = []
        for d in dims:
            if isinstance(d, ast.Constant) and isinstance(d.value, int):
                shape.append(d.value)
            elif isinstance(d, ast.Name):
                shape.append(self.lookup(d, d.id))
            else:
                self.error(d, "buffer dimensions are integers or scalar parameters")
        dtype = "float32"
        if len(args) > 1:
            dtype = self.static_value(args[1])
        for kw in keywords:
            if kw.arg == "dtype":
                dtype = self.static_value(kw.value)
        if dtype not in DTYPES:
            self.error(node, f"unsupported dtype {dtype!r}")
        return Buffer(self.ssa_name(name), shape, dtype)

    # ------------------------------------------------------------ statements
    def statements(self, stmts):
        for stmt in stmts:
            self.statement(stmt)

    def statement(self, stmt):
        if isinstance(stmt, ast.For):
            return self.for_loop(stmt)
        if isinstance(stmt, ast.With):
            return self.with_stmt(stmt)
        if isinstance(stmt, ast.Assign):
            return self.assign(stmt)
        if isinstance(stmt, ast.AugAssign):
            target = stmt.target
            value = ast.BinOp(left=ast.Subscript(value=target.value, slice=target.slice,
                                                 ctx=ast.Load()) if isinstance(target, ast.Subscript) else target,
                              op=stmt.op, right=stmt.value)
            ast.copy_location(value, stmt)
            ast.copy_location(value.left, stmt)
            return self.assign(ast.copy_location(ast.Assign(targets=[target], value=value), stmt))
        if isinstance(stmt, ast.Expr):
            if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                return  # docstring
            if isinstance(stmt.value, ast.Call) and self.is_t(stmt.value.func, "func_attr"):
                return  # function attributes carry nothing tir needs yet
            if isinstance(stmt.value, ast.Call) and self.is_t(stmt.value.func, "evaluate"):
                return  # T.evaluate(0): an empty body
            self.error(stmt, "expressions as statements are not supported")
        if isinstance(stmt, ast.Pass):
            return
        if isinstance(stmt, ast.Return) and stmt.value is None:
            return
        self.error(stmt, f"unsupported statement ({type(stmt).__name__})")

    def loop_ranges(self, node):
        """(name-less) list of (lower, upper, kind, thread, annotations)."""
        if not isinstance(node, ast.Call):
            self.error(node, "a loop iterates over range(...), T.grid(...), T.serial(...), ...")
        name = self.t_name(node.func) if not (isinstance(node.func, ast.Name) and node.func.id == "range") else "range"
        kws = {k.arg: k.value for k in node.keywords}
        if name == "grid":
            return [(None, a, "serial", None, None) for a in node.args]
        if name in ("range", "serial", "parallel", "vectorized", "unroll", "thread_binding"):
            args = list(node.args)
            if len(args) == 1:
                lower, upper = None, args[0]
            elif len(args) >= 2:
                lower, upper = args[0], args[1]
            else:
                self.error(node, "a loop needs an extent")
            thread = None
            if name == "thread_binding":
                thread_node = kws.get("thread", args[2] if len(args) > 2 else None)
                thread = self.static_value(thread_node) if thread_node is not None else None
                if not isinstance(thread, str):
                    self.error(node, "T.thread_binding needs thread=\"...\"")
            kind = "serial" if name == "range" else name
            return [(lower, upper, kind, thread, kws.get("annotations"))]
        self.error(node, f"unsupported loop iterator T.{name}")

    def bound(self, node):
        if node is None:
            return "0"
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return str(node.value)
        value = self.expr(node)
        if not value.is_index:
            self.error(node, "loop bounds are integers or scalar parameters")
        return self.materialize(value, node).text

    def for_loop(self, stmt):
        ranges = self.loop_ranges(stmt.iter)
        targets = stmt.target.elts if isinstance(stmt.target, ast.Tuple) else [stmt.target]
        if len(targets) != len(ranges):
            self.error(stmt, f"{len(targets)} loop variables for {len(ranges)} loops")
        opened = 0
        for target, (lower, upper, kind, thread, annotations) in zip(targets, ranges):
            if not isinstance(target, ast.Name):
                self.error(target, "loop variables are names")
            lo, hi = self.bound(lower), self.bound(upper)
            self.push()
            ssa = self.ssa_name(target.id)
            self.bind(target.id, Value(ssa, "index", affine=True))
            suffix = LOOP_KINDS.get(kind, "")
            if kind == "thread_binding":
                suffix = f' thread_binding<"{thread}">'
            if annotations is not None:
                suffix += " annotations " + self.dict_attr(annotations)
            self.emit(f"tir.for {ssa} = {lo} to {hi}{suffix} {{")
            self.indent += 1
            opened += 1
        self.statements(stmt.body)
        for _ in range(opened):
            self.indent -= 1
            self.emit("}" + self.loc(stmt))
            self.pop()

    def dict_attr(self, node):
        if not isinstance(node, ast.Dict):
            self.error(node, "expected a dict of annotations")
        items = []
        for k, v in zip(node.keys, node.values):
            key = self.static_value(k)
            val = self.static_value(v)
            if not isinstance(key, str):
                self.error(k, "annotation keys are strings")
            if isinstance(val, bool):
                text = "true" if val else "false"
            elif isinstance(val, int):
                text = f"{val} : i64"
            elif isinstance(val, float):
                text = f"{val!r} : f64"
            elif isinstance(val, str):
                text = '"' + val.replace('"', '\\"') + '"'
            else:
                self.error(v, "annotation values are bool, int, float or str")
            items.append(f'"{key}" = {text}')
        return "{" + ", ".join(items) + "}"

    def with_stmt(self, stmt):
        if len(stmt.items) != 1:
            self.error(stmt, "one context manager per with")
        ctx = stmt.items[0].context_expr
        if isinstance(ctx, ast.Call) and self.is_t(ctx.func, "block"):
            return self.block(stmt, ctx)
        if isinstance(ctx, ast.Call) and self.is_t(ctx.func, "init"):
            self.emit("tir.init {")
            self.indent += 1
            self.push()
            self.statements(stmt.body)
            self.pop()
            self.indent -= 1
            self.emit("}" + self.loc(stmt))
            return
        self.error(stmt, "unsupported with statement (T.block or T.init)")

    def block(self, stmt, ctx):
        name = self.static_value(ctx.args[0]) if ctx.args else "root"
        if not isinstance(name, str):
            self.error(ctx, "T.block takes a name")
        body = list(stmt.body)
        iter_vars = []  # (python name, kind, domain text, binding text)
        where = None
        reads = writes = None
        annotations = None
        rest = []
        for s in body:
            call = s.value if isinstance(s, (ast.Assign, ast.Expr)) else None
            fname = self.t_name(call.func) if isinstance(call, ast.Call) else None
            if isinstance(s, ast.Assign) and fname and fname.startswith("axis."):
                iter_vars.extend(self.axis(s, fname[len("axis."):], call))
            elif isinstance(s, ast.Expr) and fname == "where":
                where = call.args[0]
            elif isinstance(s, ast.Expr) and fname == "reads":
                reads = call.args
            elif isinstance(s, ast.Expr) and fname == "writes":
                writes = call.args
            elif isinstance(s, ast.Expr) and fname == "block_attr":
                annotations = call.args[0]
            else:
                rest.append(s)
        # The predicate ranges over the loop variables of the enclosing scope.
        where_text = self.condition_text(where) if where is not None else None
        # Header: iteration variables bound to loop expressions.
        self.push()
        header = []
        for pyname, kind, domain, binding in iter_vars:
            ssa = self.ssa_name(pyname)
            header.append(f"{ssa} = {kind}({domain}, {binding})")
            self.bind(pyname, Value(ssa, "index", affine=True))
        text = f'tir.block "{name}"(' + ", ".join(header) + ")"
        if where_text is not None:
            text += f" where({where_text})"
        if reads is not None:
            text += self.region_list("reads", reads)
        if writes is not None:
            text += self.region_list("writes", writes)
        if annotations is not None:
            text += " annotations " + self.dict_attr(annotations)
        self.emit(text + " {")
        self.indent += 1
        self.statements(rest)
        self.indent -= 1
        self.emit("}" + self.loc(stmt))
        self.pop()

    def axis(self, stmt, kind, call):
        targets = stmt.targets[0]
        if kind == "remap":
            kinds = self.static_value(call.args[0])
            sources = call.args[1].elts if isinstance(call.args[1], (ast.List, ast.Tuple)) else None
            names = targets.elts if isinstance(targets, ast.Tuple) else [targets]
            if not isinstance(kinds, str) or sources is None or not (len(kinds) == len(sources) == len(names)):
                self.error(call, 'T.axis.remap takes a kind string ("SSR") and as many loop variables')
            out = []
            for k, src, tgt in zip(kinds, sources, names):
                if k not in ITER_KINDS:
                    self.error(call, f"unknown iteration kind '{k}'")
                loop_var = self.expr(src)
                extent = self.loop_extent(src)
                out.append((tgt.id, ITER_KINDS[k], extent, loop_var.text))
            return out
        if kind not in ITER_KINDS:
            self.error(call, f"unknown axis kind T.axis.{kind}")
        if not isinstance(targets, ast.Name):
            self.error(stmt, f"T.axis.{kind} binds one variable")
        dom = call.args[0]
        if isinstance(dom, (ast.Tuple, ast.List)):
            domain = f"{self.bound(dom.elts[0])} : {self.bound(dom.elts[1])}"
        else:
            domain = self.bound(dom)
        binding = self.expr(call.args[1])
        if not binding.affine:
            self.error(call.args[1], "a binding is an affine expression of loop variables")
        return [(targets.id, ITER_KINDS[kind], domain, binding.text)]

    def loop_extent(self, node):
        """The extent of the loop whose variable `node` names (for remap)."""
        if not isinstance(node, ast.Name):
            self.error(node, "T.axis.remap takes loop variables")
        value = self.lookup(node, node.id)
        target = value.text
        for line in reversed(self.lines):
            stripped = line.strip()
            if stripped.startswith(f"tir.for {target} = "):
                rest = stripped[len(f"tir.for {target} = "):]
                lower, upper = rest.split(" to ")[0], rest.split(" to ")[1].split(" ")[0]
                return upper if lower == "0" else f"{lower} : {upper}"
        self.error(node, f"'{node.id}' is not a loop variable")

    def region_list(self, keyword, args):
        regions, types = [], []
        items = args
        if len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
            items = args[0].elts
        for item in items:
            if not isinstance(item, ast.Subscript) or not isinstance(item.value, ast.Name):
                self.error(item, f"T.{keyword} takes buffer regions like A[vi, 0:4]")
            buf = self.lookup(item.value, item.value.id)
            if not isinstance(buf, Buffer):
                self.error(item, f"'{item.value.id}' is not a buffer")
            idx = item.slice.elts if isinstance(item.slice, ast.Tuple) else [item.slice]
            parts = []
            for i in idx:
                if isinstance(i, ast.Slice):
                    parts.append(f"{self.index_text(i.lower)} : {self.index_text(i.upper)}")
                else:
                    parts.append(self.index_text(i))
            regions.append(f"{buf.ssa}[{', '.join(parts)}]")
            types.append(buf.type)
        if not regions:
            return f" {keyword}()"
        return f" {keyword}({', '.join(regions)} : {', '.join(types)})"

    def index_text(self, node):
        value = self.expr(node)
        if not value.is_index:
            self.error(node, "indices are integer expressions")
        if not value.affine:
            value = self.materialize(value, node)
        return value.text

    def condition_text(self, node):
        """An affine condition for T.where: comparisons joined by `and`."""
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            return ", ".join(self.condition_text(v) for v in node.values)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            ops = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "=="}
            op = ops.get(type(node.ops[0]))
            if op is None:
                self.error(node, "T.where takes <, <=, >, >= or == comparisons")
            lhs, rhs = self.expr(node.left), self.expr(node.comparators[0])
            if not (lhs.affine and rhs.affine):
                self.error(node, "T.where compares affine expressions of loop variables")
            return f"{lhs.text} {op} {rhs.text}"
        self.error(node, "T.where takes comparisons joined by 'and'")

    def assign(self, stmt):
        if len(stmt.targets) != 1:
            self.error(stmt, "one target per assignment")
        target = stmt.targets[0]
        if isinstance(target, ast.Subscript):
            if not isinstance(target.value, ast.Name):
                self.error(target, "stores go to buffers")
            buf = self.lookup(target.value, target.value.id)
            if not isinstance(buf, Buffer):
                self.error(target, f"'{target.value.id}' is not a buffer")
            value = self.coerce(self.expr(stmt.value), buf.element, stmt.value)
            idx = target.slice.elts if isinstance(target.slice, ast.Tuple) else [target.slice]
            indices = ", ".join(self.index_text(i) for i in idx)
            self.emit(f"tir.store {value.text}, {buf.ssa}[{indices}] : {buf.type}" + self.loc(stmt))
            return
        if isinstance(target, ast.Name):
            call = stmt.value
            if isinstance(call, ast.Call) and self.is_t(call.func, "alloc_buffer"):
                buf = self.buffer_from_args(call, call.args, target.id, call.keywords)
                scope = None
                for kw in call.keywords:
                    if kw.arg == "scope":
                        scope = self.static_value(kw.value)
                dyn = [self.materialize(d, call).text for d in buf.shape
                       if not isinstance(d, int)]
                typ = buf.type if not scope or scope == "global" else buf.type[:-1] + f', "{scope}">'
                buf_type = typ
                args = f"({', '.join(dyn)})" if dyn else ""
                self.emit(f"{buf.ssa} = tir.alloc_buffer{args} : {buf_type}" + self.loc(stmt))
                if buf_type != buf.type:
                    buf = _ScopedBuffer(buf, buf_type)
                self.bind(target.id, buf)
                return
            value = self.expr(stmt.value)
            self.bind(target.id, value)
            return
        self.error(stmt, "unsupported assignment target")

    # ----------------------------------------------------------- expressions
    def materialize(self, value, node):
        """An SSA value for `value` (affine index text becomes arith ops)."""
        if value.literal is not None and not value.affine:
            return self.constant(value.literal, value.type or "f32", node)
        if not value.affine:
            return value
        if value.text.lstrip("-").isdigit():
            return self.constant(int(value.text), "index", node)
        if value.text.startswith("%") and " " not in value.text:
            return value  # a plain SSA name
        if value.text.startswith("symbol(%") and value.text.count("(") == 1:
            return Value(value.text[len("symbol("):-1], "index")
        # Rebuild the affine expression with arith ops.
        tree = ast.parse(value.text.replace("%", "_p_").replace("floordiv", "//").replace("mod", "%"), mode="eval").body
        return self.arith_from_tree(tree, node)

    def arith_from_tree(self, tree, node):
        if isinstance(tree, ast.Name):
            return Value(tree.id.replace("_p_", "%"), "index")
        if (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)
                and tree.func.id == "symbol" and len(tree.args) == 1):
            return self.arith_from_tree(tree.args[0], node)
        if isinstance(tree, ast.Constant):
            return Value(str(tree.value), "index", affine=True, literal=tree.value)
        if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.USub):
            zero = self.constant(0, "index", node)
            return self.binary("sub", zero, self.arith_from_tree(tree.operand, node), node)
        if isinstance(tree, ast.BinOp):
            ops = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.FloorDiv: "floordiv",
                   ast.Mod: "mod"}
            return self.binary(ops[type(tree.op)], self.arith_from_tree(tree.left, node),
                               self.arith_from_tree(tree.right, node), node)
        self.error(node, "unsupported index expression")

    def special_float(self, text, type, node):
        bits = {("f32", "inf"): "0x7F800000", ("f32", "-inf"): "0xFF800000",
                ("f32", "nan"): "0x7FC00000", ("f64", "inf"): "0x7FF0000000000000",
                ("f64", "-inf"): "0xFFF0000000000000", ("f64", "nan"): "0x7FF8000000000000",
                ("f16", "inf"): "0x7C00", ("f16", "-inf"): "0xFC00", ("f16", "nan"): "0x7E00"}
        key = (type, text.strip().lower())
        if key not in bits:
            self.error(node, f"T.{type}({text!r}) is not inf, -inf or nan")
        name = self.fresh("c")
        self.emit(f"{name} = arith.constant {bits[key]} : {type}" + self.loc(node))
        return Value(name, type)

    def constant(self, number, type, node):
        if type.startswith("f") or type == "bf16":
            text = repr(float(number))
            if text in ("inf", "-inf", "nan"):
                return self.special_float(text, type, node)
            if "e" in text and "." not in text:
                text = text.replace("e", ".0e")  # MLIR wants 1.0e+300
        elif type == "i1":
            text = "true" if number else "false"
        else:
            text = str(int(number))
        name = self.fresh("c")
        self.emit(f"{name} = arith.constant {text} : {type}" + self.loc(node))
        return Value(name, type)

    def coerce(self, value, type, node):
        if value.type == type and not value.affine:
            return value
        if value.literal is not None:
            return self.constant(value.literal, type, node)
        value = self.materialize(value, node)
        if value.type == type:
            return value
        return self.cast(value, type, node)

    def cast(self, value, type, node):
        src = value.type
        name = self.fresh()
        is_float = lambda t: t.startswith("f") or t == "bf16"
        width = lambda t: 64 if t == "index" else int(t[1:]) if t[1:].isdigit() else 16
        if src == "index" and not is_float(type):
            op = "arith.index_cast"
        elif src == "index":
            mid = self.fresh()
            self.emit(f"{mid} = arith.index_cast {value.text} : index to i64" + self.loc(node))
            self.emit(f"{name} = arith.sitofp {mid} : i64 to {type}" + self.loc(node))
            return Value(name, type)
        elif type == "index":
            op = "arith.index_cast" if not is_float(src) else None
            if op is None:
                mid = self.fresh()
                self.emit(f"{mid} = arith.fptosi {value.text} : {src} to i64" + self.loc(node))
                self.emit(f"{name} = arith.index_cast {mid} : i64 to index" + self.loc(node))
                return Value(name, type)
        elif is_float(src) and is_float(type):
            op = "arith.extf" if width(type) > width(src) else "arith.truncf"
        elif is_float(src):
            op = "arith.fptosi"
        elif is_float(type):
            op = "arith.sitofp"
        else:
            op = "arith.extsi" if width(type) > width(src) else "arith.trunci"
        self.emit(f"{name} = {op} {value.text} : {src} to {type}" + self.loc(node))
        return Value(name, type)

    def unify(self, a, b, node):
        """Operands of one type: literals take the other side's type."""
        if a.literal is not None and b.literal is None:
            a = self.coerce(a, b.type, node)
        elif b.literal is not None and a.literal is None:
            b = self.coerce(b, a.type, node)
        elif a.literal is not None and b.literal is not None:
            t = "f32" if isinstance(a.literal, float) or isinstance(b.literal, float) else "i32"
            a, b = self.coerce(a, t, node), self.coerce(b, t, node)
        a, b = self.materialize(a, node), self.materialize(b, node)
        # Loop and block variables (index) meet integers of the buffers: the
        # variable takes the integer type, as TVM's int32 variables do.
        is_int = lambda t: t is not None and t.startswith("i") and t[1:].isdigit()
        if a.type == "index" and is_int(b.type):
            a = self.cast(a, b.type, node)
        elif b.type == "index" and is_int(a.type):
            b = self.cast(b, a.type, node)
        if a.type != b.type:
            self.error(node, f"operands of different types: {a.type} and {b.type}")
        return a, b

    def binary(self, op, a, b, node):
        literal_b = b if b.literal is not None else None
        a, b = self.unify(a, b, node)
        t = a.type
        is_float = t.startswith("f") or t == "bf16"
        if op == "mod" and not is_float:
            # Floor modulo, as Python's % and T.floormod: a - (a // b) * b
            # (a literal b is written out at each use, as the printer does).
            q = self.binary("floordiv", a, b, node)
            again = self.coerce(literal_b, t, node) if literal_b is not None else b
            return self.binary("sub", a, self.binary("mul", q, again, node), node)
        names = {
            "add": ("arith.addf", "arith.addi"), "sub": ("arith.subf", "arith.subi"),
            "mul": ("arith.mulf", "arith.muli"), "div": ("arith.divf", None),
            "floordiv": (None, "arith.floordivsi"), "mod": (None, None),
            "max": ("arith.maximumf", "arith.maxsi"), "min": ("arith.minimumf", "arith.minsi"),
        }
        if op == "div" and not is_float:
            self.error(node, "'/' of integers: use // (floor division) or T.floordiv")
        fop = names[op][0 if is_float else 1]
        if fop is None:
            self.error(node, f"{op} of floats is not supported")
        name = self.fresh()
        self.emit(f"{name} = {fop} {a.text}, {b.text} : {t}" + self.loc(node))
        return Value(name, t)

    def affine_binary(self, op, a, b):
        """Index arithmetic kept affine when it is: + -, * by a constant,
        // and % by a constant."""
        if not (a.affine and b.affine):
            return None
        at, bt = a.text, b.text
        is_const = lambda v: v.text.lstrip("-").isdigit()
        if op in ("add", "sub"):
            return Value(f"({at} {'+' if op == 'add' else '-'} {bt})", "index", affine=True)
        if op == "mul" and (is_const(a) or is_const(b)):
            return Value(f"({at} * {bt})", "index", affine=True)
        if op == "floordiv" and is_const(b):
            return Value(f"({at} floordiv {bt})", "index", affine=True)
        if op == "mod" and is_const(b):
            return Value(f"({at} mod {bt})", "index", affine=True)
        return None

    def expr(self, node):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                return Value(None, "i1", literal=int(node.value))
            if isinstance(node.value, int):
                return Value(str(node.value), "index", affine=True, literal=node.value)
            if isinstance(node.value, float):
                return Value(None, None, literal=node.value)
            self.error(node, f"unsupported constant {node.value!r}")
        if isinstance(node, ast.Name):
            value = self.lookup(node, node.id)
            if isinstance(value, Buffer):
                self.error(node, f"buffer '{node.id}' used as a value; index it")
            return value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            operand = self.expr(node.operand)
            if operand.literal is not None:
                return Value(str(-operand.literal) if operand.affine else None, operand.type,
                             affine=operand.affine, literal=-operand.literal)
            if operand.affine:
                return Value(f"(0 - {operand.text})", "index", affine=True)
            zero = self.constant(0, operand.type, node)
            return self.binary("sub", zero, operand, node)
        if isinstance(node, ast.BinOp):
            ops = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div",
                   ast.FloorDiv: "floordiv", ast.Mod: "mod"}
            op = ops.get(type(node.op))
            if op is None:
                self.error(node, "unsupported operator")
            a, b = self.expr(node.left), self.expr(node.right)
            if a.is_index and b.is_index:
                affine = self.affine_binary(op, a, b)
                if affine is not None:
                    return affine
            return self.binary(op, a, b, node)
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1:
                self.error(node, "one comparison at a time")
            a, b = self.unify(self.expr(node.left), self.expr(node.comparators[0]), node)
            is_float = a.type.startswith("f") or a.type == "bf16"
            preds = {ast.Lt: ("olt", "slt"), ast.LtE: ("ole", "sle"), ast.Gt: ("ogt", "sgt"),
                     ast.GtE: ("oge", "sge"), ast.Eq: ("oeq", "eq"), ast.NotEq: ("one", "ne")}
            pred = preds[type(node.ops[0])][0 if is_float else 1]
            name = self.fresh()
            op = "arith.cmpf" if is_float else "arith.cmpi"
            self.emit(f"{name} = {op} {pred}, {a.text}, {b.text} : {a.type}" + self.loc(node))
            return Value(name, "i1")
        if isinstance(node, ast.Subscript):
            if not isinstance(node.value, ast.Name):
                self.error(node, "loads read buffers")
            buf = self.lookup(node.value, node.value.id)
            if not isinstance(buf, Buffer):
                self.error(node, f"'{node.value.id}' is not a buffer")
            idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            indices = ", ".join(self.index_text(i) for i in idx)
            name = self.fresh()
            self.emit(f"{name} = tir.load {buf.ssa}[{indices}] : {buf.type}" + self.loc(node))
            return Value(name, buf.element)
        if isinstance(node, ast.Call):
            return self.call(node)
        self.error(node, f"unsupported expression ({type(node).__name__})")

    def call(self, node):
        name = self.t_name(node.func)
        if name in DTYPES:  # T.float32(0), T.float32("-inf")
            special = self.static_value(node.args[0]) if node.args else None
            if isinstance(special, str):
                return self.special_float(special, DTYPES[name], node)
            value = self.expr(node.args[0]) if node.args else Value(None, None, literal=0)
            return self.coerce(value, DTYPES[name], node)
        if name in ("min_value", "max_value"):
            dtype = self.static_value(node.args[0])
            if dtype not in DTYPES:
                self.error(node, f"unsupported dtype {dtype!r}")
            t = DTYPES[dtype]
            if t.startswith("f"):
                import numpy
                info = numpy.finfo(dtype)
            else:
                import numpy
                info = numpy.iinfo(dtype)
            limit = info.min if name == "min_value" else info.max
            return self.constant(float(limit) if t.startswith("f") else int(limit), t, node)
        if name == "Cast":
            dtype = self.static_value(node.args[0])
            if dtype not in DTYPES:
                self.error(node, f"unsupported dtype {dtype!r}")
            return self.coerce(self.expr(node.args[1]), DTYPES[dtype], node)
        if name in ("max", "min"):
            return self.binary(name, self.expr(node.args[0]), self.expr(node.args[1]), node)
        if name in ("floordiv", "floormod"):
            a, b = self.expr(node.args[0]), self.expr(node.args[1])
            op = "floordiv" if name == "floordiv" else "mod"
            if a.is_index and b.is_index:
                affine = self.affine_binary(op, a, b)
                if affine is not None:
                    return affine
            return self.binary(op, a, b, node)
        if name in ("exp", "sqrt", "log", "tanh", "sin", "cos", "abs"):
            value = self.materialize(self.expr(node.args[0]), node)
            if value.type is None:
                value = self.coerce(value, "f32", node)
            op = {"abs": "math.absf"}.get(name, f"math.{name}")
            result = self.fresh()
            self.emit(f"{result} = {op} {value.text} : {value.type}" + self.loc(node))
            return Value(result, value.type)
        if name == "if_then_else":
            cond = self.materialize(self.expr(node.args[0]), node)
            a, b = self.unify(self.expr(node.args[1]), self.expr(node.args[2]), node)
            result = self.fresh()
            self.emit(f"{result} = arith.select {cond.text}, {a.text}, {b.text} : {a.type}" + self.loc(node))
            return Value(result, a.type)
        self.error(node, f"unsupported call {ast.unparse(node.func)}")


class _ScopedBuffer(Buffer):
    """A buffer allocated in a storage scope (its memref type carries it)."""

    def __init__(self, buf, type_text):
        super().__init__(buf.ssa, buf.shape, buf.dtype)
        self._type = type_text

    @property
    def type(self):
        return self._type


def function_source(fn):
    """(source, filename, first line) of a Python function or class."""
    source = textwrap.dedent(inspect.getsource(fn))
    filename = inspect.getsourcefile(fn) or "<tvmscript>"
    _, line = inspect.getsourcelines(fn)
    return source, filename, line - 1


def parse_function(node, source, filename, line_offset):
    return FunctionParser(source, filename, line_offset, node).parse()


def parse_module_text(functions):
    return "module {\n" + "\n".join(functions) + "\n}\n"


def to_ir_module(text, filename):
    return IRModule.from_mlir(text, filename)
