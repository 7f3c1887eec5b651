"""ScheduleRule: what the MetaSchedule library makes of one block, and
PyScheduleRule, a rule written in Python."""
from ..._ext import ext
from ...tir.schedule import BlockRV, Schedule
from ..utils import _bind, _get_default_str, _object_of, _wraps_native

__all__ = ["PyScheduleRule", "ScheduleRule"]


def _schedules(natives):
    return [Schedule._from_native(n) for n in natives]


def _natives(schedules, what):
    if isinstance(schedules, Schedule):
        raise TypeError(f"{what} returns a list of schedules, got a Schedule")
    out = []
    for sch in schedules:
        if not isinstance(sch, Schedule):
            raise TypeError(f"{what} returns a list of schedules, got a "
                            f"{type(sch).__name__} in it")
        out.append(sch._native)
    return out


def _initializer(f):
    """f(context) as the library calls it (with the native context)."""
    if f is None:
        return None
    return lambda native: f(_object_of(native))


def _cloner(f):
    if f is None:
        return None
    return lambda: f()._native


@_wraps_native(ext.ScheduleRule)
class ScheduleRule:
    """TVM's ScheduleRule: apply(sch, block) returns the schedules the rule
    makes of the block."""

    def _initialize_with_tune_context(self, context):
        self._native.initialize_with_tune_context(context._native)

    def apply(self, sch, block):
        if not isinstance(block, BlockRV):
            raise TypeError(f"apply takes a BlockRV, got {type(block).__name__}")
        return _schedules(self._native.apply(sch._native, sch._handle(block)))

    def clone(self):
        return _object_of(self._native.clone())

    def __str__(self):
        return str(self._native)

    __repr__ = __str__

    @staticmethod
    def create(kind):
        """TVM's ScheduleRule.create: the default rules of a rule kind
        ("llvm", "cuda", "cuda-tensorcore", "hexagon")."""
        from .. import _defaults
        return _defaults.schedule_rules(kind)


@_wraps_native(ext.FunctionScheduleRule)
class _PyScheduleRule(ScheduleRule):
    """A rule given as functions (the library's FunctionScheduleRule)."""

    def __init__(self, f_initialize_with_tune_context=None, f_apply=None, f_clone=None,
                 f_as_string=None):
        def apply(native, handle):
            sch = Schedule._from_native(native)
            return _natives(f_apply(sch, BlockRV._of(handle)), "a schedule rule's apply")

        _bind(self, ext.FunctionScheduleRule(
            "PyScheduleRule", _initializer(f_initialize_with_tune_context),
            None if f_apply is None else apply, _cloner(f_clone), f_as_string))


class PyScheduleRule:
    """TVM's PyScheduleRule: subclass it, override the methods and decorate
    the class with derived_object."""

    _tvm_metadata = {
        "cls": _PyScheduleRule,
        "methods": ["_initialize_with_tune_context", "apply", "clone", "__str__"],
    }

    def _initialize_with_tune_context(self, context):
        raise NotImplementedError

    def apply(self, sch, block):
        raise NotImplementedError

    def clone(self):
        raise NotImplementedError

    def __str__(self):
        return _get_default_str(self)
