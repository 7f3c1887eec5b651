"""MetaSchedule's CUDA components, each on programs that show what it does:
the schedule rules CrossThreadReduction and AutoBind (the design spaces'
loops, bindings, scopes and traces), the postprocessors
RewriteUnboundBlock and RewriteCooperativeFetch (the programs they
leave; VerifyGPUCode's verdicts are test_meta_schedule_verify_gpu_code's),
then the defaults of a cuda
target: the design space of a matmul, sampled candidates through the
default postprocessors, and the PTX a postprocessed schedule builds to.

No GPU is needed: nothing here is measured. The one test that runs a
kernel is skipped where there is no GPU."""
import re

import numpy as np
import pytest

import tensorir as tvm
from tensorir import meta_schedule as ms
from tensorir import te
from tensorir.meta_schedule.postproc import (RewriteCooperativeFetch, RewriteUnboundBlock,
                                             VerifyGPUCode)
from tensorir.meta_schedule.schedule_rule import AutoBind, CrossThreadReduction
from tensorir.meta_schedule.space_generator import PostOrderApply
from tensorir.meta_schedule.testing import te_workload

from test_cuda import run_with_driver
from tensorir.target import Target

# A GPU with TVM's limits: 1024 threads and 48 KB of shared memory per
# block, warps of 32.
GPU = Target("nvidia/geforce-rtx-3080")
# The defaults: a GPU of compute capability 7.5 or later selects the rule
# kind "cuda-tensorcore" (as TVM does); the V100 (sm_70) selects "cuda".
V100 = Target("nvidia/nvidia-v100")
# The cuda kind's defaults: no max_threads_per_block (which AutoBind,
# RewriteUnboundBlock and VerifyGPUCode need), no shared memory limit.
NO_THREAD_LIMIT = Target("cuda")
EXTENTS = [4, 8, 16, 32, 64, 128, 256, 512]

HAVE_GPU = tvm.cuda(0).exist


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def context(mod, target=GPU, rules=(), postprocs=(), seed=1):
    """A tuning task for `mod` whose space generator has just `rules` and
    `postprocs` (initialized with the task, as tuning does)."""
    return ms.TuneContext(mod=mod, target=target, task_name="test", rand_state=seed,
                          space_generator=PostOrderApply(sch_rules=list(rules),
                                                         postprocs=list(postprocs),
                                                         mutator_probs={}))


def spaces(mod, *rules, target=GPU, seed=1):
    """The design spaces `rules` make of `mod` (no postprocessors)."""
    return context(mod, target, rules, seed=seed).generate_design_space()


def initialized_rule(mod, rule, target=GPU):
    (rule,) = context(mod, target, rules=[rule]).space_generator.sch_rules
    return rule


def postprocess(sch, postproc, target=GPU):
    """Applies `postproc`, initialized for `target`, to `sch` in place, as
    tuning does (after EnterPostproc); returns its verdict."""
    (postproc,) = context(sch.mod, target, postprocs=[postproc]).space_generator.postprocs
    sch.enter_postproc()
    return postproc.apply(sch)


def kinds(sch):
    return [inst.kind.name for inst in sch.trace.insts]


def kinds_after_postproc(sch):
    names = kinds(sch)
    return names[names.index("EnterPostproc") + 1:]


def nest(sch, block):
    """The loops above `block`, outermost first, as (how, extent): how is
    the thread tag of a bound loop, "vectorized" or "serial". (Read from a
    copy: the schedule's trace stays as it was.)"""
    sch = sch.copy()
    out = []
    for loop in sch.get_loops(sch.get_block(block)):
        node = sch.get(loop)
        if node.thread_binding is not None:
            how = node.thread_binding.thread_tag
        elif node.kind == tvm.tir.ForKind.VECTORIZED:
            how = "vectorized"
        else:
            assert node.kind == tvm.tir.ForKind.SERIAL, node.kind
            how = "serial"
        out.append((how, int(node.extent)))
    return out


def thread_extent(sch, block, tag="threadIdx.x"):
    (extent,) = [e for how, e in nest(sch, block) if how == tag]
    return extent


def sampled(sch):
    """(candidates, value chosen) of each SampleCategorical of the trace."""
    found = []
    for inst in sch.trace.insts:
        if inst.kind.name == "SampleCategorical":
            candidates = [int(c) for c in inst.attrs[0]]
            found.append((candidates, candidates[int(sch.trace.decisions[inst])]))
    return found


def _blocks_of(func):
    found = []
    tvm.tir.stmt_functor.post_order_visit(
        func.body, lambda n: found.append(n) if isinstance(n, tvm.tir.Block) else None)
    return found


def blocks(sch):
    return sorted(b.name_hint for b in _blocks_of(sch.mod["main"]) if b.name_hint != "root")


def scopes(sch):
    """{buffer: storage scope} of the buffers the function allocates."""
    return {buf.name: buf.scope() for b in _blocks_of(sch.mod["main"])
            for buf in b.alloc_buffers}


def annotations(sch, block):
    sch = sch.copy()
    return dict(sch.get(sch.get_block(block)).annotations)


def prim_func(*tensors):
    return te.create_prim_func(list(tensors))


