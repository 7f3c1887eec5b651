"""TVMScript (TVM v0.23 syntax) to tir, through Python's ast.

The parser walks the function's syntax tree and builds the function as
tvm.tir nodes (loops, blocks, buffers, loads, stores, expressions), each
statement located at the Python line it comes from; the extension builds
the nodes into tir ops (python/extension/FromNodes.cpp) and verifies them,
so that both the parser's errors and the verifier's point into the Python
source.
"""
import ast

from .._ext import ext
from ..ir.node import Range
from ..tir import expr as E
from ..tir import stmt as S
from ..tir.buffer import Buffer
from ..tir.function import COMPILER_FUNC_ATTRS

from .buffers import BufferParser
from .expr import ExprParser, literal
from .values import (DTYPES, ITER_KINDS, PendingVar, ScriptError,  # noqa: F401
                     dotted_name)

_SCALAR_PARAMS = ("int32", "int64", "int16", "int8", "uint32", "uint64")
_LOOP_KINDS = {"serial": S.ForKind.SERIAL, "range": S.ForKind.SERIAL,
               "parallel": S.ForKind.PARALLEL, "vectorized": S.ForKind.VECTORIZED,
               "unroll": S.ForKind.UNROLLED, "thread_binding": S.ForKind.THREAD_BINDING}


class _Frame:
    """A block being parsed (or the function's body, `is_block` false):
    the buffers it allocates and matches, and the scope depth its own
    statements are at."""

    def __init__(self, scope_depth, is_block):
        self.scope_depth, self.is_block = scope_depth, is_block
        self.alloc_buffers, self.match_buffers = [], []


class _Scoped:
    """A statement that holds the statements after it (a LetStmt, an
    AllocateConst, a DeclBuffer)."""

    def __init__(self, stmt):
        self.stmt = stmt


