"""tvm.meta_schedule.trace_apply.schedule_using_anchor_trace: a schedule
tuned for a matmul applied to the matmul fused with its producer and
epilogue, on the CPU and a GPU target; the result computes what the
unscheduled program does; a trace that leaves two blocks unscheduled is
refused."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import meta_schedule as ms
from tensorir import te
from tensorir.script import tir as T
from tensorir.tir import ForKind
from tensorir.tir.schedule import Schedule


def _workload(epilogue):
    """A scaling of A (64 x 32) feeding a matmul with B (32 x 48), as te
    writes them (the blocks: scale, mm); with `epilogue`, a bias and a relu
    after it (bias, relu)."""
    a = te.placeholder((64, 32), name="A")
    b = te.placeholder((32, 48), name="B")
    s = te.compute((64, 32), lambda i, k: a[i, k] * 0.5, name="scale")
    k = te.reduce_axis((0, 32), name="k")
    c = te.compute((64, 48), lambda i, j: te.sum(s[i, k] * b[k, j], axis=k), name="mm")
    if not epilogue:
        return te.create_prim_func([a, b, c])
    e = te.compute((64, 48), lambda i, j: c[i, j] + 1.0, name="bias")
    d = te.compute((64, 48), lambda i, j: te.max(e[i, j], 0.0), name="relu")
    return te.create_prim_func([a, b, d])


# The tuned workload, and the same with an epilogue.
matmul = _workload(epilogue=False)
scaled_matmul_relu = _workload(epilogue=True)


def _anchor():
    sch = Schedule(matmul)
    sch.compute_inline(sch.get_block("scale"))
    return sch


def _cpu_anchor_trace():
    sch = _anchor()
    mm = sch.get_block("mm")
    i, j, k = sch.get_loops(mm)
    i0, i1 = sch.split(i, factors=[8, 8])
    j0, j1 = sch.split(j, factors=[3, 16])
    sch.reorder(i0, j0, k, i1, j1)
    cache = sch.cache_write(mm, 0, "global")
    sch.reverse_compute_at(cache, j0)
    sch.parallel(sch.fuse(i0, j0))
    sch.vectorize(j1)
    return sch.trace


def _names(sch):
    return [sch.get(b).name_hint for b in sch.get_child_blocks(sch.get_block("root"))]


def _run(func, *shapes):
    lib = tvm.build(func, target="llvm")
    rng = np.random.default_rng(1)
    args = [rng.uniform(-1, 1, s).astype("float32") for s in shapes]
    lib(*args)
    return args[-1]


def test_cpu_trace_schedules_the_fused_module():
    sch = Schedule(scaled_matmul_relu)
    ms.trace_apply.schedule_using_anchor_trace(sch, _cpu_anchor_trace(), "llvm")
    # The trace inlined the producer, the bias went into the relu, and the
    # relu, left unscheduled, into the write cache the trace made.
    assert _names(sch) == ["mm", "mm_global"]
    loops = sch.get_loops(sch.get_block("mm"))
    kinds = [sch.get(loop).kind for loop in loops]
    assert kinds[0] == ForKind.PARALLEL and kinds[-1] == ForKind.VECTORIZED
    assert [int(sch.get(loop).extent) for loop in loops] == [24, 32, 8, 16]
    script = sch.mod.script()
    assert "mm_global" in script and "T.max" in script
    shapes = [(64, 32), (32, 48), (64, 48)]
    np.testing.assert_allclose(_run(sch.mod["main"], *shapes),
                               _run(scaled_matmul_relu, *shapes), rtol=1e-5)


def test_unscheduled_last_block_is_parallel_on_the_cpu():
    # Without a write cache in the trace, the epilogue that cannot be
    # inlined (relu reads the bias, itself reading the reduction) is the
    # one block left: its loops are fused and parallel.
    sch0 = _anchor()
    i, j, k = sch0.get_loops(sch0.get_block("mm"))
    sch0.split(k, factors=[4, 8])
    sch = Schedule(scaled_matmul_relu)
    ms.trace_apply.schedule_using_anchor_trace(sch, sch0.trace, "llvm")
    (last,) = [b for b in sch.get_child_blocks(sch.get_block("root"))
               if sch.get(b).name_hint == "relu"]
    (loop,) = sch.get_loops(last)
    assert sch.get(loop).kind == ForKind.PARALLEL and int(sch.get(loop).extent) == 64 * 48


def test_gpu_target_binds_the_last_block():
    sch0 = _anchor()
    i, j, k = sch0.get_loops(sch0.get_block("mm"))
    sch0.bind(i, "blockIdx.x")
    sch0.bind(j, "threadIdx.x")
    sch = Schedule(scaled_matmul_relu)
    target = tvm.target.Target({"kind": "cuda", "arch": "sm_80", "max_threads_per_block": 1024})
    ms.trace_apply.schedule_using_anchor_trace(sch, sch0.trace, target)
    script = sch.mod.script()
    # The bias went into the relu, which is bound to threads.
    assert '"scale"' not in script and '"bias"' not in script
    (last,) = [b for b in sch.get_child_blocks(sch.get_block("root"))
               if sch.get(b).name_hint == "relu"]
    threads = [sch.get(loop).thread_binding for loop in sch.get_loops(last)]
    assert any(t is not None and "threadIdx.x" in str(t) for t in threads)


def test_two_unscheduled_blocks_are_refused():
    # A trace of another workload names none of these blocks: two
    # reductions stay as they were.
    @T.prim_func
    def two_sums(a: T.handle, b: T.handle, c: T.handle):
        A = T.match_buffer(a, (16, 16), "float32")
        B = T.match_buffer(b, (16,), "float32")
        C = T.match_buffer(c, (16,), "float32")
        for i, k in T.grid(16, 16):
            with T.block("rows"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
        for i, k in T.grid(16, 16):
            with T.block("cols"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    C[vi] = T.float32(0)
                C[vi] = C[vi] + A[vk, vi]

    sch = Schedule(two_sums)
    with pytest.raises(tvm.tir.ScheduleError, match="2 blocks unscheduled"):
        ms.trace_apply.schedule_using_anchor_trace(sch, _cpu_anchor_trace(), "llvm")
