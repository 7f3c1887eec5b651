"""tvm.te: tensor expressions, turned into tir with create_prim_func.

    A = te.placeholder((128, 128), "float32", name="A")
    B = te.placeholder((128, 128), "float32", name="B")
    k = te.reduce_axis((0, 128), name="k")
    C = te.compute((128, 128), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
    func = te.create_prim_func([A, B, C])

te's expressions are tir's (tvm.tir.PrimExpr nodes): an axis is a
tir.Var, `A[i, k]` a BufferLoad of the tensor's buffer. create_prim_func
builds the function's nodes with the blocks TVM creates (one block per
compute, spatial then reduce iteration variables, an init for
reductions, intermediates as alloc_buffers), and the extension builds tir
from them (tir.function.from_nodes).
"""
import builtins
import inspect

from .script.values import DTYPES
from .tir import expr as E
from .tir import op as _op
from .tir import stmt as S
from .tir.buffer import Buffer
from .ir.node import Range

__all__ = ["placeholder", "compute", "reduce_axis", "sum", "max", "min", "comm_reducer",
           "create_prim_func", "create_schedule", "Schedule", "var", "const", "min_value",
           "max_value", "AXIS_SEPARATOR", "if_then_else", "all", "any", "indexdiv", "indexmod",
           "exp", "sqrt", "log", "tanh", "rsqrt", "floor", "ceil", "abs", "erf"]

# te's expressions are tir's.
Expr = E.PrimExpr
Var = E.Var


def __getattr__(name):
    # te.AXIS_SEPARATOR is IndexMap.AXIS_SEPARATOR, as in TVM (looked up
    # lazily: tir imports te).
    if name == "AXIS_SEPARATOR":
        from .tir.index_map import IndexMap
        return IndexMap.AXIS_SEPARATOR
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class IterVar(E.Var):
    """An axis of a compute (spatial) or a reduce_axis: a tir.Var with its
    range [start, extent) and kind ("S" or "R")."""

    def __init__(self, extent, name, kind, start=0):
        super().__init__(name, "int32")
        self.extent, self.kind, self.start = extent, kind, start

    @property
    def var(self):
        return self

    @property
    def dom(self):
        return Range(self.start, self.extent)


def Const(value, dtype=None):  # noqa: N802 - the name te's users know
    """A constant (an IntImm or FloatImm)."""
    return E.const(value, dtype)


class _NotAnExpression:
    """A reduction: the whole body of a compute, not part of an expression."""

    def _refuse(self, *_):
        raise NotImplementedError("a reduction must be the whole compute body")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __truediv__ = __rtruediv__ = __floordiv__ = __mod__ = _refuse


class Reduce(_NotAnExpression):
    def __init__(self, combiner, source, axes):
        self.combiner, self.source, self.axes = combiner, E.convert(source), axes
        self.dtype = self.source.dtype


class MultiReduce:
    """One reduction of several values at once (te.comm_reducer over a
    tuple, as argmax's (index, value) pairs): `fcombine(lhs, rhs)` combines
    tuples, `identities` start them."""

    def __init__(self, fcombine, identities, sources, axes):
        self.fcombine, self.identities = fcombine, identities
        self.sources, self.axes = sources, axes


class ReduceValue(_NotAnExpression):
    """Value `index` of a MultiReduce; a te.compute over them has one output
    per value."""

    def __init__(self, group, index):
        self.group, self.index = group, index
        self.dtype = group.identities[index].dtype


class Tensor:
    def __init__(self, shape, dtype, name, axes=None, body=None):
        self.shape, self.dtype, self.name = tuple(shape), dtype, name
        self.axes, self.body = axes, body
        self._buffer = None

    @property
    def buffer(self):
        """The tir.Buffer the tensor is."""
        if self._buffer is None:
            self._buffer = Buffer(self.name, [E.convert(d) for d in self.shape], self.dtype)
            self._buffer._te_tensor = self
        return self._buffer

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
        return E.BufferLoad(self.buffer, [E.convert(i) for i in indices])

    def __repr__(self):
        return f"Tensor({self.name}, shape={self.shape}, dtype={self.dtype})"

    # `A + B`, `A * 2`, ...: topi's element-wise operators with numpy
    # broadcasting (blocks T_add, T_multiply, ...), as TVM's tensors.
    def _elementwise(self, op, other, reverse=False):
        from . import topi
        if not isinstance(other, (Tensor, E.PrimExpr, int, float)):
            return NotImplemented
        return getattr(topi, op)(other, self) if reverse else getattr(topi, op)(self, other)

    def __add__(self, o): return self._elementwise("add", o)
    def __radd__(self, o): return self._elementwise("add", o, True)
    def __sub__(self, o): return self._elementwise("subtract", o)
    def __rsub__(self, o): return self._elementwise("subtract", o, True)
    def __mul__(self, o): return self._elementwise("multiply", o)
    def __rmul__(self, o): return self._elementwise("multiply", o, True)
    def __truediv__(self, o): return self._elementwise("divide", o)
    def __rtruediv__(self, o): return self._elementwise("divide", o, True)

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
    return Tensor(shape if isinstance(shape, (tuple, list)) else (shape,), dtype, name)


