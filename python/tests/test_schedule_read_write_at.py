"""read_at / write_at: a tiled matmul reading A and B through copies made
at its reduction loop and writing C through a copy written back per tile
computes what the unscheduled one does (built and run); the copies are
named, annotated and bound as TVM's; the trace replays; an unknown scope
and a block outside the loop are refused, leaving the program as it was."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def matmul(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32"),
           C: T.Buffer((32, 32), "float32")):
    for i, j, k in T.grid(32, 32, 32):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


def scheduled():
    sch = tvm.tir.Schedule(matmul, debug_mask="all")
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    io, ii = sch.split(i, [4, 8])
    jo, ji = sch.split(j, [4, 8])
    ko, ki = sch.split(k, [8, 4])
    sch.reorder(io, jo, ko, ii, ji, ki)
    a = sch.read_at(ko, c, 0, "local")
    b = sch.read_at(ko, c, 1, "local")
    w = sch.write_at(jo, c, 0, "global")
    return sch, (a, b, w)


def test_copies_compute_the_same():
    sch, (a, b, w) = scheduled()
    assert [sch.get(x).name_hint for x in (a, b, w)] == ["A_local", "B_local", "C_global"]
    assert sch.get(a).annotations["auto_copy"]
    assert [iv.var.name for iv in sch.get(a).iter_vars] == ["v0", "v1"]
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (32, 32)).astype("float32")
    y = rng.uniform(-1, 1, (32, 32)).astype("float32")
    z = np.zeros((32, 32), "float32")
    tvm.build(sch.mod)(x, y, z)
    np.testing.assert_allclose(z, x @ y, rtol=1e-5, atol=1e-5)
    verify_trace_roundtrip(sch, mod=matmul)
    assert ('sch.read_at(loop=l8, block=b0, read_buffer_index=0, storage_scope="local")'
            in str(sch.trace))


@pytest.mark.parametrize("args, message", [
    (lambda s, c, l: (l[2], c, 0, "fast"), "'fast' is not a storage scope"),
    (lambda s, c, l: (l[0], c, 3, "local"), "there is no read buffer 3"),
])
def test_refusals_leave_the_program(args, message):
    sch = tvm.tir.Schedule(matmul)
    c = sch.get_block("C")
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match=message):
        sch.read_at(*args(sch, c, sch.get_loops(c)))
    assert sch.mod.mlir() == before


@T.prim_func
def row_scale(A: T.Buffer((6, 10), "float32"), B: T.Buffer((6, 10), "float32")):
    for i, j in T.grid(6, 10):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0


def test_write_at_refuses_a_block_listing_more_than_it_writes():
    # loop_partition's parts list whole dimensions (B[0:6, 7:10]) while
    # each writes one row: copying the listed region back per row would
    # write rows the block never wrote (garbage from the copy buffer).
    sch = tvm.tir.Schedule(row_scale)
    sch.loop_partition(sch.get_loops(sch.get_block("B"))[1], factors=[None, 3])
    part = sch.get_block("B_j1")
    before = sch.mod.script()
    with pytest.raises(tvm.tir.ScheduleError, match="lists a wider region of 'B' than its body"):
        sch.write_at(sch.get_loops(part)[0], part, 0, "shared")
    assert sch.mod.script() == before
