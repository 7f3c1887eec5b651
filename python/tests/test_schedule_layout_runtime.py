"""transform_layout with runtime values: an index map over a function's
shape variable or scalar parameter (TVM's free variables in an index map,
`lambda i, j: i * n + j`) and buffers of runtime shape. The parameter takes
the new layout (its runtime extents `?`), the accesses go through the map
with the value, the result is what the unscheduled program computes on the
same memory (built and run for several sizes), the trace replays from its
JSON and its transform script; what is not supported yet is refused by
name."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import tir
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def column_pick(a: T.handle, c: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, 8), "float32")
    C = T.match_buffer(c, (4, n), "float32")
    for i, j in T.grid(4, n):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = A[vj, vi * 2] + T.float32(1)


@T.prim_func
def scaled_rows(A: T.Buffer((6, 4), "float32"), B: T.Buffer((6, 4), "float32"), m: T.int32):
    for i, j in T.grid(6, 4):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)


def run(mod, *arrays):
    args = [tvm.nd.array(a) for a in arrays]
    tvm.build(mod, target="llvm")(*args)
    return [a.numpy() for a in args]


def flatten_rows(sch, n):
    sch.transform_layout("C", ("write", 0), lambda i, j: i * n + j,
                         assume_injective_transform=True)


@pytest.mark.parametrize("size", [1, 5, 13])
def test_a_shape_variable_in_the_map_flattens_a_runtime_buffer(size):
    sch = tir.Schedule(column_pick, debug_mask="all")
    n = column_pick.buffer_map[column_pick.params[0]].shape[0]
    flatten_rows(sch, n)
    text = sch.mod.script()
    # C is now one runtime dimension, indexed through the map with n.
    assert "C[vi * n + vj]" in text
    a = np.random.default_rng(size).random((size, 8)).astype("float32")
    (_, want) = run(column_pick, a, np.zeros((4, size), "float32"))
    (_, got) = run(sch.mod, a, np.zeros((4 * size,), "float32"))
    np.testing.assert_array_equal(got, want.reshape(-1))


def test_the_trace_names_the_variable_and_replays():
    sch = tir.Schedule(column_pick, debug_mask="all")
    flatten_rows(sch, column_pick.buffer_map[column_pick.params[0]].shape[0])
    # TVM's Python form, with the variable by name (a replay in Python
    # needs `n` defined, as TVM's does: the round trip defines the
    # function's variables).
    assert "index_map=lambda d0, d1: (((d0 * n) + d1), )" in str(sch.trace)
    verify_trace_roundtrip(sch, mod=column_pick)


def test_a_scalar_parameter_in_the_map():
    # The rows of B are m apart: for m = 4 the layout is B's own memory.
    sch = tir.Schedule(scaled_rows, debug_mask="all")
    m = scaled_rows.params[2]
    sch.transform_layout("B", ("write", 0), lambda i, j: i * m + j,
                         assume_injective_transform=True)
    assert "B[vi * m + vj]" in sch.mod.script()
    verify_trace_roundtrip(sch, mod=scaled_rows)
    a = np.arange(24, dtype="float32").reshape(6, 4)
    lib = tvm.build(sch.mod, target="llvm")
    b = tvm.nd.array(np.zeros((24,), "float32"))
    lib(tvm.nd.array(a), b, 4)
    np.testing.assert_array_equal(b.numpy(), (a * 2).reshape(-1))


def test_what_is_not_supported_yet_is_refused():
    sch = tir.Schedule(column_pick, debug_mask="all")
    n = column_pick.buffer_map[column_pick.params[0]].shape[0]
    with pytest.raises(tvm.tir.ScheduleError, match="needs assume_injective_transform=True"):
        sch.transform_layout("C", ("write", 0), lambda i, j: i * n + j)
    with pytest.raises(tvm.tir.ScheduleError, match="padding with an index map over runtime"):
        sch.transform_layout("C", ("write", 0), lambda i, j: [i, j // 4, j % 4], pad_value=0.0,
                             assume_injective_transform=True)
    stranger = tvm.tir.Var("k", "int64")
    with pytest.raises(tvm.tir.ScheduleError,
                       match="uses 'k', which is neither a scalar parameter nor a shape "
                             "variable of function 'main'"):
        sch.transform_layout("C", ("write", 0), lambda i, j: i * stranger + j,
                             assume_injective_transform=True)
    tvm.ir.assert_structural_equal(sch.mod["main"], column_pick)


def test_an_allocation_of_runtime_shape_is_refused():
    @T.prim_func
    def staged(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32"), n: T.int32):
        S = T.alloc_buffer((4, 8), "float32")
        for i, j in T.grid(4, 8):
            with T.block("S"):
                vi, vj = T.axis.remap("SS", [i, j])
                S[vi, vj] = A[vi, vj]
        for i, j in T.grid(4, 8):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = S[vi, vj]

    sch = tir.Schedule(staged, debug_mask="all")
    n = staged.params[2]
    with pytest.raises(tvm.tir.ScheduleError,
                       match="allocated buffer 'S' would have a runtime shape"):
        sch.transform_layout("S", ("write", 0), lambda i, j: [i * n + j],
                             assume_injective_transform=True)


def test_a_block_layout_over_runtime_values_is_refused():
    sch = tir.Schedule(column_pick, debug_mask="all")
    n = column_pick.buffer_map[column_pick.params[0]].shape[0]
    with pytest.raises(tvm.tir.ScheduleError,
                       match=r"transform_block_layout: an index map over runtime values \(n\) "
                             r"is not supported yet"):
        sch.transform_block_layout("C", lambda i, j: [i * n + j])
