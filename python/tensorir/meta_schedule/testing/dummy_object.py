"""Objects for tests: a mutator that drops a trace's decisions."""
from ...tir.schedule import Trace
from ..mutator import PyMutator
from ..utils import derived_object

__all__ = ["DummyMutator"]


@derived_object
class DummyMutator(PyMutator):
    """The trace without its decisions (every sampling step draws anew)."""

    def _initialize_with_tune_context(self, context):
        pass

    def apply(self, trace, _):
        return Trace(trace.insts, {})

    def clone(self):
        return DummyMutator()
