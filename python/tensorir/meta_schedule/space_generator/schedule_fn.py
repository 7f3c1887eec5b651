"""ScheduleFn: a design space from a Python function of a schedule."""
from ..._ext import ext
from ...tir.schedule import Schedule
from ..schedule_rule.schedule_rule import _natives
from ..utils import _bind, _wraps_native
from .space_generator import SpaceGenerator, _set_components

__all__ = ["ScheduleFn"]


@_wraps_native(ext.ScheduleFn)
class ScheduleFn(SpaceGenerator):
    """TVM's ScheduleFn: sch_fn(sch) schedules a schedule of the module in
    place (returning None), or returns a schedule or a list of them."""

    def __init__(self, sch_fn, sch_rules="default", postprocs="default",
                 mutator_probs="default"):
        if not callable(sch_fn):
            raise TypeError(f"ScheduleFn takes a function of a schedule, got "
                            f"{type(sch_fn).__name__}")

        def apply(native):
            sch = Schedule._from_native(native)
            result = sch_fn(sch)
            if result is None:
                return [native]
            if isinstance(result, Schedule):
                return [result._native]
            return _natives(result, "ScheduleFn's function")

        native = ext.ScheduleFn(apply)
        _set_components(native, sch_rules, postprocs, mutator_probs)
        _bind(self, native)
