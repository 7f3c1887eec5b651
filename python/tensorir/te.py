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
import builtins
import inspect

from .script.parser import DTYPES, FunctionParser, ScriptError
from .script.tir import PrimFunc

__all__ = ["placeholder", "compute", "reduce_axis", "sum", "max", "min", "comm_reducer",
           "create_prim_func", "create_schedule", "Schedule", "var", "const", "min_value", "max_value", "AXIS_SEPARATOR"]


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
    # Comparisons build expressions, as in TVM; hashing stays by identity.
    def __lt__(self, o): return self._bin("<", o)
    def __le__(self, o): return self._bin("<=", o)
    def __gt__(self, o): return self._bin(">", o)
    def __ge__(self, o): return self._bin(">=", o)
    def __eq__(self, o): return self._bin("==", o)
    def __ne__(self, o): return self._bin("!=", o)
    __hash__ = object.__hash__

    def astype(self, dtype):
        """The value converted to `dtype` (TVM's PrimExpr.astype)."""
        return Cast(str(dtype), self)

    def __bool__(self):
        # As TVM: a comparison of expressions builds an expression; using it
        # as a Python condition is a mistake.
        raise ValueError("a te expression has no truth value; compare it in "
                         "te.if_then_else, te.all or te.any")


class Const(Expr):
    def __init__(self, value, dtype=None):
        self.value, self.dtype = value, dtype

    def text(self, names):
        return repr(self.value)


class Cast(Expr):
    def __init__(self, dtype, value):
        self.dtype, self.value = dtype, _wrap(value)

    def text(self, names):
        return f'T.Cast("{self.dtype}", {self.value.text(names)})'


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


class MultiReduce:
    """One reduction of several values at once (te.comm_reducer over a
    tuple, as argmax's (index, value) pairs): `fcombine(lhs, rhs)` combines
    tuples, `identities` start them."""

    def __init__(self, fcombine, identities, sources, axes):
        self.fcombine, self.identities = fcombine, identities
        self.sources, self.axes = sources, axes


class ReduceValue(Expr):
    """Value `index` of a MultiReduce; a te.compute over them has one output
    per value."""

    def __init__(self, group, index):
        self.group, self.index = group, index


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

    @property
    def op(self):
        """The operation computing the tensor (TVM's Tensor.op), what
        te.create_schedule takes."""
        return Operation(self)


class Operation:
    """A te operation: the compute (or placeholder) of one tensor."""

    def __init__(self, tensor):
        self.tensor, self.name = tensor, tensor.name

    def output(self, index):
        if index != 0:
            raise IndexError(f"operation {self.name} has one output")
        return self.tensor

    @property
    def num_outputs(self):
        return 1

    def __eq__(self, other):
        return isinstance(other, Operation) and other.tensor is self.tensor

    def __hash__(self):
        return id(self.tensor)


class Schedule:
    """te.create_schedule's schedule: its outputs, in TE's default schedule
    (one loop nest per compute, as written), which tvm.lower and tvm.build
    take with the arguments (tvm.lower(sch, [a, b, c])).

    TE's own scheduling (sch[c].split, ...) is superseded by tir.Schedule,
    which schedules the same program with TVM's TensorIR primitives:
    `sch = tvm.tir.Schedule(te.create_prim_func([a, b, c]))`."""

    def __init__(self, ops):
        self.outputs = list(ops)

    def __getitem__(self, tensor):
        from .tir.schedule import ScheduleError
        raise ScheduleError(
            "TE schedules (sch[tensor].split, reorder, ...) are superseded by tvm.tir.Schedule: "
            "schedule te.create_prim_func([inputs..., outputs...]) with tvm.tir.Schedule; "
            "te.create_schedule gives only the default schedule, for tvm.lower / tvm.build")


def create_schedule(ops):
    """te.create_schedule(op or [ops]): the default schedule of the
    operations (see Schedule)."""
    ops = list(ops) if isinstance(ops, (list, tuple)) else [ops]
    for op in ops:
        if not isinstance(op, Operation):
            raise TypeError(f"te.create_schedule takes operations (tensor.op), got "
                            f"{type(op).__name__}")
    return Schedule(ops)


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
        if not builtins.all(isinstance(a, IterVar) and a.kind == "R" for a in axes):
            if name == "sum":
                return _wrap(expr) + _wrap(axis)
            return Call(name, [_wrap(expr), _wrap(axis)])
        return Reduce(name, _wrap(expr), axes)
    reduce.__name__ = name
    reduce.identity = identity
    return reduce


