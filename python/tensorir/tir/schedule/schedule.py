"""tir.Schedule: TVM's imperative schedule over the C++ primitives."""
import collections
import operator
import sys

from ..._ext import ext
from ...ir import IRModule
from ...target import Target
from ..buffer import _ELEMENT_DTYPES
from ..expr import IntImm, PrimExpr, Var
from .state import ScheduleState, _node_module, parse_debug_mask, remember_node_module
from .trace import Trace

ScheduleError = ext.ScheduleError


class UnknownRandomVariableError(ScheduleError, IndexError):
    """A random variable the schedule does not know (made by another
    schedule, or removed with remove_rv): TVM raises IndexError."""


class BufferArgumentError(ScheduleError, AssertionError):
    """A buffer argument that names no buffer of the block (a position out
    of range, a name or buffer it does not access): TVM's Python asserts
    on these."""

# The values vscale takes on a scalable-vector target (SVE: 128 to 2048-bit
# vectors), tried in turn to prove that scalable split factors cover a loop.
_VSCALE_VALUES = [1, 2, 4, 8, 16]


def _factor(value):
    """A split factor for Attribute.split_factors: an int (ints and IntImms),
    None (inferred), or an expression of T.vscale() (scalable)."""
    if value is None:
        return None
    if isinstance(value, PrimExpr) and not isinstance(value, IntImm):
        try:
            ext.Attribute.split_factors([value])
        except ValueError as error:
            raise TypeError(f"split factors are integers or expressions of T.vscale(); "
                            f"{value.script()}: {error}") from None
        return value
    if isinstance(value, (bool, float)):
        raise TypeError(f"split factors are integers, got {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"split factors are integers (int or IntImm), expressions of "
                        f"T.vscale() or None, got {type(value).__name__}") from None
    return None if value == -1 else value


def _vscale_values(factors):
    """What vscale may be, when a factor is scalable and the current target
    (tvm.target.Target context) has scalable vectors; TVM warns otherwise."""
    if not any(isinstance(f, PrimExpr) and not isinstance(f, IntImm) for f in factors):
        return []
    target = Target.current()
    if target is not None and target.has_scalable_vectors():
        return list(_VSCALE_VALUES)
    print("Warning: The expression contains scalable values. An attempt to prove by "
          "substituting with known values of vscale was not performed. This proof "
          f"currently only supports VLA targets, but the target was {target}",
          file=sys.stderr)
    return []


class _RV:
    """A random variable (TVM's BlockRV / LoopRV / ExprRV): one object per
    value of a trace, shared by the schedules copied from the one that made
    it. `BlockRV()` makes one that no schedule knows yet (for building
    traces by hand)."""

    _KIND = "block"

    def __init__(self, rv=None, handle=None):
        self._rv = rv if rv is not None else ext.RandomVariable(self._KIND)
        self._handle = handle

    @classmethod
    def _of(cls, handle):
        return cls(handle.rv, handle)

    def same_as(self, other):
        """TVM's Object.same_as: the same random variable."""
        return isinstance(other, _RV) and self._rv == other._rv

    def __eq__(self, other):
        # The same random variable, or two that hold the same blocks or
        # loops of one schedule (TVM compares what they refer to through
        # sch.get).
        if not isinstance(other, _RV):
            return False
        if self._rv == other._rv:
            return True
        return (self._handle is not None and other._handle is not None
                and self._handle == other._handle)

    def __hash__(self):
        return hash(self._handle) if self._handle is not None else hash(self._rv)

    def __repr__(self):
        return f"{type(self).__name__}({self._handle if self._handle is not None else ''})"


class BlockRV(_RV):
    """A block of the schedule; it stays valid across loop transformations."""

    _KIND = "block"


class LoopRV(_RV):
    """A loop of the schedule; split and fuse replace the loops they take."""

    _KIND = "loop"


class ExprRV(_RV, Var):
    """An integer a sampling primitive drew (TVM's ExprRV, a tir.Var):
    `sch.get(v)` gives its value; split takes it as a factor, so that a
    replay with another decision splits by the new value. In an index map
    it stands for its value."""

    _KIND = "expr"

    def __init__(self, rv=None, handle=None):
        _RV.__init__(self, rv, handle)
        Var.__init__(self, "v", "int32")

    __eq__ = _RV.__eq__
    __hash__ = _RV.__hash__


def _rv_of(native):
    """The Python random variable of a native one."""
    return {"block": BlockRV, "loop": LoopRV, "expr": ExprRV}[native.kind](native)


