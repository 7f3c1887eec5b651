"""relax.transform: module passes over graph modules (tvm.transform Passes:
called on a module, or run in a Sequential under a PassContext)."""
from ..ir import IRModule
from ..ir.transform import Pass, PassInfo


class LegalizeOps(Pass):
    """Relax's LegalizeOps: each high-level operator of the graph functions
    becomes a private prim_func (one TensorIR block, named after the
    operator) and a call_tir of it (--tir-legalize-ops). The prim_funcs can
    then be scheduled like any other; build() legalizes what is left."""

    info = PassInfo(0, "LegalizeOps")

    def transform(self, mod, ctx=None):
        if not isinstance(mod, IRModule):
            raise TypeError(f"LegalizeOps takes an IRModule, got {type(mod).__name__}")
        return IRModule(mod._native.legalize_ops())


class AnnotateTIROpPattern(Pass):
    """Relax's AnnotateTIROpPattern: each prim_func gets its operator
    pattern, TVM's OpPatternKind number (`tir.op_pattern`: 0 element-wise,
    1 broadcast, 2 injective, 3 reduction, 4 matmul-like, 8 opaque), which
    FuseOps fuses by (--tir-annotate-op-pattern)."""

    info = PassInfo(0, "AnnotateTIROpPattern")

    def transform(self, mod, ctx=None):
        return _run_passes(mod, "tir-annotate-op-pattern", "AnnotateTIROpPattern")


class FuseOps(Pass):
    """Relax's FuseOps: in each graph function, the prim_func calls that
    TVM's fusion rules group (by the callees' operator patterns along the
    post-dominator tree: element-wise work into the reduction or matmul
    after it, a matmul's element-wise epilogue, injective chains) move into
    a private function `fused_<callees>` marked Primitive, called in their
    place (--tir-fuse-ops). Operators not yet legalized are left alone (run
    LegalizeOps first); FuseTIR makes each group one prim_func."""

    info = PassInfo(0, "FuseOps")

    def __init__(self, fuse_opt_level=-1):
        self.fuse_opt_level = fuse_opt_level

    def transform(self, mod, ctx=None):
        if self.fuse_opt_level == 0:
            return mod
        return _run_passes(mod, "tir-fuse-ops", "FuseOps")


class FuseTIR(Pass):
    """Relax's FuseTIR: each call of a Primitive function FuseOps made
    becomes a call_tir of one prim_func of its name, the callees' bodies one
    after the other with the values between them as intermediate buffers;
    the group functions and the prim_funcs only they called go
    (--tir-fuse-tir)."""

    info = PassInfo(0, "FuseTIR")

    def transform(self, mod, ctx=None):
        return _run_passes(mod, "tir-fuse-tir", "FuseTIR")


class RewriteWeightLayouts(Pass):
    """tir's layout of constant weights for CPU kernels: a constant the
    graph functions pass to a reduction, read along one output axis (a
    convolution's weight W[f, c, ry, rx], a dense layer's W[k, n]), is laid
    out in contiguous tiles of 32 of that axis, last (W[f // 32, c, ry, rx,
    f % 32], W[n // 32, k, n % 32]; an axis of no whole tiles only moved
    last), so that the kernel's vectors along the outputs are single loads
    and a tile's weights one run of memory; the prim_func's parameter
    takes the new layout and the constant is laid out now
    (--tir-rewrite-weight-layouts). The functions' interface and results
    are unchanged. Only unscheduled private prim_funcs that every call
    passes a constant are rewritten; tvm.compile runs it for CPU targets,
    and static_shape_tuning before tuning."""

    info = PassInfo(0, "RewriteWeightLayouts")

    def transform(self, mod, ctx=None):
        return _run_passes(mod, "tir-rewrite-weight-layouts", "RewriteWeightLayouts")


class SimplifyLayouts(Pass):
    """tir's shortening of the layout chains of graph functions, before
    LegalizeOps makes a kernel of each transpose: a transpose of a
    transpose is one (none where they cancel), a transpose moving only
    dimensions of extent 1 a reshape (a view), a reshape of a reshape one
    reshape (--tir-simplify-layouts). Operators kept whole (nn.attention)
    are first replaced by their parts, unless keep_composites. The
    functions' interface and results are unchanged; the Relax pipelines run
    it first."""

    info = PassInfo(0, "SimplifyLayouts")

    def __init__(self, keep_composites=False):
        self.keep_composites = bool(keep_composites)

    def transform(self, mod, ctx=None):
        option = "{keep-composites=1}" if self.keep_composites else ""
        return _run_passes(mod, f"tir-simplify-layouts{option}", "SimplifyLayouts")


