"""unsafe_set_dtype: an intermediate buffer kept in float16 computes what
float16 storage gives (built and run), matched views follow, the trace
replays, and buffers the function does not allocate and out-of-range
indices are refused."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def elementwise(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    B = T.alloc_buffer((16, 16), "float32")
    for i, j in T.grid(16, 16):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(3)
    for i, j in T.grid(16, 16):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)


@pytest.mark.parametrize("by_name", [False, True])
def test_float16_storage_rounds_as_float16(by_name):
    sch = tvm.tir.Schedule(elementwise, debug_mask="all")
    sch.unsafe_set_dtype("B" if by_name else sch.get_block("B"), 0, "float16")
    assert sch.get(sch.get_block("B")).writes[0].buffer.dtype == "float16"
    a = np.random.default_rng(0).uniform(-100, 100, (16, 16)).astype("float32")
    c = np.zeros((16, 16), "float32")
    tvm.build(sch.mod)(a, c)
    expected = (a * 3).astype("float16").astype("float32") + 1
    np.testing.assert_array_equal(c, expected)
    verify_trace_roundtrip(sch, mod=elementwise)
    assert 'sch.unsafe_set_dtype(block=b0, buffer_index=0, dtype="float16")' in str(sch.trace)


def test_the_dtype_the_buffer_has_is_no_change():
    sch = tvm.tir.Schedule(elementwise)
    before = sch.mod.mlir()
    sch.unsafe_set_dtype("B", 0, "float32")
    assert sch.mod.mlir() == before


@pytest.mark.parametrize("block, index, dtype, message", [
    ("C", 0, "float16", "the input buffer C is not allocated by a block"),
    ("B", 1, "float16", "block 'B' writes 1 buffers; there is no write buffer 1"),
    ("B", 0, "float17", "'float17' is not a scalar dtype"),
])
def test_refusals_leave_the_program(block, index, dtype, message):
    sch = tvm.tir.Schedule(elementwise)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match=message):
        sch.unsafe_set_dtype(block, index, dtype)
    assert sch.mod.mlir() == before