class FunctionParser(BufferParser, ExprParser):
    def __init__(self, source, filename, line_offset, node, env=None):
        self.source, self.filename, self.line_offset = source, filename, line_offset
        self.node = node
        # Python values the function can see (its globals and closure):
        # TVMScript's meta-programming reads sizes, dtypes and constants
        # from there.
        self.env = env or {}
        self.in_signature = True
        self.scopes = [dict()]
        self.frames = [_Frame(1, False)]
        # Each loop variable's (min, extent), for T.axis.remap.
        self.loops = {}

    # ----------------------------------------------------------------- utils
    def error(self, node, message):
        line = getattr(node, "lineno", 1) + self.line_offset
        col = getattr(node, "col_offset", 0) + 1
        raise ScriptError(f"{self.filename}:{line}:{col}: error: {message}")

    def push(self):
        self.scopes.append(dict())

    def pop(self):
        self.scopes.pop()

    def bind(self, name, value):
        self.scopes[-1][name] = value

    def is_bound(self, name):
        return any(name in scope for scope in self.scopes)

    def lookup(self, node, name):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name in self.env:
            value = self.env[name]
            if isinstance(value, (bool, int, float)):
                return literal(value)
            if isinstance(value, E.PrimExpr):
                # A symbolic size written outside a function (4 * T.vscale()).
                return E.convert(value)
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
            v = self.env[node.id]
            if isinstance(v, E.IntImm):
                return v.value
            if isinstance(v, list):
                return tuple(v)
            return v if isinstance(v, (int, float, str, tuple)) else None
        if (isinstance(node, ast.Call) and self.t_name(node.func) in DTYPES
                and len(node.args) == 1 and not node.keywords):
            v = self.static_value(node.args[0])  # T.int64(128)
            return v if isinstance(v, (int, float)) else None
        if isinstance(node, ast.JoinedStr):
            # f"wmma_load_{suffix}" over closure values.
            parts = []
            for part in node.values:
                if isinstance(part, ast.FormattedValue):
                    if part.format_spec is not None or part.conversion not in (-1, None):
                        return None
                    v = self.static_value(part.value)
                    if not isinstance(v, (int, float, str)):
                        return None
                    parts.append(str(v))
                else:
                    parts.append(str(part.value))
            return "".join(parts)
        return None

    def located(self, stmt, node):
        """`stmt` located at `node`'s line (unless it is already)."""
        if stmt is not None and getattr(stmt, "span", None) is None:
            stmt.span = self.span(node)
        return stmt

    # ------------------------------------------------------------- signature
    def parse(self):
        """(params, buffer_map, body) of the function, as nodes."""
        fn = self.node
        params, body = [], list(fn.body)
        for arg in fn.args.args:
            if arg.annotation is None:
                self.error(arg, f"parameter '{arg.arg}' needs a type annotation "
                                "(T.Buffer(...), T.handle or T.int32)")
            params.append((arg, arg.annotation))
        # Scalars first: buffer shapes may use them.
        param_vars, buffer_map, handles = {}, {}, {}
        for arg, ann in params:
            kind = self.t_name(ann.func if isinstance(ann, ast.Call) else
                               ann.value if isinstance(ann, ast.Subscript) else ann)
            if kind in _SCALAR_PARAMS:
                var = E.Var(arg.arg, kind, span=self.span(arg))
                self.bind(arg.arg, var)
                param_vars[arg.arg] = var
        # Shape variables: `n = T.int32()` (also `n, m = T.int32(), T.int32()`
        # and `n: T.int32`), defined by the first buffer dimension that is
        # exactly `n`.
        shape_vars = []
        for stmt in body:
            for name, dtype in self.shape_var_names(stmt):
                var = E.Var(name, dtype, span=self.span(stmt))
                self.bind(name, var)
                shape_vars.append(var)
        for arg, ann in params:
            if arg.arg in param_vars:
                continue
            if self.is_t(ann, "handle"):
                handles[arg.arg] = arg
                param_vars[arg.arg] = E.Var(arg.arg, "handle", span=self.span(arg))
                continue
            if isinstance(ann, (ast.Call, ast.Subscript)):
                head = ann.func if isinstance(ann, ast.Call) else ann.value
                if self.t_name(head) == "Buffer":
                    buf = self.buffer_decl(ann, arg.arg)
                    self.bind(arg.arg, buf)
                    param_vars[arg.arg] = E.Var(arg.arg, "handle", span=self.span(arg))
                    buffer_map[param_vars[arg.arg]] = buf
                    continue
            self.error(ann, f"unsupported parameter type for '{arg.arg}'")
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
                buffer_map[param_vars[handle]] = buf
                del handles[handle]
            else:
                rest.append(stmt)
        if handles:
            self.error(handles[next(iter(handles))],
                       f"T.handle parameter '{next(iter(handles))}' has no T.match_buffer")
        # A shape variable no buffer dimension sizes has no value: the body
        # must not use it (one declared and not used is left out, as TVM
        # leaves it).
        unsized = [var for var in shape_vars
                   if not any(d is var for buf in buffer_map.values() for d in buf.shape)]
        self.in_signature = False
        stmts = self.statements(self.implied_root_body(rest))
        if unsized:
            from ..tir.analysis import undefined_vars
            used = {id(v) for s in (stmts if isinstance(stmts, list) else [stmts])
                    for v in undefined_vars(s)}
            for var in unsized:
                if id(var) in used:
                    self.error(fn, f"shape variable '{var.name}' is not the size of any "
                                   "buffer dimension; give it as a T.int32 parameter "
                                   "instead")
        root = self.frames[0]
        if root.alloc_buffers:
            stmts = S.BlockRealize([], E.IntImm("bool", True), S.Block(
                [], [], [], "root", stmts, alloc_buffers=root.alloc_buffers,
                span=self.span(fn)), span=self.span(fn))
        return [param_vars[arg.arg] for arg, _ in params], buffer_map, stmts

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
        """The (name, dtype) of the shape variables a statement declares."""
        def dtype_of(call):
            if (isinstance(call, ast.Call) and not call.args and not call.keywords
                    and self.t_name(call.func) in ("int32", "int64")):
                return self.t_name(call.func)
            return None
        if isinstance(stmt, ast.AnnAssign) and stmt.value is None and isinstance(
                stmt.target, ast.Name) and self.t_name(stmt.annotation) in ("int32", "int64"):
            return [(stmt.target.id, self.t_name(stmt.annotation))]
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            return []
        target, value = stmt.targets[0], stmt.value
        if isinstance(target, ast.Name) and dtype_of(value):
            return [(target.id, dtype_of(value))]
        if (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
                and len(target.elts) == len(value.elts)
                and all(isinstance(t, ast.Name) for t in target.elts)
                and all(dtype_of(v) for v in value.elts)):
            return [(t.id, dtype_of(v)) for t, v in zip(target.elts, value.elts)]
        return []

    # ------------------------------------------------------------ statements
    def statements(self, stmts):
        """One statement for `stmts` (a SeqStmt of several)."""
        out = []
        for k, stmt in enumerate(stmts):
            result = self.statement(stmt, stmts[k + 1:])
            if isinstance(result, _Scoped):
                out.append(self.located(result.stmt, stmt))
                break
            if result is not None:
                out.append(self.located(result, stmt))
        if not out:
            return S.Evaluate(E.IntImm("int32", 0))
        return out[0] if len(out) == 1 else S.SeqStmt(out)

    def statement(self, stmt, rest):
        try:
            return self.statement_unchecked(stmt, rest)
        except (IndexError, KeyError, AttributeError, TypeError, ValueError) as e:
            # A construct the checks above did not foresee: still an error
            # at the user's line, not a bare Python error from the parser.
            self.error(stmt, f"cannot parse this statement ({type(e).__name__}: {e}); "
                             "check the arguments of its T.* calls")

    def statement_unchecked(self, stmt, rest):
        if isinstance(stmt, ast.For):
            return self.for_loop(stmt)
        if isinstance(stmt, ast.With):
            return self.with_stmt(stmt)
        if isinstance(stmt, ast.Assign):
            return self.assign(stmt, rest)
        if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            # A let binding: `x: T.int32 = e` names the value of e.
            return self.assign(ast.copy_location(
                ast.Assign(targets=[stmt.target], value=stmt.value), stmt), rest)
        if isinstance(stmt, ast.AugAssign):
            target = stmt.target
            value = ast.BinOp(left=ast.Subscript(value=target.value, slice=target.slice,
                                                 ctx=ast.Load()) if isinstance(target, ast.Subscript) else target,
                              op=stmt.op, right=stmt.value)
            ast.copy_location(value, stmt)
            ast.copy_location(value.left, stmt)
            return self.assign(ast.copy_location(ast.Assign(targets=[target], value=value),
                                                 stmt), rest)
        if isinstance(stmt, ast.Expr):
            if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                return None  # docstring
            if isinstance(stmt.value, ast.Call) and self.is_t(stmt.value.func, "func_attr"):
                return None  # function attributes carry nothing tir needs yet
            call = stmt.value
            if isinstance(call, ast.Call) and self.is_t(call.func, "launch_thread"):
                return _Scoped(self.launch_thread(call, None, rest, stmt))
            if isinstance(call, ast.Call) and self.is_t(call.func, "evaluate"):
                if len(call.args) != 1 or call.keywords:
                    self.error(call, "T.evaluate takes one expression")
                call = call.args[0]
                if isinstance(call, ast.Constant) and isinstance(call.value, int):
                    return None  # T.evaluate(0): an empty body
                if isinstance(call, ast.Subscript):
                    return S.Evaluate(self.expr(call))  # T.evaluate(A[i]): a read
            if isinstance(call, ast.Call) and self.is_opaque_call(call):
                return S.Evaluate(self.opaque_call(call))
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                    and call.func.attr == "access_ptr":
                return S.Evaluate(self.expr(call))  # B.access_ptr(...): an opaque access
            self.error(stmt, "expressions as statements are calls (T.call_extern(...), "
                             "TVM's builtins) or T.evaluate(0)")
        if isinstance(stmt, ast.If):
            return self.if_stmt(stmt)
        if isinstance(stmt, ast.Pass):
            return None
        if isinstance(stmt, ast.Return) and stmt.value is None:
            return None
        self.error(stmt, f"unsupported statement ({type(stmt).__name__})")

    def loop_ranges(self, node):
        """[(lower, upper, kind, thread, annotations)] of a loop's iterator."""
        if not isinstance(node, ast.Call):
            self.error(node, "a loop iterates over range(...), T.grid(...), T.serial(...), ...")
        name = "range" if isinstance(node.func, ast.Name) and node.func.id == "range" \
            else self.t_name(node.func)
        kws = {k.arg: k.value for k in node.keywords}
        if name == "grid":
            return [(None, a, "serial", None, None) for a in node.args]
        if name in _LOOP_KINDS:
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
            return [(lower, upper, name, thread, kws.get("annotations"))]
        self.error(node, f"unsupported loop iterator T.{name}")

    def bound(self, node, message="loop bounds and domains are integer expressions"):
        if node is None:
            return E.IntImm("int32", 0)
        return self.index(node, message)

    def for_loop(self, stmt):
        ranges = self.loop_ranges(stmt.iter)
        targets = stmt.target.elts if isinstance(stmt.target, ast.Tuple) else [stmt.target]
        # One name for several loops (for iters in T.grid(m, n)) names the
        # tuple of their variables.
        grouped = None
        if len(targets) == 1 and len(ranges) > 1 and isinstance(targets[0], ast.Name):
            grouped = targets[0]
            targets = [ast.copy_location(ast.Name(f"{grouped.id}_{k}", ast.Store()), grouped)
                       for k in range(len(ranges))]
        if len(targets) != len(ranges):
            self.error(stmt, f"{len(targets)} loop variables for {len(ranges)} loops")
        loops = []
        for target, (lower, upper, kind, thread, annotations) in zip(targets, ranges):
            if not isinstance(target, ast.Name):
                self.error(target, "loop variables are names")
            lo, hi = self.unify(self.bound(lower), self.bound(upper), stmt.iter)
            extent = E.make_binary(E.Sub, hi, lo)
            if isinstance(extent, E.IntImm) and extent.value < 0:
                # range(0, -1) is empty, as Python's (TVM keeps the negative
                # extent; tir's loops have none).
                extent = E.IntImm(extent.dtype, 0)
            self.push()
            var = E.Var(target.id, lo.dtype if lo.dtype in ("int32", "int64") else "int64",
                        span=self.span(target))
            self.bind(target.id, var)
            self.loops[var] = (lo, extent)
            loops.append((var, lo, extent, kind, thread,
                          self.annotation_dict(annotations) if annotations is not None
                          else None))
        if grouped is not None:
            self.bind(grouped.id, tuple(var for var, *_ in loops))
        body = self.statements(stmt.body)
        for var, lo, extent, kind, thread, annotations in reversed(loops):
            body = S.For(var, lo, extent, _LOOP_KINDS[kind], body, thread_binding=thread,
                         annotations=annotations, span=self.span(stmt))
            self.pop()
        return body

    def annotation_dict(self, node):
        if not isinstance(node, ast.Dict):
            self.error(node, "expected a dict of annotations")
        return self.annotation_value(node)

    def annotation_value(self, node):
        """An annotation value (bool, int, float, str, and lists and dicts of
        them), read from the syntax tree so that errors point at the value."""
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
        """`if cond: ... else: ...` (TVM's IfThenElse)."""
        cond = self.expr(stmt.test)
        if cond.dtype != "bool":
            self.error(stmt.test, "an if statement needs a boolean condition, got "
                                  f"{cond.dtype}")
        branches = []
        for branch in [stmt.body] + ([stmt.orelse] if stmt.orelse else []):
            self.push()
            branches.append(self.statements(branch))
            self.pop()
        return S.IfThenElse(cond, *branches)

    def with_stmt(self, stmt):
        if len(stmt.items) != 1:
            self.error(stmt, "one context manager per with")
        ctx = stmt.items[0].context_expr
        if isinstance(ctx, ast.Call) and self.is_t(ctx.func, "block"):
            return self.block(stmt, ctx)
        if isinstance(ctx, ast.Call) and self.is_t(ctx.func, "init"):
            self.error(stmt, "T.init() is written in a block's body, beside its statements")
        if isinstance(ctx, ast.Call) and self.is_t(ctx.func, "launch_thread"):
            target = stmt.items[0].optional_vars
            if target is not None and not isinstance(target, ast.Name):
                self.error(stmt, "`with T.launch_thread(...) as x` binds one name")
            return self.launch_thread(ctx, target.id if target is not None else None,
                                      stmt.body, stmt)
        self.error(stmt, "unsupported with statement (T.block, T.init or T.launch_thread)")

    def launch_thread(self, call, name, body, stmt):
        """TVM's T.launch_thread(thread, extent): the statements of `body`
        run on `extent` threads of `thread` (a tag such as "threadIdx.x", or
        a variable of T.env_thread), the thread's index named `name`: a
        loop bound to the thread."""
        if len(call.args) != 2 or call.keywords:
            self.error(call, "T.launch_thread takes a thread (a tag such as \"threadIdx.x\" "
                             "or a T.env_thread variable) and an extent")
        thread, extent_node = call.args
        var = None
        if isinstance(thread, ast.Name) and self.is_bound(thread.id):
            bound = self.lookup(thread, thread.id)
            if not isinstance(bound, _EnvThread):
                self.error(thread, f"'{thread.id}' is not a thread (T.env_thread)")
            tag, var = bound.tag, bound.var
        else:
            tag = self.static_value(thread)
            if not isinstance(tag, str):
                self.error(thread, "T.launch_thread's thread is a tag such as \"threadIdx.x\" "
                                   "or a T.env_thread variable")
        extent = self.index(extent_node, "a thread extent is an integer expression")
        self.push()
        if var is None:
            var = E.Var(name or tag.replace(".", "_"), extent.dtype, span=self.span(stmt))
        if name is not None:
            self.bind(name, var)
        if isinstance(thread, ast.Name):
            self.bind(thread.id, var)  # the thread's index, inside the launch
        self.loops[var] = (E.IntImm(extent.dtype, 0), extent)
        inner = self.statements(body)
        self.pop()
        return S.For(var, E.IntImm(extent.dtype, 0), extent,
                     _LOOP_KINDS["thread_binding"], inner, thread_binding=tag,
                     span=self.span(stmt))

    def block(self, stmt, ctx):
        name = self.static_value(ctx.args[0]) if ctx.args else ""  # unnamed, as TVM's
        if not isinstance(name, str):
            self.error(ctx, "T.block takes a name")
        axes = []  # (python name, iter_type, Range, binding)
        where = reads = writes = annotations = None
        rest = []
        for s in stmt.body:
            call = s.value if isinstance(s, (ast.Assign, ast.Expr)) else None
            fname = self.t_name(call.func) if isinstance(call, ast.Call) else None
            if fname in ("where", "block_attr") and len(call.args) != 1:
                self.error(call, f"T.{fname} takes 1 argument, got {len(call.args)}")
            if isinstance(s, ast.Assign) and fname and fname.startswith("axis."):
                axes.extend(self.axis(s, fname[len("axis."):], call))
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
        predicate = E.IntImm("bool", True)
        if where is not None:
            predicate = self.expr(where)
            if predicate.dtype != "bool":
                self.error(where, "T.where takes a boolean condition")
        self.push()
        frame = _Frame(len(self.scopes), True)
        self.frames.append(frame)
        iter_vars, values = [], []
        for pyname, kind, dom, binding in axes:
            var = E.Var(pyname, binding.dtype if binding.dtype in ("int32", "int64")
                        else "int32")
            iter_vars.append(S.IterVar(dom, var, kind))
            values.append(binding)
            self.bind(pyname, var)
        read_regions = self.region_list("reads", reads) if reads is not None else []
        write_regions = self.region_list("writes", writes) if writes is not None else []
        init = None
        body_stmts = []
        for s in rest:
            if isinstance(s, ast.With) and len(s.items) == 1 and isinstance(
                    s.items[0].context_expr, ast.Call) and self.is_t(s.items[0].context_expr.func,
                                                                     "init"):
                if init is not None:
                    self.error(s, "a block has one T.init()")
                self.push()
                init = self.located(self.statements(s.body), s)
                self.pop()
            else:
                body_stmts.append(s)
        body = self.statements(body_stmts)
        self.frames.pop()
        self.pop()
        block = S.Block(iter_vars, read_regions, write_regions, name, body, init=init,
                        alloc_buffers=frame.alloc_buffers, match_buffers=frame.match_buffers,
                        annotations=self.annotation_dict(annotations)
                        if annotations is not None else None, span=self.span(stmt))
        # Regions the script gives are the block's; those it leaves out are
        # inferred from the body.
        block._regions_given = (reads is not None, writes is not None)
        return S.BlockRealize(values, predicate, block, span=self.span(stmt))

    def axis(self, stmt, kind, call):
        targets = stmt.targets[0]
        if kind == "remap":
            if len(call.args) != 2 or call.keywords:
                self.error(call, 'T.axis.remap takes 2 arguments (a kind string and the '
                                 'loop variables: T.axis.remap("SSR", [i, j, k])), got '
                                 f"{len(call.args) + len(call.keywords)}")
            kinds = self.static_value(call.args[0])
            sources = call.args[1].elts if isinstance(call.args[1], (ast.List, ast.Tuple)) else None
            if isinstance(call.args[1], ast.Name) and \
                    isinstance(self.lookup(call.args[1], call.args[1].id), tuple):
                # A name for a tuple of loop variables (for iters in T.grid(...)).
                group = call.args[1]
                sources = [ast.copy_location(ast.Name(v.name, ast.Load()), group)
                           for v in self.lookup(group, group.id)]
            names = targets.elts if isinstance(targets, ast.Tuple) else [targets]
            if not isinstance(kinds, str) or sources is None or not (len(kinds) == len(sources) == len(names)):
                self.error(call, 'T.axis.remap takes a kind string ("SSR") and as many loop variables')
            out = []
            for k, src, tgt in zip(kinds, sources, names):
                if k not in ITER_KINDS:
                    self.error(call, f"unknown iteration kind '{k}'")
                if not isinstance(src, ast.Name):
                    self.error(src, "T.axis.remap takes loop variables")
                var = self.lookup(src, src.id)
                if not isinstance(var, E.Var) or var not in self.loops:
                    self.error(src, f"'{src.id}' is not a loop variable")
                lo, extent = self.loops[var]
                out.append((tgt.id, ITER_KINDS[k], Range.from_min_extent(lo, extent), var))
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
            lo, hi = self.unify(self.bound(dom.elts[0]), self.bound(dom.elts[1]), dom)
            domain = Range.from_min_extent(lo, E.make_binary(E.Sub, hi, lo))
        else:
            extent = self.bound(dom)
            domain = Range.from_min_extent(E.IntImm(extent.dtype, 0), extent)
        binding = self.index(call.args[1], "a binding is an integer expression")
        return [(targets.id, ITER_KINDS[kind], domain, binding)]

    def region_list(self, keyword, args):
        items = args
        if len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
            items = args[0].elts
        return [self.region(item, f"T.{keyword}") for item in items]

    def assign(self, stmt, rest):
        if len(stmt.targets) != 1:
            self.error(stmt, "one target per assignment")
        target = stmt.targets[0]
        if isinstance(target, ast.Subscript):
            if not isinstance(target.value, ast.Name):
                self.error(target, "stores go to buffers")
            buf = self.lookup(target.value, target.value.id)
            if not isinstance(buf, Buffer):
                self.error(target, f"'{target.value.id}' is not a buffer")
            value = self.expr(stmt.value)
            if isinstance(value, (E.IntImm, E.FloatImm)):
                value = self.constant(value.value, buf.dtype, stmt.value)
            return S.BufferStore(buf, self.cast(value, buf.dtype), self.indices(target, buf))
        if not isinstance(target, ast.Name):
            self.error(stmt, "unsupported assignment target")
        call = stmt.value
        if isinstance(call, ast.Call) and self.is_t(call.func, "alloc_buffer"):
            buf = self.buffer_from_args(call, call.args, target.id, call.keywords)
            self.frames[-1].alloc_buffers.append(buf)
            self.bind(target.id, buf)
            return None
        if isinstance(call, ast.Call) and self.is_t(call.func, "match_buffer"):
            if not self.frames[-1].is_block:
                self.error(call, "T.match_buffer of a region is written at the start of a "
                                 "block")
            return self.match_region(target, call)
        if isinstance(call, ast.Call) and self.is_t(call.func, "allocate_const"):
            return _Scoped(self.allocate_const(target, call, rest))
        if isinstance(call, ast.Call) and self.is_t(call.func, "launch_thread"):
            # `x = T.launch_thread(...)`: the statements after run on the
            # threads.
            return _Scoped(self.launch_thread(call, target.id, rest, stmt))
        if isinstance(call, ast.Call) and self.is_t(call.func, "env_thread"):
            tag = (self.static_value(call.args[0])
                   if len(call.args) == 1 and not call.keywords else None)
            if not isinstance(tag, str):
                self.error(call, "T.env_thread takes a thread tag such as \"threadIdx.x\"")
            self.bind(target.id, _EnvThread(tag, E.Var(target.id, "int32",
                                                       span=self.span(target))))
            return None
        if isinstance(call, ast.Call) and (self.is_t(call.func, "decl_buffer", "Buffer")
                                           or self.is_python_call(call)):
            buf = self.declared_buffer(call)
            self.bind(target.id, buf)
            return _Scoped(S.DeclBuffer(buf, self.statements(rest), span=self.span(stmt)))
        if (isinstance(call, ast.Call) and not call.args and not call.keywords
                and self.t_name(call.func) in ("int32", "int64")):
            # `x = T.int32()` in a body: a variable that a following
            # T.match_buffer defines (elem_offset=x, strides=[x, ...]).
            self.bind(target.id, PendingVar(E.Var(target.id, self.t_name(call.func))))
            return None
        value = self.expr(stmt.value)
        if value.dtype == "void":
            self.error(stmt.value, "this call returns nothing (give it a dtype)")
        if _is_pure(value) and not isinstance(value, (E.IntImm, E.FloatImm)):
            # An alias of a value of variables: the expression itself.
            self.bind(target.id, value)
            return None
        # A value read here (a load, a call) or a constant: named, for the
        # statements after.
        var = E.Var(target.id, value.dtype, span=self.span(target))
        self.bind(target.id, var)
        return _Scoped(S.LetStmt(var, value, self.statements(rest), span=self.span(stmt)))


