"""SpaceGenerator: the design space of a module, and PySpaceGenerator, one
written in Python."""
from ..._ext import ext
from ...ir import IRModule
from ...tir.schedule import Schedule
from ..mutator import Mutator
from ..postproc import Postproc
from ..schedule_rule import ScheduleRule
from ..schedule_rule.schedule_rule import _cloner, _initializer, _natives
from ..utils import _bind, _native_of, _object_of, _wraps_native

__all__ = ["PySpaceGenerator", "SpaceGenerator"]


def _as_module(mod):
    from ...tir.function import PrimFunc
    if isinstance(mod, PrimFunc):
        return IRModule({"main": mod})
    if not isinstance(mod, IRModule):
        raise TypeError(f"generate_design_space takes an IRModule or a PrimFunc, got "
                        f"{type(mod).__name__}")
    return mod


def _set_components(native, sch_rules, postprocs, mutator_probs):
    """Gives a native space generator the rules, postprocessors and
    mutators (None, or "default": the target's defaults, once a tune
    context initializes it)."""
    if isinstance(sch_rules, str) and sch_rules == "default":
        sch_rules = None
    if isinstance(postprocs, str) and postprocs == "default":
        postprocs = None
    if isinstance(mutator_probs, str) and mutator_probs == "default":
        mutator_probs = None
    if sch_rules is not None:
        native.sch_rules = [_native_of(r, ScheduleRule, "sch_rules") for r in sch_rules]
    if postprocs is not None:
        native.postprocs = [_native_of(p, Postproc, "postprocs") for p in postprocs]
    if mutator_probs is not None:
        pairs = []
        for mutator, probability in dict(mutator_probs).items():
            probability = float(probability)
            if probability < 0:
                raise ValueError(f"mutator_probs: the probability of {mutator} is negative")
            pairs.append((_native_of(mutator, Mutator, "mutator_probs"), probability))
        native.mutator_probs = pairs
    # The Python objects live as long as the generator (so that sch_rules
    # gives back the objects given, derived classes included).
    native._components = (sch_rules, postprocs, mutator_probs)


@_wraps_native(ext.SpaceGenerator)
class SpaceGenerator:
    """TVM's SpaceGenerator: generate_design_space(mod) returns the design
    space's schedules; sch_rules, postprocs and mutator_probs are None until
    given or taken from a tune context's target."""

    def _initialize_with_tune_context(self, context):
        self._native.initialize_with_tune_context(context._native)

    def generate_design_space(self, mod):
        mod = _as_module(mod)
        return [Schedule._from_native(n)
                for n in self._native.generate_design_space(mod._native)]

    def clone(self):
        return _object_of(self._native.clone())

    @property
    def sch_rules(self):
        rules = self._native.sch_rules
        return None if rules is None else [_object_of(r) for r in rules]

    @property
    def postprocs(self):
        postprocs = self._native.postprocs
        return None if postprocs is None else [_object_of(p) for p in postprocs]

    @property
    def mutator_probs(self):
        pairs = self._native.mutator_probs
        return None if pairs is None else {_object_of(m): p for m, p in pairs}

    @staticmethod
    def create(kind="post-order-apply", *args, **kwargs):
        """TVM's SpaceGenerator.create: "post-order-apply", "union", or a
        function (ScheduleFn)."""
        from .post_order_apply import PostOrderApply
        from .schedule_fn import ScheduleFn
        from .space_generator_union import SpaceGeneratorUnion
        if callable(kind):
            return ScheduleFn(kind, *args, **kwargs)
        if kind == "post-order-apply":
            return PostOrderApply(*args, **kwargs)
        if kind == "union":
            return SpaceGeneratorUnion(*args, **kwargs)
        raise ValueError(f"Unknown SpaceGenerator: {kind}")


@_wraps_native(ext.FunctionSpaceGenerator)
class _PySpaceGenerator(SpaceGenerator):
    def __init__(self, sch_rules=None, postprocs=None, mutator_probs=None,
                 f_initialize_with_tune_context=None, f_generate_design_space=None,
                 f_clone=None):
        def generate(native_module):
            return _natives(f_generate_design_space(IRModule(native_module)),
                            "a space generator's generate_design_space")

        native = ext.FunctionSpaceGenerator(
            "PySpaceGenerator", _initializer(f_initialize_with_tune_context),
            None if f_generate_design_space is None else generate, _cloner(f_clone))
        _set_components(native, sch_rules, postprocs, mutator_probs)
        _bind(self, native)


class PySpaceGenerator:
    """TVM's PySpaceGenerator: subclass it and decorate with
    derived_object; sch_rules, postprocs and mutator_probs are the
    instance's."""

    _tvm_metadata = {
        "cls": _PySpaceGenerator,
        "fields": ["sch_rules", "postprocs", "mutator_probs"],
        "methods": ["_initialize_with_tune_context", "generate_design_space", "clone"],
    }

    def _initialize_with_tune_context(self, context):
        raise NotImplementedError

    def generate_design_space(self, mod):
        raise NotImplementedError

    def clone(self):
        raise NotImplementedError
