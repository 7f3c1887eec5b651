"""tvm.tir.transform: passes over the PrimFuncs of a module.

`prim_func_pass` makes a pass of a function `(func, mod, ctx) -> PrimFunc`
(or a class with `transform_function`), run on every PrimFunc of the module
(graph functions are left alone). tir's own C++ passes that keep a program
in tir are here as TVM names them (LowerInitBlock, RemoveAssume, ...);
`tvm.transform.mlir_pass` runs any other.

LOWER_PHASES is the tir side of TVM's `tir.add_lower_pass`: the C++ passes
each phase has run when a pass added at that phase runs (docs/passes.md).
"""
from ..ir.transform import PassInfo, Pass, make_pass_decorator, mlir_pass

__all__ = ["PrimFuncPass", "prim_func_pass", "InferAccessRegions", "LowerInitBlock",
           "RemoveAssume", "RestoreDeclaredLayouts", "NarrowPredicatedLoops", "Simplify",
           "LoopPartition", "CheckBounds", "Canonicalize", "DisableVectorize",
           "DefaultGPUSchedule", "DefaultCPUSchedule", "LOWER_PHASES"]


class PrimFuncPass(Pass):
    """A pass of a function (func, mod, ctx) -> PrimFunc, applied to each
    PrimFunc of the module."""

    def __init__(self, func, info):
        self.func, self.info = func, info

    def transform(self, mod, ctx):
        from ..ir.module import IRModule
        from ..tir.function import PrimFunc
        out = IRModule(mod)
        changed = False
        for name in mod.function_names():
            func = mod[name]
            if not isinstance(func, PrimFunc):
                continue
            result = self.func(func, mod, ctx)
            if result is None:
                raise TypeError(f"prim_func_pass '{self.info.name}' returned None for "
                                f"'{name}'; return the function (unchanged or new)")
            if not isinstance(result, PrimFunc):
                raise TypeError(f"prim_func_pass '{self.info.name}' returned a "
                                f"{type(result).__name__} for '{name}'; a PrimFunc pass "
                                "returns a PrimFunc")
            if result is not func:
                out[name] = result
                changed = True
        return out if changed else mod


prim_func_pass = make_pass_decorator(PrimFuncPass, "transform_function", "prim_func_pass")
prim_func_pass.__doc__ = """@tvm.tir.transform.prim_func_pass(opt_level=..., name=...,
required=...): a function (func, mod, ctx) -> PrimFunc, or a class with
transform_function, as a Pass over every PrimFunc."""


def _cxx(pipeline, name, doc):
    def make():
        return mlir_pass(pipeline, name)
    make.__name__ = name
    make.__doc__ = f"{doc} (the C++ pass --{pipeline.split('{')[0]})."
    return make


InferAccessRegions = _cxx("tir-infer-access-regions", "InferAccessRegions",
                          "Fills in every block's read and write regions")
LowerInitBlock = _cxx("tir-lower-init", "LowerInitBlock",
                      "Turns T.init into code guarded by the start of the reduction")
RemoveAssume = _cxx("tir-remove-assume", "RemoveAssume", "Drops T.assume")
Simplify = _cxx("tir-simplify", "Simplify",
                "Simplifies bindings and indices with the variables' ranges (a "
                "variable of one value is that value)")
RestoreDeclaredLayouts = _cxx("tir-restore-declared-layouts", "RestoreDeclaredLayouts",
                              "Gives re-laid-out parameters their declared signature back")
NarrowPredicatedLoops = _cxx("tir-narrow-predicated-loops", "NarrowPredicatedLoops",
                             "Gives loops above a predicated block the range it allows")
# TVM partitions only where tir.LoopPartition's partition_const_loop is set
# (off by default); tir's CPU build always runs it (docs/lowering.md).
LoopPartition = _cxx("tir-partition-loops", "LoopPartition",
                     "Cuts tiled loops so that their main parts need no predicate")
CheckBounds = _cxx("tir-check-bounds", "CheckBounds",
                   "Warns about accesses that can fall outside their buffer")
Canonicalize = _cxx("canonicalize", "Canonicalize", "Folds constants and simplifies")


def DisableVectorize():  # noqa: N802 - TVM's naming of pass constructors
    """Vectorized loops become serial (the config tir.disable_vectorize)."""
    from . import stmt as S
    from .stmt_functor import ir_transform

    def serial(loop):
        if loop.kind == S.ForKind.VECTORIZED:
            return loop.with_fields(kind=S.ForKind.SERIAL)
        return None

    def run(func, mod, ctx):
        body = ir_transform(func.body, None, serial, ["tir.For"])
        return func if body is func.body else func.with_body(body)
    return PrimFuncPass(run, PassInfo(0, "DisableVectorize"))


