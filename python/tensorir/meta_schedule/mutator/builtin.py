"""The mutators of the MetaSchedule library, as TVM's classes."""
from ..._ext import ext
from ..utils import _bind, _named_native
from .mutator import Mutator

__all__ = ["MutateComputeLocation", "MutateParallel", "MutateThreadBinding",
           "MutateTileSize", "MutateUnroll"]


@_named_native("MutateTileSize")
class MutateTileSize(Mutator):
    """TVM's MutateTileSize: moves a factor between two tiles."""

    def __init__(self):
        _bind(self, ext.mutator_mutate_tile_size())


@_named_native("MutateUnroll")
class MutateUnroll(Mutator):
    """TVM's MutateUnroll: draws another unroll depth."""

    def __init__(self):
        _bind(self, ext.mutator_mutate_unroll())


@_named_native("MutateParallel")
class MutateParallel(Mutator):
    """TVM's MutateParallel: another extent of the loops run in parallel."""

    def __init__(self, max_jobs_per_core):
        _bind(self, ext.mutator_mutate_parallel(int(max_jobs_per_core)))


@_named_native("MutateComputeLocation")
class MutateComputeLocation(Mutator):
    """TVM's MutateComputeLocation: another place to compute a block."""

    def __init__(self):
        _bind(self, ext.mutator_mutate_compute_location())


@_named_native("MutateThreadBinding")
class MutateThreadBinding(Mutator):
    """TVM's MutateThreadBinding: another extent of a threadIdx.x loop."""

    def __init__(self):
        _bind(self, ext.mutator_mutate_thread_binding())
