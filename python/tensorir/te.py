"""tvm.te: tensor expressions, turned into tir with create_prim_func.

    A = te.placeholder((128, 128), "float32", name="A")
    B = te.placeholder((128, 128), "float32", name="B")
    k = te.reduce_axis((0, 128), name="k")
    C = te.compute((128, 128), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
    func = te.create_prim_func([A, B, C])

create_prim_func writes the function in TVMScript, with the blocks TVM
creates (one block per compute, spatial then reduce iteration variables
bound with T.axis.remap, a T.init for reductions, intermediates as
T.alloc_buffer), and parses it with the TVMScript parser.
"""
import ast
import inspect

from .script.parser import DTYPES, FunctionParser, ScriptError
from .script.tir import PrimFunc

__all__ = ["placeholder", "compute", "reduce_axis", "sum", "max", "min",
           "create_prim_func", "var", "const", "AXIS_SEPARATOR"]


def __getattr__(name):
    # te.AXIS_SEPARATOR is IndexMap.AXIS_SEPARATOR, as in TVM (looked up
    # lazily: tir imports te).
    if name == "AXIS_SEPARATOR":
        from .tir.index_map import IndexMap
        return IndexMap.AXIS_SEPARATOR
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Expr:
    def _bin(self, op, other, reverse=False):
        other = _wrap(other)
        return BinOp(op, other, self) if reverse else BinOp(op, self, other)

    def __add__(self, o): return self._bin("+", o)
    def __radd__(self, o): return self._bin("+", o, True)
    def __sub__(self, o): return self._bin("-", o)
    def __rsub__(self, o): return self._bin("-", o, True)
    def __mul__(self, o): return self._bin("*", o)
    def __rmul__(self, o): return self._bin("*", o, True)
    def __truediv__(self, o): return self._bin("/", o)
    def __rtruediv__(self, o): return self._bin("/", o, True)
    def __floordiv__(self, o): return self._bin("//", o)
    def __mod__(self, o): return self._bin("%", o)
    def __neg__(self): return BinOp("-", Const(0), self)


class Const(Expr):
    def __init__(self, value):
        self.value = value

    def text(self, names):
        return repr(self.value)


class BinOp(Expr):
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b

    def text(self, names):
        return f"({self.a.text(names)} {self.op} {self.b.text(names)})"


class Call(Expr):
    def __init__(self, func, args):
        self.func, self.args = func, args

    def text(self, names):
        return f"T.{self.func}({', '.join(a.text(names) for a in self.args)})"


class IterVar(Expr):
    def __init__(self, extent, name, kind, start=0):
        self.extent, self.name, self.kind, self.start = extent, name, kind, start

    def text(self, names):
        return names[self]


class Var(Expr):
    """A scalar parameter (te.var), usable as an extent."""

    def __init__(self, name, dtype="int32"):
        self.name, self.dtype = name, dtype

    def text(self, names):
        return self.name


class Load(Expr):
    def __init__(self, tensor, indices):
        self.tensor, self.indices = tensor, indices

    def text(self, names):
        return f"{self.tensor.name}[{', '.join(i.text(names) for i in self.indices)}]"


class Reduce(Expr):
    def __init__(self, combiner, source, axes):
        self.combiner, self.source, self.axes = combiner, source, axes


def _wrap(value):
    from .tir.expr import FloatImm, IntImm
    if isinstance(value, Expr):
        return value
    if isinstance(value, (IntImm, FloatImm)):
        return Const(value.value)
    if isinstance(value, (int, float)):
        return Const(value)
    raise TypeError(f"cannot use {type(value).__name__} in a tensor expression")


class Tensor:
    def __init__(self, shape, dtype, name, axes=None, body=None):
        self.shape, self.dtype, self.name = tuple(shape), dtype, name
        self.axes, self.body = axes, body

    @property
    def is_placeholder(self):
        return self.body is None

    def __call__(self, *indices):
        """A(*i): the older spelling of A[i]."""
        return self[tuple(indices)]

    def __getitem__(self, indices):
        if not isinstance(indices, tuple):
            indices = (indices,)
        if len(indices) != len(self.shape):
            raise IndexError(f"{self.name} has {len(self.shape)} dimensions, "
                             f"indexed with {len(indices)}")
        return Load(self, [_wrap(i) for i in indices])

    def __repr__(self):
        return f"Tensor({self.name}, shape={self.shape}, dtype={self.dtype})"


def placeholder(shape, dtype="float32", name="placeholder"):
    if dtype not in DTYPES:
        raise ValueError(f"unsupported dtype {dtype!r}")
    return Tensor(shape, dtype, name)


def var(name="n", dtype="int32"):
    return Var(name, dtype)


def const(value, dtype=None, span=None):
    """tvm.te.const (tvm.tir.const): an IntImm or FloatImm, usable as an
    extent in shapes and as a value in computes."""
    from .tir.expr import const as make
    return make(value, dtype, span)


def reduce_axis(dom, name="rv"):
    if isinstance(dom, (tuple, list)):
        start, end = dom
    else:
        start, end = 0, dom
    return IterVar(end, name, "R", start)


def _reducer(name, identity):
    def reduce(expr, axis, where=None):
        """A reduction over `axis`; with two values instead (te.max(a, b)),
        the element-wise operation, as TVM's reducers allow."""
        if where is not None:
            raise NotImplementedError(f"te.{name}(where=...) is not supported")
        axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if not all(isinstance(a, IterVar) and a.kind == "R" for a in axes):
            if name == "sum":
                return _wrap(expr) + _wrap(axis)
            return Call(name, [_wrap(expr), _wrap(axis)])
        return Reduce(name, _wrap(expr), axes)
    reduce.__name__ = name
    reduce.identity = identity
    return reduce


