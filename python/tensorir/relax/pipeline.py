"""relax.get_pipeline / register_pipeline: named sequences of graph
passes, as TVM names them. A pipeline is a pass (IRModule -> IRModule):

    mod = relax.get_pipeline("zero")(mod)
    mod = relax.get_pipeline("static_shape_tuning", target="llvm -num-cores 2",
                             total_trials=64 * 20)(mod)

- "zero" (and "default", the same here): high-level operators legalized
  into prim_funcs, each operator fused with the element-wise ones that
  consume its result (FuseOps); what tvm.compile does with the module
  anyway, made visible.
- "static_shape_tuning": "zero", then every prim_func tuned by
  MetaSchedule (MetaScheduleTuneIRMod, weights by calls; total_trials in
  all, recorded in work_dir) and replaced by its best schedule
  (MetaScheduleApplyDatabase)."""
from ..ir import transform as _transform
from . import transform as _rtransform

__all__ = ["get_pipeline", "register_pipeline"]

_PIPELINES = {}


def register_pipeline(name):
    """Decorator: `builder(**options)` returns the pipeline `name`'s pass."""
    def register(builder):
        if name in _PIPELINES:
            raise ValueError(f"relax.register_pipeline: a pipeline named {name!r} exists")
        _PIPELINES[name] = builder
        return builder
    return register


def get_pipeline(name="zero", **options):
    """The pass of pipeline `name` made with `options`."""
    if name not in _PIPELINES:
        raise ValueError(f"relax.get_pipeline: no pipeline named {name!r}; there are "
                         f"{', '.join(sorted(_PIPELINES))}")
    return _PIPELINES[name](**options)


def _pass(name, steps):
    @_transform.module_pass(opt_level=0, name=name)
    def run(mod, _ctx):
        for step in steps:
            mod = step(mod)
        return mod
    return run


@register_pipeline("zero")
def zero_pipeline():
    return _pass("relax.pipeline.zero", [_rtransform.FuseOps()])


@register_pipeline("default")
def default_pipeline():
    return _pass("relax.pipeline.default", [_rtransform.FuseOps()])


@register_pipeline("static_shape_tuning")
def static_shape_tuning_pipeline(total_trials, target=None, work_dir="tuning_logs",
                                 max_trials_per_task=None, cpu_weight_prepack=False):
    if cpu_weight_prepack:
        raise NotImplementedError("static_shape_tuning: cpu_weight_prepack is not supported")
    return _pass("relax.pipeline.static_shape_tuning", [
        _rtransform.FuseOps(),
        _rtransform.MetaScheduleTuneIRMod(work_dir=work_dir, max_trials_global=total_trials,
                                          max_trials_per_task=max_trials_per_task,
                                          target=target),
        _rtransform.MetaScheduleApplyDatabase(work_dir=work_dir, target=target)])