def _run_passes(mod, pipeline, what):
    if not isinstance(mod, IRModule):
        raise TypeError(f"{what} takes an IRModule, got {type(mod).__name__}")
    result = IRModule(mod._native.run_passes(pipeline), mod.attrs)
    result._symbols = dict(mod._symbols)
    return result


def _called_prim_funcs(mod):
    """{prim_func name: how many times the graph functions call it}, in the
    order they are first called."""
    counts = {}
    for name in mod.function_names():
        if mod._native.is_graph_function(name):
            for callee in mod._native.call_tir_callees(name):
                counts[callee] = counts.get(callee, 0) + 1
    return counts


def _task_module(mod, name):
    """Prim_func `name` of `mod` alone, as the public "main" of a module: a
    MetaSchedule task (tuned, built and checked as a program of its own)."""
    task = IRModule({"main": mod[name]})
    return IRModule(task._native.with_visibility("main", False))


def _record_default_schedules(database, task_mods, target):
    """Measures the schedule tvm.compile gives each untuned kernel with
    MetaSchedule's own builder and runner, and records it beside the tuned
    ones: applying the database then picks it where the search found
    nothing faster (few trials seldom do, on convolutions)."""
    from .. import meta_schedule as ms
    from ..tir.cpu_schedule import schedule_default
    from ..tir.schedule import Schedule
    schedules = [schedule_default(Schedule(m)) for m in task_mods]
    built = ms.builder.LocalBuilder().build(
        [ms.builder.BuilderInput(sch.mod, target) for sch in schedules])
    runner = ms.runner.LocalRunner()
    for task_mod, sch, result in zip(task_mods, schedules, built):
        if result.error_msg:
            continue
        args_info = ms.arg_info.ArgInfo.from_entry_func(task_mod)
        (future,) = runner.run([ms.runner.RunnerInput(result.artifact_path, "cpu",
                                                      args_info)])
        measured = future.result()
        if measured.error_msg or not measured.run_secs:
            continue
        database.commit_tuning_record(ms.database.TuningRecord(
            sch.trace, database.commit_workload(task_mod), measured.run_secs, target,
            args_info))


def _space(target):
    """A task's design space: TVM's for the target; for a CPU also the
    schedule tvm.compile gives untuned kernels, so that a model's tuned
    kernels are measured against it and are never slower than untuned."""
    from .. import meta_schedule as ms
    if target.kind.name != "llvm":
        return "post-order-apply"
    from ..tir.cpu_schedule import schedule_default
    return ms.space_generator.SpaceGeneratorUnion([
        ms.space_generator.PostOrderApply(),
        ms.space_generator.ScheduleFn(schedule_default)])


def _target(target, what):
    from ..target import Target
    target = target if target is not None else Target.current(allow_none=True)
    if target is None:
        raise ValueError(f"{what}: no target (give target=, or run it under `with target:`)")
    return target if isinstance(target, Target) else Target(target)