class _StmtView:
    """What sch.get returns: the block or loop a random variable refers to
    (a block's name as name_hint)."""

    def __init__(self, handle, schedule=None):
        self._handle = handle
        self._schedule = schedule
        self.name_hint = handle.block_name

    def _as_node(self):
        """The tir.Block or tir.For itself, as IR nodes of the scheduled
        module (TVM's sch.get returns it): found at the same place in the
        same function."""
        position = self._handle.position
        if position is None or self._schedule is None:
            raise ValueError("this handle holds no single block or loop")
        func_name, index = position
        body = self._schedule._nodes_of(func_name).body
        from ..stmt import Block, For
        kind = Block if self._handle.kind == "block" else For
        found = []
        from ..stmt_functor import pre_order_visit
        pre_order_visit(body, lambda n: found.append(n) if isinstance(n, kind) else None)
        # The nodes' root block has no op of its own in tir.
        return found[index + 1 if kind is Block else index]

    def __getattr__(self, name):
        # The rest of TVM's Block / For fields (body, iter_vars, loop_var,
        # extent, kind, ...) come from the node.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._as_node(), name)

    def __eq__(self, other):
        # Views of the same block or loop; a view and the node it shows
        # (what sch.get of a StmtSRef gives) compare equal too, as TVM's
        # sch.get gives the node for both. (Hashing stays by handle: a view
        # keeps its hash across steps, which change the nodes.)
        if isinstance(other, _StmtView):
            return self._handle == other._handle
        from ..stmt import Block, For
        if isinstance(other, (Block, For)):
            try:
                return self._as_node() is other
            except ValueError:
                return False
        return NotImplemented

    def __hash__(self):
        return hash(self._handle)

    def same_as(self, other):
        """TVM's Object.same_as: the same block or loop (a view of it, or
        its node)."""
        if isinstance(other, _StmtView):
            return self == other
        return other is not None and self._as_node() is other

    @property
    def annotations(self):
        """The block's or loop's annotations (TVM's Block.annotations):
        booleans and integers as IntImm, floats as FloatImm, strings as
        str, other attributes as their text."""
        from ..expr import FloatImm, IntImm
        items = self._handle.annotations
        if items is None:
            raise ValueError("annotations: the handle holds no single block or loop")
        out = {}
        for name, kind, value in items:
            if kind == "bool":
                out[name] = IntImm("bool", value)
            elif kind.startswith("int"):
                out[name] = IntImm(kind, value)
            elif kind == "float":
                out[name] = FloatImm("float32", value)
            elif kind == "str":
                out[name] = value
            else:
                # Lists and other attributes: as the node has them.
                try:
                    out[name] = self._as_node().annotations[name]
                except (ValueError, KeyError):
                    out[name] = value
        return out

    @property
    def reads(self):
        """A block's read buffers, in order (TVM's Block.reads, as
        BufferRegions of their buffers)."""
        from ..buffer import buffers_of
        h = self._handle
        return buffers_of(h.read_buffer_names, h.read_buffer_shapes,
                          h.read_buffer_element_types)

    @property
    def writes(self):
        """A block's write buffers, in order (TVM's Block.writes)."""
        from ..buffer import buffers_of
        h = self._handle
        return buffers_of(h.write_buffer_names, h.write_buffer_shapes,
                          h.write_buffer_element_types)

    def __repr__(self):
        return str(self._handle)


def _wrap(handle):
    """A result handle as Python: a LoopRV, a BlockRV, or the int a
    parameter holds."""
    if handle.kind == "param":
        params = handle.params
        return params[0] if len(params) == 1 else params
    rv = handle.rv
    kind = rv.kind if rv is not None else handle.kind
    return LoopRV._of(handle) if kind == "loop" else BlockRV._of(handle)