sum = _reducer("sum", 0)  # noqa: A001 - TVM's name
max = _reducer("max", None)  # noqa: A001
min = _reducer("min", None)  # noqa: A001


def _children(expr):
    """The sub-expressions of `expr`."""
    if isinstance(expr, BinOp):
        return [expr.a, expr.b]
    if isinstance(expr, Call):
        return list(expr.args)
    if isinstance(expr, Load):
        return list(expr.indices)
    if isinstance(expr, Reduce):
        return [expr.source]
    return []


def _dtype_of(expr):
    if isinstance(expr, Load):
        return expr.tensor.dtype
    for child in _children(expr):
        d = _dtype_of(child)
        if d:
            return d
    return None


def compute(shape, fcompute, name="compute", tag="", attrs=None):
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    params = inspect.signature(fcompute).parameters.values()
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        names = [f"i{d}" for d in range(len(shape))]
    else:
        names = [p.name for p in params]
    if len(names) != len(shape):
        raise ValueError(f"compute {name}: the function takes {len(names)} "
                         f"indices for a {len(shape)}-D shape")
    axes = [IterVar(extent, n, "S") for extent, n in zip(shape, names)]
    body = _wrap(fcompute(*axes))
    dtype = _dtype_of(body) or "float32"
    return Tensor(shape, dtype, name, axes, body)


def _reduce_axes(expr, found):
    if isinstance(expr, Reduce):
        found.extend(a for a in expr.axes if a not in found)
    for child in _children(expr):
        _reduce_axes(child, found)
    return found


def _tensors(expr, found):
    if isinstance(expr, Load):
        found.append(expr.tensor)
    for child in _children(expr):
        _tensors(child, found)
    return found


def _extent_text(e):
    if isinstance(e, Var):
        return e.name
    from .tir.expr import IntImm
    return str(int(e)) if isinstance(e, IntImm) else str(e)


def _identity(combiner, dtype):
    if combiner == "sum":
        return "0"
    big = {"float16": "65504.0", "float32": "3.4028234663852886e38",
           "float64": "1.7976931348623157e308", "int8": "127", "int16": "32767",
           "int32": "2147483647", "int64": "9223372036854775807"}[dtype]
    return f"-{big}" if combiner == "max" else big


def create_prim_func(args, name="main"):
    """A PrimFunc computing the outputs in `args` from its inputs; computes
    not in `args` become T.alloc_buffer intermediates."""
    order = []

    def visit(t):
        if t in order or t.is_placeholder:
            return
        for dep in _tensors(t.body, []):
            visit(dep)
        order.append(t)

    for t in args:
        visit(t)
    scalars = []
    for t in args:
        for e in t.shape:
            if isinstance(e, Var) and e not in scalars:
                scalars.append(e)
    lines = []
    params = [f"{t.name}: T.Buffer(({', '.join(_extent_text(e) for e in t.shape)},), \"{t.dtype}\")"
              for t in args]
    params += [f"{v.name}: T.{v.dtype}" for v in scalars]
    lines.append(f"def {name}({', '.join(params)}):")
    for t in order:
        if t not in args:
            lines.append(f"    {t.name} = T.alloc_buffer(({', '.join(_extent_text(e) for e in t.shape)},), \"{t.dtype}\")")
    for t in order:
        reduce_axes = _reduce_axes(t.body, [])
        axes = t.axes + reduce_axes
        loop_names = {a: f"{a.name}" for a in axes}
        var_names = {a: f"v_{a.name}" for a in axes}
        grid = ", ".join(_extent_text(a.extent) if a.start == 0
                         else f"{a.extent} - {a.start}" for a in axes)
        lines.append(f"    for {', '.join(loop_names[a] for a in axes)} in T.grid({grid}):")
        lines.append(f'        with T.block("{t.name}"):')
        kinds = "".join(a.kind for a in axes)
        lines.append(f"            {', '.join(var_names[a] for a in axes)}, = "
                     f"T.axis.remap(\"{kinds}\", [{', '.join(loop_names[a] for a in axes)}])"
                     if len(axes) == 1 else
                     f"            {', '.join(var_names[a] for a in axes)} = "
                     f"T.axis.remap(\"{kinds}\", [{', '.join(loop_names[a] for a in axes)}])")
        target = f"{t.name}[{', '.join(var_names[a] for a in t.axes)}]"
        body = t.body
        if isinstance(body, Reduce):
            if any(a.start != 0 for a in body.axes):
                raise NotImplementedError("reduce axes must start at 0")
            lines.append("            with T.init():")
            lines.append(f"                {target} = T.{t.dtype}({_identity(body.combiner, t.dtype)})")
            source = body.source.text(var_names)
            if body.combiner == "sum":
                lines.append(f"            {target} = {target} + {source}")
            else:
                lines.append(f"            {target} = T.{body.combiner}({target}, {source})")
        else:
            if _reduce_axes(body, []):
                raise NotImplementedError("a reduction must be the whole compute body")
            lines.append(f"            {target} = {body.text(var_names)}")
    source = "\n".join(lines) + "\n"
    node = ast.parse(source).body[0]
    try:
        text = FunctionParser(source, "<te>", 0, node).parse()
    except ScriptError as error:
        raise ScriptError(f"{error}\nin the TVMScript te generated:\n{source}") from None
    func = PrimFunc(name, text, "<te>")
    func.tvmscript = source
    func.mod  # parse and verify now
    return func
