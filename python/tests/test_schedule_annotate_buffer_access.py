"""annotate_buffer_access: the region given replaces the inferred one (the
block lists its regions, the annotation names the buffer once), compute_at
of the producer then computes the window given and the result is what the
unscheduled program computes (built and run); the trace replays; ranges of
the wrong shape, empty ranges and write regions that miss the stores are
refused, leaving the program as it was."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def downsample(x: T.Buffer((64,), "float32"), y: T.Buffer((16,), "float32")):
    xc = T.alloc_buffer((64,), "float32")
    for i in range(64):
        with T.block("copy"):
            vi = T.axis.remap("S", [i])
            xc[vi] = x[vi] * T.float32(2)
    for i in range(16):
        with T.block("pick"):
            vi = T.axis.remap("S", [i])
            # The index is computed in float: inference covers all of xc.
            y[vi] = xc[T.Cast("int32", T.floor(vi * 4 + 1.5))]


def run(mod):
    x = np.arange(64, dtype="float32")
    y = np.zeros(16, "float32")
    tvm.build(mod)(x, y)
    return y


def test_annotated_window_bounds_compute_at():
    sch = tvm.tir.Schedule(downsample, debug_mask="all")
    pick = sch.get_block("pick")
    sch.annotate_buffer_access(pick, 0, "read", lambda vi: [(vi * 4, vi * 4 + 4)])
    assert sch.get(pick).annotations == {"explicit_read_region": [0]}
    (i,) = sch.get_loops(pick)
    sch.compute_at(sch.get_block("copy"), i)
    (inner,) = sch.get_loops(sch.get_block("copy"))[1:]
    assert sch.get(inner).extent == 4
    np.testing.assert_array_equal(run(sch.mod), np.arange(16, dtype="float32") * 8 + 2)
    verify_trace_roundtrip(sch, mod=downsample)
    assert ('sch.annotate_buffer_access(block=b0, buffer_index=0, buf_type="read", '
            'gen_new_ranges=lambda d0: [((d0 * 4), ((d0 * 4) + 4))])') in str(sch.trace)


def test_annotating_again_replaces_the_region():
    sch = tvm.tir.Schedule(downsample)
    pick = sch.get_block("pick")
    sch.annotate_buffer_access(pick, 0, "read", lambda vi: [(vi * 4, vi * 4 + 8)])
    sch.annotate_buffer_access(pick, 0, "read", lambda vi: [(vi * 4, vi * 4 + 4)])
    text = sch.mod.script()
    assert "T.reads(xc[vi * 4:vi * 4 + 4])" in text
    assert text.count("explicit_read_region") == 1


@pytest.mark.parametrize("args, error, message", [
    ((0, "read", lambda vi: [(vi * 4, vi * 4)]), tvm.tir.ScheduleError, "range 0 is empty"),
    ((0, "write", lambda vi: [(vi + 1, vi + 2)]), tvm.tir.ScheduleError,
     "the write region given does not hold what block 'pick' stores"),
    ((0, "read", lambda vi: [(0, 4), (0, 4)]), tvm.tir.ScheduleError,
     r"has 1 dimensions, but 2 \(begin, end\) ranges are given"),
    ((2, "read", lambda vi: [(0, 4)]), tvm.tir.ScheduleError, "there is no read buffer 2"),
    ((0, "both", lambda vi: [(0, 4)]), ValueError, "Invalid buf_type: both"),
    ((0, "read", lambda vi: [(0, 1, 2)]), ValueError, "exactly 2 elements"),
    ((0, "read", lambda vi: [3]), TypeError, "Expected PrimExpr or tuple of PrimExpr"),
])
def test_refusals_leave_the_program(args, error, message):
    sch = tvm.tir.Schedule(downsample)
    before = sch.mod.mlir()
    with pytest.raises(error, match=message):
        sch.annotate_buffer_access(sch.get_block("pick"), *args)
    assert sch.mod.mlir() == before