class MetaScheduleTuneIRMod(Pass):
    """TVM's MetaScheduleTuneIRMod: every prim_func the graph functions
    call is a MetaSchedule task (TVM's default space for the target, and
    for a CPU the default schedule of untuned kernels as one more
    candidate, measured and recorded after the search: the database then
    applies it wherever the search found nothing faster),
    weighted by its number of calls; max_trials_global trials in all (at
    most max_trials_per_task each; on a CPU the default schedule's is one of
    each task's), recorded in work_dir's database. The
    module is returned as it is (MetaScheduleApplyDatabase applies the
    records). op_names, when given, limits the tasks to prim_funcs whose
    names contain one of them."""

    info = PassInfo(0, "MetaScheduleTuneIRMod")

    def __init__(self, params=None, work_dir="tuning_logs", max_trials_global=None,
                 max_trials_per_task=None, op_names=None, target=None):
        if params:
            raise NotImplementedError("MetaScheduleTuneIRMod: params (weights bound before "
                                      "tuning) are not supported; weights are inputs or "
                                      "constants of the graph functions")
        if not isinstance(max_trials_global, int) or isinstance(max_trials_global, bool) \
                or max_trials_global < 0:
            raise ValueError(f"MetaScheduleTuneIRMod: max_trials_global is a number of trials "
                             f"(0 or more), got {max_trials_global!r}")
        self.work_dir, self.max_trials_global = work_dir, max_trials_global
        self.max_trials_per_task, self.op_names = max_trials_per_task, op_names
        self.target = target

    def transform(self, mod, ctx=None):
        from .. import meta_schedule as ms
        from ..meta_schedule.tir_integration import _task_logger
        if not isinstance(mod, IRModule):
            raise TypeError(f"MetaScheduleTuneIRMod takes an IRModule, got "
                            f"{type(mod).__name__}")
        target = _target(self.target, type(self).__name__)
        calls = self._tasks(mod)
        if self.op_names:
            calls = {n: c for n, c in calls.items() if any(op in n for op in self.op_names)}
        if not calls:
            return mod
        tasks = [ms.TuneContext(_task_module(mod, name), target=target,
                                space_generator=_space(target),
                                search_strategy="evolutionary", task_name=name,
                                logger=_task_logger(self.work_dir, index, name)).clone()
                 for index, name in enumerate(calls)]
        # On a CPU the default schedule's measurement is one of each task's
        # trials (when the budget has one for every task).
        per_task = self.max_trials_per_task if self.max_trials_per_task is not None \
            else self.max_trials_global
        default = target.kind.name == "llvm" and per_task >= 1 and \
            self.max_trials_global >= len(tasks)
        search_global = self.max_trials_global - (len(tasks) if default else 0)
        search_per_task = per_task - (1 if default else 0)
        if search_global > 0 and search_per_task > 0:
            database = ms.tune_tasks(tasks=tasks,
                                     task_weights=[float(c) for c in calls.values()],
                                     work_dir=self.work_dir, max_trials_global=search_global,
                                     max_trials_per_task=search_per_task)
        else:
            database = ms.database.Database.create("json", work_dir=self.work_dir)
        if default:
            _record_default_schedules(database, [t.mod for t in tasks], target)
        return mod

    @staticmethod
    def _tasks(mod):
        """{prim_func name: task weight}: the prim_funcs the graph functions
        call, weighted by their number of calls."""
        return _called_prim_funcs(mod)


class MetaScheduleTuneTIR(MetaScheduleTuneIRMod):
    """TVM's MetaScheduleTuneTIR: every prim_func of the module (called or
    not) a MetaSchedule task of weight 1; max_trials_global trials in all,
    recorded in work_dir's database. The module is returned as it is."""

    info = PassInfo(0, "MetaScheduleTuneTIR")

    def __init__(self, work_dir="tuning_logs", max_trials_global=None,
                 max_trials_per_task=None, target=None):
        super().__init__(None, work_dir, max_trials_global, max_trials_per_task, None, target)

    @staticmethod
    def _tasks(mod):
        return {name: 1 for name in mod.function_names()
                if not mod._native.is_graph_function(name)}


class MetaScheduleApplyDatabase(Pass):
    """TVM's MetaScheduleApplyDatabase: each prim_func of the module that
    has a record in work_dir's database (or `database`, or the database of
    the enclosing `with db:`) is replaced by its best schedule; the others
    stay as they are."""

    info = PassInfo(0, "MetaScheduleApplyDatabase")

    def __init__(self, work_dir=None, enable_warning=False, database=None, target=None):
        self.work_dir, self.database, self.target = work_dir, database, target
        self.enable_warning = enable_warning

    def transform(self, mod, ctx=None):
        import logging

        from .. import meta_schedule as ms
        target = _target(self.target, "MetaScheduleApplyDatabase")
        db = self.database
        if db is None and self.work_dir is not None:
            db = ms.database.JSONDatabase(work_dir=self.work_dir)
        if db is None:
            db = ms.database.Database.current()
        if db is None:
            raise ValueError("MetaScheduleApplyDatabase: give work_dir or database, or run "
                             "it inside `with database:`")
        functions, replaced = mod.functions, False
        for name in [n for n in mod.function_names() if not mod._native.is_graph_function(n)]:
            sch = db.query_schedule(_task_module(mod, name), target, workload_name="main")
            if sch is None:
                if self.enable_warning:
                    logging.getLogger(__name__).warning(
                        "MetaScheduleApplyDatabase: no record of %s; left as it is", name)
                continue
            best = sch.mod["main"].with_name(name)
            functions[name] = best.as_private() if mod._native.is_private(name) else best
            replaced = True
        # A new module (the one given stays as it was), built once.
        return IRModule(functions, mod.attrs) if replaced else mod


