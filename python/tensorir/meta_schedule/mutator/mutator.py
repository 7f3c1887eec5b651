"""Mutator: how the search varies a measured schedule's trace, and
PyMutator, one written in Python."""
from ..._ext import ext
from ...tir.schedule import Trace
from ..schedule_rule.schedule_rule import _cloner, _initializer
from ..utils import _bind, _get_default_str, _object_of, _wraps_native

__all__ = ["Mutator", "PyMutator"]


@_wraps_native(ext.Mutator)
class Mutator:
    """TVM's Mutator: apply(trace) is a trace with one decision changed, or
    None."""

    def _initialize_with_tune_context(self, context):
        self._native.initialize_with_tune_context(context._native)

    def apply(self, trace, rand_state=-1):
        result = self._native.apply(trace._native, rand_state)
        return None if result is None else Trace(result)

    def clone(self):
        return _object_of(self._native.clone())

    def __str__(self):
        return str(self._native)

    __repr__ = __str__

    @staticmethod
    def create(kind):
        """TVM's Mutator.create: the default mutators of a rule kind, with
        their probabilities."""
        from .. import _defaults
        return _defaults.mutator_probs(kind)


@_wraps_native(ext.FunctionMutator)
class _PyMutator(Mutator):
    def __init__(self, f_initialize_with_tune_context=None, f_apply=None, f_clone=None,
                 f_as_string=None):
        def apply(native_trace, rand_state):
            result = f_apply(Trace(native_trace), rand_state)
            return None if result is None else result._native

        _bind(self, ext.FunctionMutator(
            "PyMutator", _initializer(f_initialize_with_tune_context),
            None if f_apply is None else apply, _cloner(f_clone), f_as_string))


class PyMutator:
    """TVM's PyMutator: subclass it and decorate with derived_object."""

    _tvm_metadata = {
        "cls": _PyMutator,
        "methods": ["_initialize_with_tune_context", "apply", "clone", "__str__"],
    }

    def _initialize_with_tune_context(self, context):
        raise NotImplementedError

    def apply(self, trace, _):
        raise NotImplementedError

    def clone(self):
        raise NotImplementedError

    def __str__(self):
        return _get_default_str(self)
