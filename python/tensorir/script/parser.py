"""TVMScript (TVM v0.23 syntax) to tir, through Python's ast.

The parser walks the function's syntax tree and writes tir in its MLIR
syntax, every op located at the Python line it comes from, so that both the
parser's errors and MLIR's verifier errors point into the Python source.
"""
import ast
import inspect
import textwrap

from ..ir import IRModule

from .buffers import BufferParser
from .expr import ExprParser
from .values import (DTYPES, ITER_KINDS, LOOP_KINDS, Buffer, ConstData, dotted_name,  # noqa: F401
                     ScopedBuffer, ScriptError, ShapeVar, Value, annotation_attr)


class FunctionParser(BufferParser, ExprParser):
    def __init__(self, source, filename, line_offset, node, env=None):
        self.source, self.filename, self.line_offset = source, filename, line_offset
        self.node = node
        # Python values the function can see (its globals and closure):
        # TVMScript's meta-programming reads sizes, dtypes and constants
        # from there.
        self.env = env or {}
        self.in_signature = True
        # Shape variables (`n = T.int32()`) -> (buffer SSA, type, dim) once a
        # buffer dimension defines them.
        self.shape_vars = {}
        # Integer scalar parameters: a buffer dimension they size names
        # them in tir.dim_vars.
        self.scalar_params = set()
        self.lines = []
        self.indent = 1
        self.scopes = [dict()]
        self.names_in_use = [set()]
        self.counter = 0
        self.vscale = None  # the function's `vector.vscale`, once used
        self.entry_index = None

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
        if name in self.env:
            from ..tir.expr import IntImm  # tir imports this module
            from ..tir.size_expr import SymbolicExpr as PrimExpr
            value = self.env[name]
            if isinstance(value, IntImm):
                value = value.value
            if isinstance(value, PrimExpr):
                return self.prim_expr(value, node)
            if isinstance(value, bool):
                return Value(None, "i1", literal=int(value))
            if isinstance(value, int):
                return Value(str(value), "index", affine=True, literal=value)
            if isinstance(value, float):
                return Value(None, None, literal=value)
            self.error(node, f"'{name}' is a Python {type(value).__name__}, not a "
                             "value TVMScript can use here")
        self.error(node, f"undefined name '{name}'")

    @staticmethod
    def is_t(node, *names):
        """Whether `node` is T.<name> (or T.<a>.<b> for dotted names)."""
        name = dotted_name(node, "T")
        return name is not None and name in names

    @staticmethod
    def t_name(node):
        return dotted_name(node, "T")

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
        if isinstance(node, ast.BinOp):
            # Python integers (closure values included) fold: (H + 2, W + 2).
            a, b = self.static_value(node.left), self.static_value(node.right)
            ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b))
            fold = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                    ast.FloorDiv: lambda: a // b if b else None,
                    ast.Mod: lambda: a % b if b else None}.get(type(node.op))
            return fold() if ints and fold else None
        if isinstance(node, ast.Name) and not self.is_bound(node.id) and node.id in self.env:
            from ..tir.expr import IntImm  # tir imports this module
            v = self.env[node.id]
            if isinstance(v, IntImm):
                return v.value
            if isinstance(v, list):
                return tuple(v)
            return v if isinstance(v, (int, float, str, tuple)) else None
        if (isinstance(node, ast.Call) and self.t_name(node.func) in DTYPES
                and len(node.args) == 1 and not node.keywords):
            v = self.static_value(node.args[0])  # T.int64(128)
            return v if isinstance(v, (int, float)) else None
        return None

    def is_bound(self, name):
        return any(name in scope for scope in self.scopes)

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
                self.scalar_params.add(arg.arg)
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
                    signature[arg.arg] = f'{buf.ssa}: {buf.type} {self.arg_attrs(buf, arg.arg)}'
                    continue
            self.error(ann, f"unsupported parameter type for '{arg.arg}'")
        # Shape variables: `n = T.int32()` (also `n, m = T.int32(), T.int32()`
        # and `n: T.int32`), defined by the first buffer dimension that is
        # exactly `n`.
        for stmt in body:
            for name in self.shape_var_names(stmt):
                self.bind(name, ShapeVar(name))
        # T.handle parameters take their buffer from T.match_buffer.
        rest = []
        for stmt in body:
            if self.shape_var_names(stmt):
                continue
            if (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
                    and self.is_t(stmt.value.func, "match_buffer")
                    and isinstance(stmt.value.args[0], ast.Name)
                    and stmt.value.args[0].id in handles):
                handle = stmt.value.args[0].id
                name = stmt.targets[0].id
                buf = self.buffer_from_args(stmt.value, stmt.value.args[1:], name,
                                            stmt.value.keywords)
                self.bind(name, buf)
                signature[handle] = f'{buf.ssa}: {buf.type} {self.arg_attrs(buf, name)}'
                del handles[handle]
            else:
                rest.append(stmt)
        if handles:
            self.error(handles[next(iter(handles))],
                       f"T.handle parameter '{next(iter(handles))}' has no T.match_buffer")
        order = [signature[arg.arg] for arg, _ in params]
        header = f"func.func @{fn.name}({', '.join(order)})"
        self.lines.append(header + " {")
        self.define_shape_vars(fn)
        self.entry_index = len(self.lines)
        self.in_signature = False
        self.statements(self.implied_root_body(rest))
        self.emit("return" + self.loc(fn))
        self.lines.append("}" + self.loc(fn))
        return "\n".join(self.lines)

    def implied_root_body(self, stmts):
        """The function's statements, where they are TVM's root block written
        out. The body of a function is its root block: `with T.block("root"):`
        around the whole body, saying nothing else (no iteration variables,
        T.where, T.block_attr, T.init or T.match_buffer; T.reads / T.writes
        only empty), is the same function as its body alone, as TVM parses
        and prints it. Its statements, T.alloc_buffer included, are then the
        function's; any other root block stays a block. A docstring and
        T.func_attr may stand beside it."""
        def inert(s):
            return isinstance(s, ast.Expr) and (
                (isinstance(s.value, ast.Constant) and isinstance(s.value.value, str))
                or (isinstance(s.value, ast.Call) and self.is_t(s.value.func, "func_attr")))
        outer = [s for s in stmts if not inert(s)]
        if len(outer) != 1 or not isinstance(outer[0], ast.With) or len(outer[0].items) != 1:
            return stmts
        root = outer[0]
        ctx = root.items[0].context_expr
        if not (isinstance(ctx, ast.Call) and self.is_t(ctx.func, "block")
                and len(ctx.args) == 1 and not ctx.keywords
                and self.static_value(ctx.args[0]) == "root"):
            return stmts
        body = [s for s in stmts if inert(s)]
        for s in root.body:
            call = s.value if isinstance(s, (ast.Assign, ast.Expr)) else None
            fname = self.t_name(call.func) if isinstance(call, ast.Call) else None
            if isinstance(s, ast.Expr) and fname in ("reads", "writes"):
                if call.keywords or any(not (isinstance(a, (ast.List, ast.Tuple)) and not a.elts)
                                        for a in call.args):
                    return stmts
                continue
            if fname and (fname.startswith("axis.") or fname in ("where", "block_attr",
                                                                  "match_buffer")):
                return stmts
            if isinstance(s, ast.With) and any(isinstance(i.context_expr, ast.Call)
                                               and self.is_t(i.context_expr.func, "init")
                                               for i in s.items):
                return stmts
            body.append(s)
        return body

    def shape_var_names(self, stmt):
        """The names a statement declares as shape variables."""
        def is_decl(call):
            return (isinstance(call, ast.Call) and not call.args and not call.keywords
                    and self.t_name(call.func) in ("int32", "int64"))
        if isinstance(stmt, ast.AnnAssign) and stmt.value is None and isinstance(
                stmt.target, ast.Name) and self.t_name(stmt.annotation) in ("int32", "int64"):
            return [stmt.target.id]
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            return []
        target, value = stmt.targets[0], stmt.value
        if isinstance(target, ast.Name) and is_decl(value):
            return [target.id]
        if (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
                and len(target.elts) == len(value.elts)
                and all(isinstance(t, ast.Name) for t in target.elts)
                and all(is_decl(v) for v in value.elts)):
            return [t.id for t in target.elts]
        return []

    def define_shape_vars(self, fn):
        """`%n = memref.dim %A, %c` for each shape variable, at entry."""
        for name, var in list(self.scopes[0].items()):
            if not isinstance(var, ShapeVar):
                continue
            if var.source is None:
                self.error(fn, f"shape variable '{name}' is not the size of any buffer "
                               "dimension; give it as a T.int32 parameter instead")
            ssa, type_text, dim = var.source
            index = self.constant(dim, "index", fn)
            result = self.ssa_name(name)
            self.emit(f"{result} = memref.dim {ssa}, {index.text} : {type_text}" + self.loc(fn))
            self.bind(name, Value(result, "index", affine=True))

    def statements(self, stmts):
        for stmt in stmts:
            self.statement(stmt)

    def statement(self, stmt):
        try:
            return self.statement_unchecked(stmt)
        except (IndexError, KeyError, AttributeError, TypeError, ValueError) as e:
            # A construct the checks above did not foresee: still an error
            # at the user's line, not a bare Python error from the parser.
            self.error(stmt, f"cannot parse this statement ({type(e).__name__}: {e}); "
                             "check the arguments of its T.* calls")

    def statement_unchecked(self, stmt):
        if isinstance(stmt, ast.For):
            return self.for_loop(stmt)
        if isinstance(stmt, ast.With):
            return self.with_stmt(stmt)
        if isinstance(stmt, ast.Assign):
            return self.assign(stmt)
        if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            # A let binding: `x: T.int32 = e` names the value of e.
            return self.assign(ast.copy_location(
                ast.Assign(targets=[stmt.target], value=stmt.value), stmt))
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
            call = stmt.value
            if isinstance(call, ast.Call) and self.is_t(call.func, "evaluate"):
                if len(call.args) != 1 or call.keywords:
                    self.error(call, "T.evaluate takes one expression")
                call = call.args[0]
                if isinstance(call, ast.Constant) and isinstance(call.value, int):
                    return  # T.evaluate(0): an empty body
            if isinstance(call, ast.Call) and self.is_opaque_call(call):
                self.opaque_call(call, statement=True)
                return
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                    and call.func.attr == "access_ptr":
                self.expr(call)  # B.access_ptr(...): an opaque access
                return
            self.error(stmt, "expressions as statements are calls (T.call_extern(...), "
                             "TVM's builtins) or T.evaluate(0)")
        if isinstance(stmt, ast.If):
            return self.if_stmt(stmt)
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
        constant = self.static_value(node)
        if isinstance(constant, int) and not isinstance(constant, bool):
            return str(constant)
        value = self.as_index(self.expr(node), node)
        if value is None:
            self.error(node, "loop bounds and domains are integer expressions")
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
        return self.attr_text(node)

    def attr_text(self, node):
        """An annotation value as an MLIR attribute (values.annotation_attr),
        read from the syntax tree so that errors point at the value."""
        return annotation_attr(self.annotation_value(node))

    def annotation_value(self, node):
        if isinstance(node, ast.Dict):
            items = {}
            for k, v in zip(node.keys, node.values):
                key = self.static_value(k)
                if not isinstance(key, str):
                    self.error(k, "annotation keys are strings")
                items[key] = self.annotation_value(v)
            return items
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.annotation_value(e) for e in node.elts]
        if isinstance(node, ast.Call) and self.t_name(node.func) in DTYPES and node.args:
            val = self.static_value(node.args[0])  # T.int32(4), T.float32(1.5)
        else:
            val = self.static_value(node)
        if not isinstance(val, (bool, int, float, str)):
            self.error(node, "annotation values are bool, int, float, str, or lists and "
                             "dicts of them")
        return val

    def if_stmt(self, stmt):
        """`if cond: ... else: ...` (TVM's IfThenElse): an scf.if whose
        regions hold the branches' statements."""
        cond = self.materialize(self.expr(stmt.test), stmt.test)
        if cond.type != "i1":
            self.error(stmt.test, f"an if statement needs a boolean condition, got {cond.type}")
        self.emit(f"scf.if {cond.text} {{")
        for k, branch in enumerate([stmt.body] + ([stmt.orelse] if stmt.orelse else [])):
            if k:
                self.emit("} else {")
            self.indent += 1
            self.push()
            self.statements(branch)
            self.pop()
            self.indent -= 1
        self.emit("}" + self.loc(stmt))

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
            if fname in ("where", "block_attr") and len(call.args) != 1:
                self.error(call, f"T.{fname} takes 1 argument, got {len(call.args)}")
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
        # One that reads buffers is a value (an i1 computed before the block).
        where_text = condition_value = None
        if where is not None and any(isinstance(n, ast.Subscript) for n in ast.walk(where)):
            condition_value = self.materialize(self.expr(where), where)
            if condition_value.type != "i1":
                self.error(where, "T.where takes a boolean condition")
        elif where is not None:
            where_text = self.condition_text(where)
        # Header: iteration variables bound to loop expressions.
        self.push()
        self.bind("__block__", name)  # match_buffer checks it is in a block
        header = []
        for pyname, kind, domain, binding in iter_vars:
            ssa = self.ssa_name(pyname)
            header.append(f"{ssa} = {kind}({domain}, {binding})")
            self.bind(pyname, Value(ssa, "index", affine=True))
        text = f'tir.block "{name}"(' + ", ".join(header) + ")"
        if where_text is not None:
            text += f" where({where_text})"
        if condition_value is not None:
            text += f" condition({condition_value.text})"
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
            if len(call.args) != 2 or call.keywords:
                self.error(call, 'T.axis.remap takes 2 arguments (a kind string and the '
                                 'loop variables: T.axis.remap("SSR", [i, j, k])), got '
                                 f"{len(call.args) + len(call.keywords)}")
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
        if len(call.args) != 2 or call.keywords:
            self.error(call, f"T.axis.{kind} takes 2 arguments (the domain and the "
                             f"binding: T.axis.{kind}(128, i)), got "
                             f"{len(call.args) + len(call.keywords)}")
        dom = call.args[0]
        if isinstance(dom, (ast.Tuple, ast.List)) and len(dom.elts) != 2:
            self.error(dom, f"the domain of T.axis.{kind} is an extent or a pair "
                            f"(begin, end), got {len(dom.elts)} values")
        if isinstance(dom, (ast.Tuple, ast.List)):
            domain = f"{self.bound(dom.elts[0])} : {self.bound(dom.elts[1])}"
        else:
            domain = self.bound(dom)
        text = self.index_text(call.args[1], "a binding is an integer expression")
        return [(targets.id, ITER_KINDS[kind], domain, text)]

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
            text, buf = self.region_text(item, f"T.{keyword}")
            regions.append(text)
            types.append(buf.type)
        if not regions:
            return f" {keyword}()"
        return f" {keyword}({', '.join(regions)} : {', '.join(types)})"

    def region_text(self, item, what):
        """(`%A[lo : hi, i]`, buffer) for a buffer region `A[lo:hi, i]`. A
        missing bound is the dimension's; an index that reads a buffer
        (TVM's nested access, `A[B[vi], vj]`) covers its whole dimension,
        since a region is index expressions over values in scope."""
        if not isinstance(item, ast.Subscript) or not isinstance(item.value, ast.Name):
            self.error(item, f"{what} takes buffer regions like A[vi, 0:4]")
        buf = self.lookup(item.value, item.value.id)
        if not isinstance(buf, Buffer):
            self.error(item, f"'{item.value.id}' is not a buffer")
        idx = item.slice.elts if isinstance(item.slice, ast.Tuple) else [item.slice]
        if len(idx) != len(buf.shape):
            self.error(item, f"{len(idx)} indices for the {len(buf.shape)}-dimensional "
                             f"buffer '{item.value.id}'")
        parts = []
        for i, dim in zip(idx, buf.shape):
            if isinstance(i, ast.Slice):
                if i.step is not None:
                    self.error(i, "regions with a step are not supported")
                lower = "0" if i.lower is None else self.index_text(i.lower)
                upper = self.dim_text(dim, item) if i.upper is None else self.index_text(i.upper)
                parts.append(f"{lower} : {upper}")
            elif any(isinstance(n, ast.Subscript) for n in ast.walk(i)):
                parts.append(f"0 : {self.dim_text(dim, item)}")
            else:
                parts.append(self.index_text(i))
        return f"{buf.ssa}[{', '.join(parts)}]", buf

    def dim_text(self, dim, node):
        """Index text for a buffer dimension (an int or an index value)."""
        if isinstance(dim, int):
            return str(dim)
        if isinstance(dim, ShapeVar):
            dim = self.lookup(node, dim.name)
        if isinstance(dim, Value) and dim.text != "?":
            return self.index_expr_text(dim) or self.materialize(dim, node).text
        self.error(node, "a region over a dynamic dimension needs explicit bounds")

    def index_text(self, node, message="indices are integer expressions"):
        """tir index-expression text for an integer expression (an SSA name
        when it is computed by ops); `message` when it is not an integer."""
        value = self.as_index(self.expr(node), node)
        if value is None:
            self.error(node, message)
        text = self.index_expr_text(value)
        return text if text is not None else self.materialize(value, node).text

    def condition_text(self, node):
        """A T.where condition: comparisons of integer expressions joined by
        and / or / not."""
        if isinstance(node, ast.BoolOp):
            word = " and " if isinstance(node.op, ast.And) else " or "
            return word.join(f"({self.condition_text(v)})" for v in node.values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return f"not ({self.condition_text(node.operand)})"
        if isinstance(node, ast.Compare):
            ops = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "=="}
            terms = [node.left] + list(node.comparators)
            parts = []
            for left, op_node, right in zip(terms, node.ops, terms[1:]):
                lhs, rhs = self.condition_operand(left), self.condition_operand(right)
                if isinstance(op_node, ast.NotEq):
                    parts.append(f"not ({lhs} == {rhs})")
                    continue
                op = ops.get(type(op_node))
                if op is None:
                    self.error(node, "T.where compares with <, <=, >, >=, == or !=")
                parts.append(f"{lhs} {op} {rhs}")
            return " and ".join(f"({p})" for p in parts) if len(parts) > 1 else parts[0]
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return "0 == 0" if node.value else "0 == 1"
        self.error(node, "T.where takes comparisons of integer expressions joined by "
                         "'and', 'or' and 'not'")

    def condition_operand(self, node):
        return self.index_text(node, "T.where compares integer expressions")

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
            value = self.coerce(self.expr(stmt.value), buf.element, stmt.value, buf.unsigned)
            idx = target.slice.elts if isinstance(target.slice, ast.Tuple) else [target.slice]
            indices = ", ".join(self.index_text(i) for i in idx)
            self.emit(f"tir.store {value.text}, {buf.ssa}[{indices}] : {buf.type}" + self.loc(stmt))
            return
        if isinstance(target, ast.Name):
            call = stmt.value
            if isinstance(call, ast.Call) and self.is_t(call.func, "alloc_buffer"):
                buf = self.buffer_from_args(call, call.args, target.id, call.keywords)
                dyn = [self.materialize(d, call).text for d in buf.shape
                       if not isinstance(d, int)]
                args = f"({', '.join(dyn)})" if dyn else ""
                extra = []
                if buf.axis_separators:
                    seps = ", ".join(str(x) for x in buf.axis_separators)
                    extra.append(f"axis_separators = array<i64: {seps}>")
                if buf.dtype.startswith("uint"):  # memrefs are signless
                    extra.append(f'tir.dtype = "{buf.dtype}"')
                if extra:
                    args += f" {{{', '.join(extra)}}}"
                self.emit(f"{buf.ssa} = tir.alloc_buffer{args} : {buf.type}" + self.loc(stmt))
                self.bind(target.id, buf)
                return
            if isinstance(call, ast.Call) and self.is_t(call.func, "match_buffer"):
                return self.match_region(target, call)
            if isinstance(call, ast.Call) and self.is_t(call.func, "allocate_const"):
                return self.allocate_const(target, call)
            if isinstance(call, ast.Call) and (self.is_t(call.func, "decl_buffer", "Buffer")
                                               or self.is_python_call(call)):
                return self.declare_buffer(target, call)
            if (isinstance(call, ast.Call) and not call.args and not call.keywords
                    and self.t_name(call.func) in ("int32", "int64")):
                # `x = T.int32()` in a body: a variable that a following
                # T.match_buffer defines (elem_offset=x, strides=[x, ...]).
                self.bind(target.id, ShapeVar(target.id))
                return
            value = self.expr(stmt.value)
            self.bind(target.id, value)
            return
        self.error(stmt, "unsupported assignment target")

def function_source(fn):
    """(source, filename, first line) of a Python function or class."""
    source = textwrap.dedent(inspect.getsource(fn))
    filename = inspect.getsourcefile(fn) or "<tvmscript>"
    _, line = inspect.getsourcelines(fn)
    return source, filename, line - 1


def parse_function(node, source, filename, line_offset, env=None):
    parser = FunctionParser(source, filename, line_offset, node, env)
    try:
        return parser.parse()
    except (IndexError, KeyError, AttributeError, TypeError, ValueError) as e:
        # In the signature (statements have their own net, with their line).
        parser.error(node, f"cannot parse the function's signature ({type(e).__name__}: "
                           f"{e}); check its parameters and T.match_buffer calls")


def python_env(fn):
    """The Python names a decorated function can see: its module's globals
    and the variables it closes over."""
    env = dict(getattr(fn, "__globals__", {}))
    try:
        env.update(inspect.getclosurevars(fn).nonlocals)
    except (TypeError, ValueError):
        pass
    return env


def parse_module_text(functions):
    """A module of the functions' texts."""
    return "module {\n" + "\n".join(functions) + "\n}\n"


def to_ir_module(text, filename):
    return IRModule.from_mlir(text, filename)
