"""What build() gives a model no schedule has touched before it compiles
it (as TVM's build runs relax's default pipeline for the target): on the
CPU, the default CPU schedule of its kernels and their weights' layouts;
on a GPU, relax's default GPU pipeline (fusion, dlight's schedules)."""
from .ir import IRModule


def with_default_cpu_schedules(mod):
    """A module with graph functions, its operators legalized and each
    prim_func they call that no schedule has touched given the default CPU
    schedule (tir.transform.default_cpu_schedule: parallel, vectorized), as
    an untuned model should not run as naive loops; their constant weights
    laid out for it first (relax.transform.RewriteWeightLayouts). The PassContext config
    relax.default_cpu_schedule=False leaves them as they are."""
    from .relax.transform import LegalizeOps, RewriteWeightLayouts, _called_prim_funcs
    from .tir.transform import schedule_by_default
    if not any(mod._native.is_graph_function(name) for name in mod._native.functions()):
        return mod
    mod = RewriteWeightLayouts()(LegalizeOps()(mod))
    functions, changed = mod.functions, False
    for name in _called_prim_funcs(mod):
        func = functions[name]
        scheduled = schedule_by_default(func)
        if scheduled is func:
            continue
        scheduled = scheduled.with_name(name)
        functions[name] = scheduled.as_private() if mod._native.is_private(name) else scheduled
        changed = True
    return IRModule(functions, mod.attrs) if changed else mod


def with_default_gpu_schedules(mod, target):
    """A module with graph functions for a GPU as TVM's build for a GPU
    target makes it: where it still has operators and no kernel is
    scheduled, relax's default pipeline for the target (legalized, fused,
    dlight's schedules; an intermediate a fused function's kernels pass
    between them is in GPU memory); otherwise its operators legalized and
    each kernel no schedule binds yet given dlight's default schedule (a
    kernel left as loops could only run on the host, where its tensors are
    not; a scheduled one is not fused with others)."""
    from .relax.pipeline import _default_gpu_schedule, get_default_pipeline
    from .relax.transform import LegalizeOps
    from .tir.transform import is_unscheduled
    from . import dlight
    native = mod._native
    if not any(native.is_graph_function(name) for name in native.functions()):
        return mod
    legalized = LegalizeOps()(mod)
    kernels = [n for n in native.functions()
               if not native.is_graph_function(n) and not native.is_declaration(n)]
    if len(legalized.function_names()) > len(mod.function_names()) and \
            all(is_unscheduled(mod[n]) for n in kernels):
        return get_default_pipeline(target)(mod)
    return _default_gpu_schedule(target, dlight)(legalized)
