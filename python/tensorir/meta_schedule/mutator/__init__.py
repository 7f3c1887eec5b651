"""tvm.meta_schedule.mutator: how the search varies a trace."""
from .builtin import (MutateComputeLocation, MutateParallel, MutateThreadBinding,
                      MutateTileSize, MutateUnroll)
from .mutator import Mutator, PyMutator

__all__ = ["MutateComputeLocation", "MutateParallel", "MutateThreadBinding",
           "MutateTileSize", "MutateUnroll", "Mutator", "PyMutator"]
