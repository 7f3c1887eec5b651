"""Python helpers called inside TVMScript.

TVMScript evaluates a call of a plain Python function of the script's scope
with the expressions it is given, and uses the expression the function
returns, as TVM's tensor intrinsics do with converters such as

    Decompressed[vi] = f_convert(32)(4, Compressed[vi // 8], vi % 8, dtype="float16")

Here the function runs on symbolic arguments (HelperExpr): each argument
the script gives as an expression is parsed once, and the function's
operators (`+`, `>>`, `&`, `.astype`, `tir.Cast`, `tir.const`) build the
syntax tree of the result, which the parser then reads in place of the call.
"""
import ast

from .values import DTYPES

# The dtype of a parsed value, from its MLIR type (index values are
# TVMScript's int32 indices); "u" + it for an unsigned value.
_DTYPE_OF_TYPE = {"index": "int32", "i1": "bool"}
for _name, _type in DTYPES.items():
    if not _name.startswith("uint"):
        _DTYPE_OF_TYPE.setdefault(_type, _name)

_CALLS = {ast.RShift: "shift_right", ast.LShift: "shift_left", ast.BitAnd: "bitwise_and",
          ast.BitOr: "bitwise_or", ast.BitXor: "bitwise_xor"}


def _t(name):
    return ast.Attribute(value=ast.Name(id="T", ctx=ast.Load()), attr=name, ctx=ast.Load())


def to_tree(value):
    """The syntax tree of a helper's value: a HelperExpr, a typed constant
    (tir.const) or a Python number."""
    from ..tir.expr import FloatImm, IntImm  # tir imports this package
    if isinstance(value, HelperExpr):
        return value.tree
    if isinstance(value, IntImm):
        if value.dtype == "int32":
            return ast.Constant(value.value)
        return ast.Call(func=_t(value.dtype), args=[ast.Constant(value.value)], keywords=[])
    if isinstance(value, FloatImm):
        return ast.Call(func=_t(value.dtype), args=[ast.Constant(value.value)], keywords=[])
    if isinstance(value, (bool, int, float)):
        return ast.Constant(value)
    raise TypeError(f"a TVMScript helper used a {type(value).__name__} as an expression")


class HelperExpr:
    """An expression a helper builds: its syntax tree and dtype."""

    def __init__(self, tree, dtype):
        self.tree, self.dtype = tree, dtype

    def _binary(self, op, other, reverse=False):
        a, b = (to_tree(other), self.tree) if reverse else (self.tree, to_tree(other))
        if type(op) in _CALLS:
            tree = ast.Call(func=_t(_CALLS[type(op)]), args=[a, b], keywords=[])
        else:
            tree = ast.BinOp(left=a, op=op, right=b)
        return HelperExpr(tree, self.dtype)

    def __add__(self, o): return self._binary(ast.Add(), o)
    def __radd__(self, o): return self._binary(ast.Add(), o, True)
    def __sub__(self, o): return self._binary(ast.Sub(), o)
    def __rsub__(self, o): return self._binary(ast.Sub(), o, True)
    def __mul__(self, o): return self._binary(ast.Mult(), o)
    def __rmul__(self, o): return self._binary(ast.Mult(), o, True)
    def __floordiv__(self, o): return self._binary(ast.FloorDiv(), o)
    def __rfloordiv__(self, o): return self._binary(ast.FloorDiv(), o, True)
    def __mod__(self, o): return self._binary(ast.Mod(), o)
    def __rmod__(self, o): return self._binary(ast.Mod(), o, True)
    def __rshift__(self, o): return self._binary(ast.RShift(), o)
    def __rrshift__(self, o): return self._binary(ast.RShift(), o, True)
    def __lshift__(self, o): return self._binary(ast.LShift(), o)
    def __rlshift__(self, o): return self._binary(ast.LShift(), o, True)
    def __and__(self, o): return self._binary(ast.BitAnd(), o)
    def __rand__(self, o): return self._binary(ast.BitAnd(), o, True)
    def __or__(self, o): return self._binary(ast.BitOr(), o)
    def __ror__(self, o): return self._binary(ast.BitOr(), o, True)
    def __xor__(self, o): return self._binary(ast.BitXor(), o)
    def __rxor__(self, o): return self._binary(ast.BitXor(), o, True)

    def astype(self, dtype):
        """The value as `dtype` (itself when it has that dtype, as TVM)."""
        if dtype == self.dtype:
            return self
        return cast(dtype, self)

    def __bool__(self):
        raise ValueError("a TVMScript expression has no truth value in a helper")


def cast(dtype, value):
    """tir.Cast on a helper's expression."""
    tree = ast.Call(func=_t("Cast"), args=[ast.Constant(dtype), to_tree(value)], keywords=[])
    return HelperExpr(tree, dtype)


def python_callee(parser, node):
    """The Python callable `node` names (a name of the script's scope, an
    attribute of one, or a call of one with constant arguments); None when
    it names none."""
    if isinstance(node, ast.Name):
        if parser.is_bound(node.id) or node.id not in parser.env:
            return None
        return parser.env[node.id]
    if isinstance(node, ast.Attribute):
        if parser.t_name(node) is not None:
            return None
        base = python_callee(parser, node.value)
        return getattr(base, node.attr, None) if base is not None else None
    if isinstance(node, ast.Call):
        func = python_callee(parser, node.func)
        if not callable(func):
            return None
        args = [parser.static_value(a) for a in node.args]
        kwargs = {kw.arg: parser.static_value(kw.value) for kw in node.keywords}
        if any(a is None for a in args) or any(v is None for v in kwargs.values()):
            return None
        return func(*args, **kwargs)
    return None


def call_helper(parser, node, func):
    """Parses the call `node` of the Python function `func`: runs it on the
    arguments (constants as Python values, expressions as HelperExprs) and
    parses the expression it returns."""
    temps = []

    def argument(arg):
        constant = parser.static_value(arg)
        if constant is not None:
            return constant
        value = parser.materialize(parser.expr(arg), arg)
        name = f"__helper_arg{len(temps)}"
        temps.append(name)
        parser.bind(name, value)
        dtype = _DTYPE_OF_TYPE.get(value.type, value.type)
        return HelperExpr(ast.Name(id=name, ctx=ast.Load()),
                          "u" + dtype if value.unsigned else dtype)

    args = [argument(a) for a in node.args]
    kwargs = {kw.arg: argument(kw.value) for kw in node.keywords}
    try:
        result = func(*args, **kwargs)
        tree = to_tree(result)
    except Exception as e:  # the helper's own error, at the script's line
        parser.error(node, f"the Python helper {ast.unparse(node.func)} failed: {e}")
    for sub in ast.walk(tree):
        if "lineno" in sub._attributes:
            ast.copy_location(sub, node)
            sub.end_lineno, sub.end_col_offset = node.end_lineno, node.end_col_offset
    try:
        return parser.expr(tree)
    finally:
        for name in temps:
            parser.scopes[-1].pop(name, None)
