"""relax.expr_functor: visiting and rewriting graph functions in Python, as
TVM's PyExprVisitor and PyExprMutator do. A function is read back into
relax expressions (its bindings: Vars bound to Calls of operators, of
call_tir and call_dps_packed, tuples and their items); a visitor walks
them, a mutator rewrites them and builds the function again:

    @mutator
    class ReluToGelu(PyExprMutator):
        def visit_call_(self, call):
            if call.op.name == "relax.nn.relu":
                return relax.op.nn.gelu(call.args[0])
            return super().visit_call_(call)

    rewriter = ReluToGelu(mod)
    new_func = rewriter.visit_expr(mod["main"])
    rewriter.builder_.update_func(mod.get_global_var("main"), new_func)
    mod = rewriter.builder_.get()
"""
from .block_builder import BlockBuilder
from .expr import Call, Constant, ExternFunc, GlobalVar, Tuple, TupleGetItem, Var
from .function import Function, FunctionWriter

__all__ = ["PyExprMutator", "PyExprVisitor", "mutator", "visitor"]


def visitor(cls):
    """TVM's @relax.expr_functor.visitor: the class as it is."""
    return cls


def mutator(cls):
    """TVM's @relax.expr_functor.mutator: the class as it is."""
    return cls


def _body(func):
    from ..script.relax_module import function_body
    return function_body(func)


# The method each kind of expression goes to.
_METHODS = [(Function, "_visit_function"), (Call, "visit_call_"), (Var, "visit_var_"),
            (Constant, "visit_constant_"), (Tuple, "visit_tuple_"),
            (TupleGetItem, "visit_tuple_getitem_"), (GlobalVar, "visit_global_var_"),
            (ExternFunc, "visit_extern_func_")]


def _dispatch(functor, expr):
    for kind, method in _METHODS:
        if isinstance(expr, kind):
            return getattr(functor, method)(expr)
    raise TypeError(f"visit_expr: {type(expr).__name__} is not a relax expression")


class PyExprVisitor:
    """Walks relax expressions: visit_expr dispatches to visit_call_,
    visit_var_, visit_constant_, visit_tuple_, visit_tuple_getitem_,
    visit_global_var_, visit_extern_func_ (each visiting what the
    expression holds), and for a Function to its bindings in order
    (visit_binding(var, value)) and its output."""

    def visit_expr(self, expr):
        return _dispatch(self, expr)

    def _visit_function(self, func):
        params, bindings, output, _ = _body(func)
        for p in params:
            self.visit_var_def(p)
        for var, value in bindings:
            self.visit_binding(var, value)
        return self.visit_expr(output)

    def visit_binding(self, var, value):
        self.visit_expr(value)
        self.visit_var_def(var)

    def visit_var_def(self, var):
        pass

    def visit_call_(self, call):
        for a in call.args:
            self.visit_expr(a)

    def visit_var_(self, var):
        pass

    def visit_constant_(self, const):
        pass

    def visit_tuple_(self, tup):
        for f in tup.fields:
            self.visit_expr(f)

    def visit_tuple_getitem_(self, item):
        self.visit_expr(item.tuple_value)

    def visit_global_var_(self, gvar):
        pass

    def visit_extern_func_(self, func):
        pass


class PyExprMutator:
    """Rewrites relax expressions: the visit_*_ methods return the
    expression to put in the place of theirs (by default the same, its
    operands rewritten). visit_expr of a Function gives the function built
    again from its rewritten bindings (a binding whose value changed struct
    info gets a new Var, its uses follow). `builder_` is a BlockBuilder of
    the module given: update_func(gvar, func) and get() give the module
    with the rewritten functions."""

    def __init__(self, mod=None):
        self.builder_ = BlockBuilder(mod)
        self.var_remap_ = {}  # id(old var) -> the Var that replaces it

    def visit_expr(self, expr):
        return _dispatch(self, expr)

    def _visit_function(self, func):
        params, bindings, output, attrs = _body(func)
        self.var_remap_ = {}
        rebuilt = []
        for var, value in bindings:
            new_value = self.visit_expr(value)
            new_var = var
            if new_value is not value and new_value.struct_info != var.struct_info:
                new_var = Var(var.name_hint, new_value.struct_info)
                self.var_remap_[id(var)] = new_var
            rebuilt.append((new_var, new_value))
        new_output = self.visit_expr(output)
        private = func._native.is_private(func.name)
        writer = FunctionWriter(func.name, params, private, func.filename)
        for var, value in rebuilt:
            writer.bind(var, value)
        return Function(func.name, writer.finish(new_output, attrs), func.filename,
                        new_output.struct_info)

    def visit_call_(self, call):
        args = [self.visit_expr(a) for a in call.args]
        if all(a is b for a, b in zip(args, call.args)):
            return call
        same_infos = all(a.struct_info == b.struct_info
                         for a, b in zip(args, call.args) if hasattr(b, "struct_info"))
        if same_infos or isinstance(call.op, GlobalVar) or \
                call.op in ("relax.call_tir", "relax.call_dps_packed",
                            "relax.call_pure_packed", "relax.call_tir_inplace"):
            return Call(call.op, args, call.struct_info, call.attrs)
        # An operator on operands of other struct infos: made again, its
        # result's inferred.
        from . import op as _op
        target = _op
        for part in call.op.name[len("relax."):].split("."):
            target = getattr(target, part)
        return target(*args, **call.attrs)

    def visit_var_(self, var):
        return self.var_remap_.get(id(var), var)

    def visit_constant_(self, const):
        return const

    def visit_tuple_(self, tup):
        fields = [self.visit_expr(f) for f in tup.fields]
        return tup if all(a is b for a, b in zip(fields, tup.fields)) else Tuple(fields)

    def visit_tuple_getitem_(self, item):
        value = self.visit_expr(item.tuple_value)
        return item if value is item.tuple_value else TupleGetItem(value, item.index)

    def visit_global_var_(self, gvar):
        return gvar

    def visit_extern_func_(self, func):
        return func
