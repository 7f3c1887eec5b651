"""tir.Schedule: TVM's imperative schedule over the C++ primitives."""
import collections
import json
import operator

from ..._ext import ext
from ...ir import IRModule
from .buffer_primitives import BufferPrimitives
from .errors import (BufferArgumentError, ScheduleError,  # noqa: F401 - re-exported
                     UnknownRandomVariableError)
from .loop_primitives import LoopPrimitives
from .random_variables import (BlockRV, ExprRV, LoopRV, _RV, _rv_of,  # noqa: F401 - re-exported
                               _StmtView, _wrap)
from .state import ScheduleState, _node_module, parse_debug_mask, remember_node_module
from .trace import Trace


class Schedule(BufferPrimitives, LoopPrimitives):
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
        self.debug_mask = parse_debug_mask(debug_mask)
        self.error_render_level = error_render_level
        self.enable_check = bool(enable_check)
        self._native = ext.Schedule(mod._native, verify_each_step=self.debug_mask != 0,
                                    seed=_parse_seed(seed),
                                    error_render_level=error_render_level)
        self._symbols = dict(mod._symbols)  # global symbols (see IRModule)
        # Kept with the native state and its copies, so that a state the
        # MetaSchedule library copied becomes a Schedule again
        # (_from_native).
        self._native.client_data = json.dumps({
            "symbols": self._symbols, "debug_mask": self.debug_mask,
            "error_render_level": error_render_level,
            "enable_check": self.enable_check})
        self._work_on = None
        # Until a primitive changes it, the module's nodes are those of the
        # module (and functions) given, as in TVM.
        self._node_modules = collections.OrderedDict()
        remember_node_module(self._node_modules, str(self._native.mod), mod)

    @classmethod
    def _from_native(cls, native):
        """The Schedule of a native state (ext.Schedule) that a C++ caller
        made or copied (the MetaSchedule library's design spaces), with the
        options and global symbols of the Schedule it came from."""
        data = json.loads(native.client_data or "{}")
        new = cls.__new__(cls)
        new.debug_mask = data.get("debug_mask", 0)
        new.error_render_level = data.get("error_render_level", "detail")
        new.enable_check = data.get("enable_check", True)
        new._native = native
        new._symbols = dict(data.get("symbols", {}))
        new._work_on = None
        new._node_modules = collections.OrderedDict()
        return new

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
            funcs = [g for g in mod.function_names() if isinstance(mod[g], PrimFunc)]
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
                             f"{', '.join(mod.function_names())}")
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
