"""tir.Schedule: TVM's imperative schedule over the C++ primitives."""
import operator
import random
import sys

from ..._ext import ext
from ...ir import IRModule
from ...script.values import annotation_attr
from ...target import Target
from ..expr import BinaryExpr, PrimExpr, VScale
from .state import parse_debug_mask
from .trace import Trace

ScheduleError = ext.ScheduleError

# The values vscale takes on a scalable-vector target (SVE: 128 to 2048-bit
# vectors), tried in turn to prove that scalable split factors cover a loop.
_VSCALE_VALUES = [1, 2, 4, 8, 16]


def _factor(value):
    """A split factor for the extension: an int (ints and IntImms), None
    (inferred), or, for an expression of T.vscale(), its affine map
    `()[s0] -> (...)` with s0 standing for vscale."""
    if value is None:
        return None
    if isinstance(value, PrimExpr):
        leaves = [n for n in value.walk() if not isinstance(n, (BinaryExpr, VScale))]
        if leaves:
            raise TypeError(f"split factors are integers or expressions of T.vscale(), "
                            f"got {value!r}")
        try:
            text = value.index_text(lambda node: "s0")
        except ValueError as error:
            raise TypeError(f"split factor {value!r}: {error}") from None
        return f"()[s0] -> ({text})"
    if isinstance(value, (bool, float)):
        raise TypeError(f"split factors are integers, got {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"split factors are integers (int or IntImm), expressions of "
                        f"T.vscale() or None, got {type(value).__name__}") from None
    return None if value == -1 else value