def DefaultGPUSchedule():  # noqa: N802 - TVM's naming of pass constructors
    """TVM's DefaultGPUSchedule: under a GPU target (`with target:`), each
    PrimFunc's blocks that no loop binds to threads get their loops fused
    and bound to blockIdx.x / threadIdx.x (MetaSchedule's
    RewriteUnboundBlock); scheduled functions keep their bindings. Under a
    CPU target, or none, functions are left as they are."""
    def run(func, mod, ctx):
        from ..target import Target
        from .schedule import Schedule
        target = Target.current(allow_none=True)
        if target is None or target.kind.name not in ("cuda", "rocm", "metal", "vulkan",
                                                      "opencl"):
            return func
        if "max_threads_per_block" not in target.attrs:
            raise ValueError(f"DefaultGPUSchedule: the target {target} names no "
                             "max_threads_per_block (give -max_threads_per_block=1024, or a "
                             "named GPU such as nvidia/nvidia-h100)")
        sch = Schedule(func)
        if not _bind_unbound_blocks(sch, target):
            raise ValueError("DefaultGPUSchedule: a function's blocks could not be bound to "
                             f"GPU threads under {target}")
        return sch.mod["main"]
    return PrimFuncPass(run, PassInfo(0, "DefaultGPUSchedule"))


def _bind_unbound_blocks(sch, target):
    """The blocks of `sch` no loop binds: their loops fused and bound to
    blockIdx.x / threadIdx.x under `target` (which names
    max_threads_per_block; MetaSchedule's RewriteUnboundBlock); False when
    one cannot be."""
    from ..meta_schedule import TuneContext
    from ..meta_schedule.postproc import RewriteUnboundBlock
    rewrite = RewriteUnboundBlock()
    rewrite._initialize_with_tune_context(TuneContext(mod=sch.mod, target=target))
    return rewrite.apply(sch)


def _leaf_blocks(sch):
    """The schedule's blocks that hold no other block, in order."""
    found = []

    def visit(block):
        children = sch.get_child_blocks(block)
        if not children:
            found.append(block)
        for child in children:
            visit(child)
    visit(sch.get_block("root"))
    return found


def is_unscheduled(func):
    """Whether no loop of `func` is parallel, vectorized, unrolled or bound
    to a thread, and no loop carries an annotation: a function as written
    or legalized, which no schedule has touched."""
    from . import stmt as S
    from .stmt_functor import post_order_visit
    touched = []

    def visit(node):
        if isinstance(node, S.For) and (node.kind != S.ForKind.SERIAL or node.annotations):
            touched.append(node)
    post_order_visit(func.body, visit)
    return not touched


from .cpu_schedule import default_cpu_schedule  # noqa: E402 - uses _leaf_blocks


def schedule_by_default(func):
    """`func` with default_cpu_schedule when no schedule has touched it
    (is_unscheduled); `func` itself when one has, or when the heuristic
    does not fit it (a block it cannot schedule, a body with no IR-node
    form: math functions TVM lacks)."""
    from .schedule import ScheduleError
    try:
        return default_cpu_schedule(func) if is_unscheduled(func) else func
    except (ScheduleError, ValueError, TypeError):
        return func


def DefaultCPUSchedule():  # noqa: N802 - TVM's naming of pass constructors
    """Under a CPU target (or none), each PrimFunc no schedule has touched
    (is_unscheduled) gets default_cpu_schedule: parallel outer loops and a
    vectorized inner one. A function the heuristic cannot schedule stays as
    it is. Scheduled and tuned functions are left alone; so is everything
    under a GPU target (DefaultGPUSchedule is for those)."""
    def run(func, mod, ctx):
        from ..target import Target
        target = Target.current(allow_none=True)
        if target is not None and target.kind.name != "llvm":
            return func
        return schedule_by_default(func)
    return PrimFuncPass(run, PassInfo(0, "DefaultCPUSchedule"))


# TVM's four phases of lowering, on tir's pipeline: the passes that run
# before a pass added at phase k (tir.add_lower_pass) runs. Everything
# after phase 3 leaves tir (--convert-tir-to-scf onwards), where Python
# passes have no nodes to see.
LOWER_PHASES = [
    (InferAccessRegions, RestoreDeclaredLayouts),
    (RemoveAssume, LowerInitBlock),
    (NarrowPredicatedLoops,),
    (Canonicalize,),
]


def phase_passes(phase):
    """The Pass objects of one phase (LOWER_PHASES)."""
    return [make() for make in LOWER_PHASES[phase]]