def row_sum(rows=4, cols=512):
    """S[i] = sum_k A[i, k]: few rows, long ones."""
    a = te.placeholder((rows, cols), name="A")
    k = te.reduce_axis((0, cols), name="k")
    return prim_func(a, te.compute((rows,), lambda i: te.sum(a[i, k], axis=k), name="S"))


def shifted_exp(rows=4, cols=512):
    """O[i, j] = exp(A[i, j] - max_k A[i, k]) (a softmax's first half):
    the row maximum M and its consumer O."""
    a = te.placeholder((rows, cols), name="A")
    k = te.reduce_axis((0, cols), name="k")
    m = te.compute((rows,), lambda i: te.max(a[i, k], axis=k), name="M")
    return prim_func(a, te.compute((rows, cols), lambda i, j: te.exp(a[i, j] - m[i]), name="O"))


def doubled(*shape):
    """B = A * 2, elementwise."""
    a = te.placeholder(shape, name="A")
    return prim_func(a, te.compute(shape, lambda *i: a[i] * 2.0, name="B"))


def doubled_plus_one(rows=64, cols=1024):
    """B = A * 2, then C = B + 1: two elementwise blocks."""
    a = te.placeholder((rows, cols), name="A")
    b = te.compute((rows, cols), lambda i, j: a[i, j] * 2.0, name="B")
    return prim_func(a, te.compute((rows, cols), lambda i, j: b[i, j] + 1.0, name="C"))


def matmul(n=128, dtype="float32"):
    return prim_func(*te_workload.matmul(n, n, n, in_dtype=dtype, out_dtype=dtype))


# ---------------------------------------------------------------------------
# CrossThreadReduction
# ---------------------------------------------------------------------------

