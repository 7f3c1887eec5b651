"""Postproc: what completes (or rejects) a sampled schedule, and
PyPostproc, one written in Python."""
from ..._ext import ext
from ...tir.schedule import Schedule
from ..schedule_rule.schedule_rule import _cloner, _initializer
from ..utils import _bind, _get_default_str, _object_of, _wraps_native

__all__ = ["Postproc", "PyPostproc"]


@_wraps_native(ext.Postproc)
class Postproc:
    """TVM's Postproc: apply(sch) completes the schedule in place; False
    rejects it."""

    def _initialize_with_tune_context(self, context):
        self._native.initialize_with_tune_context(context._native)

    def apply(self, sch):
        return self._native.apply(sch._native)

    def clone(self):
        return _object_of(self._native.clone())

    def __str__(self):
        return str(self._native)

    __repr__ = __str__

    @staticmethod
    def create(kind):
        """TVM's Postproc.create: the default postprocessors of a rule
        kind."""
        from .. import _defaults
        return _defaults.postprocs(kind)


@_wraps_native(ext.FunctionPostproc)
class _PyPostproc(Postproc):
    def __init__(self, f_initialize_with_tune_context=None, f_apply=None, f_clone=None,
                 f_as_string=None):
        def apply(native):
            return bool(f_apply(Schedule._from_native(native)))

        _bind(self, ext.FunctionPostproc(
            "PyPostproc", _initializer(f_initialize_with_tune_context),
            None if f_apply is None else apply, _cloner(f_clone), f_as_string))


class PyPostproc:
    """TVM's PyPostproc: subclass it and decorate with derived_object."""

    _tvm_metadata = {
        "cls": _PyPostproc,
        "methods": ["_initialize_with_tune_context", "apply", "clone", "__str__"],
    }

    def _initialize_with_tune_context(self, context):
        raise NotImplementedError

    def apply(self, sch):
        raise NotImplementedError

    def clone(self):
        raise NotImplementedError

    def __str__(self):
        return _get_default_str(self)
