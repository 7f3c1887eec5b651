"""relax.get_pipeline / register_pipeline: named sequences of graph
passes, as TVM names them. A pipeline is a pass (IRModule -> IRModule):

    mod = relax.get_pipeline("zero")(mod)
    mod = relax.get_pipeline("static_shape_tuning", target="llvm -num-cores 2",
                             total_trials=64 * 20)(mod)

- "zero" (and "default", the same here): chains of transposes and
  reshapes shortened (SimplifyLayouts, tir's), high-level operators
  legalized into prim_funcs (LegalizeOps), their patterns annotated
  (AnnotateTIROpPattern), grouped as TVM's fusion rules group them
  (FuseOps) and each group made one prim_func (FuseTIR).
- "static_shape_tuning": "zero", constant weights laid out for CPU
  kernels (RewriteWeightLayouts, under a CPU target), then every prim_func tuned by
  MetaSchedule (MetaScheduleTuneIRMod, weights by calls; total_trials in
  all, recorded in work_dir) and replaced by its best schedule
  (MetaScheduleApplyDatabase).

Per target, TVM's stages: library_dispatch_passes, legalize_passes,
dataflow_lower_passes and finalize_passes (lists of passes), and
get_default_pipeline(target), them in one pass. CPU targets (llvm) and
GPU ones have them; tir builds for llvm and cuda, and a module of another
GPU target's passes is refused when it is built."""
from ..ir import transform as _transform
from . import transform as _rtransform

__all__ = ["dataflow_lower_passes", "finalize_passes", "get_default_pipeline", "get_pipeline",
           "legalize_passes", "library_dispatch_passes", "register_pipeline"]

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


def _fusion_passes():
    return [_rtransform.SimplifyLayouts(), _rtransform.LegalizeOps(),
            _rtransform.AnnotateTIROpPattern(),
            _rtransform.FuseOps(), _rtransform.FuseTIR()]


@register_pipeline("zero")
def zero_pipeline():
    return _pass("relax.pipeline.zero", _fusion_passes())


@register_pipeline("default")
def default_pipeline():
    return _pass("relax.pipeline.default", _fusion_passes())


@register_pipeline("static_shape_tuning")
def static_shape_tuning_pipeline(total_trials, target=None, work_dir="tuning_logs",
                                 max_trials_per_task=None, cpu_weight_prepack=False):
    if cpu_weight_prepack:
        raise NotImplementedError("static_shape_tuning: cpu_weight_prepack is not supported")
    return _pass("relax.pipeline.static_shape_tuning", _fusion_passes() + [
        _cpu_weight_layouts(target),
        _rtransform.MetaScheduleTuneIRMod(work_dir=work_dir, max_trials_global=total_trials,
                                          max_trials_per_task=max_trials_per_task,
                                          target=target),
        _rtransform.MetaScheduleApplyDatabase(work_dir=work_dir, target=target)])


def _cpu_weight_layouts(target):
    """RewriteWeightLayouts where the kernels are for a CPU (`target`, or the
    current one): the kernels are tuned with the layouts the build gives
    untuned ones."""
    @_transform.module_pass(opt_level=0, name="relax.pipeline.cpu_weight_layouts")
    def run(mod, _ctx):
        from ..target import Target
        current = target if target is not None else Target.current(allow_none=True)
        if current is not None and not isinstance(current, Target):
            current = Target(current)
        if current is None or current.kind.name != "llvm":
            return mod
        return _rtransform.RewriteWeightLayouts()(mod)
    return run


_GPU_KINDS = ("cuda", "rocm", "metal", "vulkan", "webgpu", "opencl")


def _stage_target(target, stage):
    """The target's kind, "cpu" or "gpu"; ValueError for the others."""
    from ..target import Target
    target = target if isinstance(target, Target) else Target(target)
    kind = target.kind.name
    if kind == "llvm":
        return "cpu"
    if kind in _GPU_KINDS or "gpu" in target.keys:
        return "gpu"
    raise ValueError(f"Target {target} is not yet supported by {stage} passes (llvm and the "
                     "GPU targets are)")


def library_dispatch_passes(target):
    """The passes that hand operators to fused kernels before they are
    legalized into their parts (tir calls no vendor library): on a GPU
    target, nn.attention to one fused attention kernel
    (relax.backend.DispatchAttention); none on the CPU."""
    if _stage_target(target, "library dispatch") == "gpu":
        from .backend import DispatchAttention
        # The layout chains around the operators shortened first (PyTorch's
        # attention permutes its inputs and result there and back).
        return [_rtransform.SimplifyLayouts(keep_composites=True), DispatchAttention(target)]
    return []


def legalize_passes(target):
    """The operators legalized into prim_funcs, annotated with their
    patterns, grouped (FuseOps) and each group made one prim_func
    (FuseTIR); on a GPU target, the kernels given dlight's default
    schedules."""
    kind = _stage_target(target, "legalize")
    passes = _fusion_passes()
    if kind == "gpu":
        from .. import dlight as dl
        passes.append(_default_gpu_schedule(target, dl))
    return passes


def default_gpu_rules(dl):
    """dlight's rules a kernel no schedule binds gets on a GPU, in the order
    they are tried."""
    return (dl.gpu.Matmul(), dl.gpu.GEMV(), dl.gpu.Reduction(), dl.gpu.GeneralReduction(),
            dl.gpu.Fallback())


def _default_gpu_schedule(target, dl):
    """dlight's rules for the kernels no schedule binds yet, under `target`."""
    from ..target import Target
    target = target if isinstance(target, Target) else Target(target)
    rules = dl.ApplyDefaultSchedule(*default_gpu_rules(dl))

    @_transform.module_pass(opt_level=0, name="relax.pipeline.default_gpu_schedule")
    def schedule(mod, _ctx):
        with target:
            return rules(mod)
    return schedule


def dataflow_lower_passes(target):
    """The graph lowered for the runtime: none here (the build plans the
    graph functions' memory and calls itself)."""
    _stage_target(target, "dataflow lowering")
    return []


def finalize_passes(target):
    """The last passes before code generation: none here (the build's own)."""
    _stage_target(target, "finalization")
    return []


def get_default_pipeline(target):
    """The four stages for `target` as one pass."""
    _stage_target(target, "the default pipeline's")
    return _pass("relax.pipeline.default_pipeline",
                 library_dispatch_passes(target) + legalize_passes(target)
                 + dataflow_lower_passes(target) + finalize_passes(target))