def var(name="n", dtype="int32"):
    return E.Var(name, dtype)


def const(value, dtype=None, span=None):
    """tvm.te.const (tvm.tir.const): an IntImm or FloatImm, usable as an
    extent in shapes and as a value in computes."""
    return E.const(value, dtype, span)


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
            cls = {"sum": E.Add, "max": E.Max, "min": E.Min}[name]
            return E.make_binary(cls, expr, axis)
        return Reduce(name, expr, axes)
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
        sources = [E.convert(e) for e in exprs]
        identities = [E.convert(v) for v in fidentity(*[e.dtype for e in sources])]
        group = MultiReduce(fcombine, identities, sources, axes)
        return tuple(ReduceValue(group, i) for i in range(len(sources)))
    reducer.__name__ = name
    return reducer


_FLOAT_MAX = {"float16": 65504.0, "float32": 3.4028234663852886e38,
              "float64": 1.7976931348623157e308}


def _limit(dtype, highest):
    if dtype.startswith("float"):
        return E.const(_FLOAT_MAX[dtype] if highest else -_FLOAT_MAX[dtype], dtype)
    bits = int(dtype.lstrip("uint") or 32)
    if dtype.startswith("uint"):
        return E.const((1 << bits) - 1 if highest else 0, dtype)
    return E.const((1 << (bits - 1)) - 1 if highest else -(1 << (bits - 1)), dtype)


def min_value(dtype):
    """The smallest value of `dtype` (TVM's te.min_value)."""
    return _limit(dtype, False)


def max_value(dtype):
    """The largest value of `dtype` (TVM's te.max_value)."""
    return _limit(dtype, True)


# The expression helpers te's users write (TVM's te re-exports tir's).
if_then_else = _op.if_then_else
all = _op.all  # noqa: A001 - TVM's name
any = _op.any  # noqa: A001 - TVM's name
indexdiv, indexmod = _op.indexdiv, _op.indexmod
exp, sqrt, log, tanh, rsqrt = _op.exp, _op.sqrt, _op.log, _op.tanh, _op.rsqrt
floor, ceil, abs, erf = _op.floor, _op.ceil, _op.abs, _op.erf  # noqa: A001


sum = _reducer("sum", 0)  # noqa: A001 - TVM's name
max = _reducer("max", None)  # noqa: A001
min = _reducer("min", None)  # noqa: A001


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
        outs = [Tensor(shape, b.dtype, f"{name}_v{i}", axes, b) for i, b in enumerate(body)]
        for t in outs:
            t.stage, t.outputs, t.attrs = name, outs, dict(attrs or {})
        return outs
    if not isinstance(body, (Reduce, ReduceValue)):
        body = E.convert(body)
    out = Tensor(shape, body.dtype, name, axes, body)
    # The block's annotations (topi's softmax marks its axis).
    out.attrs = dict(attrs or {})
    return out


def _sources(body):
    """The expressions a compute's body reads."""
    if isinstance(body, Reduce):
        return [body.source]
    if isinstance(body, ReduceValue):
        return list(body.group.sources)
    return [body]


def _walk(expr, fvisit):
    """fvisit on every node of an expression."""
    from .tir.stmt_functor import post_order_visit
    post_order_visit(expr, fvisit)


def substitute(expr, lookup):
    from .tir.stmt_functor import substitute as replace
    return replace(expr, lookup)


def _tensors(body):
    """The tensors a compute's body loads, in order."""
    found = []

    def visit(node):
        if isinstance(node, E.BufferLoad):
            tensor = getattr(node.buffer, "_te_tensor", None)
            if tensor is not None and not builtins.any(tensor is t for t in found):
                found.append(tensor)
    for e in _sources(body):
        _walk(e, visit)
    return found


def _reduce_axes(body):
    if isinstance(body, Reduce):
        return list(body.axes)
    if isinstance(body, ReduceValue):
        return list(body.group.axes)
    return []


def _contains(items, x):
    """`x in items` by identity (expressions compare into expressions)."""
    return builtins.any(x is i for i in items)


def _identity(combiner, dtype):
    """The value a reduction starts from: 0, or the limit of `dtype` the
    combiner never picks."""
    if combiner == "sum":
        return E.const(0, dtype)
    return min_value(dtype) if combiner == "max" else max_value(dtype)


def _multi_reduce(outputs, index, bind):
    """(init, update) of a block computing the values of one
    te.comm_reducer over tuples: the combined values bound by name first
    (TVM's LetStmts), then stored."""
    group = outputs[0].body.group
    current = [E.BufferLoad(t.buffer, index) for t in outputs]
    init = S.stmt_seq(*[S.BufferStore(t.buffer, E.convert(identity, t.dtype), index)
                        for t, identity in zip(outputs, group.identities)])
    sources = tuple(bind(e) for e in group.sources)
    combined = [E.convert(v) for v in group.fcombine(tuple(current), sources)]
    names = [E.Var(f"v_{t.name}", t.dtype) for t in outputs]
    update = S.stmt_seq(*[S.BufferStore(t.buffer, n, index) for t, n in zip(outputs, names)])
    for n, value in reversed(list(zip(names, combined))):
        update = S.LetStmt(n, value, update)
    return init, update


