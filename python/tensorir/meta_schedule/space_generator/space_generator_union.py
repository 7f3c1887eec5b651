"""SpaceGeneratorUnion: the design spaces of several generators."""
from ..._ext import ext
from ..utils import _bind, _native_of, _object_of, _wraps_native
from .space_generator import SpaceGenerator, _set_components

__all__ = ["SpaceGeneratorUnion"]


@_wraps_native(ext.SpaceGeneratorUnion)
class SpaceGeneratorUnion(SpaceGenerator):
    """TVM's SpaceGeneratorUnion: the spaces of `space_generators`, in
    order."""

    def __init__(self, space_generators, sch_rules="default", postprocs="default",
                 mutator_probs="default"):
        natives = [_native_of(g, SpaceGenerator, "SpaceGeneratorUnion")
                   for g in space_generators]
        native = ext.SpaceGeneratorUnion(natives)
        _set_components(native, sch_rules, postprocs, mutator_probs)
        _bind(self, native)
        self._members = list(space_generators)

    @property
    def space_generators(self):
        return [_object_of(n) for n in self._native.space_generators]