def test_cross_thread_reduction_of_a_row_sum():
    # Four sums of 512: the design space keeps the block as it was and adds
    # one reduced by the threads of a block: k split by a thread count
    # sampled from the candidates, its inner part bound to threadIdx.x.
    # Without a consumer the sum stays where it is, in global memory.
    made = spaces(row_sum(), CrossThreadReduction(EXTENTS))
    assert len(made) == 2
    (original,) = [s for s in made if "Bind" not in kinds(s)]
    (reduced,) = [s for s in made if "Bind" in kinds(s)]
    assert nest(original, "S") == [("serial", 4), ("serial", 512)]
    assert "SampleCategorical" not in kinds(original)
    ((candidates, threads),) = sampled(reduced)
    assert candidates == EXTENTS
    assert nest(reduced, "S") == [("serial", 4), ("serial", 512 // threads),
                                  ("threadIdx.x", threads)]
    assert [k for k in kinds(reduced) if k not in ("GetBlock", "GetLoops", "GetConsumers")] == \
        ["SampleCategorical", "Split", "Bind"]
    # The split takes the sampled variable, so that a mutation replays it.
    (split,) = [i for i in reduced.trace.insts if i.kind.name == "Split"]
    (sample,) = [i for i in reduced.trace.insts if i.kind.name == "SampleCategorical"]
    assert sample.outputs[0] in list(split.inputs)
    assert scopes(reduced) == {}
    # Each seed picks a candidate; the loops follow it.
    for seed in range(2, 6):
        made = spaces(row_sum(), CrossThreadReduction(EXTENTS), seed=seed)
        (reduced,) = [s for s in made if "Bind" in kinds(s)]
        ((_, threads),) = sampled(reduced)
        assert nest(reduced, "S")[-1] == ("threadIdx.x", threads)


def test_cross_thread_reduction_computed_at_its_consumer():
    # The row maximum goes under the consumer's row loop, in shared memory;
    # the consumer's column loop and the reduction are split by the same
    # sampled count and both bound to threadIdx.x.
    made = spaces(shifted_exp(), CrossThreadReduction(EXTENTS))
    assert len(made) == 2
    (original,) = [s for s in made if "Bind" not in kinds(s)]
    (reduced,) = [s for s in made if "Bind" in kinds(s)]
    assert scopes(original) == {"M": "global"}
    assert scopes(reduced) == {"M": "shared"}
    ((_, threads),) = sampled(reduced)
    assert nest(reduced, "M") == [("serial", 4), ("serial", 1), ("serial", 512 // threads),
                                  ("threadIdx.x", threads)]
    assert nest(reduced, "O") == [("serial", 4), ("serial", 512 // threads),
                                  ("threadIdx.x", threads)]
    m_loops = reduced.get_loops(reduced.get_block("M"))
    o_loops = reduced.get_loops(reduced.get_block("O"))
    assert reduced.get(m_loops[0]).same_as(reduced.get(o_loops[0]))
    assert not reduced.get(m_loops[1]).same_as(reduced.get(o_loops[1]))
    steps = [k for k in kinds(reduced) if k not in ("GetBlock", "GetLoops", "GetConsumers")]
    assert steps == ["SampleCategorical", "Split", "Bind", "ComputeAt", "SetScope", "Split",
                     "Bind"]


def test_cross_thread_reduction_takes_the_consumers_threads():
    # A consumer already split by 128 threads: the reduction uses 128, not
    # one of the candidates (32, 64), and the consumer is left as it is.
    mod = shifted_exp()
    rule = initialized_rule(mod, CrossThreadReduction([32, 64]))
    sch = tvm.tir.Schedule(mod, seed=1)
    rows, cols = sch.get_loops(sch.get_block("O"))
    sch.bind(rows, "blockIdx.x")
    _, tx = sch.split(cols, factors=[None, 128])
    sch.bind(tx, "threadIdx.x")
    made = rule.apply(sch, sch.get_block("M"))
    assert len(made) == 2
    (reduced,) = [s for s in made if "ComputeAt" in kinds(s)]
    assert nest(reduced, "M") == [("blockIdx.x", 4), ("serial", 1), ("serial", 4),
                                  ("threadIdx.x", 128)]
    assert nest(reduced, "O") == [("blockIdx.x", 4), ("serial", 4), ("threadIdx.x", 128)]
    assert scopes(reduced) == {"M": "shared"}
    # The consumer's loops were not split again.
    assert kinds(reduced).count("Split") == 2


def test_cross_thread_reduction_leaves_other_blocks_alone():
    # A matmul has spatial parallelism enough; an elementwise block has no
    # reduction; a target without max_threads_per_block turns the rule off.
    rule = CrossThreadReduction(EXTENTS)
    assert len(spaces(matmul(), rule)) == 1
    assert len(spaces(doubled(64, 64), rule)) == 1
    (sch,) = spaces(row_sum(), CrossThreadReduction(EXTENTS), target=NO_THREAD_LIMIT)
    assert "Bind" not in kinds(sch)


def test_cross_thread_reduction_refuses_nonpositive_extents_in_a_task():
    with pytest.raises(tvm.TVMError, match="candidates of thread extent must be positive"):
        context(row_sum(), rules=[CrossThreadReduction([0, 64])])


def test_cross_thread_reduction_refuses_nonpositive_extents_when_made():
    with pytest.raises((ValueError, tvm.TVMError), match="must be positive"):
        CrossThreadReduction([0, 64])


def test_a_block_view_reports_the_scope_cross_thread_reduction_set():
    made = spaces(shifted_exp(), CrossThreadReduction(EXTENTS))
    (reduced,) = [s for s in made if "Bind" in kinds(s)]
    assert scopes(reduced) == {"M": "shared"}
    (write,) = reduced.get(reduced.get_block("M")).writes
    assert write.buffer.scope() == "shared"


def test_the_root_block_view_holds_the_buffer_cross_thread_reduction_shared():
    made = spaces(shifted_exp(), CrossThreadReduction(EXTENTS))
    (reduced,) = [s for s in made if "Bind" in kinds(s)]
    root = reduced.get(reduced.get_block("root"))
    assert [(b.name, b.scope()) for b in root.alloc_buffers] == [("M", "shared")]


# ---------------------------------------------------------------------------
# AutoBind
# ---------------------------------------------------------------------------

def test_auto_bind_elementwise():
    # 64 x 1024 elements: the loops fused and split by a sampled thread
    # count (the defaults up to the target's 1024), outer part on
    # blockIdx.x, inner part on threadIdx.x.
    (sch,) = spaces(doubled(64, 1024), AutoBind())
    ((candidates, threads),) = sampled(sch)
    assert candidates == [32, 64, 128, 256, 512, 1024]
    assert nest(sch, "B") == [("blockIdx.x", 64 * 1024 // threads), ("threadIdx.x", threads)]
    assert [k for k in kinds(sch) if k not in ("GetBlock", "GetLoops")] == \
        ["Fuse", "SampleCategorical", "Split", "Bind", "Bind"]


def test_auto_bind_zero_dim_and_reduction_only_blocks():
    # A block with no loop, and a sum to a scalar (no spatial loop): a unit
    # loop is added above, fused and bound to one block of one thread; the
    # reduction loop stays inside, serial.
    x = te.placeholder((), name="X")
    (sch,) = spaces(prim_func(x, te.compute((), lambda: x[()] + 1.0, name="Y")), AutoBind())
    assert nest(sch, "Y") == [("blockIdx.x", 1), ("threadIdx.x", 1)]
    assert "AddUnitLoop" in kinds(sch)
    x = te.placeholder((64,), name="X")
    k = te.reduce_axis((0, 64), name="k")
    total = te.compute((), lambda: te.sum(x[k], axis=k), name="Y")
    (sch,) = spaces(prim_func(x, total), AutoBind())
    assert nest(sch, "Y") == [("blockIdx.x", 1), ("threadIdx.x", 1), ("serial", 64)]
    assert "AddUnitLoop" in kinds(sch)


def test_auto_bind_within_the_targets_limits():
    small = Target("cuda -max_threads_per_block=128")
    # Only the candidates within the target's limit are sampled.
    (sch,) = spaces(doubled(64, 64), AutoBind(), target=small)
    ((candidates, threads),) = sampled(sch)
    assert candidates == [32, 64, 128]
    assert nest(sch, "B") == [("blockIdx.x", 4096 // threads), ("threadIdx.x", threads)]
    # More elements than 256 blocks of 128 threads: each thread loops over
    # the rest, innermost; nothing is sampled.
    (sch,) = spaces(doubled(64, 1024), AutoBind(), target=small)
    assert nest(sch, "B") == [("blockIdx.x", 256), ("threadIdx.x", 128), ("serial", 2)]
    assert sampled(sch) == []
    # max_threadblocks bounds the blocks.
    (sch,) = spaces(doubled(64, 1024), AutoBind(max_threadblocks=16), target=small)
    assert nest(sch, "B") == [("blockIdx.x", 16), ("threadIdx.x", 128), ("serial", 32)]
    # One candidate within the limit: it is taken, not sampled.
    (sch,) = spaces(doubled(64, 1024), AutoBind(thread_extents=[32, 2048]))
    assert sampled(sch) == []
    assert nest(sch, "B") == [("blockIdx.x", 2048), ("threadIdx.x", 32)]


def test_auto_bind_leaves_bound_blocks():
    sch = tvm.tir.Schedule(doubled(64, 1024))
    rows, cols = sch.get_loops(sch.get_block("B"))
    sch.bind(rows, "blockIdx.x")
    sch.bind(cols, "threadIdx.x")
    (made,) = spaces(sch.mod, AutoBind())
    assert nest(made, "B") == [("blockIdx.x", 64), ("threadIdx.x", 1024)]
    assert set(kinds(made)) == {"GetBlock"}


def test_auto_bind_needs_max_threads_per_block():
    # From the task's target, whatever the rule was made with.
    for target in (NO_THREAD_LIMIT, Target({"kind": "cuda"})):
        with pytest.raises(tvm.TVMError, match="missing attribute `max_threads_per_block`"):
            context(doubled(8), target, rules=[AutoBind(max_threads_per_block=64)])
    # A rule no task initialized takes the value it was made with, and
    # says what it lacks without one.
    sch = tvm.tir.Schedule(doubled(64, 1024))
    (made,) = AutoBind(thread_extents=[32, 64], max_threads_per_block=64).apply(
        sch, sch.get_block("B"))
    assert nest(made, "B") == [("blockIdx.x", 256), ("threadIdx.x", 64), ("serial", 4)]
    sch = tvm.tir.Schedule(doubled(64, 1024))
    with pytest.raises(tvm.TVMError, match="number of threads per block is not known"):
        AutoBind().apply(sch, sch.get_block("B"))


# ---------------------------------------------------------------------------
# RewriteUnboundBlock
# ---------------------------------------------------------------------------

def test_rewrite_unbound_block():
    # C is bound by hand; B, left unbound, gets its loops fused and bound
    # with as many threads as the target allows (not sampled).
    sch = tvm.tir.Schedule(doubled_plus_one())
    rows, cols = sch.get_loops(sch.get_block("C"))
    bx, tx = sch.split(sch.fuse(rows, cols), factors=[None, 256])
    sch.bind(bx, "blockIdx.x")
    sch.bind(tx, "threadIdx.x")
    assert postprocess(sch, RewriteUnboundBlock())
    assert nest(sch, "B") == [("blockIdx.x", 64), ("threadIdx.x", 1024)]
    assert nest(sch, "C") == [("blockIdx.x", 256), ("threadIdx.x", 256)]
    assert [k for k in kinds_after_postproc(sch) if k not in ("GetBlock", "GetLoops")] == \
        ["Fuse", "Split", "Bind", "Bind"]


def test_rewrite_unbound_block_completes_partial_bindings():
    # Under threadIdx.x only: the loop above becomes the blocks.
    sch = tvm.tir.Schedule(doubled(64, 1024))
    _, cols = sch.get_loops(sch.get_block("B"))
    sch.bind(cols, "threadIdx.x")
    assert postprocess(sch, RewriteUnboundBlock())
    assert nest(sch, "B") == [("blockIdx.x", 64), ("threadIdx.x", 1024)]
    # Nothing bound, at most 16 blocks: a serial loop inside each thread.
    sch = tvm.tir.Schedule(doubled(64, 1024))
    assert postprocess(sch, RewriteUnboundBlock(max_threadblocks=16))
    assert nest(sch, "B") == [("blockIdx.x", 16), ("threadIdx.x", 1024), ("serial", 4)]
    # Under blockIdx.x only (not supported, as in TVM): rejected.
    sch = tvm.tir.Schedule(doubled(64, 1024))
    rows, _ = sch.get_loops(sch.get_block("B"))
    sch.bind(rows, "blockIdx.x")
    assert postprocess(sch, RewriteUnboundBlock()) is False


def test_rewrite_unbound_block_leaves_tiled_blocks_and_needs_the_limit():
    # A block MultiLevelTiling tiled is its business.
    sch = tvm.tir.Schedule(doubled(64, 1024))
    sch.annotate(sch.get_block("B"), "meta_schedule.tiling_structure", "SSSRRSRS")
    assert postprocess(sch, RewriteUnboundBlock())
    assert nest(sch, "B") == [("serial", 64), ("serial", 1024)]
    with pytest.raises(tvm.TVMError, match="missing attribute `max_threads_per_block`"):
        context(doubled(8), NO_THREAD_LIMIT, postprocs=[RewriteUnboundBlock()])


# ---------------------------------------------------------------------------
# RewriteCooperativeFetch
# ---------------------------------------------------------------------------

def staged_matmul(vector=4, dtype="float32", thread_y=False, warp=False, sampled_vector=False):
    """A 128^3 matmul scheduled by hand as MultiLevelTiling leaves one for
    the GPU: 16 blocks of 64 threads (8 x 8 on threadIdx.y / .x with
    thread_y; with warp, 8 warps on threadIdx.y, each a row of 8 tiles, as
    the tensor-core rules bind them), each thread a 4 x 4 tile, k in steps
    of 8; the rows of A each step reads copied into shared memory (a
    32 x 8 tile, fused into one loop of 256) annotated for a cooperative
    fetch of `vector` lanes."""
    sch = tvm.tir.Schedule(matmul(128, dtype), seed=1)
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    i0, i1, i2 = sch.split(i, factors=[4, 8, 4])
    j0, j1, j2 = sch.split(j, factors=[4, 8, 4])
    k0, k1 = sch.split(k, factors=[16, 8])
    sch.reorder(i0, j0, i1, j1, k0, k1, i2, j2)
    sch.bind(sch.fuse(i0, j0), "blockIdx.x")
    if warp:
        sch.bind(i1, "threadIdx.y")
        sch.annotate(c, "warp_execution", 1)
    elif thread_y:
        sch.bind(i1, "threadIdx.y")
        sch.bind(j1, "threadIdx.x")
    else:
        sch.bind(sch.fuse(i1, j1), "threadIdx.x")
    a_shared = sch.cache_read(c, 0, "shared")
    sch.compute_at(a_shared, k0)
    sch.fuse(*sch.get_loops(a_shared)[-2:])
    if sampled_vector:
        vector = sch.sample_categorical(candidates=[1, 2, 4], probs=[0.0, 0.0, 1.0])
    sch.annotate(a_shared, "meta_schedule.cooperative_fetch", vector)
    return sch


# The loops of the copy under k_0 (256 elements) after the rewrite.
@pytest.mark.parametrize("options, fetch", [
    ({}, [("serial", 1), ("threadIdx.x", 64), ("vectorized", 4)]),
    ({"sampled_vector": True}, [("serial", 1), ("threadIdx.x", 64), ("vectorized", 4)]),
    ({"vector": 2}, [("serial", 2), ("threadIdx.x", 64), ("vectorized", 2)]),
    # 3 does not divide 256: no vector part.
    ({"vector": 3}, [("serial", 4), ("threadIdx.x", 64)]),
    # 8-byte elements are not vectorized.
    ({"dtype": "float64"}, [("serial", 4), ("threadIdx.x", 64)]),
    ({"thread_y": True},
     [("serial", 1), ("threadIdx.y", 8), ("threadIdx.x", 8), ("vectorized", 4)]),
    # warp_execution: threadIdx.x is a warp (32); 8 x 32 x 4 covers 256.
    ({"warp": True}, [("serial", 1), ("threadIdx.y", 8), ("threadIdx.x", 32), ("vectorized", 4)]),
])
def test_rewrite_cooperative_fetch(options, fetch):
    sch = staged_matmul(**options)
    if options.get("warp"):
        threads = [("threadIdx.y", 8), ("serial", 8)]
    elif options.get("thread_y"):
        threads = [("threadIdx.y", 8), ("threadIdx.x", 8)]
    else:
        threads = [("threadIdx.x", 64)]
    above = [("blockIdx.x", 16)] + threads + [("serial", 16)]
    assert nest(sch, "A_shared") == above + [("serial", 256)]
    assert postprocess(sch, RewriteCooperativeFetch())
    assert nest(sch, "A_shared") == above + fetch
    assert "meta_schedule.cooperative_fetch" not in annotations(sch, "A_shared")
    # TVM's order: the vector part first, then threadIdx.x, then .y.
    expected = ["Unannotate", "GetLoops", "Split"]
    if fetch[-1][0] == "vectorized":
        expected.append("Vectorize")
    expected.append("Bind")
    if options.get("thread_y") or options.get("warp"):
        expected.append("Bind")
    assert kinds_after_postproc(sch) == expected
    # The matmul's own loops are left alone; the result is a valid kernel.
    assert nest(sch, "C")[-3:] == [("serial", 8), ("serial", 4), ("serial", 4)]
    assert postprocess(sch, VerifyGPUCode())


def test_rewrite_cooperative_fetch_without_annotations_does_nothing():
    sch = tvm.tir.Schedule(doubled(64, 1024))
    assert postprocess(sch, RewriteCooperativeFetch())
    assert kinds_after_postproc(sch) == []


# ---------------------------------------------------------------------------
# The defaults of a cuda target
# ---------------------------------------------------------------------------

def test_cuda_defaults_are_tvms():
    assert [type(r).__name__ for r in ms.ScheduleRule.create("cuda")] == [
        "ApplyCustomRule", "MultiLevelTiling", "InlineConstantScalars", "AutoInline",
        "CrossThreadReduction", "ParallelizeVectorizeUnroll", "AutoBind"]
    assert [type(p).__name__ for p in ms.Postproc.create("cuda")] == [
        "DisallowDynamicLoop", "RewriteCooperativeFetch", "RewriteUnboundBlock",
        "RewriteParallelVectorizeUnroll", "RewriteReductionBlock", "VerifyGPUCode"]
    probs = {type(m).__name__: p for m, p in ms.Mutator.create("cuda").items()}
    assert probs == pytest.approx({"MutateTileSize": 0.9, "MutateUnroll": 0.08,
                                   "MutateThreadBinding": 0.02})
    # A task on a cuda target gets them.
    ctx = ms.TuneContext(mod=matmul(), target=V100, space_generator="post-order-apply",
                         task_name="test")
    assert [type(r).__name__ for r in ctx.space_generator.sch_rules] == \
        [type(r).__name__ for r in ms.ScheduleRule.create("cuda")]
    assert [type(p).__name__ for p in ctx.space_generator.postprocs] == \
        [type(p).__name__ for p in ms.Postproc.create("cuda")]


def check_tiled_matmul(sch, block="C"):
    """What the cuda defaults make of a matmul: C tiled with blockIdx.x,
    vthread.x and threadIdx.x loops (32 to 1024 threads), A and B copied
    into shared memory at each k step, C accumulated in a local cache."""
    hows = [how for how, _ in nest(sch, block)]
    assert hows[:3] == ["blockIdx.x", "vthread.x", "threadIdx.x"]
    assert 32 <= thread_extent(sch, block) <= 1024
    assert scopes(sch) == {"A_shared": "shared", "B_shared": "shared", "C_local": "local"}


def test_cuda_design_space_for_matmul():
    made = ms.TuneContext(mod=matmul(), target=V100, space_generator="post-order-apply",
                          task_name="test", rand_state=1).generate_design_space()
    assert len(made) >= 1
    for sch in made:
        assert blocks(sch) == ["A_shared", "B_shared", "C", "C_local"]
        check_tiled_matmul(sch)
        assert annotations(sch, "C")["meta_schedule.tiling_structure"] == "SSSRRSRS"
        for cache in ("A_shared", "B_shared"):
            assert "meta_schedule.cooperative_fetch" in annotations(sch, cache)
            assert nest(sch, cache)[-1][0] == "serial"  # fetched by every thread alike


def check_postprocessed_matmul(sch):
    """A matmul through the default postprocessors: the caches' copies
    spread over C's threads (perhaps vectorized), C's init decomposed out,
    every annotation for the postprocessors consumed."""
    check_tiled_matmul(sch, "C_update")
    assert blocks(sch) == ["A_shared", "B_shared", "C_init", "C_local", "C_update"]
    threads = thread_extent(sch, "C_update")
    for cache in ("A_shared", "B_shared"):
        loops = nest(sch, cache)
        fetch = loops[-2] if loops[-1][0] == "vectorized" else loops[-1]
        assert fetch == ("threadIdx.x", threads)
        assert "meta_schedule.cooperative_fetch" not in annotations(sch, cache)
    root_annotations = annotations(sch, "root")
    assert not any(k.startswith("meta_schedule.unroll") for k in root_annotations)


def test_default_postprocessors_on_the_matmuls_design_space():
    # The design space's schedules, each through the default
    # postprocessors in order, as tuning applies them; at least one of a
    # few seeds gives a schedule they all accept.
    accepted = 0
    for seed in range(1, 5):
        ctx = ms.TuneContext(mod=matmul(), target=V100, space_generator="post-order-apply",
                             task_name="test", rand_state=seed)
        for sch in ctx.generate_design_space():
            sch.enter_postproc()
            if all(p.apply(sch) for p in ctx.space_generator.postprocs):
                check_postprocessed_matmul(sch)
                accepted += 1
    assert accepted >= 1


def test_sampled_matmul_candidates_pass_the_default_postprocessors():
    # A search strategy samples the design space and keeps what the
    # default postprocessors accept (no measurement: nothing runs).
    ctx = ms.TuneContext(mod=matmul(), target=V100, space_generator="post-order-apply",
                         search_strategy="replay-trace", task_name="test", rand_state=5)
    ctx.pre_tuning(max_trials=8, num_trials_per_iter=8)
    candidates = ctx.generate_measure_candidates()
    ctx.post_tuning()
    assert len(candidates) == 8
    for candidate in candidates:
        sch = candidate.sch
        assert "EnterPostproc" in kinds(sch)
        check_postprocessed_matmul(sch)
        # VerifyGPUCode accepts it again.
        assert postprocess(sch, VerifyGPUCode(), V100)


def test_cuda_design_space_for_matmul_on_a_recent_gpu():
    # A GPU of compute capability 7.5 or later has the rule kind
    # cuda-tensorcore: TVM's tensor-core tiling (WMMA's f16 groups) before
    # the cuda rules, RewriteTensorize after the cuda postprocessors; an
    # f32 product, which no group matches, is tiled as cuda tiles it.
    names = [type(r).__name__ for r in ms.ScheduleRule.create("cuda-tensorcore")]
    assert names == ["MultiLevelTilingTensorCore"] + [
        type(r).__name__ for r in ms.ScheduleRule.create("cuda")]
    assert [type(p).__name__ for p in ms.Postproc.create("cuda-tensorcore")] == [
        type(p).__name__ for p in ms.Postproc.create("cuda")] + ["RewriteTensorize"]
    made = ms.TuneContext(mod=matmul(), target=GPU, space_generator="post-order-apply",
                          task_name="test", rand_state=1).generate_design_space()
    assert len(made) >= 1
    for sch in made:
        check_tiled_matmul(sch)


def f16_matmul(n=256):
    a = te.placeholder((n, n), "float16", name="A")
    b = te.placeholder((n, n), "float16", name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(
        tvm.tir.Cast("float32", a[i, k]) * tvm.tir.Cast("float32", b[k, j]), axis=[k]), name="C")
    return tvm.IRModule({"main": te.create_prim_func([a, b, c])})


def test_tensor_core_candidates_build_to_ptx():
    # The tensor-core design space of an f16 -> f32 product: sampled,
    # postprocessed (the fragment moves and products tensorized with WMMA's
    # intrinsics), built: ldmatrix and mma.sync on the lanes' registers.
    mod = f16_matmul()
    ctx = ms.TuneContext(mod=mod, target=GPU, space_generator="post-order-apply",
                         task_name="test", rand_state=3)
    spaces = ctx.space_generator.generate_design_space(mod)
    tensor_core = [sp for sp in spaces if "wmma" in sp.mod.script()]
    assert tensor_core
    built = 0
    for seed in range(1, 5):
        sch = tvm.tir.Schedule(mod, seed=seed)
        tensor_core[0].trace.apply_to_schedule(sch, remove_postproc=True)
        if not all(p.apply(sch) for p in ctx.space_generator.postprocs):
            continue
        assert "meta_schedule.auto_tensorize" not in sch.mod.script()
        ptx = ptx_of(tvm.build(sch.mod, target="cuda -arch=sm_86"))
        assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
        assert "ldmatrix.sync.aligned" in ptx
        # Fragments compacted under the k loop stay in registers
        # (tir-fold-private-offsets).
        assert "ld.local" not in ptx and "st.local" not in ptx
        built += 1
    assert built >= 1


def sampled_candidates(mod, target, marker, seeds, rand_state):
    """The first design space of `mod` whose script holds `marker`, replayed
    with fresh random decisions (as the search samples it) for each seed:
    the schedules every postprocessor keeps."""
    ctx = ms.TuneContext(mod=mod, target=target, space_generator="post-order-apply",
                         task_name="test", rand_state=rand_state)
    sketch = next(sp for sp in ctx.space_generator.generate_design_space(mod)
                  if marker in sp.mod.script())
    undecided = tvm.tir.schedule.Trace(sketch.trace.insts, {})
    for seed in seeds:
        sch = tvm.tir.Schedule(mod, seed=seed)
        undecided.apply_to_schedule(sch, remove_postproc=True)
        if all(p.apply(sch) for p in ctx.space_generator.postprocs):
            yield sch


def int_or_half_matmul(dtype, n=256):
    acc = "int32" if dtype == "int8" else "float32"
    a = te.placeholder((n, n), dtype, name="A")
    b = te.placeholder((n, n), dtype, name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(
        tvm.tir.Cast(acc, a[i, k]) * tvm.tir.Cast(acc, b[k, j]), axis=[k]), name="C")
    return tvm.IRModule({"main": te.create_prim_func([a, b, c])})


@pytest.mark.parametrize("dtype, mma", [
    ("float16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
    ("int8", "mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32")])
def test_sampled_tensor_core_candidates_build(dtype, mma):
    # The tensor-core sketch (the defaults have WMMA's f16 and int8 groups)
    # replayed with fresh random decisions, as the search samples it: some
    # candidates pass the postprocessors, and every one that does builds,
    # its fragments tensorized. (A candidate's shared and fragment caches
    # are placed one after another in its kernel: placing one keeps the
    # regions the next is compacted from.)
    built = 0
    for sch in sampled_candidates(int_or_half_matmul(dtype), GPU, "wmma", range(1, 13), 3):
        assert mma in ptx_of(tvm.build(sch.mod, target="cuda -arch=sm_86"))
        built += 1
    assert built >= 2


def test_async_pipeline_candidates_build_with_cp_async():
    # On sm_80 the cuda rules pipeline the k loop's shared copies with an
    # asynchronous stage: the candidates the postprocessors keep (a few in
    # a hundred random ones: most tile for more shared memory than a block
    # holds) build, their copies cp.async with commit and wait groups.
    n = 512
    a = te.placeholder((n, n), "float32", name="A")
    b = te.placeholder((n, n), "float32", name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(a[i, k] * b[k, j], axis=[k]), name="C")
    mod = tvm.IRModule({"main": te.create_prim_func([a, b, c])})
    target = Target({"kind": "cuda", "arch": "sm_80", "max_threads_per_block": 1024,
                     "max_shared_memory_per_block": 49152, "thread_warp_size": 32,
                     "registers_per_block": 65536})
    built = 0
    for sch in sampled_candidates(mod, target, "software_pipeline_async_stages",
                                  range(1, 100), 5):
        ptx = ptx_of(tvm.build(sch.mod, target="cuda -arch=sm_80"))
        assert "cp.async.c" in ptx and "cp.async.commit_group" in ptx
        assert "cp.async.wait_group" in ptx
        built += 1
        if built == 2:
            break
    assert built == 2


def ptx_of(lib):
    """The PTX a CUDA build embeds in its host code (an LLVM string)."""
    source = lib.get_source()
    start = source.index(".version")
    text = source[start:source.index('"', start)]
    return text.replace("\\0A", "\n").replace("\\09", "\t").replace("\\22", '"')


def postprocessed_shifted_exp():
    """The cross-thread alternative of shifted_exp's design space under
    the cuda defaults, through the default postprocessors."""
    ctx = ms.TuneContext(mod=shifted_exp(), target=V100, space_generator="post-order-apply",
                         task_name="test", rand_state=3)
    made = ctx.generate_design_space()
    assert len(made) == 2
    (sch,) = [s for s in made if "SetScope" in kinds(s)]
    sch.enter_postproc()
    assert all(p.apply(sch) for p in ctx.space_generator.postprocs)
    return sch


def test_cross_thread_reduction_builds_to_ptx():
    # One block per row (AutoBind binds the row loop), the row's maximum
    # reduced by its threads into shared memory: a kernel of that many
    # threads that shuffles across the warp.
    sch = postprocessed_shifted_exp()
    assert scopes(sch) == {"M": "shared"}
    threads = thread_extent(sch, "M")
    assert nest(sch, "O") == [("blockIdx.x", 4), ("serial", 512 // threads),
                              ("threadIdx.x", threads)]
    lib = tvm.build(sch.mod, target=V100)
    assert lib.target == "cuda" and lib.functions == ["main"]
    ptx = ptx_of(lib)
    assert ".target sm_70" in ptx
    (entry,) = re.findall(r"\.entry (\w+)\(", ptx)
    assert entry.startswith("main")
    assert f".maxntid {threads}, 1, 1" in ptx
    assert "shfl.sync" in ptx and "bar.sync" in ptx and ".shared" in ptx


def matmul_candidate():
    ctx = ms.TuneContext(mod=matmul(), target=V100, space_generator="post-order-apply",
                         search_strategy="replay-trace", task_name="test", rand_state=5)
    ctx.pre_tuning(max_trials=1, num_trials_per_iter=1)
    (candidate,) = ctx.generate_measure_candidates()
    return candidate.sch


def shifted_exp_per_block():
    """shifted_exp's other alternative under the cuda defaults: M and O
    each bound by AutoBind, M in global memory between two kernels."""
    ctx = ms.TuneContext(mod=shifted_exp(), target=V100, space_generator="post-order-apply",
                         task_name="test", rand_state=3)
    (sch,) = [s for s in ctx.generate_design_space() if "SetScope" not in kinds(s)]
    sch.enter_postproc()
    assert all(p.apply(sch) for p in ctx.space_generator.postprocs)
    assert scopes(sch) == {"M": "global"}
    return sch


@pytest.mark.parametrize("make", [
    # MultiLevelTiling's vthread.x loop runs serially in each thread
    # (--tir-lower-virtual-threads).
    pytest.param(matmul_candidate, id="matmul"),
    # M in global memory between two kernels: the host part allocates it
    # on the device (as TVM's workspace).
    pytest.param(shifted_exp_per_block, id="two-kernels"),
])
def test_postprocessed_schedules_build_to_ptx(make):
    sch = make()
    ptx = ptx_of(tvm.build(sch.mod, target=V100))
    assert ".target sm_70" in ptx and ".entry" in ptx


def test_intermediate_between_kernels_on_the_fake_driver(tmp_path):
    """The stand-in driver's counters (allocations live, stream-ordered
    allocations, copies, launches) over two calls: M is allocated and
    freed by each call, in order with its two launches."""
    path = str(tmp_path / "two_kernels.so")
    tvm.build(shifted_exp_per_block().mod, target="cuda").export_library(path)
    out = run_with_driver(f"""
        counters = lambda: fake_counters(4)
        lib = tvm.runtime.load_module({path!r})
        dev = tvm.cuda(0)
        x = tvm.nd.array(np.ones((4, 512), "float32"), dev)
        y = tvm.nd.array(np.ones((4, 512), "float32"), dev)
        print("before", counters())
        lib["main"](x, y)
        print("once", counters())
        lib["main"](x, y)
        print("twice", counters())
        """)
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert lines["before"] == "[2, 0, 2, 0]", out
    assert lines["once"] == "[2, 1, 2, 2]", out
    assert lines["twice"] == "[2, 2, 2, 4]", out


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
@pytest.mark.parametrize("make", [
    pytest.param(postprocessed_shifted_exp, id="cross-thread-reduction"),
    pytest.param(shifted_exp_per_block, id="intermediate-between-kernels")])
def test_shifted_exp_on_gpu(make):
    lib = tvm.build(make().mod, target="cuda")
    dev = tvm.cuda(0)
    x = np.random.default_rng(0).standard_normal((4, 512)).astype("float32")
    out = tvm.nd.array(np.full((4, 512), np.nan, "float32"), dev)
    lib["main"](tvm.nd.array(x, dev), out)
    np.testing.assert_allclose(out.numpy(), np.exp(x - x.max(axis=1, keepdims=True)),
                               rtol=1e-5, atol=1e-6)