def _canonical(expr):
    """`expr` with its comparisons written as TVM's create_prim_func leaves
    them after its simplifier: `a >= b` as `b <= a`, `a > b` as `b < a`
    (the padding condition `i >= 1` prints `1 <= i`)."""
    from .tir.stmt_functor import ir_transform

    def flip(node):
        if isinstance(node, E.GE):
            return E.LE(node.b, node.a)
        if isinstance(node, E.GT):
            return E.LT(node.b, node.a)
        return None
    return ir_transform(expr, None, flip)


def _stage(t):
    """The loop nest and block computing `t` (and the other outputs of its
    reduction)."""
    body = t.body
    reduce_axes = _reduce_axes(body)
    if builtins.any(a.start != 0 for a in reduce_axes):
        raise NotImplementedError("reduce axes must start at 0")
    axes = t.axes + reduce_axes
    # The loops are named as the axes, the block's variables `v_<axis>`
    # (TVM's names); the body reads the block's variables.
    loops = [E.Var(a.name, "int32") for a in axes]
    block_vars = [E.Var(f"v_{a.name}", "int32") for a in axes]
    iter_vars = [S.IterVar(Range.from_min_extent(0, a.extent), v,
                           S.IterVar.DataPar if a.kind == "S" else S.IterVar.CommReduce)
                 for a, v in zip(axes, block_vars)]
    index = list(block_vars[:len(t.axes)])
    rename = {id(a): v for a, v in zip(axes, block_vars)}

    def bind(expr):
        return _canonical(substitute(expr, lambda var: rename.get(id(var))))
    init = None
    if isinstance(body, ReduceValue):
        init, update = _multi_reduce(t.outputs, index, bind)
    elif isinstance(body, Reduce):
        target = E.BufferLoad(t.buffer, index)
        init = S.BufferStore(t.buffer, _identity(body.combiner, t.dtype), index)
        source = bind(body.source)
        if body.combiner == "sum":
            value = E.Add(target, source)
        else:
            value = (E.Max if body.combiner == "max" else E.Min)(target, source)
        update = S.BufferStore(t.buffer, value, index)
    else:
        update = S.BufferStore(t.buffer, bind(body), index)
    # (layout_free_placeholders names tensors: create_prim_func makes it
    # the function's layout_free_buffers.)
    annotations = {k: v for k, v in getattr(t, "attrs", {}).items()
                   if k != "layout_free_placeholders"}
    block = S.Block(iter_vars, [], [], getattr(t, "stage", t.name), update, init,
                    annotations=annotations)
    nest = S.BlockRealize(loops, True, block)
    for loop, a in reversed(list(zip(loops, axes))):
        nest = S.For(loop, 0, a.extent, S.ForKind.SERIAL, nest)
    return nest


def create_prim_func(args, name="main"):
    """A PrimFunc computing the outputs in `args` from its inputs; computes
    not in `args` become alloc_buffers. The placeholders a compute's
    attrs list under "layout_free_placeholders" (weights, as topi's dense
    marks them) become the function's "layout_free_buffers", their
    positions in `args`: MetaSchedule's RewriteLayout may then store them
    in the order the tuned loops read them."""
    from .tir.function import from_nodes
    order = []

    def visit(t):
        if _contains(order, t) or t.is_placeholder:
            return
        for dep in _tensors(t.body):
            if dep.is_placeholder and not _contains(args, dep):
                raise ValueError(f"te.create_prim_func: compute {t.name} reads placeholder "
                                 f"{dep.name}, which is not among the arguments")
            visit(dep)
        # The outputs of one multi-value reduction come together.
        order.extend(getattr(t, "outputs", [t]))

    for t in args:
        visit(t)
    # (A shape variable is a dimension of the buffers it sizes, as TVM's
    # match_buffer declares it, not a parameter.)
    params, buffer_map = [], {}
    for t in args:
        handle = E.Var(t.name, "handle")
        params.append(handle)
        buffer_map[handle] = t.buffer
    allocs = [t.buffer for t in order if not _contains(args, t)]
    stages = [_stage(t) for t in order
              if getattr(t, "outputs", None) is None or t is t.outputs[0]]
    root = S.Block([], [], [], "root", S.stmt_seq(*stages), alloc_buffers=allocs)
    func = from_nodes(params, S.BlockRealize([], True, root), buffer_map, name)
    layout_free = []
    for t in order:
        for free in getattr(t, "attrs", {}).get("layout_free_placeholders", []):
            position = next((i for i, a in enumerate(args) if a is free), None)
            if position is None or not free.is_placeholder:
                raise ValueError(
                    f"te.create_prim_func: compute {t.name}'s layout_free_placeholders "
                    f"lists {getattr(free, 'name', free)!r}, which is not a placeholder "
                    "among the arguments")
            if position not in layout_free:
                layout_free.append(position)
    if layout_free:
        func = func.with_attr("layout_free_buffers", sorted(layout_free))
    return func