def _perfect_tilings(extent, n, max_innermost):
    """Every list of n positive ints whose product is `extent`, the last at
    most `max_innermost` (when positive)."""
    def divisors(x):
        return [d for d in range(1, x + 1) if x % d == 0]

    def tilings(rest, k):
        if k == 1:
            return [[rest]]
        return [[d] + t for d in divisors(rest) for t in tilings(rest // d, k - 1)]

    return [t for t in tilings(extent, n) if max_innermost <= 0 or t[-1] <= max_innermost]


def _vscale_values(factors):
    """What vscale may be, when a factor is scalable and the current target
    (tvm.target.Target context) has scalable vectors; TVM warns otherwise."""
    if not any(isinstance(f, str) for f in factors):
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
    def __init__(self, handle):
        self._handle = handle

    def __eq__(self, other):
        return isinstance(other, _RV) and self._handle == other._handle

    def __hash__(self):
        return hash(self._handle)

    def __repr__(self):
        return f"{type(self).__name__}({self._handle})"


class BlockRV(_RV):
    """A block of the schedule; it stays valid across loop transformations."""


class LoopRV(_RV):
    """A loop of the schedule; split and fuse replace the loops they take."""


def _wrap(handle):
    return LoopRV(handle) if handle.is_loop else BlockRV(handle)


def _annotation_text(value):
    """The MLIR form of an annotation value; Schedule.annotate takes the
    scalars (bool, int, float, str)."""
    if not isinstance(value, (bool, int, float, str)):
        raise TypeError(f"annotation values are bool, int, float or str, got "
                        f"{type(value).__name__}")
    return annotation_attr(value)


class Schedule:
    """TVM's tir.Schedule: the primitives change `sch.mod` step by step;
    a refused step raises ScheduleError with the rule and the location of
    the loop or block at fault, and changes nothing. `sch.trace` records the
    steps."""

    def __init__(self, mod, *, seed=None, debug_mask="none",
                 error_render_level="detail", enable_check=True):
        """mod: an IRModule, a PrimFunc (scheduled as IRModule({"main": f}),
        so its function is "main", as in TVM) or MLIR text. seed,
        debug_mask (see tir.schedule.state), error_render_level and
        enable_check are TVM's; they are checked and recorded. seed seeds
        the sampling primitives (sample_perfect_tile; None: a random seed,
        as in TVM); the others change nothing: refusals always raise
        ScheduleError with the rule and the location at fault."""
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
        self.seed = seed
        self._rng = random.Random(seed)
        self.error_render_level = error_render_level
        self.enable_check = bool(enable_check)
        self._native = ext.Schedule(mod._native)
        self._symbols = dict(mod._symbols)  # global symbols (see IRModule)
        self.trace = Trace()

    @property
    def mod(self):
        """The module as scheduled so far (a copy)."""
        mod = IRModule(self._native.mod)
        mod._symbols = dict(self._symbols)
        return mod

    def show(self):
        self.mod.show()

    # Queries.
    def _block(self, block):
        if isinstance(block, str):
            return self.get_block(block)._handle
        if not isinstance(block, BlockRV):
            raise TypeError(f"expected a block (BlockRV or name), got "
                            f"{type(block).__name__}")
        return block._handle

    def _loop(self, loop):
        if not isinstance(loop, LoopRV):
            raise TypeError(f"expected a loop (LoopRV), got {type(loop).__name__}")
        return loop._handle

    def _target(self, target):
        return self._block(target) if isinstance(target, (str, BlockRV)) else self._loop(target)

    def _as_block(self, block):
        """A BlockRV for `block` (a name is looked up, and recorded)."""
        return self.get_block(block) if isinstance(block, str) else block

    def get_block(self, name, func_name=None):
        rv = BlockRV(self._native.get_block(name, func_name))
        self.trace._record("get_block", [], {"name": name, "func_name": func_name}, [rv])
        return rv

    def get_loops(self, block):
        block = self._as_block(block)
        rvs = [LoopRV(h) for h in self._native.get_loops(self._block(block))]
        self.trace._record("get_loops", [block], {}, rvs)
        return rvs

    def get_child_blocks(self, block_or_loop):
        target = self._as_block(block_or_loop)
        rvs = [BlockRV(h) for h in self._native.get_child_blocks(self._target(target))]
        self.trace._record("get_child_blocks", [target], {}, rvs, group=True)
        return rvs

    def get_producers(self, block):
        block = self._as_block(block)
        rvs = [BlockRV(h) for h in self._native.get_producers(self._block(block))]
        self.trace._record("get_producers", [block], {}, rvs, group=True)
        return rvs

    def get_consumers(self, block):
        block = self._as_block(block)
        rvs = [BlockRV(h) for h in self._native.get_consumers(self._block(block))]
        self.trace._record("get_consumers", [block], {}, rvs, group=True)
        return rvs

    # Loop transformations.
    def split(self, loop, factors, preserve_unit_iters=True, disable_predication=False):
        """Splits `loop` into len(factors) loops; factors are ints, IntImms
        or expressions of T.vscale(), one of them None (or -1) for the
        factor inferred from the extent. `disable_predication` leaves out
        the `fused < extent` predicate (the factors must divide the
        extent)."""
        factors = list(factors)
        native = [_factor(f) for f in factors]
        rvs = [LoopRV(h) for h in self._native.split(
            self._loop(loop), native, preserve_unit_iters, disable_predication,
            _vscale_values(native))]
        # The trace keeps ints as ints, expressions of vscale as written.
        attrs = {"factors": [f if isinstance(n, str) else n for f, n in zip(factors, native)],
                 "preserve_unit_iters": preserve_unit_iters}
        if disable_predication:
            attrs["disable_predication"] = True
        self.trace._record("split", [loop], attrs, rvs)
        return rvs

    def sample_perfect_tile(self, loop, n, max_innermost_factor=16, decision=None):
        """TVM's sample_perfect_tile: `n` factors whose product is the
        loop's constant extent, the innermost at most `max_innermost_factor`
        (when positive). `decision` fixes them; otherwise they are drawn
        uniformly among all such tilings with the schedule's seed. Returns
        the factors as ints (TVM returns ExprRVs holding them), ready for
        split."""
        n = operator.index(n)
        if n < 1:
            raise ValueError(f"sample_perfect_tile: n is at least 1, got {n}")
        extent = self._native.loop_extent(self._loop(loop))
        if extent is None:
            raise ScheduleError("sample_perfect_tile needs a loop that starts at 0 and has a "
                                "constant extent")
        tilings = _perfect_tilings(extent, n, max_innermost_factor)
        if decision is not None:
            decision = [operator.index(d) for d in decision]
            if decision not in tilings:
                raise ScheduleError(
                    f"sample_perfect_tile: decision {decision} is not {n} factors of the "
                    f"extent {extent} with the innermost at most {max_innermost_factor}")
        else:
            if not tilings:
                raise ScheduleError(
                    f"sample_perfect_tile: no {n} factors of {extent} have the innermost "
                    f"at most {max_innermost_factor}")
            decision = tilings[self._rng.randrange(len(tilings))]
        self.trace._record("sample_perfect_tile", [loop],
                           {"n": n, "max_innermost_factor": max_innermost_factor,
                            "decision": list(decision)}, [])
        return list(decision)

    def fuse(self, *loops, preserve_unit_iters=True):
        """Fuses perfectly nested loops into one. `preserve_unit_iters` is
        accepted for TVM's signature; as in TVM, a loop of extent 1 becomes
        0 in the bindings either way."""
        rv = LoopRV(self._native.fuse([self._loop(l) for l in loops]))
        attrs = {} if preserve_unit_iters else {"preserve_unit_iters": False}
        self.trace._record("fuse", list(loops), attrs, [rv])
        return rv

    def reorder(self, *ordered_loops):
        self._native.reorder([self._loop(l) for l in ordered_loops])
        self.trace._record("reorder", list(ordered_loops), {}, [])

    # Block placement.
    def compute_at(self, block, loop, preserve_unit_loops=False, index=-1):
        """Moves a producer block under `loop` (which holds all its
        consumers) and regenerates its loops to compute, in one iteration,
        what the consumers read there (TVM's compute_at)."""
        block = self._as_block(block)
        self._native.compute_at(self._block(block), self._loop(loop),
                                bool(preserve_unit_loops), int(index))
        self.trace._record("compute_at", [block, loop],
                           {"preserve_unit_loops": bool(preserve_unit_loops),
                            "index": int(index)}, [])

    def reverse_compute_at(self, block, loop, preserve_unit_loops=False, index=-1):
        """Moves a consumer block under `loop` (which holds all its
        producers), computing in one iteration what reads the producers'
        output there (TVM's reverse_compute_at)."""
        block = self._as_block(block)
        self._native.reverse_compute_at(self._block(block), self._loop(loop),
                                        bool(preserve_unit_loops), int(index))
        self.trace._record("reverse_compute_at", [block, loop],
                           {"preserve_unit_loops": bool(preserve_unit_loops),
                            "index": int(index)}, [])

    def add_unit_loop(self, block_or_loop):
        target = self._as_block(block_or_loop)
        rv = LoopRV(self._native.add_unit_loop(self._target(target)))
        self.trace._record("add_unit_loop", [target], {}, [rv])
        return rv

    # Loop kinds and annotations.
    def parallel(self, loop):
        self._native.parallel(self._loop(loop))
        self.trace._record("parallel", [loop], {}, [])

    def vectorize(self, loop):
        self._native.vectorize(self._loop(loop))
        self.trace._record("vectorize", [loop], {}, [])

    def unroll(self, loop):
        self._native.unroll(self._loop(loop))
        self.trace._record("unroll", [loop], {}, [])

    def bind(self, loop, thread_axis):
        self._native.bind(self._loop(loop), thread_axis)
        self.trace._record("bind", [loop], {"thread_axis": thread_axis}, [])

    def annotate(self, block_or_loop, ann_key, ann_val):
        target = self._as_block(block_or_loop)
        self._native.annotate(self._target(target), ann_key, _annotation_text(ann_val))
        self.trace._record("annotate", [target], {"ann_key": ann_key, "ann_val": ann_val}, [])

    def unannotate(self, block_or_loop, ann_key):
        target = self._as_block(block_or_loop)
        self._native.unannotate(self._target(target), ann_key)
        self.trace._record("unannotate", [target], {"ann_key": ann_key}, [])