def comm_reducer(fcombine, fidentity, name="comm_reducer"):
    """TVM's te.comm_reducer over tuples of values: `fcombine(lhs, rhs)`
    returns the combined tuple, `fidentity(*dtypes)` the identities. The
    reducer takes the tuple of values and the reduce axes."""
    def reducer(exprs, axis, where=None):
        if where is not None:
            raise NotImplementedError(f"te.{name}(where=...) is not supported")
        if not isinstance(exprs, (tuple, list)):
            raise NotImplementedError(f"te.{name} of one value: use te.sum / te.min / te.max")
        axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        sources = [_wrap(e) for e in exprs]
        identities = [_wrap(v) for v in fidentity(*[_value_dtype(e) for e in sources])]
        group = MultiReduce(fcombine, identities, sources, axes)
        return tuple(ReduceValue(group, i) for i in range(len(sources)))
    reducer.__name__ = name
    return reducer


def _limit(dtype, highest):
    if dtype.startswith("float"):
        big = {"float16": 65504.0, "float32": 3.4028234663852886e38,
               "float64": 1.7976931348623157e308}[dtype]
        return Const(big if highest else -big, dtype)
    bits = int(dtype.lstrip("uint") or 32)
    if dtype.startswith("uint"):
        return Const((1 << bits) - 1 if highest else 0, dtype)
    return Const((1 << (bits - 1)) - 1 if highest else -(1 << (bits - 1)), dtype)


def min_value(dtype):
    """The smallest value of `dtype` (TVM's te.min_value)."""
    return _limit(dtype, False)


def max_value(dtype):
    """The largest value of `dtype` (TVM's te.max_value)."""
    return _limit(dtype, True)


def if_then_else(cond, t, f):
    """tir.Select as te writes it."""
    return Call("Select", [_wrap(cond), _wrap(t), _wrap(f)])


def all(*conds):  # noqa: A001 - TVM's name
    """The conjunction of conditions (te.all)."""
    out = _wrap(conds[0])
    for c in conds[1:]:
        out = BinOp("and", out, _wrap(c))
    return out


def any(*conds):  # noqa: A001 - TVM's name
    """The disjunction of conditions (te.any)."""
    out = _wrap(conds[0])
    for c in conds[1:]:
        out = BinOp("or", out, _wrap(c))
    return out


sum = _reducer("sum", 0)  # noqa: A001 - TVM's name
max = _reducer("max", None)  # noqa: A001
min = _reducer("min", None)  # noqa: A001


def _children(expr):
    """The sub-expressions of `expr`."""
    if isinstance(expr, BinOp):
        return [expr.a, expr.b]
    if isinstance(expr, Call):
        return list(expr.args)
    if isinstance(expr, Cast):
        return [expr.value]
    if isinstance(expr, Load):
        return list(expr.indices)
    if isinstance(expr, Reduce):
        return [expr.source]
    if isinstance(expr, ReduceValue):
        return list(expr.group.sources)
    return []


def _value_dtype(expr):
    """The dtype of a value: a load's, an index's (int32, also computed
    from indices), a literal's."""
    if isinstance(expr, (IterVar, Var)):
        return getattr(expr, "dtype", "int32")
    if isinstance(expr, Const):
        return expr.dtype or ("float32" if isinstance(expr.value, float) else "int32")
    found = _dtype_of(expr)
    if found:
        return found
    if isinstance(expr, BinOp):
        return _value_dtype(expr.a)
    return "float32"


def _dtype_of(expr):
    if isinstance(expr, Cast):
        return expr.dtype
    if isinstance(expr, Load):
        return expr.tensor.dtype
    if isinstance(expr, ReduceValue):
        return _value_dtype(expr.group.identities[expr.index])
    for child in _children(expr):
        d = _dtype_of(child)
        if d:
            return d
    return None