class LiftTransformParams(Pass):
    """Relax's LiftTransformParams: in each public graph function with
    `num_input`, the steps computed from its weights (the parameters after
    the first num_input) and constants alone move into
    `<name>_transform_params`, which takes those weights and returns a
    tuple; the function takes its results instead, as parameters `lifted`,
    `lifted1`, ... after its own (--tir-lift-transform-params). Run the
    transform once, then pass its results on every call."""

    info = PassInfo(0, "LiftTransformParams")

    def __init__(self, shared_transform=False):
        if shared_transform:
            raise NotImplementedError("LiftTransformParams: shared_transform (one transform "
                                      "for several functions) is not supported")

    def transform(self, mod, ctx=None):
        if not isinstance(mod, IRModule):
            raise TypeError(f"LiftTransformParams takes an IRModule, got "
                            f"{type(mod).__name__}")
        return IRModule(mod._native.lift_transform_params(), mod.attrs)


class FoldConstant(Pass):
    """Relax's FoldConstant: the steps of each graph function computed
    from constants alone (an operator or call_tir on constant tensors) are
    computed now, on the CPU, and their values become constants of the
    function. Steps reading a parameter, and the empty tensors and fills
    reductions start from, are left as they are."""

    info = PassInfo(0, "FoldConstant")

    def transform(self, mod, ctx=None):
        if not isinstance(mod, IRModule):
            raise TypeError(f"FoldConstant takes an IRModule, got {type(mod).__name__}")
        from .. import runtime
        result = mod
        for name in mod.function_names():
            if not result._native.is_graph_function(name):
                continue
            native, folder = result._native.outline_constants(name)
            if not folder:
                continue
            staged = IRModule(native, mod.attrs)
            # The steps alone, public, with the prim_funcs they call.
            prims = {g: staged[g] for g in staged.function_names()
                     if not staged._native.is_graph_function(g)}
            runner = IRModule({folder: staged[folder], **prims})
            runner = IRModule(runner._native.with_visibility(folder, False))
            values = runtime.build(runner, "llvm")[folder]()
            lifted = [p.name_hint for p in staged[name].params][-len(values):]
            functions = staged.functions
            del functions[folder]
            result = BindParams(name, {n: v.numpy() for n, v in zip(lifted, values)})(
                IRModule(functions, mod.attrs))
        return result


class CanonicalizeBindings(Pass):
    """Relax's CanonicalizeBindings: a variable bound to another, or a
    trivial match_cast, is replaced by what it names. A graph function
    here is SSA values throughout (a binding of a variable to another names
    the same value, and there is no match_cast), so the module is returned
    as it is."""

    info = PassInfo(0, "CanonicalizeBindings")

    def transform(self, mod, ctx=None):
        if not isinstance(mod, IRModule):
            raise TypeError(f"CanonicalizeBindings takes an IRModule, got "
                            f"{type(mod).__name__}")
        return mod


class DecomposeOpsForInference(Pass):
    """Relax's DecomposeOpsForInference: batch_norm, layer_norm and the
    other composite operators written as element-wise ones for inference.
    The graph builder builds them in that form already (batch_norm with its
    given statistics, layer_norm from its mean and variance), so the module
    is returned as it is."""

    info = PassInfo(0, "DecomposeOpsForInference")

    def __init__(self, func_name=None):
        self.func_name = func_name

    def transform(self, mod, ctx=None):
        if not isinstance(mod, IRModule):
            raise TypeError(f"DecomposeOpsForInference takes an IRModule, got "
                            f"{type(mod).__name__}")
        return mod


class BindParams(Pass):
    """Relax's BindParams: the parameters of graph function `func_name`
    named in `params` ({name: array}, arrays as numpy or tvm.runtime
    tensors) become constants and leave its signature."""

    info = PassInfo(0, "BindParams")

    def __init__(self, func_name, params):
        if not isinstance(func_name, str):
            raise TypeError(f"BindParams: func_name is a str, got {type(func_name).__name__}")
        self.func_name, self.params = func_name, dict(params)

    def transform(self, mod, ctx=None):
        import numpy as np

        from .._ext import ext
        from .function import _constant_bytes
        if not isinstance(mod, IRModule):
            raise TypeError(f"BindParams takes an IRModule, got {type(mod).__name__}")
        if not self.params:
            return mod
        values = {}
        for name, value in self.params.items():
            key = getattr(name, "name_hint", name)
            data = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
            values[key] = (_constant_bytes(data), list(data.shape), str(data.dtype))
        return IRModule(ext.GraphBuilder.bind_params(mod._native, self.func_name, values))
