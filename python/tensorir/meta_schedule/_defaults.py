"""The default rules, postprocessors and mutators of each rule kind (TVM's
ScheduleRule.create, Postproc.create, Mutator.create)."""

_KINDS = ("llvm", "cuda", "cuda-tensorcore", "hexagon")


def _unavailable(what, kind):
    if kind not in _KINDS:
        raise ValueError(f"Unsupported kind {kind} for {what} creation.")
    raise NotImplementedError(
        f"the default {what}s of rule kind {kind!r} are not available yet; give the "
        "space generator sch_rules, postprocs and mutator_probs")


def schedule_rules(kind):
    return _unavailable("schedule rule", kind)


def postprocs(kind):
    return _unavailable("postproc", kind)


def mutator_probs(kind):
    return _unavailable("mutator", kind)
