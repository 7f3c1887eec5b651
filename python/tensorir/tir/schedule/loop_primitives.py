"""The schedule's loop primitives whose Python arguments need more than a
conversion (split and loop_partition factors, scalable factors) and its
sampling primitives (their results are ExprRVs)."""
import operator
import sys

from ..._ext import ext
from ...target import Target
from ..expr import IntImm, PrimExpr
from .errors import ScheduleError
from .random_variables import ExprRV

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


class LoopPrimitives:
    """Schedule's split, loop_partition and sampling methods (a mixin: the
    schedule's _apply and _native do the work)."""

    def annotate(self, block_or_loop, ann_key, ann_val):
        """TVM's annotate: sets annotation `ann_key` of a loop or block to
        `ann_val`, a constant or an ExprRV a sampling step drew (the
        annotation then holds the integer drawn)."""
        if isinstance(ann_val, ExprRV):
            self._apply("annotate", [block_or_loop, ann_val], {"ann_key": ann_key})
        else:
            self._apply("annotate", [block_or_loop],
                        {"ann_key": ann_key, "ann_val": ann_val})

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
