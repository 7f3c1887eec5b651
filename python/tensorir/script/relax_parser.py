"""Parses the body of one @R.function (its parameters, bindings and
output) into a graph function, through relax.function.FunctionWriter,
which BlockBuilder builds with too; relax_module.py makes Functions of them
and joins them to modules."""
import ast
import re

from ..relax.expr import (Call, Constant, ExternFunc, GlobalVar, PrimValue, Tuple, TupleGetItem,
                          Var, const)
from ..relax.function import FunctionWriter
from ..relax.struct_info import (ObjectStructInfo, ShapeExpr, ShapeStructInfo, StructInfo, SymDim,
                                 TensorStructInfo, TupleStructInfo)
from ..tir.expr import PrimExpr
from .relax import TensorPattern as R_TensorPattern
from .values import ScriptError, dotted_name


# Python's binary operators on graph values, as relax's Expr has them.
_BINARY_OPERATORS = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply",
                     ast.Div: "divide", ast.FloorDiv: "floor_divide", ast.Mod: "floor_mod"}
_COMPARISONS = {ast.Gt: "greater", ast.GtE: "greater_equal", ast.Lt: "less",
                ast.LtE: "less_equal"}


def _is_shape_var_declaration(call):
    """Whether `call` is T.int64() / T.int32() with no argument (TVM's
    declaration of a shape variable in a function's body; is_size_var=True,
    a variable that is never negative, as every size is)."""
    func = call.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "T" and func.attr in ("int64", "int32")
            and not call.args
            and all(k.arg == "is_size_var" and isinstance(k.value, ast.Constant)
                    for k in call.keywords))

