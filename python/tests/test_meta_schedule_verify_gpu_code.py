"""MetaSchedule's VerifyGPUCode postprocessor: its verdict on programs at
and past each of a GPU's limits (threads per block, vector width, shared
memory per block as the lowering allocates it, software pipelines' copies
included), and the limits it needs from the target. No GPU is needed."""
import pytest

import tensorir as tvm
from tensorir import te
from tensorir.meta_schedule.postproc import VerifyGPUCode
from tensorir.target import Target
from test_meta_schedule_cuda_components import (GPU, NO_THREAD_LIMIT, context, doubled,
                                                postprocess, prim_func)


SMALL_SHARED = Target({"kind": "cuda", "max_threads_per_block": 1024, "thread_warp_size": 32,
                       "max_shared_memory_per_block": 8192})


def bound_copy(n=4096, threads=256, vector=1, dtype="float32", threads_y=None):
    """B = A over n elements, split into blocks of `threads` threads (times
    threads_y on threadIdx.y), each a vector of `vector` lanes."""
    a = te.placeholder((n,), dtype, name="A")
    sch = tvm.tir.Schedule(prim_func(a, te.compute((n,), lambda i: a[i], name="B")))
    (i,) = sch.get_loops(sch.get_block("B"))
    factors = [None] + ([threads_y] if threads_y else []) + [threads, vector]
    loops = sch.split(i, factors=factors)
    sch.bind(loops[0], "blockIdx.x")
    if threads_y:
        sch.bind(loops[1], "threadIdx.y")
    sch.bind(loops[-2], "threadIdx.x")
    sch.vectorize(loops[-1])
    return sch


def _through_shared():
    """B = A + 1 over 256 x 64 through a copy S of A in shared memory."""
    a = te.placeholder((256, 64), name="A")
    s = te.compute((256, 64), lambda i, j: a[i, j], name="S")
    sch = tvm.tir.Schedule(prim_func(a, te.compute((256, 64), lambda i, j: s[i, j] + 1.0,
                                                   name="B")))
    sch.set_scope(sch.get_block("S"), 0, "shared")
    return sch


def staged_copy(rows_per_block, second_threads=64):
    """B = A + 1 over 256 x 64 through a shared copy S of A (allocated
    whole, 64 KB): each block copies `rows_per_block` rows into S with 64
    threads, then reads them with `second_threads` threads."""
    sch = _through_shared()
    rows, cols = sch.get_loops(sch.get_block("B"))
    bx, _ = sch.split(rows, factors=[None, rows_per_block])
    _, tx = sch.split(cols, factors=[None, second_threads])
    sch.reorder(bx, tx)
    sch.bind(bx, "blockIdx.x")
    sch.bind(tx, "threadIdx.x")
    sch.compute_at(sch.get_block("S"), bx)
    _, _, cols = sch.get_loops(sch.get_block("S"))
    sch.bind(cols, "threadIdx.x")
    return sch


def pipelined_copy(rows_per_step, pipelined=True):
    """staged_copy with each block's 4 steps of `rows_per_step` rows in a
    loop that copies a step's rows into S and reads them: S is that step's
    part (rows x 256 bytes), twice when the loop is a software pipeline of
    two stages (the next step's copy beside this step's reads)."""
    sch = _through_shared()
    rows, cols = sch.get_loops(sch.get_block("B"))
    bx, step, _ = sch.split(rows, factors=[None, 4, rows_per_step])
    sch.bind(bx, "blockIdx.x")
    sch.bind(cols, "threadIdx.x")
    sch.compute_at(sch.get_block("S"), step)
    _, _, _, copy_cols = sch.get_loops(sch.get_block("S"))
    sch.bind(copy_cols, "threadIdx.x")
    if pipelined:
        sch.annotate(step, "software_pipeline_stage", [0, 1])
        sch.annotate(step, "software_pipeline_order", [0, 1])
    return sch


def annotated_threads(threads):
    """bound_copy over 1024 elements, the block annotated as
    MultiLevelTiling annotates it: 32 to 256 threads."""
    sch = bound_copy(1024, threads)
    block = sch.get_block("B")
    sch.annotate(block, "meta_schedule.thread_extent_low_inclusive", 32)
    sch.annotate(block, "meta_schedule.thread_extent_high_inclusive", 256)
    return sch


@pytest.mark.parametrize("make, target, accepted", [
    (lambda: bound_copy(threads=256), GPU, True),
    (lambda: bound_copy(threads=1024), GPU, True),
    # Threads per block: 2048 > 1024, on one axis or on two.
    (lambda: bound_copy(threads=2048), GPU, False),
    (lambda: bound_copy(threads=32, threads_y=32), GPU, True),
    (lambda: bound_copy(threads=64, threads_y=32), GPU, False),
    # Vector accesses of 16 bytes at most.
    (lambda: bound_copy(threads=64, vector=4), GPU, True),
    (lambda: bound_copy(threads=64, vector=8), GPU, False),
    (lambda: bound_copy(threads=64, vector=8, dtype="float16"), GPU, True),
    (lambda: bound_copy(threads=64, vector=16, dtype="float16"), GPU, False),
    (lambda: bound_copy(threads=64, vector=4, dtype="float64"), GPU, False),
    # Shared memory per block: what one block's copy covers (rows x 256
    # bytes), not the buffer's 64 KB; at most 8 KB on SMALL_SHARED.
    (lambda: staged_copy(16), GPU, True),
    (lambda: staged_copy(64), GPU, True),
    (lambda: staged_copy(32), SMALL_SHARED, True),
    (lambda: staged_copy(64), SMALL_SHARED, False),
    # A software pipeline of two stages keeps two copies of the step's rows.
    (lambda: pipelined_copy(16), SMALL_SHARED, True),
    (lambda: pipelined_copy(32, pipelined=False), SMALL_SHARED, True),
    (lambda: pipelined_copy(32), SMALL_SHARED, False),
    # Loops of one kernel bound to threadIdx.x differ in extent.
    (lambda: staged_copy(16, second_threads=32), GPU, False),
    # The bounds MultiLevelTiling annotates.
    (lambda: annotated_threads(16), GPU, False),
    (lambda: annotated_threads(32), GPU, True),
    (lambda: annotated_threads(256), GPU, True),
    (lambda: annotated_threads(512), GPU, False),
])
def test_verify_gpu_code(make, target, accepted):
    assert postprocess(make(), VerifyGPUCode(), target) is accepted


def test_verify_gpu_code_needs_the_targets_limits():
    with pytest.raises(tvm.TVMError, match='"max_shared_memory_per_block" is not defined'):
        context(doubled(8), NO_THREAD_LIMIT, postprocs=[VerifyGPUCode()])
