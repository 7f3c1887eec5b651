"""merge through tir.Schedule: the merged nest, the same numbers as the
unscheduled program, the trace, and refusals that leave the IR as it was."""
import os
import sys

import numpy as np
import pytest

from conftest import ROOT

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip

sys.path.insert(0, os.path.join(ROOT, "tools", "schedule-diff"))
from kernels import two_outputs  # noqa: E402  (C and D share only what they read)


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
    outputs = np.zeros((8, 12), "float32"), np.zeros((8, 6), "float32"), np.zeros(8, "float32")
    tvm.build(mod)["two_outputs"](a, *outputs)
    return outputs


@pytest.mark.parametrize("depth", [0, 1])
def test_merge_runs_and_traces(depth):
    expected = run(two_outputs)
    sch = tvm.tir.Schedule(two_outputs)
    c_loops, d_loops = sch.get_loops("C"), sch.get_loops("D")
    merged = sch.merge(c_loops[depth], d_loops[depth])
    text = sch.mod.mlir()
    assert "tir.for %i_0_m = 0 to 4" in text and text.count("tir.for %i_0") == 1
    assert len(sch.get_loops("C")) == 3 and sch.get_loops("C")[depth] == merged
    got = run(sch.mod)
    assert all(np.array_equal(x, y) for x, y in zip(expected, got))
    verify_trace_roundtrip(sch, two_outputs)


def test_merge_refuses_interleaving_dependent_nests():
    # D reads C[7 - i], written only at iteration 7 - i of C's loop: merged,
    # D would read C before it is written. TVM merges it.
    sch = tvm.tir.Schedule(chained)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match="interleave .* buffer 'C'"):
        sch.merge(sch.get_loops("C")[0], sch.get_loops("D")[0])
    assert sch.mod.mlir() == before
