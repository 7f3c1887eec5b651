"""compute_at / reverse_compute_at: scheduled and unscheduled programs give
the same numbers, and a refused primitive leaves the IR as it was."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T


@T.prim_func
def two_stage(A: T.Buffer((10, 8), "float32"), C: T.Buffer((10, 8), "float32")):
    B = T.alloc_buffer((10, 8), "float32")
    for i, j in T.grid(10, 8):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0
    for i, j in T.grid(10, 8):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + 1.0


@T.prim_func
def window_sum(A: T.Buffer((12,), "float32"), C: T.Buffer((10,), "float32")):
    B = T.alloc_buffer((12,), "float32")
    for i in range(12):
        with T.block("B"):
            vi = T.axis.spatial(12, i)
            B[vi] = A[vi] + 1.0
    for i, k in T.grid(10, 3):
        with T.block("C"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                C[vi] = 0.0
            C[vi] = C[vi] + B[vi + vk]


def run(func, name, *shapes_in, out_shape):
    lib = tvm.build(func, target="llvm")
    rng = np.random.default_rng(0)
    args = [rng.uniform(-1, 1, s).astype("float32") for s in shapes_in]
    out = np.zeros(out_shape, "float32")
    # The scheduled function keeps the name of the one it came from.
    lib[name](*args, out)
    return out


def test_compute_at_non_dividing_split_same_numbers():
    sch = tvm.tir.Schedule(two_stage)
    i, _ = sch.get_loops(sch.get_block("C"))
    io, _ = sch.split(i, factors=[None, 4])
    sch.compute_at(sch.get_block("B"), io)
    assert len(sch.get_loops(sch.get_block("B"))) == 3
    expected = run(two_stage, "two_stage", (10, 8), out_shape=(10, 8))
    got = run(sch.mod["main"], "two_stage", (10, 8), out_shape=(10, 8))
    np.testing.assert_array_equal(got, expected)


def test_compute_at_window_covers_overlap():
    sch = tvm.tir.Schedule(window_sum)
    i, _ = sch.get_loops(sch.get_block("C"))
    io, _ = sch.split(i, factors=[None, 4])
    sch.compute_at(sch.get_block("B"), io)
    # 4 outputs read 4 + 3 - 1 = 6 inputs.
    loops = sch.get_loops(sch.get_block("B"))
    assert "range(6)" in sch.mod["main"].script()
    expected = run(window_sum, "window_sum", (12,), out_shape=(10,))
    got = run(sch.mod["main"], "window_sum", (12,), out_shape=(10,))
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    assert len(loops) == 2


def test_reverse_compute_at_same_numbers():
    sch = tvm.tir.Schedule(two_stage)
    i, _ = sch.get_loops(sch.get_block("B"))
    # A dividing split: producers with a predicate are refused for now.
    io, _ = sch.split(i, factors=[None, 5])
    sch.reverse_compute_at(sch.get_block("C"), io)
    expected = run(two_stage, "two_stage", (10, 8), out_shape=(10, 8))
    got = run(sch.mod["main"], "two_stage", (10, 8), out_shape=(10, 8))
    np.testing.assert_array_equal(got, expected)


def test_refused_compute_at_leaves_ir():
    sch = tvm.tir.Schedule(two_stage)
    before = str(sch.mod)
    i, _ = sch.get_loops(sch.get_block("B"))
    with pytest.raises(tvm.tir.ScheduleError, match="output block"):
        sch.compute_at(sch.get_block("C"), i)
    with pytest.raises(tvm.tir.ScheduleError, match="ancestor"):
        sch.compute_at(sch.get_block("B"), i)
    assert str(sch.mod) == before


def test_trace_records_compute_at():
    sch = tvm.tir.Schedule(two_stage)
    i, _ = sch.get_loops(sch.get_block("C"))
    sch.compute_at(sch.get_block("B"), i)
    text = str("\n".join(sch.trace.as_python()))
    assert "compute_at(block=" in text and "preserve_unit_loops=False, index=-1" in text
    assert "transform.tir.compute_at" in sch.trace.as_transform_script() if hasattr(
        sch.trace, "as_transform_script") else True


@T.prim_func
def row_softmax(A: T.Buffer((6, 10), "float32"), B: T.Buffer((6, 10), "float32")):
    E = T.alloc_buffer((6, 10), "float32")
    S = T.alloc_buffer((6,), "float32")
    for i, j in T.grid(6, 10):
        with T.block("E"):
            vi, vj = T.axis.remap("SS", [i, j])
            E[vi, vj] = T.exp(A[vi, vj])
    for i, k in T.grid(6, 10):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + E[vi, vk]
    for i, j in T.grid(6, 10):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = E[vi, vj] / S[vi]


def test_reduction_under_parallel_rows_same_numbers():
    # Each iteration of the parallel i computes the sum of its own row.
    sch = tvm.tir.Schedule(row_softmax)
    i, _ = sch.get_loops(sch.get_block("B"))
    sch.parallel(i)
    sch.compute_at(sch.get_block("S"), i)
    sch.compute_at(sch.get_block("E"), i)
    expected = run(row_softmax, "row_softmax", (6, 10), out_shape=(6, 10))
    got = run(sch.mod["main"], "row_softmax", (6, 10), out_shape=(6, 10))
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_reduction_refusals_leave_ir():
    sch = tvm.tir.Schedule(row_softmax)
    _, j = sch.get_loops(sch.get_block("B"))
    sch.parallel(j)
    before = str(sch.mod)
    # Every parallel iteration of j would run the whole sum of S[i].
    with pytest.raises(tvm.tir.ScheduleError, match="would not write apart"):
        sch.compute_at(sch.get_block("S"), j)
    assert str(sch.mod) == before

    sch = tvm.tir.Schedule(row_softmax)
    _, j = sch.get_loops(sch.get_block("E"))
    sch.vectorize(j)
    before = str(sch.mod)
    with pytest.raises(tvm.tir.ScheduleError, match="a race where they run at once"):
        sch.reverse_compute_at(sch.get_block("S"), j)
    assert str(sch.mod) == before

    # S under E's j sums one element per iteration: B may not follow it.
    sch = tvm.tir.Schedule(row_softmax)
    _, j = sch.get_loops(sch.get_block("E"))
    sch.reverse_compute_at(sch.get_block("S"), j)
    before = str(sch.mod)
    with pytest.raises(tvm.tir.ScheduleError, match="partial reduction"):
        sch.reverse_compute_at(sch.get_block("B"), j)
    assert str(sch.mod) == before
    expected = run(row_softmax, "row_softmax", (6, 10), out_shape=(6, 10))
    got = run(sch.mod["main"], "row_softmax", (6, 10), out_shape=(6, 10))
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@T.prim_func
def flat_reader(X: T.Buffer((8, 6), "float32"), Y: T.Buffer((48,), "float32")):
    temp = T.alloc_buffer((8, 6), "float32")
    for i, j in T.grid(8, 6):
        with T.block("A"):
            vi, vj = T.axis.remap("SS", [i, j])
            temp[vi, vj] = X[vi, vj] * 3.0
    for k in range(48):
        with T.block("B"):
            v = T.axis.spatial(48, k)
            Y[v] = temp[v // 6, v % 6] + 1.0


def test_reverse_compute_at_through_floordiv_and_mod_same_numbers():
    sch = tvm.tir.Schedule(flat_reader)
    i, _ = sch.get_loops(sch.get_block("A"))
    sch.reverse_compute_at(sch.get_block("B"), i)
    # One row of temp is the values 6 * i .. 6 * i + 5 of v.
    assert len(sch.get_loops(sch.get_block("B"))) == 2
    assert "i * 6 + ax0" in sch.mod["main"].script()
    expected = run(flat_reader, "flat_reader", (8, 6), out_shape=(48,))
    got = run(sch.mod["main"], "flat_reader", (8, 6), out_shape=(48,))
    np.testing.assert_array_equal(got, expected)


def test_reverse_compute_at_through_digits_refused_under_columns():
    sch = tvm.tir.Schedule(flat_reader)
    i, j = sch.get_loops(sch.get_block("A"))
    sch.reorder(j, i)
    before = sch.mod["main"].script()
    with pytest.raises(tvm.tir.ScheduleError, match="consecutive values"):
        sch.reverse_compute_at(sch.get_block("B"), j)
    assert sch.mod["main"].script() == before


@T.prim_func
def two_stage_dyn(a: T.handle, c: T.handle, n: T.int32, m: T.int32):
    A = T.match_buffer(a, (n, m), "float32")
    C = T.match_buffer(c, (n, m), "float32")
    B = T.alloc_buffer((n, m), "float32")
    for i, j in T.grid(n, m):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0
    for i, j in T.grid(n, m):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + 1.0


def check_two_stage_dyn(mod, n, m):
    """Runs two_stage_dyn scheduled as `mod` on an n x m input."""
    a = np.random.default_rng(n * 100 + m).uniform(-1, 1, (n, m)).astype("float32")
    got = np.zeros((n, m), "float32")
    tvm.build(mod)(a, got, n, m)
    np.testing.assert_array_equal(got, a * 2 + 1)


@pytest.mark.parametrize("n, m", [(10, 7), (4, 1), (1, 3), (0, 5)])
def test_compute_at_runtime_domains_same_numbers(n, m):
    # Runtime domains and a loop to runtime m inside the target loop: the
    # producer gets a loop to m and a predicate where i_0 * 4 + ax0 may
    # pass n (4 does not divide it).
    sch = tvm.tir.Schedule(two_stage_dyn)
    i, _ = sch.get_loops(sch.get_block("C"))
    io, _ = sch.split(i, factors=[None, 4])
    sch.compute_at(sch.get_block("B"), io)
    assert len(sch.get_loops(sch.get_block("B"))) == 3
    check_two_stage_dyn(sch.mod, n, m)


@pytest.mark.parametrize("n, m", [(8, 5), (3, 2)])
def test_reverse_compute_at_runtime_domains_same_numbers(n, m):
    sch = tvm.tir.Schedule(two_stage_dyn)
    i, _ = sch.get_loops(sch.get_block("B"))
    sch.reverse_compute_at(sch.get_block("C"), i)
    assert len(sch.get_loops(sch.get_block("C"))) == 2
    check_two_stage_dyn(sch.mod, n, m)


@T.prim_func
def batched_row_sums(A: T.Buffer((3, 4, 10), "float32"), B: T.Buffer((3, 4, 10), "float32")):
    S = T.alloc_buffer((3, 4), "float32")
    for b, i, k in T.grid(3, 4, 10):
        with T.block("S"):
            vb, vi, vk = T.axis.remap("SSR", [b, i, k])
            with T.init():
                S[vb, vi] = T.float32(0)
            S[vb, vi] = S[vb, vi] + A[vb, vi, vk]
    for b, i, j in T.grid(3, 4, 10):
        with T.block("B"):
            vb, vi, vj = T.axis.remap("SSS", [b, i, j])
            B[vb, vi, vj] = A[vb, vi, vj] / S[vb, vi]


@pytest.mark.parametrize("rows", [1, 2, 4])
def test_reduction_under_fused_parallel_loop_same_numbers(rows):
    # The parallel loop fuses b with i's outer part: its iterations differ in
    # b (its quotient) or in i's part (its remainder), and write apart.
    sch = tvm.tir.Schedule(batched_row_sums)
    b, i, _ = sch.get_loops(sch.get_block("B"))
    i_o, _ = sch.split(i, factors=[None, rows])
    fused = sch.fuse(b, i_o)
    sch.parallel(fused)
    sch.compute_at(sch.get_block("S"), fused)
    expected = run(batched_row_sums, "batched_row_sums", (3, 4, 10), out_shape=(3, 4, 10))
    got = run(sch.mod["main"], "batched_row_sums", (3, 4, 10), out_shape=(3, 4, 10))
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@T.prim_func
def batch_sums(A: T.Buffer((3, 4, 10), "float32"), B: T.Buffer((3, 4, 10), "float32")):
    S = T.alloc_buffer((3,), "float32")
    for b, i, k in T.grid(3, 4, 10):
        with T.block("S"):
            vb, vi, vk = T.axis.remap("SRR", [b, i, k])
            with T.init():
                S[vb] = T.float32(0)
            S[vb] = S[vb] + A[vb, vi, vk]
    for b, i, j in T.grid(3, 4, 10):
        with T.block("B"):
            vb, vi, vj = T.axis.remap("SSS", [b, i, j])
            B[vb, vi, vj] = A[vb, vi, vj] / S[vb]


def test_reduction_under_fused_parallel_loop_refused_without_remainder():
    # S[b] is indexed by the fused loop's quotient alone: the iterations
    # that differ only in i would each run the whole sum of S[b] at once.
    sch = tvm.tir.Schedule(batch_sums)
    b, i, _ = sch.get_loops(sch.get_block("B"))
    fused = sch.fuse(b, i)
    sch.parallel(fused)
    before = str(sch.mod)
    with pytest.raises(tvm.tir.ScheduleError, match="would not write apart"):
        sch.compute_at(sch.get_block("S"), fused)
    assert str(sch.mod) == before