class GraphParser:
    """Reads one @R.function's AST."""

    def __init__(self, node, source, filename, line_offset, env, constants, callees=None,
                 te_funcs=None):
        self.node, self.source, self.filename = node, source, filename
        # The prim_funcs R.emit_te makes, shared by the module's functions.
        if te_funcs is None:
            from .relax_module import TeFunctions
            te_funcs = TeFunctions()
        self.te_funcs = te_funcs
        self.line_offset, self.env = line_offset, dict(env or {})
        self.constants = constants
        # What the module's graph functions return, by name (cls.f(x)).
        self.callees = dict(callees or {})
        self.output_info = None
        self.scope = {}            # Python name -> relax Expr
        self.module_aliases = set()
        self.bindings = []
        self.func_attrs = {}   # R.func_attr's
        # Per parameter index, what its checks come from (an R.match_cast).
        self.param_notes = {}
        self.declared = set()  # shape variables the parser named

    def error(self, node, message):
        """An error at `node`'s line; a message that already names its
        place (the graph builder's and the verifier's do) is kept as it
        is."""
        if re.match(r"^\S+:\d+(:\d+)?: error: ", message):
            return ScriptError(message)
        line = getattr(node, "lineno", 1) + self.line_offset
        return ScriptError(f"{self.filename}:{line}: error: {message}")

    # ------------------------------------------------------------ values
    def eval_info(self, node):
        """A struct info annotation (R.Tensor(...), R.Tuple(...), a list)."""
        from . import relax as R
        env = dict(self.env)
        env["R"] = R
        try:
            value = eval(compile(ast.Expression(node), self.filename, "eval"), env)  # noqa: S307
        except ScriptError:
            raise
        except Exception as e:  # the annotation's own error, located
            raise self.error(node, f"annotation {ast.unparse(node)}: {e}") from None
        if isinstance(value, (list, tuple)):
            if not all(isinstance(v, TensorStructInfo) for v in value):
                raise self.error(node, "out_sinfo holds R.Tensor(...) values")
            return list(value)
        if value is R.Tensor:  # a bare R.Tensor: any tensor
            return R.TensorPattern()
        if value is R.Shape:  # a bare R.Shape: any shape
            return ShapeStructInfo()
        if not isinstance(value, StructInfo):
            raise self.error(node, f"{ast.unparse(node)} is not R.Tensor(...)")
        return value

    def expr(self, node):
        if isinstance(node, ast.Name):
            if node.id not in self.scope:
                raise self.error(node, f"'{node.id}' is not defined in the function")
            return self.scope[node.id]
        if isinstance(node, ast.Subscript):
            # metadata["relax.expr.Constant"][k], or a tuple's field.
            inner = node.value
            if (isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name)
                    and inner.value.id == "metadata"):
                if self.constants is None:
                    raise self.error(node, "the function reads metadata constants, but the "
                                     "text has no metadata (print with show_meta=True)")
                index = self.literal(node.slice)
                if not isinstance(index, int) or not 0 <= index < len(self.constants):
                    raise self.error(node, f"metadata has no constant {index!r}")
                return Constant(self.constants[index])
            base = self.expr(inner)
            index = self.literal(node.slice)
            try:
                if isinstance(base, Tuple):  # R.nn.batch_norm(...)[0]
                    return base[index]
                return TupleGetItem(base, index)
            except (TypeError, IndexError) as e:
                raise self.error(node, str(e)) from None
        if isinstance(node, ast.Tuple):
            return Tuple([self.expr(e) for e in node.elts])
        if isinstance(node, ast.Call) and self.is_r(node.func, "tuple") and not node.keywords:
            return Tuple([self.expr(e) for e in node.args])  # R.tuple(a, b): (a, b)
        if isinstance(node, ast.Call) and self.is_r(node.func, "const"):
            args = [self.literal(a) for a in node.args]
            kwargs = {k.arg: self.literal(k.value) for k in node.keywords}
            try:
                return const(*args, **kwargs)
            except (TypeError, ValueError) as e:
                raise self.error(node, f"R.const: {e}") from None
        if isinstance(node, ast.Call) and self.is_r(node.func, "shape"):
            return self.shape_value(node)
        if isinstance(node, ast.Call) and self.is_r(node.func, "match_cast"):
            return self.match_cast(node)
        if isinstance(node, ast.Call) and self.is_r(node.func, "invoke_pure_closure"):
            return self.invoke_closure(node)
        if isinstance(node, ast.Call) and self.is_r(node.func, "prim_value"):
            return PrimValue(self.prim_value(node, symbolic=True))
        if isinstance(node, ast.Call) and self.is_r(node.func, "call_tir"):
            return self.call_tir(node)
        if isinstance(node, ast.Call) and self.is_r(node.func, "call_dps_packed"):
            return self.call_tir(node, packed=True)
        if isinstance(node, ast.Call) and self.is_r(node.func, "call_tir_inplace"):
            return self.call_tir(node, inplace=True)
        if isinstance(node, ast.Call) and self.is_r(node.func, "emit_te"):
            return self.emit_te(node)
        if isinstance(node, ast.Call) and self.is_r(node.func, "call_pure_packed"):
            return self.call_pure_packed(node)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY_OPERATORS:
            # x + y, as relax's Expr operators: R.add(x, y).
            from ..relax import op as relax_op
            target = getattr(relax_op, _BINARY_OPERATORS[type(node.op)])
            try:
                return target(self.expr(node.left), self.expr(node.right))
            except (TypeError, ValueError, NotImplementedError) as e:
                raise self.error(node, str(e)) from None
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
                type(node.ops[0]) in _COMPARISONS:
            # x > y, as relax's Expr operators: R.greater(x, y).
            from ..relax import op as relax_op
            target = getattr(relax_op, _COMPARISONS[type(node.ops[0])])
            try:
                return target(self.expr(node.left), self.expr(node.comparators[0]))
            except (TypeError, ValueError, NotImplementedError) as e:
                raise self.error(node, str(e)) from None
        if isinstance(node, ast.Call) and self.is_module_function(node.func):
            return self.function_call(node)
        if isinstance(node, ast.Call) and self.operator_name(node.func):
            return self.operator(node)
        if isinstance(node, ast.Call) and self.operator_variable(node.func) is not None:
            return self.operator(node, self.operator_variable(node.func))
        raise self.error(node, f"{ast.unparse(node)}: an expression an @R.function does "
                         "not take (R.call_tir, R.const, operators, metadata constants, "
                         "names, tuples)")

    @staticmethod
    def operator_name(func):
        """"permute_dims" / "nn.relu" for R.permute_dims / R.nn.relu."""
        return dotted_name(func, "R") or None

    def operator_variable(self, func):
        """The relax.op function a Python name or attribute of the
        function's environment holds (`relax_op = R.abs` outside and
        `relax_op(x)` inside, or `relax.op.add(x, y)`), or None."""
        if isinstance(func, ast.Name) and func.id in self.scope:
            return None
        if not isinstance(func, (ast.Name, ast.Attribute)) or not self.env:
            return None
        try:
            value = eval(compile(ast.Expression(func), self.filename, "eval"),  # noqa: S307
                         dict(self.env))
        except Exception:  # not a Python value there: not an operator
            return None
        module = getattr(value, "__module__", "") or ""
        if callable(value) and module.startswith(__package__.rsplit(".", 1)[0] + ".relax.op"):
            return value
        return None

    def operator(self, node, target=None):
        """A high-level operator R.<op>(...) (relax.op's functions), or
        `target` called through a variable."""
        from ..relax import op as relax_op
        if target is None:
            name = self.operator_name(node.func)
            target = relax_op
            for part in name.split("."):
                target = getattr(target, part, None)
                if target is None or part.startswith("_"):
                    raise self.error(node, f"R.{name} is not an operator tensorir has")
            if not callable(target) or name in ("call_tir", "call_dps_packed",
                                                "call_tir_inplace", "call_pure_packed"):
                raise self.error(node, f"R.{name} is not an operator")

        argument = self.argument
        args = [argument(a) for a in node.args]
        kwargs = {k.arg: argument(k.value) for k in node.keywords}
        try:
            return target(*args, **kwargs)
        except (TypeError, ValueError, NotImplementedError) as e:
            raise self.error(node, str(e)) from None

    def argument(self, a):
        """An operator's argument: a graph value, a shape (R.shape), a
        number (R.prim_value, literals), a tuple or list of them, or a
        Python value of the function's environment."""
        if isinstance(a, ast.Call) and self.is_r(a.func, "shape"):
            if len(a.args) != 1 or not isinstance(a.args[0], (ast.List, ast.Tuple)):
                raise self.error(a, "R.shape([d, ...]) takes a list of dimensions")
            return [self.argument(d) for d in a.args[0].elts]
        if isinstance(a, ast.Call) and self.is_r(a.func, "prim_value"):
            return self.prim_value(a)
        if isinstance(a, (ast.Tuple, ast.List)):
            return [self.argument(e) for e in a.elts]
        if isinstance(a, ast.Name) and a.id not in self.scope and a.id in self.env:
            return self.python_value(a)
        if isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id == "float":
            return self.python_value(a)  # float("inf")
        if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) \
                and isinstance(a.func.value, ast.Name) and a.func.value.id == "T":
            return self.prim_value(ast.Call(func=a.func, args=[a], keywords=[]))  # T.float32(0)
        if isinstance(a, ast.Call) and self._is_python_call(a):
            return self.python_value(a)  # tvm.tir.const(1, "int32")
        if isinstance(a, (ast.Name, ast.Subscript, ast.Call)):
            return self.expr(a)
        if isinstance(a, ast.BinOp) and self._uses_graph_values(a):
            return self.expr(a)  # x + y of graph values
        if isinstance(a, ast.UnaryOp) or isinstance(a, ast.Constant):
            return self.literal(a)
        return self.python_value(a)

    def _is_python_call(self, call):
        """Whether `call` calls a Python function of the environment that
        is no operator (tvm.tir.const(...)) on no graph value."""
        root = call.func
        while isinstance(root, ast.Attribute):
            root = root.value
        return (isinstance(root, ast.Name) and root.id in self.env
                and root.id not in ("R", "T") and root.id not in self.scope
                and root.id not in self.module_aliases
                and self.operator_variable(call.func) is None
                and not self._uses_graph_values(call))

    def _uses_graph_values(self, node):
        """Whether `node` names a value of the function."""
        return any(isinstance(n, ast.Name) and n.id in self.scope for n in ast.walk(node))

    def python_value(self, node):
        """`node` evaluated in the function's environment (with T and R)."""
        from . import relax as R
        from . import tir as T
        env = {"T": T, **dict(self.env or {}), "R": R}
        try:
            return eval(compile(ast.Expression(node), self.filename, "eval"), env)  # noqa: S307
        except Exception as e:  # noqa: BLE001 - the expression's own error, located
            raise self.error(node, f"{ast.unparse(node)}: {e}") from None

    def shape_value(self, node):
        """R.shape([d, ...]) as a value: a ShapeExpr of sizes and
        expressions of the shape variables."""
        if len(node.args) != 1 or node.keywords or \
                not isinstance(node.args[0], (ast.List, ast.Tuple)):
            raise self.error(node, "R.shape([d, ...]) takes a list of dimensions")
        try:
            return ShapeExpr([self.python_value(d) for d in node.args[0].elts])
        except (TypeError, ValueError) as e:
            raise self.error(node, str(e)) from None

    def prim_value(self, node, symbolic=False):
        """R.prim_value(v): the number v is (a literal, T.int64(3),
        T.float64("inf"), ...); with `symbolic`, an expression of the shape
        variables too (n * n)."""
        if len(node.args) != 1:
            raise self.error(node, "R.prim_value takes one value")
        arg = node.args[0]
        if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) \
                and isinstance(arg.func.value, ast.Name) and arg.func.value.id == "T" \
                and len(arg.args) == 1:
            arg = arg.args[0]  # T.int64(3), T.float64("inf"): a typed number
        value = self.python_value(arg)
        value = getattr(value, "value", value)
        if isinstance(value, str):
            value = float(value)
        if symbolic and isinstance(value, PrimExpr) and not isinstance(value, bool):
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(node, f"{ast.unparse(node)} is not a number (symbolic values "
                             "are not supported)")
        return value

    def literal(self, node):
        """A Python literal; float("inf"), float("nan") and their negations
        too (how a printed constant spells them)."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
                and isinstance(node.operand, ast.Call):
            value = self.literal(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "float" and len(node.args) == 1 and not node.keywords:
            try:
                return float(ast.literal_eval(node.args[0]))
            except ValueError:
                pass
        try:
            return ast.literal_eval(node)
        except ValueError:
            raise self.error(node, f"{ast.unparse(node)} is not a literal") from None

    def is_module_function(self, func):
        """Whether `func` names a function of the module being defined:
        cls.f, Module.f by the class's name (not bound yet), or f alone as
        a function printed by itself writes it."""
        import builtins
        if isinstance(func, ast.Name):
            return (func.id not in self.scope and func.id not in self.env
                    and func.id not in ("R", "T") and not hasattr(builtins, func.id))
        return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id not in ("R", "T") and func.value.id not in self.scope
                and (func.value.id in self.module_aliases or func.value.id not in self.env))

    def function_call(self, node, annotation=None):
        """cls.f(args): a call of graph function f of the module, of what f
        returns (or what the binding's annotation says)."""
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        if node.keywords:
            raise self.error(node, f"cls.{name}(...) takes its arguments by position")
        args = [self.expr(a) for a in node.args]
        info = self.callees.get(name)
        if info is None and annotation is not None:
            info = self.eval_info(annotation)
        if info is None:
            raise UnknownCallee(name, self.error(
                node, f"cls.{name}: no graph function '{name}' is defined before this one "
                "in the module (define it first, or annotate the binding with what it "
                "returns)"))
        return Call(GlobalVar(name), args, info)

    def is_r(self, node, name):
        return (isinstance(node, ast.Attribute) and node.attr == name
                and isinstance(node.value, ast.Name) and node.value.id == "R")

    def call_tir(self, node, packed=False, inplace=False):
        """R.call_tir(cls.f, (args...), out_sinfo=...), with `packed`
        R.call_dps_packed("name", (args...), out_sinfo=...), with `inplace`
        R.call_tir_inplace(cls.f, (args...), inplace_indices, out_sinfo)."""
        what = "R.call_dps_packed" if packed else \
            "R.call_tir_inplace" if inplace else "R.call_tir"
        if len(node.args) < 2:
            raise self.error(node, f"{what}(callee, (args...), out_sinfo=...)")
        callee = node.args[0]
        if packed:
            if not (isinstance(callee, ast.Constant) and isinstance(callee.value, str)):
                raise self.error(callee, "R.call_dps_packed calls a function by name "
                                 "(a string)")
            target = ExternFunc(callee.value)
        elif isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name) \
                and (callee.value.id in self.module_aliases or (
                    callee.value.id not in self.scope and callee.value.id not in self.env)):
            # cls.f, or Module.f by the name of the class being defined
            # (bound only once its functions are parsed).
            target = GlobalVar(callee.attr)
        elif isinstance(callee, ast.Name):
            target = GlobalVar(callee.id)
        else:
            raise self.error(callee, "R.call_tir calls a function of the module (cls.name)")
        args = node.args[1]
        elts = args.elts if isinstance(args, (ast.Tuple, ast.List)) else [args]
        inputs = [self.expr(e) for e in elts]
        keywords = {k.arg: k.value for k in node.keywords}
        positional = list(node.args[2:])
        indices = None
        if inplace:
            indices = keywords.pop("inplace_indices", positional.pop(0) if positional else None)
            if indices is None:
                raise self.error(node, f"{what} needs inplace_indices")
            indices = self.literal(indices)
        sinfo = keywords.pop("out_sinfo", positional[0] if positional else None)
        if sinfo is None:
            raise self.error(node, f"{what} needs out_sinfo")
        if keywords:
            raise self.error(node, f"{what}: unsupported argument(s) "
                             f"{', '.join(keywords)}")
        info = self.eval_info(sinfo)
        if isinstance(info, list):
            info = info[0] if len(info) == 1 else TupleStructInfo(info)
        for a, e in zip(inputs, elts):
            if not isinstance(a.struct_info, TensorStructInfo):
                raise self.error(e, f"{ast.unparse(e)} is not a tensor")
        if inplace:
            from ..relax.block_builder import call_tir_inplace
            try:
                return call_tir_inplace(target, inputs, indices,
                                        info.fields if isinstance(info, TupleStructInfo)
                                        else info)
            except (TypeError, ValueError) as e:
                raise self.error(node, str(e)) from None
        op = "relax.call_dps_packed" if packed else "relax.call_tir"
        return Call(op, [target] + inputs, info)

    def call_pure_packed(self, node):
        """R.call_pure_packed("name", args..., sinfo_args=...)."""
        from ..relax.block_builder import call_pure_packed
        if not node.args or not (isinstance(node.args[0], ast.Constant)
                                 and isinstance(node.args[0].value, str)):
            raise self.error(node, "R.call_pure_packed calls a function by name (a string)")
        keywords = {k.arg: k.value for k in node.keywords}
        sinfo = keywords.pop("sinfo_args", None)
        if sinfo is None:
            raise self.error(node, "R.call_pure_packed needs sinfo_args")
        if keywords:
            raise self.error(node, "R.call_pure_packed: unsupported argument(s) "
                             f"{', '.join(keywords)}")
        if isinstance(sinfo, ast.Tuple) and len(sinfo.elts) == 1:
            sinfo = sinfo.elts[0]
        info = self.eval_info(sinfo)
        try:
            return call_pure_packed(node.args[0].value,
                                    *[self.expr(a) for a in node.args[1:]],
                                    sinfo_args=info)
        except (TypeError, ValueError) as e:
            raise self.error(node, str(e)) from None

    def emit_te(self, node):
        """R.emit_te(te_func, args..., kwargs...): the te function called on
        placeholders for the graph values among the arguments (as
        BlockBuilder.emit_te); its prim_func joins the module."""
        from ..relax.block_builder import te_call
        if not node.args:
            raise self.error(node, "R.emit_te(te_func, args...) names a te function")
        func = self.python_value(node.args[0])
        if not callable(func):
            raise self.error(node.args[0], f"R.emit_te: {ast.unparse(node.args[0])} is not "
                             "a function")
        args = [self.argument(a) for a in node.args[1:]]
        kwargs = {k.arg: self.argument(k.value) for k in node.keywords}
        try:
            return te_call(self.te_funcs.add, func, args, kwargs)
        except (TypeError, ValueError, NotImplementedError) as e:
            raise self.error(node, f"R.emit_te({ast.unparse(node.args[0])}): {e}") from None

    # -------------------------------------------------------- statements
    def fresh_dim(self, param, k):
        """A shape variable named after dimension k of parameter `param`
        ("x_dim0"), unused by the function's names."""
        name = f"{param}_dim{k}"
        while name in self.env or name in self.scope or name in self.declared:
            name += "_"
        self.declared.add(name)
        return name

    def parameter_casts(self, node):
        """{parameter: (node, struct info)} of the first R.match_cast of
        each parameter in the function's body (its shape variables declared
        first, wherever the body declares them)."""
        params = {a.arg for a in node.args.args}
        casts = {}

        def walk(body):
            for stmt in body:
                if isinstance(stmt, ast.With):
                    walk(stmt.body)
                    continue
                value = getattr(stmt, "value", None)
                if isinstance(stmt, ast.Assign) and isinstance(value, ast.Call) and \
                        _is_shape_var_declaration(value):
                    self.statement(stmt)  # n = T.int64(): declared
                elif isinstance(stmt, ast.Assign) and isinstance(value, ast.Tuple) and \
                        all(isinstance(v, ast.Call) and _is_shape_var_declaration(v)
                            for v in value.elts):
                    self.statement(stmt)
                if isinstance(value, ast.Call) and self.is_r(value.func, "match_cast") and \
                        len(value.args) == 2 and isinstance(value.args[0], ast.Name) and \
                        value.args[0].id in params and value.args[0].id not in casts:
                    casts[value.args[0].id] = (value, self.eval_info(value.args[1]))
        walk(node.body)
        return casts

    def invoke_closure(self, node):
        """R.invoke_pure_closure(clo, (args,), sinfo_args=...): a call of the
        closure's function on its captured values and `args`."""
        closure = self.scope.get(node.args[0].id) if node.args and isinstance(
            node.args[0], ast.Name) else None
        if not isinstance(closure, _Closure) or len(node.args) != 2 or not isinstance(
                node.args[1], (ast.Tuple, ast.List)):
            raise self.error(node, "R.invoke_pure_closure(closure, (args, ...), sinfo_args=...) "
                             "of a closure R.make_closure made")
        args = closure.captured + [self.expr(e) for e in node.args[1].elts]
        # What the function returns (its own struct info: a packed call's
        # result it returns is known by the call's site), once the module
        # has it.
        info = self.callees.get(closure.name)
        if info is None:
            raise UnknownCallee(closure.name, self.error(
                node, f"R.invoke_pure_closure: no graph function '{closure.name}' is "
                "defined in the module"))
        return Call(GlobalVar(closure.name), args, info)

    def match_cast(self, node):
        """R.match_cast(value, struct info): the value, whose struct info is
        the cast's (a parameter the cast gives its shape to has it; the
        runtime checks it at the call)."""
        if len(node.args) != 2 or node.keywords:
            raise self.error(node, "R.match_cast(value, struct info)")
        value = self.expr(node.args[0])
        info = self.eval_info(node.args[1])
        if not _annotation_matches(info, value.struct_info):
            raise self.error(node, f"R.match_cast: {ast.unparse(node.args[0])} is "
                             f"{value.struct_info!r}; a cast to {info!r} is taken of a "
                             "parameter of no shape, whose shape the cast gives")
        return value

    def statements(self, body):
        for stmt in body:
            self.statement(stmt)

    def bind(self, target, value, annotation=None):
        if not isinstance(target, ast.Name):
            raise self.error(target, "a binding names one variable")
        if isinstance(value, ast.Call) and self.is_r(value.func, "make_closure"):
            # clo = R.make_closure(cls.f, (x,)): f with its first arguments
            # given; invoking it calls f.
            if len(value.args) != 2 or value.keywords or not isinstance(
                    value.args[1], (ast.Tuple, ast.List)) or not self.is_module_function(
                        value.args[0]):
                raise self.error(value, "R.make_closure(cls.f, (captured, ...))")
            func = value.args[0]
            name = func.id if isinstance(func, ast.Name) else func.attr
            self.scope[target.id] = _Closure(name, [self.expr(e) for e in value.args[1].elts])
            return
        if isinstance(value, ast.Call) and self.is_module_function(value.func):
            expr = self.function_call(value, annotation)
        else:
            expr = self.expr(value)
        if annotation is not None:
            declared = self.eval_info(annotation)
            if not _annotation_matches(declared, expr.struct_info):
                raise self.error(annotation, f"'{target.id}' is annotated {declared!r} but "
                                 f"the value is {expr.struct_info!r}")
        var = Var(target.id, expr.struct_info)
        self.bindings.append((var, expr, (target.lineno + self.line_offset,
                                          target.col_offset + 1)))
        self.scope[target.id] = var

    def statement(self, stmt):
        declarations = stmt.value.elts if isinstance(stmt, ast.Assign) and isinstance(
            stmt.value, ast.Tuple) else [getattr(stmt, "value", None)]
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and all(
                isinstance(v, ast.Call) and _is_shape_var_declaration(v) for v in declarations):
            # n = T.int64() (or n, m = T.int64(), T.int64()): shape variables
            # the annotations name.
            targets = stmt.targets[0]
            names = targets.elts if isinstance(targets, ast.Tuple) else [targets]
            if len(declarations) > 1 and len(declarations) != len(names):
                raise self.error(stmt, f"{len(names)} names for {len(declarations)} "
                                 "shape variables")
            if not all(isinstance(t, ast.Name) for t in names):
                raise self.error(stmt, "a shape variable is declared as `n = T.int64()`")
            for t in names:
                self.env[t.id] = SymDim(t.id)
            return None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(stmt.value, ast.Name) and stmt.value.id not in self.scope \
                    and isinstance(target, ast.Name):
                self.module_aliases.add(target.id)  # cls = Module
                return
            return self.bind(target, stmt.value)
        if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            return self.bind(stmt.target, stmt.value, stmt.annotation)
        if isinstance(stmt, ast.With) and len(stmt.items) == 1 and isinstance(
                stmt.items[0].context_expr, ast.Call) and self.is_r(
                    stmt.items[0].context_expr.func, "dataflow"):
            return self.statements(stmt.body)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and self.is_r(
                stmt.value.func, "func_attr"):
            call = stmt.value
            attrs = self.python_value(call.args[0]) if len(call.args) == 1 else None
            if not isinstance(attrs, dict) or call.keywords:
                raise self.error(stmt, "R.func_attr takes one dictionary of attributes")
            self.func_attrs.update(attrs)
            return None
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and self.is_r(
                stmt.value.func, "output"):
            for a in stmt.value.args:
                self.expr(a)  # defined
            return None
        if isinstance(stmt, ast.Return):
            raise self.error(stmt, "return ends the function")
        raise self.error(stmt, f"{ast.unparse(stmt).splitlines()[0]}: a statement an "
                         "@R.function does not take")

    def parse(self, private=False):
        """The native module of the function."""
        node = self.node
        params, output = self.parse_body()
        try:
            writer = FunctionWriter(node.name, params, private, self.filename,
                                    node.lineno + self.line_offset, self.param_notes)
            for var, expr, place in self.bindings:
                writer.bind(var, expr, place)
            native = writer.finish(output, self.func_attrs)
            if writer.kept_result is not None:
                self.output_info = writer.kept_result
            return native
        except (TypeError, ValueError, NotImplementedError) as e:
            raise self.error(node, str(e)) from None

    def parse_body(self):
        """The function's parameters and output, its bindings in
        self.bindings and attributes in self.func_attrs: the relax
        expressions, not yet built."""
        node = self.node
        params = []
        casts = self.parameter_casts(node)
        for arg in node.args.args:
            if arg.annotation is None:
                raise self.error(arg, f"parameter '{arg.arg}' needs an R.Tensor annotation")
            info = self.eval_info(arg.annotation)
            if _is_pattern(info) and arg.arg in casts:
                # R.match_cast(x, R.Tensor((n, m), "float32")) of a parameter
                # of no shape: the parameter is of the cast's struct info,
                # which the runtime checks at the call.
                cast_node, cast = casts[arg.arg]
                if not info.matches(cast):
                    raise self.error(cast_node, f"R.match_cast: parameter '{arg.arg}' is "
                                     f"{info!r}, which is never {cast!r}")
                info = cast
                line = getattr(cast_node, "lineno", 1) + self.line_offset
                self.param_notes[len(params)] = (f"{self.filename}:{line}: R.match_cast "
                                                 f"asserts its dtype, ndim and shape {cast!r}")
            if isinstance(info, R_TensorPattern) and info.ndim >= 0 and \
                    info.dtype not in (None, "", "void"):
                # R.Tensor(ndim=2, dtype="float32"): a tensor of any shape of
                # that rank, each dimension a shape variable of its own.
                info = TensorStructInfo([SymDim(self.fresh_dim(arg.arg, k))
                                         for k in range(info.ndim)], info.dtype)
            if isinstance(info, ShapeStructInfo) and info.values is None:
                raise self.error(arg.annotation, f"parameter '{arg.arg}': a shape parameter "
                                 "names its dimensions (R.Shape([\"m\", \"n\"]))")
            if _is_pattern(info):
                raise self.error(arg.annotation, f"parameter '{arg.arg}': a graph function's "
                                 "parameters have known shapes; give R.Tensor its shape")
            var = Var(arg.arg, info)
            params.append(var)
            self.scope[arg.arg] = var
        body = node.body
        if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
            raise self.error(node, f"@R.function '{node.name}' ends with return <value>")
        self.statements(body[:-1])
        output = self.expr(body[-1].value)
        self.output_info = output.struct_info
        if node.returns is not None:
            declared = self.eval_info(node.returns)
            if not _annotation_matches(declared, output.struct_info):
                raise self.error(node.returns, f"'{node.name}' is declared to return "
                                 f"{declared!r} but returns {output.struct_info!r}")
        return params, output


