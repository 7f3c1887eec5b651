"""decompose_reduction: the decomposed program computes the same numbers as
the original (also with the loop inside split and reordered nests), the
init block is returned and the block handle holds the update block, and a
refusal leaves the IR exactly as it was."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def mm(A: T.Buffer((24, 20), "float32"), B: T.Buffer((20, 12), "float32"),
       C: T.Buffer((24, 12), "float32")):
    for i, j, k in T.grid(24, 12, 20):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(1.5)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


@T.prim_func
def row_max(A: T.Buffer((10, 7), "float32"), M: T.Buffer((10,), "float32")):
    for i, k in T.grid(10, 7):
        with T.block("M"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                M[vi] = T.float32(-1e30)
            M[vi] = T.max(M[vi], A[vi, vk])


@T.prim_func
def sum_then_scale(A: T.Buffer((8, 6), "float32"), O: T.Buffer((8,), "float32")):
    S = T.alloc_buffer((8,), "float32")
    for i in range(8):
        for k in range(6):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
        with T.block("O"):
            vi = T.axis.spatial(8, i)
            O[vi] = S[vi] * T.float32(2)


def run(func, name, shapes_in, out_shape, seed=0):
    lib = tvm.build(func, target="llvm")
    rng = np.random.default_rng(seed)
    args = [rng.uniform(-1, 1, s).astype("float32") for s in shapes_in]
    # Garbage in the output: the init must overwrite every element it owns.
    out = np.full(out_shape, 7.0, "float32")
    lib[name](*args, out)
    return out


def check_mm(sch):
    expected = run(mm, "mm", [(24, 20), (20, 12)], (24, 12))
    got = run(sch.mod["main"], "mm", [(24, 20), (20, 12)], (24, 12))
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    verify_trace_roundtrip(sch, mod=mm)


@pytest.mark.parametrize("at", [0, 1, 2])
def test_each_loop_same_numbers(at):
    sch = tvm.tir.Schedule(mm)
    block = sch.get_block("C")
    loops = sch.get_loops(block)
    init = sch.decompose_reduction(block, loops[at])
    assert sch.get(init).name_hint == "C_init"
    assert sch.get(block).name_hint == "C_update"
    assert len(sch.get_loops(init)) == 2
    check_mm(sch)


def test_split_nest_same_numbers():
    # 24 = 3 x 8 and 20 -> 3 x 7 (a predicate over the reduction loops,
    # which the init drops).
    sch = tvm.tir.Schedule(mm)
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    i0, i1 = sch.split(i, factors=[3, 8])
    k0, k1 = sch.split(k, factors=[None, 7])
    init = sch.decompose_reduction(block, i1)
    # The init stays under i0 and copies i1 and j.
    assert len(sch.get_loops(init)) == 3
    assert "where" not in str(sch.get(init))
    check_mm(sch)


def test_reordered_tiled_nest_same_numbers():
    # Tiles: i0, j0, k0, i1, k1, j1, the init at k0 (inside the tile loops,
    # above the reduction): the init copies i1 and j1 below i0, j0.
    sch = tvm.tir.Schedule(mm)
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    i0, i1 = sch.split(i, factors=[None, 8])
    j0, j1 = sch.split(j, factors=[None, 4])
    k0, k1 = sch.split(k, factors=[None, 5])
    sch.reorder(i0, j0, k0, i1, k1, j1)
    with pytest.raises(tvm.tir.ScheduleError, match="higher than every loop"):
        sch.decompose_reduction(block, i1)
    init = sch.decompose_reduction(block, k0)
    assert len(sch.get_loops(init)) == 4
    sch.vectorize(sch.get_loops(init)[-1])
    check_mm(sch)


def test_non_dividing_spatial_split_keeps_predicate():
    # 10 rows split 4 x 3: the init keeps the predicate over the rows.
    sch = tvm.tir.Schedule(row_max)
    block = sch.get_block("M")
    i, k = sch.get_loops(block)
    i0, i1 = sch.split(i, factors=[None, 3])
    sch.parallel(i0)
    init = sch.decompose_reduction(block, i0)
    assert "where" in str(sch.get(init))
    expected = run(row_max, "row_max", [(10, 7)], (10,))
    got = run(sch.mod["main"], "row_max", [(10, 7)], (10,))
    np.testing.assert_array_equal(got, expected)
    verify_trace_roundtrip(sch, mod=row_max)


def test_later_reader_same_numbers():
    sch = tvm.tir.Schedule(sum_then_scale)
    block = sch.get_block("S")
    i, _ = sch.get_loops(block)
    sch.decompose_reduction(block, i)
    expected = run(sum_then_scale, "sum_then_scale", [(8, 6)], (8,))
    got = run(sch.mod["main"], "sum_then_scale", [(8, 6)], (8,))
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_block_name_and_trace():
    sch = tvm.tir.Schedule(mm)
    _, j, _ = sch.get_loops("C")
    init = sch.decompose_reduction("C", j)
    python = "\n".join(sch.trace.as_python())
    assert "sch.decompose_reduction(" in python
    assert "transform.tir.decompose_reduction" in sch.trace.as_transform_script()
    assert sch.get(init).same_as(sch.get(sch.get_block("C_init")))
    verify_trace_roundtrip(sch, mod=mm)


def test_refusals_leave_ir():
    sch = tvm.tir.Schedule(mm)
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    sch.reorder(k, i, j)
    before = str(sch.mod)
    with pytest.raises(tvm.tir.ScheduleError, match="higher than every loop"):
        sch.decompose_reduction(block, i)
    assert str(sch.mod) == before
    init = sch.decompose_reduction(block, k)
    # Once decomposed, the update block has no init: not a reduction block.
    before = str(sch.mod)
    with pytest.raises(tvm.tir.ScheduleError, match="no tir.init"):
        sch.decompose_reduction(block, k)
    with pytest.raises(tvm.tir.ScheduleError, match="ancestor"):
        sch.decompose_reduction(init, k)
    assert str(sch.mod) == before
    check_mm(sch)


def test_reader_before_refused():
    @T.prim_func
    def reads_first(A: T.Buffer((8, 6), "float32"), S: T.Buffer((8,), "float32"),
                    O: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("O"):
                vi = T.axis.spatial(8, i)
                O[vi] = S[vi]
            for k in range(6):
                with T.block("S"):
                    vi, vk = T.axis.remap("SR", [i, k])
                    with T.init():
                        S[vi] = T.float32(0)
                    S[vi] = S[vi] + A[vi, vk]

    sch = tvm.tir.Schedule(reads_first)
    i, _ = sch.get_loops("S")
    before = str(sch.mod)
    with pytest.raises(tvm.tir.ScheduleError, match="comes before it"):
        sch.decompose_reduction("S", i)
    assert str(sch.mod) == before


@T.prim_func
def row_sum_scaled(A: T.Buffer((6, 10), "float32"), B: T.Buffer((6, 10), "float32")):
    S = T.alloc_buffer((6,), "float32")
    for i, k in T.grid(6, 10):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + A[vi, vk]
    for i, j in T.grid(6, 10):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] / S[vi]


def test_repeated_reduction_refused():
    # compute_at under j recomputes each row sum for every j, each from its
    # init; fused, one loop repeats the rows: a hoisted init would run once
    # for ten sums (TVM decomposes it and gets ten times the sum).
    sch = tvm.tir.Schedule(row_sum_scaled)
    sch.compute_at(sch.get_block("S"), sch.get_loops("B")[1])
    sch.fuse(*sch.get_loops("B"))
    before = str(sch.mod)
    with pytest.raises(tvm.tir.ScheduleError, match="repeat one"):
        sch.decompose_reduction("S", sch.get_loops("S")[0])
    assert str(sch.mod) == before
    # At the reduction loop itself each repetition gets its own init.
    sch.decompose_reduction("S", sch.get_loops("S")[1])
    expected = run(row_sum_scaled, "row_sum_scaled", [(6, 10)], (6, 10))
    got = run(sch.mod["main"], "row_sum_scaled", [(6, 10)], (6, 10))
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@T.prim_func
def matmul_relu(A: T.Buffer((10, 8), "float32"), B: T.Buffer((8, 12), "float32"),
                D: T.Buffer((10, 12), "float32")):
    Y = T.alloc_buffer((10, 12), "float32")
    for i, j, k in T.grid(10, 12, 8):
        with T.block("Y"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                Y[vi, vj] = T.float32(0)
            Y[vi, vj] = Y[vi, vj] + A[vi, vk] * B[vk, vj]
    for i, j in T.grid(10, 12):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = T.max(Y[vi, vj], T.float32(0))


def test_consumer_moved_under_the_loop_same_numbers():
    # The consumer reads, in each iteration of i0, the rows the reduction
    # finished there: the init may go above i0.
    sch = tvm.tir.Schedule(matmul_relu)
    i, j, k = sch.get_loops("Y")
    i0, i1 = sch.split(i, factors=[None, 2])
    sch.reverse_compute_at(sch.get_block("D"), i0)
    init = sch.decompose_reduction("Y", i0)
    assert len(sch.get_loops(init)) == 3
    expected = run(matmul_relu, "matmul_relu", [(10, 8), (8, 12)], (10, 12))
    got = run(sch.mod["main"], "matmul_relu", [(10, 8), (8, 12)], (10, 12))
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    verify_trace_roundtrip(sch, mod=matmul_relu)


@T.prim_func
def chunk_sum(A: T.Buffer((1, 12), "float32"), S: T.Buffer((1,), "float32")):
    # A reduction over chunks of 4, each block staging its chunk; the
    # spatial variable has a one-point domain.
    for i, c in T.grid(1, 3):
        with T.block("chunk"):
            vi, vc = T.axis.remap("SR", [i, c])
            P = T.alloc_buffer((4,), "float32")
            with T.init():
                S[vi] = T.float32(0.5)
            for e in range(4):
                with T.block("stage"):
                    ve = T.axis.spatial(4, e)
                    P[ve] = A[vi, vc * 4 + ve]
            for e in range(4):
                with T.block("add"):
                    ve = T.axis.reduce(4, e)
                    S[vi] = S[vi] + P[ve]


@T.prim_func
def chunk_sum_decomposed(A: T.Buffer((1, 12), "float32"), S: T.Buffer((1,), "float32")):
    for i in range(1):
        with T.block("chunk_init"):
            vi = T.axis.spatial(1, i)
            T.reads()
            T.writes(S[vi])
            S[vi] = T.float32(0.5)
        for c in range(3):
            with T.block("chunk_update"):
                vi, vc = T.axis.remap("SR", [i, c])
                # The variable stays in the regions (not S[0]), as in TVM.
                T.reads(S[vi], A[vi, vc * 4:vc * 4 + 4])
                T.writes(S[vi])
                P = T.alloc_buffer((4,), "float32")
                for e in range(4):
                    with T.block("stage"):
                        ve = T.axis.spatial(4, e)
                        P[ve] = A[vi, vc * 4 + ve]
                for e in range(4):
                    with T.block("add"):
                        ve = T.axis.reduce(4, e)
                        S[vi] = S[vi] + P[ve]


def test_nested_blocks_one_point_variable():
    sch = tvm.tir.Schedule(chunk_sum)
    _, c = sch.get_loops("chunk")
    sch.decompose_reduction("chunk", c)
    tvm.ir.assert_structural_equal(sch.mod["main"], chunk_sum_decomposed)
    expected = run(chunk_sum, "chunk_sum", [(1, 12)], (1,))
    got = run(sch.mod["main"], "chunk_sum", [(1, 12)], (1,))
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    verify_trace_roundtrip(sch, mod=chunk_sum)
