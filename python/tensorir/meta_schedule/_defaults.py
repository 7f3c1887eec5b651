"""The default rules, postprocessors and mutators of each rule kind (TVM's
ScheduleRule.create, Postproc.create, Mutator.create), from the library."""
import warnings

from .._ext import ext
from .utils import _object_of

_KINDS = ("llvm", "cuda", "cuda-tensorcore", "hexagon")


def _components(what, kind):
    if kind not in _KINDS:
        raise ValueError(f"Unsupported kind {kind} for {what} creation.")
    found = ext.default_components(kind)
    if found is None:
        raise NotImplementedError(
            f"the default {what}s of rule kind {kind!r} are not available yet; give the "
            "space generator sch_rules, postprocs and mutator_probs")
    components, missing = found[:3], found[3]
    if missing:
        warnings.warn(missing, stacklevel=3)
    return components


def schedule_rules(kind):
    rules, _, _ = _components("schedule rule", kind)
    return [_object_of(r) for r in rules]


def postprocs(kind):
    _, procs, _ = _components("postproc", kind)
    return [_object_of(p) for p in procs]


def mutator_probs(kind):
    _, _, probs = _components("mutator", kind)
    return {_object_of(m): p for m, p in probs}