def compute(shape, fcompute, name="compute", tag="", attrs=None):
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    params = inspect.signature(fcompute).parameters.values()
    if builtins.any(p.kind == p.VAR_POSITIONAL for p in params):
        names = [f"i{d}" for d in range(len(shape))]
    else:
        names = [p.name for p in params]
    if len(names) != len(shape):
        raise ValueError(f"compute {name}: the function takes {len(names)} "
                         f"indices for a {len(shape)}-D shape")
    axes = [IterVar(extent, n, "S") for extent, n in zip(shape, names)]
    body = fcompute(*axes)
    if isinstance(body, (tuple, list)):
        # Several outputs of one reduction: one tensor each, `<name>_v<i>`,
        # computed by one block `name`.
        if not body or not isinstance(body[0], ReduceValue) or builtins.any(
                not isinstance(b, ReduceValue) or b.group is not body[0].group
                for b in body) or len(body) != len(body[0].group.sources):
            raise NotImplementedError(
                f"compute {name}: a tuple body must be the values of one te.comm_reducer")
        outs = [Tensor(shape, _dtype_of(b), f"{name}_v{i}", axes, b)
                for i, b in enumerate(body)]
        for t in outs:
            t.stage, t.outputs = name, outs
        return outs
    body = _wrap(body)
    dtype = _dtype_of(body) or "float32"
    return Tensor(shape, dtype, name, axes, body)


def _reduce_axes(expr, found):
    if isinstance(expr, Reduce):
        found.extend(a for a in expr.axes if not _contains(found, a))
    if isinstance(expr, ReduceValue):
        found.extend(a for a in expr.group.axes if not _contains(found, a))
    for child in _children(expr):
        _reduce_axes(child, found)
    return found


def _contains(items, x):
    """`x in items` by identity (te expressions compare into expressions)."""
    return builtins.any(x is i for i in items)


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


def _multi_reduce_lines(outputs, var_names):
    """The init and update of a block computing the values of one
    te.comm_reducer over tuples: the combined values bound by name first
    (TVM's LetStmts), then stored."""
    group = outputs[0].body.group
    if builtins.any(a.start != 0 for a in group.axes):
        raise NotImplementedError("reduce axes must start at 0")
    current = [Load(t, list(t.axes)) for t in outputs]
    targets = [c.text(var_names) for c in current]
    lines = ["            with T.init():"]
    for target, identity in zip(targets, group.identities):
        lines.append(f"                {target} = {identity.text(var_names)}")
    combined = group.fcombine(tuple(current), tuple(group.sources))
    for t, value in zip(outputs, combined):
        lines.append(f"            v_{t.name}: T.{t.dtype} = {_wrap(value).text(var_names)}")
    for t, target in zip(outputs, targets):
        lines.append(f"            {target} = v_{t.name}")
    return lines


def create_prim_func(args, name="main"):
    """A PrimFunc computing the outputs in `args` from its inputs; computes
    not in `args` become T.alloc_buffer intermediates."""
    order = []

    def visit(t):
        if t in order or t.is_placeholder:
            return
        for dep in _tensors(t.body, []):
            visit(dep)
        # The outputs of one multi-value reduction come together.
        order.extend(getattr(t, "outputs", [t]))

    for t in args:
        visit(t)
    scalars = []
    for t in args:
        for e in t.shape:
            if isinstance(e, Var) and not _contains(scalars, e):
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
        outputs = getattr(t, "outputs", None)
        if outputs is not None and t is not outputs[0]:
            continue  # computed by the block of the first output
        reduce_axes = _reduce_axes(t.body, [])
        axes = t.axes + reduce_axes
        loop_names = {a: f"{a.name}" for a in axes}
        var_names = {a: f"v_{a.name}" for a in axes}
        grid = ", ".join(_extent_text(a.extent) if a.start == 0
                         else f"{a.extent} - {a.start}" for a in axes)
        lines.append(f"    for {', '.join(loop_names[a] for a in axes)} in T.grid({grid}):")
        lines.append(f'        with T.block("{getattr(t, "stage", t.name)}"):')
        kinds = "".join(a.kind for a in axes)
        lines.append(f"            {', '.join(var_names[a] for a in axes)}, = "
                     f"T.axis.remap(\"{kinds}\", [{', '.join(loop_names[a] for a in axes)}])"
                     if len(axes) == 1 else
                     f"            {', '.join(var_names[a] for a in axes)} = "
                     f"T.axis.remap(\"{kinds}\", [{', '.join(loop_names[a] for a in axes)}])")
        target = f"{t.name}[{', '.join(var_names[a] for a in t.axes)}]"
        body = t.body
        if isinstance(body, ReduceValue):
            lines.extend(_multi_reduce_lines(outputs, var_names))
        elif isinstance(body, Reduce):
            if builtins.any(a.start != 0 for a in body.axes):
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
