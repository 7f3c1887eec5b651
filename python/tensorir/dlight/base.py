"""dlight's pass and rule interface."""
from ..ir import IRModule
from ..ir.transform import Pass, PassInfo


class ScheduleRule:
    """A default schedule for some kernels: apply(func, target, tunable)
    returns a tir.Schedule of `func`, or None when the rule does not fit
    it."""

    def apply(self, func, target, tunable):
        raise NotImplementedError

    def is_target_available(self, target):
        return target.kind.name == "cuda"


class ApplyDefaultSchedule(Pass):
    """The module with each unscheduled prim_func scheduled by the first of
    `rules` that takes it, under the current target (`with target:`);
    functions a schedule has touched (bound or annotated loops) and graph
    functions are left as they are."""

    info = PassInfo(0, "ApplyDefaultSchedule")

    def __init__(self, *rules):
        for rule in rules:
            if not isinstance(rule, ScheduleRule):
                raise TypeError(f"ApplyDefaultSchedule takes dlight rules (dl.gpu.Matmul(), "
                                f"...), got {type(rule).__name__}")
        self.rules = list(rules)

    def transform(self, mod, ctx=None):
        from ..target import Target
        from ..tir.function import PrimFunc
        from ..tir.transform import is_unscheduled
        if not isinstance(mod, IRModule):
            raise TypeError(f"ApplyDefaultSchedule takes an IRModule, got {type(mod).__name__}")
        target = Target.current(allow_none=True)
        if target is None:
            raise ValueError("ApplyDefaultSchedule schedules for the current target: run it "
                             "inside `with tvm.target.Target(\"cuda\"):`")
        result = IRModule(mod)
        for name in mod.function_names():
            if mod._native.is_declaration(name):
                continue  # a packed function's declaration: nothing to schedule
            func = mod[name]
            if not isinstance(func, PrimFunc) or not is_unscheduled(func):
                continue
            for rule in self.rules:
                if not rule.is_target_available(target):
                    continue
                sch = rule.apply(func, target, False)
                if sch is None:
                    continue
                scheduled = sch.mod["main"].with_name(name)
                private = mod._native.is_private(name)
                result[name] = scheduled.as_private() if private else scheduled
                break
        return result
