"""tvm.meta_schedule.mutator: how the search varies a trace."""
from .mutator import Mutator, PyMutator

__all__ = ["Mutator", "PyMutator"]
