"""A loop of dynamic extent split into several (its predicate bounds the
fused iterator of the block's bindings, as TVM's iter-map detection sees
it): reorder and bind accept it, as MetaSchedule's RewriteUnboundBlock and
dlight's rules do for dynamic shapes; a predicate bounding no fused
binding is still refused."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T


@T.prim_func
def relu(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, 8), "float32")
    B = T.match_buffer(b, (n, 8), "float32")
    for i0, i1 in T.grid(n, 8):
        with T.block("relu"):
            v = T.axis.spatial(n, i0)
            v_1 = T.axis.spatial(8, i1)
            B[v, v_1] = T.max(A[v, v_1], T.float32(0.0))


def split_in_three():
    sch = tvm.tir.Schedule(relu)
    i0, i1 = sch.get_loops(sch.get_block("relu"))
    return sch, sch.split(sch.fuse(i0, i1), factors=[None, 4, 16])


def test_reorder_after_a_dynamic_split():
    sch, (outer, middle, inner) = split_in_three()
    sch.reorder(middle, inner, outer)
    lib = tvm.build(sch.mod, target="llvm")
    for n in (1, 7, 64, 65):
        a = np.random.default_rng(n).standard_normal((n, 8)).astype("float32")
        b = np.empty_like(a)
        lib["relu"](a, b)
        np.testing.assert_array_equal(b, np.maximum(a, 0))


def test_bound_to_threads_for_the_gpu():
    sch, (outer, middle, inner) = split_in_three()
    sch.reorder(middle, inner, outer)
    sch.bind(middle, "blockIdx.x")
    sch.bind(inner, "threadIdx.x")
    assert tvm.build(sch.mod, target="cuda").target == "cuda"


@T.prim_func
def strided(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, 8), "float32")
    B = T.match_buffer(b, (n, 8), "float32")
    for i0, i1 in T.grid(n, 8):
        with T.block("copy"):
            v = T.axis.spatial(n, i0)
            v_1 = T.axis.spatial(8, i1)
            T.where(i0 + i1 * 3 < 9)
            B[v, v_1] = A[v, v_1]


def test_a_predicate_over_no_fused_binding_is_refused():
    sch = tvm.tir.Schedule(strided)
    i0, i1 = sch.get_loops(sch.get_block("copy"))
    with pytest.raises(tvm.tir.ScheduleError, match="bounds none of its bindings"):
        sch.reorder(i1, i0)


@T.prim_func
def rows_of_blocks(a: T.handle, b: T.handle, n: T.int64):
    A = T.match_buffer(a, (8, n * 32), "float32")
    B = T.match_buffer(b, (8, n * 32), "float32")
    for i, k in T.grid(8, n * 32):
        with T.block("double"):
            vi, vk = T.axis.remap("SS", [i, k])
            B[vi, vk] = A[vi, vk] * T.float32(2)


@pytest.mark.parametrize("factor, exact", [(32, True), (16, True), (64, False), (3, False)])
def test_split_of_a_known_multiple(factor, exact):
    # n * 32 split by a divisor of 32 leaves no predicate (the inferred
    # factor divides it exactly); by 64 or 3 it keeps one.
    sch = tvm.tir.Schedule(rows_of_blocks)
    _, k = sch.get_loops(sch.get_block("double"))
    sch.split(k, factors=[None, factor])
    assert ("T.where" not in sch.mod.script()) == exact
    lib = tvm.build(sch.mod, target="llvm")
    for n in (1, 3):
        a = np.random.default_rng(n).standard_normal((8, n * 32)).astype("float32")
        b = np.full_like(a, np.nan)
        lib["rows_of_blocks"](a, b, n)
        np.testing.assert_array_equal(b, a * 2)


@T.prim_func
def two_stages(a: T.handle, c: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, 64), "float32")
    C = T.match_buffer(c, (n, 64), "float32")
    B = T.alloc_buffer((n, 64), "float32")
    for i, j in T.grid(n, 64):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(n, 64):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)


def test_reverse_compute_at_under_a_dynamic_split():
    # B's predicate (i_0 * 32 + i_1 < n) cuts only rows past B's n rows:
    # each iteration of i_0 writes its rows densely, and C follows it.
    sch = tvm.tir.Schedule(two_stages)
    i, _ = sch.get_loops(sch.get_block("B"))
    outer, _ = sch.split(i, factors=[None, 32])
    sch.reverse_compute_at(sch.get_block("C"), outer)
    assert len(sch.get_loops(sch.get_block("C"))) == 3
    lib = tvm.build(sch.mod, target="llvm")
    for n in (1, 31, 32, 33, 100):
        a = np.random.default_rng(n).standard_normal((n, 64)).astype("float32")
        c = np.full_like(a, np.nan)
        lib["two_stages"](a, c)
        np.testing.assert_allclose(c, a * 2 + 1, rtol=1e-6)


@T.prim_func
def rows_of_another_size(a: T.handle, c: T.handle):
    n = T.int64()
    m = T.int64()
    A = T.match_buffer(a, (n, 64), "float32")
    C = T.match_buffer(c, (m, 64), "float32")
    B = T.alloc_buffer((m, 64), "float32")
    for i, j in T.grid(n, 64):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(m, 64):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)


def test_reverse_compute_at_refused_where_the_cut_rows_are_in_the_buffer():
    # B has m rows and its producer writes n of them: the rows the split's
    # predicate cuts (n and above) are B's, and C would read them unwritten.
    sch = tvm.tir.Schedule(rows_of_another_size)
    i, _ = sch.get_loops(sch.get_block("B"))
    outer, _ = sch.split(i, factors=[None, 32])
    with pytest.raises(tvm.tir.ScheduleError, match="to write a dense box in one iteration"):
        sch.reverse_compute_at(sch.get_block("C"), outer)