class _EnvThread:
    """A thread of T.env_thread(tag), launched by T.launch_thread(x, n)."""

    def __init__(self, tag, var):
        self.tag, self.var = tag, var


def _is_pure(e):
    """Whether `e` is computed from variables and constants alone (no
    loads, no calls but T.ceildiv / T.vscale): such a value is the same
    wherever it is computed."""
    if isinstance(e, (E.Var, E.IntImm, E.FloatImm, E.StringImm)):
        return True
    if isinstance(e, E.Call):
        return e.op.name in ("tir.ceildiv", "tir.vscale") and all(_is_pure(a) for a in e.args)
    if isinstance(e, E.BufferLoad):
        return False
    return all(_is_pure(getattr(e, f)) for f in e._fields
               if isinstance(getattr(e, f), E.PrimExpr))


def parse_function(node, source, filename, line_offset, env=None, private=False):
    """A native module holding the function `node` (a FunctionDef)."""
    parser = FunctionParser(source, filename, line_offset, node, env)
    try:
        params, buffer_map, body = parser.parse()
    except (IndexError, KeyError, AttributeError, TypeError, ValueError) as e:
        # In the signature (statements have their own net, with their line).
        parser.error(node, f"cannot parse the function's signature ({type(e).__name__}: "
                           f"{e}); check its parameters and T.match_buffer calls")
    native = ext.function_from_nodes(node.name, params, buffer_map, body, private)
    # The function attributes the compiler reads (T.func_attr); the others
    # carry nothing tir needs.
    for key, values in _compiler_func_attrs(parser, node).items():
        native.set_function_attr(node.name, key, values)
    return native


def _compiler_func_attrs(parser, node):
    found = {}
    for stmt in node.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not (isinstance(call, ast.Call) and parser.is_t(call.func, "func_attr")
                and call.args and isinstance(call.args[0], ast.Dict)):
            continue
        for k, v in zip(call.args[0].keys, call.args[0].values):
            key = parser.static_value(k) if k is not None else None
            if key not in COMPILER_FUNC_ATTRS:
                continue
            values = parser.static_value(v)
            if not isinstance(values, tuple) or not all(
                    isinstance(x, int) and not isinstance(x, bool) for x in values):
                parser.error(v, f"T.func_attr: {key} is a list of parameter positions")
            found[key] = list(values)
    return found