class _Closure:
    """What R.make_closure gives: function `name` and the values it
    captured (its first arguments)."""

    def __init__(self, name, captured):
        self.name, self.captured = name, captured


class UnknownCallee(ScriptError):
    """A call of a module function the parser does not know yet (defined
    later in the module): @I.ir_module parses the function again once it
    knows the others."""

    def __init__(self, name, error):
        super().__init__(str(error))
        self.name = name


def _annotation_matches(declared, actual):
    """Whether a binding's annotation says what its value is: the same
    struct info, a tensor annotated without a dtype matching a tensor of
    that shape of any dtype."""
    if isinstance(declared, ShapeStructInfo) and declared.values is not None:
        return declared == actual
    if isinstance(declared, ObjectStructInfo):  # every value is an object
        return True
    if hasattr(declared, "matches"):  # R.Tensor without a shape
        return declared.matches(actual)
    if getattr(declared, "dtype_unsaid", False):
        return isinstance(actual, TensorStructInfo) and declared.shape == actual.shape
    if isinstance(declared, TupleStructInfo) and isinstance(actual, TupleStructInfo):
        return len(declared.fields) == len(actual.fields) and all(
            _annotation_matches(d, a) for d, a in zip(declared.fields, actual.fields))
    return declared == actual


def _is_pattern(info):
    """Whether an annotation, or a part of a tuple's, has no shape."""
    if isinstance(info, TupleStructInfo):
        return any(_is_pattern(f) for f in info.fields)
    if isinstance(info, ShapeStructInfo):
        return info.values is None
    return hasattr(info, "matches")