class Schedule:
    """TVM's tir.Schedule: the primitives change `sch.mod` step by step;
    a refused step raises ScheduleError with the rule and the location of
    the loop or block at fault, and changes nothing. `sch.trace` records the
    steps.

    Every primitive is a transform.tir op applied by the C++ ScheduleState
    (the same code tir-opt's transform interpreter runs); the trace is those
    ops. Primitives without a method here are found by name: `sch.parallel(l)`
    applies `transform.tir.parallel`, its arguments named as TVM's."""

    def __init__(self, mod, *, seed=None, debug_mask="none",
                 error_render_level="detail", enable_check=True):
        """mod: an IRModule, a PrimFunc (scheduled as IRModule({"main": f}),
        so its function is "main", as in TVM) or MLIR text. seed seeds the
        sampling primitives (sample_perfect_tile; None: a random seed, as in
        TVM). debug_mask (see tir.schedule.state): anything but "none" / 0
        verifies what each step changed. error_render_level is how a refusal
        (ScheduleError) reads: "detail", the rule with the loop or block at
        fault; "fast", the rule alone; "none", "(not rendered)".
        enable_check is TVM's; it is checked and recorded."""
        from ..function import PrimFunc
        if isinstance(mod, str):
            mod = IRModule.from_mlir(mod)
        elif isinstance(mod, PrimFunc):
            mod = IRModule({"main": mod})
        elif not isinstance(mod, IRModule):
            # Anything else that holds a module as `.mod` (asking may raise
            # its own error, such as a function that did not parse).
            inner = getattr(mod, "mod", None)
            if not isinstance(inner, IRModule):
                raise TypeError(f"Schedule takes an IRModule or a PrimFunc, got "
                                f"{type(mod).__name__}")
            mod = inner
        if error_render_level not in ("detail", "fast", "none"):
            raise ValueError(f'error_render_level is "detail", "fast" or "none", got '
                             f"{error_render_level!r}")
        self.debug_mask = parse_debug_mask(debug_mask)
        self.error_render_level = error_render_level
        self.enable_check = bool(enable_check)
        self._native = ext.Schedule(mod._native, verify_each_step=self.debug_mask != 0,
                                    seed=_parse_seed(seed),
                                    error_render_level=error_render_level)
        self._symbols = dict(mod._symbols)  # global symbols (see IRModule)
        self._work_on = None
        # Until a primitive changes it, the module's nodes are those of the
        # module (and functions) given, as in TVM.
        self._node_modules = collections.OrderedDict()
        remember_node_module(self._node_modules, str(self._native.mod), mod)

    def copy(self):
        """TVM's Schedule.copy: an independent schedule of a copy of the
        module, with the same trace; the random variables of this schedule
        refer to the same blocks and loops in the copy. Its random state is
        forked from this one's (which advances), as TVM's."""
        new = Schedule.__new__(Schedule)
        new.__dict__.update({k: v for k, v in self.__dict__.items()
                             if k not in ("_native", "_state")})
        new._symbols = dict(self._symbols)
        new._native = self._native.copy()
        return new

    def seed(self, seed):
        """TVM's Schedule.seed: reseeds the random state (-1: a random
        seed)."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed is an int, got {type(seed).__name__}")
        self._native.seed(seed)

    def fork_seed(self):
        """TVM's Schedule.fork_seed: a seed for another schedule, derived
        from this one's random state (which advances)."""
        return self._native.fork_seed()

    @property
    def func_working_on(self):
        """TVM's func_working_on: the GlobalVar of the function get_block
        looks in (work_on's, else the entry function), or None."""
        name = self._work_on
        if name is None:
            try:
                name = self._entry_function()
            except ValueError:
                return None
        return self.mod.get_global_var(name)

    def _entry_function(self):
        """TVM's entry function: "main" if the module has that prim_func,
        else its only prim_func; ValueError otherwise, as TVM's get_block."""
        if getattr(self, "_entry", None) is None:
            from ..function import PrimFunc
            mod = self.mod
            funcs = [str(g) for g in mod.get_global_vars()
                     if isinstance(mod[str(g)], PrimFunc)]
            if "main" in funcs:
                self._entry = "main"
            elif len(funcs) == 1:
                self._entry = funcs[0]
            else:
                raise ValueError(
                    "`get_block` does not know which function to be working on. Please "
                    "specify the function name explicitly, or call `work_on` to specify "
                    "the function before using `get_block`.")
        return self._entry

    def work_on(self, func_name):
        """TVM's work_on: get_block looks in the prim_func `func_name` (a
        module with a graph function holds several functions)."""
        from ...relax.function import Function
        mod = self.mod
        if func_name not in mod:
            raise ValueError(f"work_on: no function named '{func_name}'; the module has "
                             f"{', '.join(mod.get_global_vars())}")
        if isinstance(mod[func_name], Function):
            raise ValueError(f"work_on: '{func_name}' is a graph function; schedules work "
                             "on prim_funcs")
        self._work_on = func_name

    @property
    def mod(self):
        """The module as scheduled so far. Modules of the same text are one
        IRModule (its functions and nodes handed out once, shared with the
        schedule's copies): the module given, until a primitive changes
        it."""
        native = self._native.mod

        def make():
            mod = IRModule(native)
            mod._symbols = dict(self._symbols)
            return mod
        return _node_module(self._node_modules, str(native), self._symbols, make)

    @property
    def state(self):
        """TVM's ScheduleState of this schedule: srefs, cached flags, block
        scopes."""
        state = self.__dict__.get("_state")
        if state is None:
            state = self._state = ScheduleState(None, _schedule=self)
        return state

    def get_sref(self, rv_or_stmt):
        """TVM's get_sref: the StmtSRef of what a BlockRV or LoopRV refers
        to now (IndexError for a random variable of another schedule), or of
        a tir.Block / tir.For of the module."""
        if not isinstance(rv_or_stmt, (BlockRV, LoopRV)):
            return self.state.get_sref(rv_or_stmt)
        handle = self._handle(rv_or_stmt)
        position = handle.position
        if position is None:
            raise ScheduleError("get_sref: the random variable holds no single block or loop "
                                "(a primitive removed it)")
        func_name, index = position
        kind = "block" if isinstance(rv_or_stmt, BlockRV) else "loop"
        return self.state._sref(self.mod, func_name, kind, index)

    @property
    def trace(self):
        """The steps so far (a snapshot): TVM's Trace, instructions and
        decisions apart."""
        return Trace(self._native.trace_model())

    def show(self):
        self.mod.show()

    # The one entry point: every primitive is applied through it.
    def _handle(self, value):
        if isinstance(value, _RV):
            try:
                return self._native.handle(value._rv)
            except ScheduleError as error:
                raise UnknownRandomVariableError(str(error)) from None
        if isinstance(value, str):
            return self.get_block(value)._handle
        if isinstance(value, ext.Handle):
            return value
        raise TypeError(f"expected a block (BlockRV or name) or a loop (LoopRV), got "
                        f"{type(value).__name__}")

    def _apply(self, kind, operands, attrs=None, num_results=0):
        """Applies transform.tir.<kind> to the handles of `operands` (RVs,
        or block names) with `attrs` (Python values, None for absent);
        num_results: how many results, None for one per op found."""
        native_attrs = {name: value for name, value in (attrs or {}).items()
                        if value is not None}
        handles = self._native.apply(kind, [self._handle(o) for o in operands],
                                     native_attrs, num_results)
        return [_wrap(h) for h in handles]

    def __getattr__(self, name):
        signature = None if name.startswith("_") else ext.primitive_signature(name)
        if signature is None:
            raise AttributeError(f"'Schedule' object has no attribute {name!r}")
        operand_names, attribute_names, variadic, returns_list, count = signature

        def primitive(*args, **kwargs):
            if variadic:
                operands, attrs = list(args), {}
            else:
                params = list(operand_names) + list(attribute_names)
                if len(args) > len(params):
                    raise TypeError(f"{name}() takes at most {len(params)} arguments, "
                                    f"got {len(args)}")
                bound = dict(zip(params, args))
                operands = [bound.pop(p) if p in bound else kwargs.pop(p, None)
                            for p in operand_names]
                missing = [p for p, v in zip(operand_names, operands) if v is None]
                if missing:
                    raise TypeError(f"{name}() missing argument {missing[0]!r}")
                attrs = bound
            for key, value in kwargs.items():
                if key not in attribute_names:
                    raise TypeError(f"{name}() got an unexpected argument {key!r}")
                attrs[key] = value
            results = self._apply(name, operands, attrs, None if returns_list else count)
            if returns_list:
                return results
            return results[0] if count == 1 else None

        primitive.__name__ = name
        primitive.__doc__ = (f"transform.tir.{name}({', '.join(operand_names)}"
                             f"{', ' if attribute_names else ''}{', '.join(attribute_names)})")
        return primitive

    def get(self, rv):
        """TVM's Schedule.get: what a BlockRV or LoopRV refers to now, as a
        read-only view (a block's `name_hint`); views of the same block or
        loop compare equal, and equal its node. An ExprRV gives its value (an
        int), a StmtSRef its statement (the node)."""
        from .state import StmtSRef
        if isinstance(rv, StmtSRef):
            return rv.stmt  # TVM's get of an sref: its statement
        if not isinstance(rv, _RV):
            raise TypeError(f"get takes a BlockRV, a LoopRV, an ExprRV or a StmtSRef, got "
                            f"{type(rv).__name__}")
        handle = self._handle(rv)
        if isinstance(rv, ExprRV):
            (value,) = handle.params
            return value
        if not handle.exists():
            raise ScheduleError(f"get: the {'block' if isinstance(rv, BlockRV) else 'loop'} "
                                "no longer exists in the IRModule (a primitive removed it)")
        return _StmtView(handle, self)

    def _nodes_of(self, func_name):
        """Function `func_name` of the module as scheduled now (its IR
        nodes read once per state of the module)."""
        return self.mod[func_name]

    # Primitives whose Python arguments need more than a conversion.
    def _buffer_position(self, block, buffer_index, kind, primitive):
        """A read / write buffer given by position or by name, as its
        position among the block's reads / writes (what the trace records)."""
        if isinstance(buffer_index, str):
            handle = (self.get_block(block) if isinstance(block, str) else block)._handle
            names = (handle.read_buffer_names if kind == "read"
                     else handle.write_buffer_names) or []
            if buffer_index not in names:
                raise ScheduleError(
                    f"{primitive}: block {handle.block_name!r} {kind}s no buffer "
                    f"named {buffer_index!r} (it {kind}s {names})")
            return names.index(buffer_index)
        if not isinstance(buffer_index, int) or isinstance(buffer_index, bool):
            raise TypeError(f"{primitive}: buffer_index is a {kind} buffer's position "
                            f"(int) or name (str), got {type(buffer_index).__name__}")
        return buffer_index

    def _buffer_arg(self, block, buffer, primitive, required_kind=None):
        """TVM's buffer argument: ("read" | "write", position), a position
        of `required_kind`, or a buffer (or its name) the block reads or
        writes (a buffer it does both to is its write, as in TVM). Returns
        (kind, position)."""
        handle = block._handle
        names = {"read": handle.read_buffer_names or [],
                 "write": handle.write_buffer_names or []}
        if isinstance(buffer, int) and not isinstance(buffer, bool):
            if required_kind is None:
                raise TypeError(f"{primitive}: a buffer position needs its kind: "
                                f'("read", i) or ("write", i)')
            buffer = (required_kind, buffer)
        if isinstance(buffer, (tuple, list)):
            if len(buffer) != 2 or buffer[0] not in names:
                raise ScheduleError(f"{primitive}: a buffer given by position is "
                                 f'("read", i) or ("write", i), got {buffer!r}')
            kind, index = buffer
            if not isinstance(index, int) or not 0 <= index < len(names[kind]):
                raise BufferArgumentError(
                    f"{primitive}: block {handle.block_name!r} has {len(names[kind])} "
                    f"{kind} buffers; there is no {kind} buffer {index!r}")
        else:
            name = buffer if isinstance(buffer, str) else getattr(buffer, "name", None)
            if not isinstance(name, str):
                raise TypeError(f"{primitive}: buffer is (kind, position), a name or a "
                                f"buffer, got {type(buffer).__name__}")
            found = None
            for kind in ("read", "write"):
                if name in names[kind]:
                    found = (kind, names[kind].index(name))
            if found is None:
                raise BufferArgumentError(
                    f"{primitive}: block {handle.block_name!r} accesses no buffer named "
                    f"{name!r} (it reads {names['read']}, writes {names['write']})")
            kind, index = found
        if required_kind is not None and kind != required_kind:
            raise ScheduleError(f"{primitive} needs a {required_kind} buffer, got the "
                                f"{kind} buffer {names[kind][index]!r}")
        return kind, index

    def reindex(self, block, buffer):
        """TVM's reindex: a copy `<buffer>_reindex` of a buffer the block
        reads or writes (("read" | "write", position), or its name), indexed
        by the block's variables; returns the stage that copies it."""
        if isinstance(block, str):
            block = self.get_block(block)
        kind, index = self._buffer_arg(block, buffer, "reindex")
        (stage,) = self._apply("reindex", [block],
                               {"buffer_index": index, "buffer_index_type": kind}, 1)
        return stage

    def _index_map(self, index_map, ndim, primitive):
        """(IndexMap, axis separators) from a function of the indices or an
        IndexMap. ExprRVs in it (sampled values, TVM's idiom) are replaced
        by their values: the trace records the map with those values."""
        from ..index_map import IndexMap
        if isinstance(index_map, IndexMap):
            separators = []
        elif callable(index_map):
            index_map, separators = IndexMap.from_func_with_separators(index_map, ndim=ndim)
        else:
            raise TypeError(f"{primitive}: index_map is a function of the indices or "
                            f"an IndexMap, got {type(index_map).__name__}")
        return self._with_sampled_values(index_map), separators

    def _with_sampled_values(self, index_map):
        from ..expr import PrimExpr
        from ..index_map import IndexMap
        from ..stmt_functor import post_order_visit, substitute
        found = {}
        for f in index_map.final_indices:
            if isinstance(f, PrimExpr):
                post_order_visit(f, lambda n: found.setdefault(id(n), n)
                                 if isinstance(n, ExprRV) else None)
        if not found:
            return index_map
        values = {rv: self.get(rv) for rv in found.values()}
        finals = [substitute(f, values) if isinstance(f, PrimExpr) else f
                  for f in index_map.final_indices]
        return IndexMap(index_map.initial_indices, finals)

    def transform_block_layout(self, block, index_map):
        """TVM's transform_block_layout: the block's iteration space
        remapped by `index_map` (a function of its variables, or an
        IndexMap)."""
        if isinstance(block, str):
            block = self.get_block(block)
        ndim = block._handle.num_iter_vars
        index_map, separators = self._index_map(index_map, ndim, "transform_block_layout")
        if separators:
            raise ScheduleError("transform_block_layout: an index map of a block's "
                                "iteration space has no axis separators")
        self._apply("transform_block_layout", [block],
                    {"index_map": index_map._attribute()}, 0)

    def _pad_value_attr(self, pad_value, element_type, ndim):
        """A pad value as an attribute: a Python int takes an integer
        buffer's type and a float a float buffer's (TVM's conversion);
        otherwise its own type (int: i32, float: f32, IntImm / FloatImm:
        their dtype), which the primitive refuses if it is not the
        buffer's. A function of the `ndim` new indices (or an IndexMap)
        gives an affine map to one integer; one that gives a constant is
        that constant."""
        from ..expr import FloatImm, IntImm
        from ..index_map import IndexMap
        if callable(pad_value) or isinstance(pad_value, IndexMap):
            try:
                pad_map = (pad_value if isinstance(pad_value, IndexMap)
                           else IndexMap.from_func(pad_value, ndim=ndim))
            except TypeError as e:
                raise ScheduleError(
                    f"transform_layout: the pad value is an expression of the new "
                    f"indices (it may not read a buffer): {e}") from None
            if len(pad_map.final_indices) != 1:
                raise ScheduleError(
                    f"transform_layout: the pad value gives one value, got "
                    f"{len(pad_map.final_indices)}")
            if isinstance(pad_map.final_indices[0], int):
                pad_value = pad_map.final_indices[0]
            else:
                try:
                    return pad_map._attribute()
                except ValueError as e:
                    raise ScheduleError(
                        f"transform_layout: the pad value is an expression of the new "
                        f"indices (it may not read a buffer): {e}") from None
        is_float = element_type.startswith(("f", "bf"))
        buffer_dtype = _ELEMENT_DTYPES.get(element_type, element_type)
        if isinstance(pad_value, (IntImm, FloatImm)):
            value, dtype = pad_value.value, pad_value.dtype
        elif isinstance(pad_value, bool):
            raise TypeError("transform_layout: pad_value is a number, got a bool")
        elif isinstance(pad_value, int):
            value, dtype = pad_value, ("int32" if is_float else buffer_dtype)
        elif isinstance(pad_value, float):
            value, dtype = pad_value, (buffer_dtype if is_float else "float32")
        else:
            raise TypeError(f"transform_layout: pad_value is a number or a function of "
                            f"the new indices, got {type(pad_value).__name__}")
        number = float(value) if dtype.startswith(("float", "bfloat")) else int(value)
        try:
            return ext.Attribute.number(number, dtype)
        except ValueError as e:
            raise ValueError(f"transform_layout: pad_value {e}") from None

    def transform_layout(self, block, buffer, index_map, pad_value=None, *,
                         assume_injective_transform=False):
        """TVM's transform_layout: the buffer (("read" | "write", i), or its
        name) takes the layout `index_map` (a function of its indices, or
        an IndexMap) gives; IndexMap.AXIS_SEPARATOR in the result also sets
        its axis separators (set_axis_separator), as in TVM."""
        if isinstance(block, str):
            block = self.get_block(block)
        kind, index = self._buffer_arg(block, buffer, "transform_layout")
        handle = block._handle
        ranks = handle.read_buffer_ranks if kind == "read" else handle.write_buffer_ranks
        index_map, separators = self._index_map(index_map, ranks[index], "transform_layout")
        attrs = {"buffer_index": index, "buffer_index_type": kind,
                 "index_map": index_map._attribute(),
                 "assume_injective_transform": bool(assume_injective_transform)}
        if pad_value is not None:
            types = (handle.read_buffer_element_types if kind == "read"
                     else handle.write_buffer_element_types)
            attrs["pad_value"] = self._pad_value_attr(pad_value, types[index],
                                                      len(index_map.final_indices))
        self._apply("transform_layout", [block], attrs, 0)
        if separators:
            self.set_axis_separator(block, (kind, index), separators)

    def annotate_buffer_access(self, block, buffer_index, buf_type, gen_new_ranges):
        """TVM's annotate_buffer_access: the region the block reads
        (buf_type "read") or writes of its buffer_index-th such buffer is
        what gen_new_ranges gives, a function of the block's iteration
        variables returning, per dimension of the buffer, a (begin, end)
        pair or one index (a range of one)."""
        if isinstance(block, str):
            block = self.get_block(block)
        if buf_type not in ("read", "write"):
            raise ValueError(f"Invalid buf_type: {buf_type}. Expected 'read' or 'write'.")
        if not callable(gen_new_ranges):
            raise TypeError(f"annotate_buffer_access: gen_new_ranges is a function of the "
                            f"block's iteration variables, got {type(gen_new_ranges).__name__}")
        # The ranges are a function of the block's iteration variables: the
        # map takes them by position, so fresh variables serve (the
        # function's nodes are not needed).
        iter_vars = [Var(f"v{k}", "int32")
                     for k in range(self._handle(block).num_iter_vars)]
        spec = gen_new_ranges(*iter_vars)
        if not isinstance(spec, (list, tuple)):
            spec = [spec]
        bounds = []
        for rng in spec:
            if isinstance(rng, (tuple, list)):
                if len(rng) != 2:
                    raise ValueError("Tuple must have exactly 2 elements to represent "
                                     "(begin, end).")
                bounds.extend(rng)
            elif isinstance(rng, PrimExpr):
                bounds.extend([rng, rng + 1])
            else:
                raise TypeError(f"Expected PrimExpr or tuple of PrimExpr, got {type(rng)}")
        from ..index_map import IndexMap
        ranges = IndexMap(iter_vars, bounds)._attribute()
        self._apply("annotate_buffer_access", [block],
                    {"buffer_index": buffer_index, "buf_type": buf_type,
                     "gen_new_ranges": ranges}, 0)

    def set_axis_separator(self, block, buffer, axis_separators):
        """TVM's set_axis_separator: the buffer (("read" | "write", i), or
        its name) is flattened in groups starting at `axis_separators`."""
        if isinstance(block, str):
            block = self.get_block(block)
        kind, index = self._buffer_arg(block, buffer, "set_axis_separator")
        self._apply("set_axis_separator", [block],
                    {"buffer_index": index, "buffer_index_type": kind,
                     "axis_separators": ext.Attribute.i64_array(
                         [int(s) for s in (axis_separators or [])])}, 0)

    def set_scope(self, block, buffer_index, storage_scope):
        """TVM's set_scope: the block's write buffer `buffer_index` (its
        position among the block's writes, or the buffer's name) moves to
        `storage_scope`; the trace records the position."""
        if isinstance(block, str):
            block = self.get_block(block)
        buffer_index = self._buffer_position(block, buffer_index, "write", "set_scope")
        self._apply("set_scope", [block],
                    {"buffer_index": buffer_index, "storage_scope": storage_scope}, 0)

    def _cache(self, primitive, kind, block, buffer_index, storage_scope, consumer_blocks):
        consumers = [self.get_block(c) if isinstance(c, str) else c
                     for c in (consumer_blocks or [])]
        if isinstance(block, str):
            block = self.get_block(block)
        buffer_index = self._buffer_position(block, buffer_index, kind, primitive)
        (stage,) = self._apply(primitive, [block, *consumers],
                               {f"{kind}_buffer_index": buffer_index,
                                "storage_scope": storage_scope}, 1)
        return stage

    def cache_read(self, block, read_buffer_index, storage_scope, consumer_blocks=None):
        """TVM's cache_read: a cache of the block's read buffer
        `read_buffer_index` (position or name) in `storage_scope`, filled by
        a copy block, which is returned; `consumer_blocks` (blocks or names)
        limit the blocks that read the cache."""
        return self._cache("cache_read", "read", block, read_buffer_index, storage_scope,
                           consumer_blocks)

    def cache_write(self, block, write_buffer_index, storage_scope, consumer_blocks=None):
        """TVM's cache_write: the block writes a cache of its write buffer
        `write_buffer_index` (position or name) in `storage_scope`, and a
        copy block, which is returned, writes it back; `consumer_blocks`
        read the cache directly."""
        return self._cache("cache_write", "write", block, write_buffer_index, storage_scope,
                           consumer_blocks)

    def cache_inplace(self, block, read_buffer_index, storage_scope):
        """TVM's cache_inplace: the block, which reads and writes the buffer
        in place, works on a cache copied in right before it and back right
        after it; returns [copy in, copy out]."""
        read_buffer_index = self._buffer_position(block, read_buffer_index, "read",
                                                  "cache_inplace")
        return self._apply("cache_inplace", [block],
                           {"read_buffer_index": read_buffer_index,
                            "storage_scope": storage_scope}, 2)

    def _reindex_cache(self, primitive, kind, block, buffer_index, storage_scope, index_map):
        if isinstance(block, str):
            block = self.get_block(block)
        buffer_index = self._buffer_position(block, buffer_index, kind, primitive)
        index_map, separators = self._index_map(index_map, block._handle.num_iter_vars,
                                                primitive)
        if separators:
            raise ScheduleError(f"{primitive}: the index map has no axis separators")
        (stage,) = self._apply(primitive, [block],
                               {f"{kind}_buffer_index": buffer_index,
                                "storage_scope": storage_scope,
                                "index_map": index_map._attribute()}, 1)
        return stage

    def reindex_cache_read(self, block, read_buffer_index, storage_scope, index_map):
        """TVM's reindex_cache_read: cache_read of the block's read buffer
        (position or name) into a cache laid out by `index_map` over the
        block's variables; returns the copy block."""
        return self._reindex_cache("reindex_cache_read", "read", block, read_buffer_index,
                                   storage_scope, index_map)

    def reindex_cache_write(self, block, write_buffer_index, storage_scope, index_map):
        """TVM's reindex_cache_write: the write side of reindex_cache_read."""
        return self._reindex_cache("reindex_cache_write", "write", block, write_buffer_index,
                                   storage_scope, index_map)

    def pad_einsum(self, block, padding):
        """TVM's pad_einsum: the einsum block's iteration extents rounded up
        to multiples of `padding` (one size per iteration variable), its
        buffers padded through copies."""
        self._apply("pad_einsum", [block],
                    {"padding": ext.Attribute.i64_array(
                        [int(getattr(p, "value", p)) for p in padding])}, 0)

    def remove_rv(self, rv):
        """TVM's remove_rv: the schedule forgets `rv` (using it again raises
        IndexError); the trace keeps the step that made it."""
        if not isinstance(rv, _RV):
            raise TypeError(f"remove_rv takes a BlockRV, LoopRV or ExprRV, got "
                            f"{type(rv).__name__}")
        self._native.remove_rv(rv._rv)

    def reorder_block_iter_var(self, block, new_order):
        """TVM's reorder_block_iter_var: the block's iteration variables in
        the order `new_order` gives (the k-th is old variable new_order[k])."""
        order = [operator.index(getattr(k, "value", k)) for k in new_order]
        self._apply("reorder_block_iter_var", [block],
                    {"new_order": ext.Attribute.i64_array(order)}, 0)

    def can_decompose_padding(self, block, loop):
        """TVM's can_decompose_padding: whether decompose_padding(block,
        loop) would apply (the schedule is not changed, nor traced)."""
        return bool(self._native.can_decompose_padding(self._handle(block),
                                                       self._handle(loop)))

    def get_block(self, name, func_name=None):
        """TVM's get_block: the block `name` in function `func_name`, else
        in the function work_on chose, else in the module's entry function
        ("main", or its only prim_func; ValueError when it has neither); the
        trace records the function, as TVM's does."""
        if func_name is None:
            func_name = self._work_on or self._entry_function()
        (rv,) = self._apply("get_block", [self._native.root],
                            {"name": name, "func_name": func_name}, 1)
        return rv

    def blockize(self, target, *more, preserve_unit_iters=True):
        """TVM's blockize: the subtree under loop `target`, or the blocks
        of the list `target`, become a block (transform.tir.blockize). The
        trace prints blocks as separate arguments; TVM's positional
        `blockize(target, preserve_unit_iters)` is accepted too."""
        if len(more) == 1 and isinstance(more[0], bool):
            preserve_unit_iters, more = more[0], ()
        targets = list(target) if isinstance(target, (list, tuple)) else [target]
        targets += list(more)
        return self._apply("blockize", targets,
                           {"preserve_unit_iters": bool(preserve_unit_iters)}, 1)[0]

    def tensorize(self, block_or_loop=None, tensor_intrin=None, preserve_unit_iters=True, *,
                  target=None):
        """TVM's tensorize: the block (or the subtree under the loop,
        blockized first) becomes the implementation of the tensor intrinsic
        registered as `tensor_intrin` (tir.TensorIntrin.register), when it
        computes what the intrinsic's description computes
        (transform.tir.tensorize). Returns nothing, as TVM."""
        from ...script.values import DeferredScriptError
        from ..function import TensorIntrin
        target = block_or_loop if target is None else target
        if target is None or tensor_intrin is None:
            raise TypeError("tensorize takes a block or loop and a tensor intrinsic's name")
        if not isinstance(tensor_intrin, str):
            raise TypeError(f"tensorize: the intrinsic is given by its registered name, got "
                            f"{type(tensor_intrin).__name__}")
        # Registered from Python, or carried by a transform script replayed
        # here (known to the extension only).
        intrin = TensorIntrin.get(tensor_intrin, allow_missing=True)
        if intrin is None and not ext.tensor_intrin_registered(tensor_intrin):
            TensorIntrin.get(tensor_intrin)  # TVM's ValueError
        for part in (intrin.desc, intrin.impl) if intrin else ():
            if isinstance(part, DeferredScriptError):
                part.raise_error()
        self._apply("tensorize", [target], {"tensor_intrin": tensor_intrin,
                                            "preserve_unit_iters": bool(preserve_unit_iters)}, 1)

    def loop_partition(self, loop, factors, preserve_unit_iters=True):
        """TVM's loop_partition: cuts `loop` into consecutive partitions of
        the sizes `factors` (ints or IntImms; one may be None, inferred as
        the extent less the others; without one the rest of the loop is one
        more partition), each in an opaque block of its own
        (transform.tir.loop_partition). Returns the partition loops."""
        native = []
        for k, f in enumerate(factors):
            if f is not None:
                f = int(getattr(f, "value", f))
                if f <= 0:
                    raise ScheduleError(f"loop_partition needs positive factors, but factor "
                                        f"{k} is {f}")
            native.append(f)
        parts = len(native) + (0 if None in native else 1)
        return self._apply("loop_partition", [loop],
                           {"factors": ext.Attribute.split_factors(native),
                            "preserve_unit_iters": bool(preserve_unit_iters)}, parts)

    def split(self, loop, factors, preserve_unit_iters=True, disable_predication=False):
        """Splits `loop` into len(factors) loops; factors are ints, IntImms
        or expressions of T.vscale(), one of them None (or -1) for the
        factor inferred from the extent. `disable_predication` leaves out
        the `fused < extent` predicate (the factors must divide the
        extent)."""
        params = [f for f in factors if isinstance(f, ExprRV)]
        native, k = [], 0
        for f in factors:
            if isinstance(f, ExprRV):
                native.append(("param", k))
                k += 1
            else:
                native.append(_factor(f))
        if len(native) < 2:
            raise ScheduleError(f"split needs at least two factors, got {len(native)}")
        for i, f in enumerate(native):
            if isinstance(f, int) and f < 1:
                raise ScheduleError(f"split factors must be positive, factor {i} is {f}")
        attrs = {
            "factors": ext.Attribute.split_factors(native),
            "preserve_unit_iters": bool(preserve_unit_iters),
            "disable_predication": bool(disable_predication),
        }
        values = _vscale_values([f for f in native if not isinstance(f, tuple)])
        if values:
            attrs["vscale_values"] = ext.Attribute.i64_array(values)
        return self._apply("split", [loop, *params], attrs, len(native))

    def _sample(self, kind, operands, attrs, decision, count):
        """A sampling step with `count` results, as ExprRVs (None where
        TVM's is: a factor to infer)."""
        if decision is not None:
            attrs["decision"] = decision
        handles = self._native.apply(kind, [self._handle(o) for o in operands],
                                     {k: v for k, v in attrs.items() if v is not None}, count)
        return [None if h.params == [-1] else ExprRV._of(h) for h in handles]

    def sample_perfect_tile(self, loop, n, max_innermost_factor=16, decision=None):
        """TVM's sample_perfect_tile: `n` factors whose product is the
        loop's constant extent, the innermost at most `max_innermost_factor`
        (when positive), drawn as TVM draws them from the schedule's random
        state, or `decision` (repaired as TVM repairs a stale one). A loop
        of runtime extent gives [None, 1, ..., 1]. Returns ExprRVs (None for
        the inferred factor), ready for split."""
        n = operator.index(n)
        if n < 1:
            raise ValueError(f"sample_perfect_tile: n is at least 1, got {n}")
        attrs = {"n": n, "max_innermost_factor": operator.index(max_innermost_factor)}
        if decision is not None:
            decision = ext.Attribute.i64_array([operator.index(getattr(d, "value", d))
                                                for d in decision])
        return self._sample("sample_perfect_tile", [loop], attrs, decision, n)

    def sample_categorical(self, candidates, probs, decision=None):
        """TVM's sample_categorical: one of `candidates` (ints), drawn with
        the weights `probs` from the schedule's random state, or the one at
        index `decision`. Returns an ExprRV."""
        ints = [operator.index(getattr(c, "value", c)) for c in candidates]
        weights = [float(getattr(p, "value", p)) for p in probs]
        if len(ints) != len(weights):
            raise ValueError(f"sample_categorical: {len(ints)} candidates but "
                             f"{len(weights)} probabilities")
        attrs = {"candidates": ext.Attribute.i64_array(ints),
                 "probs": ext.Attribute.f64_array(weights)}
        if decision is not None:
            decision = operator.index(getattr(decision, "value", decision))
        (rv,) = self._sample("sample_categorical", [], attrs, decision, 1)
        return rv

    def sample_compute_location(self, block, decision=None):
        """TVM's sample_compute_location: a place to compute `block` (a
        BlockRV or its name), drawn uniformly from the places TVM lists
        (-2: inlined, when it can be; -1: at the root; k: the k-th loop above
        its first consumer that compute_at accepts), or `decision`
        (repaired as TVM repairs a stale one). Returns a LoopRV, which
        compute_at takes: the root leaves the block where it is, the inline
        place inlines it."""
        attrs = {}
        if decision is not None:
            attrs["decision"] = operator.index(getattr(decision, "value", decision))
        (rv,) = self._apply("sample_compute_location", [block], attrs, 1)
        return rv

    def enter_postproc(self):
        """TVM's enter_postproc: the steps after it are postprocessing,
        which a trace leaves out when asked to (remove_postproc)."""
        self._apply("enter_postproc", [], {}, 0)


def _parse_seed(seed):
    """TVM's seed: None for a random one (-1), else an int in [1, 2^31 - 1]."""
    if seed is None:
        return -1
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed is an int or None, got {type(seed).__name__}")
    if seed < 1 or seed > 2147483647:
        raise ValueError(f"seed must be in the range [1, 2147483647], but gets: {seed}")
    return seed
