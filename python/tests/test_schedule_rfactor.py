"""rfactor through tir.Schedule: the factored program computes the numbers
of the unscheduled one for each reducer (sum, max, product, the int
argmax / argmin pairs of topi and of TVMScript, a zero-dimensional sum
that keeps no reduce variable), runs after parallelizing the partial
results, traces, and refusals leave the IR as it was."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import te, topi
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def row_sum(A: T.Buffer((16, 96), "float32"), B: T.Buffer((16,), "float32")):
    for i, k in T.grid(16, 96):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk] * T.float32(2)


@T.prim_func
def row_max(A: T.Buffer((16, 96), "float32"), B: T.Buffer((16,), "float32")):
    for i, k in T.grid(16, 96):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.min_value("float32")
            B[vi] = T.max(A[vi, vk], B[vi])


@T.prim_func
def row_prod(A: T.Buffer((16, 12), "int32"), B: T.Buffer((16,), "int32")):
    for i, k in T.grid(16, 12):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = 1
            B[vi] = B[vi] * A[vi, vk]


@T.prim_func
def total(A: T.Buffer((64,), "float32"), B: T.Buffer((), "float32")):
    for k in range(64):
        with T.block("B"):
            vk = T.axis.remap("R", [k])
            with T.init():
                B[()] = T.float32(0)
            B[()] = B[()] + A[vk]


@T.prim_func
def argmin_pairs(idx: T.Buffer((8, 64), "int32"), val: T.Buffer((8, 64), "float32"),
                 out_i: T.Buffer((8,), "int32"), out_v: T.Buffer((8,), "float32")):
    for i, k in T.grid(8, 64):
        with T.block("argmin"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                out_v[vi] = T.max_value("float32")
                out_i[vi] = -1
            v_i: T.int32 = T.Select(out_v[vi] <= val[vi, vk], out_i[vi], idx[vi, vk])
            v_v: T.float32 = T.Select(out_v[vi] <= val[vi, vk], out_v[vi], val[vi, vk])
            out_v[vi] = v_v
            out_i[vi] = v_i


@T.prim_func
def sum_reads_output(A: T.Buffer((16, 96), "float32"), B: T.Buffer((16,), "float32")):
    for i, k in T.grid(16, 96):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk] * B[vi]


def run(mod, name, *arrays):
    outs = [a.copy() for a in arrays]
    tvm.build(mod)[name](*outs)
    return outs


def inputs_for(func):
    rng = np.random.default_rng(7)
    if func is row_sum or func is row_max:
        return [rng.standard_normal((16, 96)).astype("float32"), np.zeros(16, "float32")]
    if func is row_prod:
        return [rng.integers(-2, 3, (16, 12)).astype("int32"), np.zeros(16, "int32")]
    if func is total:
        return [rng.standard_normal(64).astype("float32"), np.zeros((), "float32")]
    # Distinct values: TVMScript's argmin pair keeps the current pair on
    # ties, so after rfactor a tie may go to another index of the same
    # minimum (test_rfactor_argmin_ties).
    return [np.tile(np.arange(64, dtype="int32"), (8, 1)),
            np.stack([rng.permutation(64) for _ in range(8)]).astype("float32"),
            np.zeros(8, "int32"), np.zeros(8, "float32")]


@pytest.mark.parametrize("func,block,split,at,factor_axis", [
    (row_sum, "B", [None, 8], 1, 0), (row_sum, "B", [None, 8], 1, -1),
    (row_max, "B", [4, None], 0, 1), (row_prod, "B", [None, 3], 1, 0),
    (argmin_pairs, "argmin", [None, 16], 1, 1), (total, "B", None, 0, 0)])
def test_rfactor_runs_like_the_original(func, block, split, at, factor_axis):
    name = func.name
    arrays = inputs_for(func)
    expected = run(func, name, *arrays)
    sch = tvm.tir.Schedule(func)
    loops = sch.get_loops(block)
    rf_loop = sch.split(loops[-1], split)[at] if split else loops[-1]
    rf = sch.rfactor(rf_loop, factor_axis)
    assert sch.get(rf).name_hint == block + "_rf"
    # The write-back block keeps the spatial loops and the rfactor loop.
    assert len(sch.get_loops(block)) == len(loops)
    got = run(sch.mod, name, *arrays)
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g, e, rtol=1e-5)
    verify_trace_roundtrip(sch, func)


def test_rfactor_partial_results_run_in_parallel():
    arrays = inputs_for(row_sum)
    expected = run(row_sum, "row_sum", *arrays)
    sch = tvm.tir.Schedule(row_sum)
    _, k = sch.get_loops("B")
    ko, ki = sch.split(k, [4, None])
    rf = sch.rfactor(ko, 0)
    rf_ko = sch.get_loops(rf)[1]
    sch.reorder(rf_ko, sch.get_loops(rf)[0])
    sch.parallel(sch.get_loops(rf)[0])
    text = sch.mod.mlir()
    assert "parallel" in text and "memref<4x16xf32>" in text
    np.testing.assert_allclose(run(sch.mod, "row_sum", *arrays)[1], expected[1], rtol=1e-5)


@T.prim_func
def total_then_scale(A: T.Buffer((256,), "float32"), B: T.Buffer((), "float32"),
                     C: T.Buffer((256,), "float32")):
    # A sum over a split in four, then a block reading the scalar it wrote.
    for k0, k1, k2, k3 in T.grid(4, 4, 4, 4):
        with T.block("B"):
            vk = T.axis.reduce(256, k0 * 64 + k1 * 16 + k2 * 4 + k3)
            with T.init():
                B[()] = T.float32(0)
            B[()] = B[()] + A[vk]
    for i in range(256):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = A[vi] / B[()]


@pytest.mark.parametrize("at", [0, 1, 2, 3])
def test_rfactor_of_a_four_part_split(at):
    # Each loop the reduce variable uses but the rfactor loop becomes a
    # reduce variable of its own; the scalar's reader is covered.
    a = np.random.default_rng(5).random(256).astype("float32") + 0.5
    expected = run(total_then_scale, "total_then_scale", a, np.zeros((), "float32"),
                   np.zeros(256, "float32"))
    sch = tvm.tir.Schedule(total_then_scale)
    sch.rfactor(sch.get_loops("B")[at], 0)
    header = next(line for line in sch.mod.mlir().splitlines() if 'tir.block "B_rf"' in line)
    assert header.count("spatial(") == 1 and header.count("reduce(") == 3
    got = run(sch.mod, "total_then_scale", a, np.zeros((), "float32"), np.zeros(256, "float32"))
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g, e, rtol=1e-5)
    verify_trace_roundtrip(sch, total_then_scale)


def test_rfactor_argmin_ties():
    # Ties: the index found points at a minimum, though not always the
    # first one (TVM's pair reducer in this form is commutative only up to
    # which tied index wins); the minimum itself is exact.
    idx = np.tile(np.arange(64, dtype="int32"), (8, 1))
    val = np.random.default_rng(1).integers(0, 3, (8, 64)).astype("float32")
    sch = tvm.tir.Schedule(argmin_pairs)
    _, k = sch.get_loops("argmin")
    sch.rfactor(sch.split(k, [None, 16])[1], 0)
    out_i, out_v = np.zeros(8, "int32"), np.zeros(8, "float32")
    tvm.build(sch.mod)["argmin_pairs"](idx, val, out_i, out_v)
    np.testing.assert_array_equal(out_v, val.min(axis=1))
    np.testing.assert_array_equal(val[np.arange(8), out_i], out_v)


def test_rfactor_topi_argmax():
    data = te.placeholder((4, 40), dtype="int32", name="data")
    func = te.create_prim_func([data, topi.argmax(data, axis=1)])
    rng = np.random.default_rng(3)
    a = rng.integers(0, 6, (4, 40)).astype("int32")  # ties: the first index wins
    sch = tvm.tir.Schedule(func)
    _, k = sch.get_loops("data_red_temp")
    _, ki = sch.split(k, [None, 8])
    sch.rfactor(ki, 0)
    out = np.zeros(4, "int32")
    tvm.build(sch.mod)["main"](a, out)
    np.testing.assert_array_equal(out, np.argmax(a, axis=1))


@pytest.mark.parametrize("func,loop,match", [
    (row_sum, 0, "feeds a spatial variable of block 'B'"),
    (sum_reads_output, 1, "read the buffers it reduces into"),
    (row_sum, 1, r"factor_axis in \[-2, 1\]")])
def test_rfactor_refusals_leave_the_ir(func, loop, match):
    sch = tvm.tir.Schedule(func)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match=match):
        sch.rfactor(sch.get_loops("B")[loop], 3 if "factor_axis" in match else 0)
    assert sch.mod.mlir() == before
