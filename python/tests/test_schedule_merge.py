"""merge through tir.Schedule: the merged nest, the same numbers as the
unscheduled program, the trace, and refusals that leave the IR as it was."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def two_tiled(A: T.Buffer((8, 12), "float32"), C: T.Buffer((8, 12), "float32"),
              D: T.Buffer((8, 6), "float32")):
    for i_0, i_1, j in T.grid(4, 2, 12):
        with T.block("C"):
            vi = T.axis.spatial(8, i_0 * 2 + i_1)
            vj = T.axis.spatial(12, j)
            C[vi, vj] = A[vi, vj] * T.float32(2)
    for i_0, i_1, j in T.grid(4, 2, 6):
        with T.block("D"):
            vi = T.axis.spatial(8, i_0 * 2 + i_1)
            vj = T.axis.spatial(6, j)
            D[vi, vj] = A[vi, vj * 2] - A[vi, vj * 2 + 1]


@T.prim_func
def chained(A: T.Buffer((8,), "float32"), D: T.Buffer((8,), "float32")):
    C = T.alloc_buffer((8,), "float32")
    for i in range(8):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = A[vi] + T.float32(1)
    for i in range(8):
        with T.block("D"):
            vi = T.axis.remap("S", [i])
            D[vi] = C[7 - vi]


def run(mod):
    a = np.arange(96, dtype="float32").reshape(8, 12)
    c, d = np.zeros((8, 12), "float32"), np.zeros((8, 6), "float32")
    tvm.build(mod)["two_tiled"](a, c, d)
    return c, d


@pytest.mark.parametrize("depth", [0, 1])
def test_merge_runs_and_traces(depth):
    expected = run(two_tiled)
    sch = tvm.tir.Schedule(two_tiled)
    c_loops, d_loops = sch.get_loops("C"), sch.get_loops("D")
    merged = sch.merge(c_loops[depth], d_loops[depth])
    text = sch.mod.mlir()
    assert "tir.for %i_0_m = 0 to 4" in text and text.count("tir.for %i_0") == 1
    assert len(sch.get_loops("C")) == 3 and sch.get_loops("C")[depth] == merged
    got = run(sch.mod)
    assert all(np.array_equal(x, y) for x, y in zip(expected, got))
    verify_trace_roundtrip(sch, two_tiled)


def test_merge_refuses_interleaving_dependent_nests():
    # D reads C[7 - i], written only at iteration 7 - i of C's loop: merged,
    # D would read C before it is written. TVM merges it.
    sch = tvm.tir.Schedule(chained)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match="interleave .* buffer 'C'"):
        sch.merge(sch.get_loops("C")[0], sch.get_loops("D")[0])
    assert sch.mod.mlir() == before
