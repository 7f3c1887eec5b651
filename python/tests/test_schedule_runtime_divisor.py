"""Bindings divided by a runtime extent: fusing a loop of n iterations with
another gives the block `f // n` and `f % n` (TVM's split of a fused
iterator by n). They are quasi-affine, as TVM's iterator analysis has them,
so rfactor and reverse_compute_at take the block, as dlight's reductions
over a dynamic row count (a decoder's key length) need; the ranges of
`f // n` and `f % n` for f in [0, n * 32) are known, so no predicate is
added for them. Checked by the values on the CPU and a CUDA build."""
import os

import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T

from test_cuda import serial_on_cpu


@T.prim_func
def gemv(a: T.handle, b: T.handle, c: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (32, 1, 128))
    B = T.match_buffer(b, (32, n, 128))
    C = T.match_buffer(c, (32, 1, n))
    for i, j, k in T.grid(32, n, 128):
        with T.block("dot"):
            v0, v1, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[v0, 0, v1] = T.float32(0)
            C[v0, 0, v1] = C[v0, 0, v1] + A[v0, 0, vk] * B[v0, v1, vk]


def rfactor_schedule(gpu):
    """The rows fused, the reduction split by 32 and rfactored, the partial
    sums' write-back placed under the fused loop with its unit loops."""
    sch = tvm.tir.Schedule(gemv)
    block = sch.get_block("dot")
    i, j, k = sch.get_loops(block)
    sch.fuse(i, j)
    _, inner = sch.split(k, [None, 32])
    rf = sch.rfactor(inner, 0)
    fused = sch.get_loops(rf)[0]
    sch.reverse_compute_at(block, fused, preserve_unit_loops=True)
    if gpu:
        sch.bind(fused, "blockIdx.x")
        sch.bind(sch.get_loops(rf)[-1], "threadIdx.x")
        sch.bind(sch.get_loops(block)[1], "threadIdx.x")
    return sch


def check_values(mod, name):
    lib = tvm.build(mod, target="llvm")
    for n in (1, 5, 33):
        rng = np.random.default_rng(n)
        a = rng.standard_normal((32, 1, 128)).astype("float32")
        b = rng.standard_normal((32, n, 128)).astype("float32")
        c = np.full((32, 1, n), np.nan, "float32")
        lib[name](a, b, c)
        expect = np.einsum("ik,ijk->ij", a[:, 0].astype("float64"), b)[:, None, :]
        np.testing.assert_allclose(c, expect, rtol=1e-4, atol=1e-4)


def test_fused_rows_are_a_reduction_block():
    sch = tvm.tir.Schedule(gemv)
    i, j, _ = sch.get_loops(sch.get_block("dot"))
    sch.fuse(i, j)
    text = sch.mod.script()
    assert "i_j_fused // n" in text and "i_j_fused % n" in text
    # rfactor needs a reduction block (quasi-affine bindings): it takes it,
    # the partial sums of the runtime shape (128, 32, 1, n).
    sch.rfactor(sch.get_loops(sch.get_block("dot"))[1], 0)
    assert "T.alloc_buffer((128, 32, 1, n)" in sch.mod.script()
    check_values(sch.mod, "gemv")


def test_write_back_under_the_fused_loop_needs_no_predicate():
    sch = rfactor_schedule(gpu=False)
    text = sch.mod.script()
    assert "T.where" not in text
    assert "i_j_fused // n + ax1" in text and "i_j_fused % n + ax2" in text
    # The write-back's old loop nest went, and its bound `n * 32` with it.
    assert text.count("n * 32") == 1, text
    check_values(sch.mod, "gemv")


def test_a_bound_not_known_to_hold_stays_a_predicate():
    """Rows [0, 16) of the product read under the fused loop over 32 * n:
    `f // n` reaches 31 there, so the consumer keeps `f // n < 16`."""
    @T.prim_func
    def half(a: T.handle, c: T.handle):
        n = T.int32()
        A = T.match_buffer(a, (32, n))
        C = T.match_buffer(c, (16, n))
        R = T.alloc_buffer((32, n))
        for f in range(n * 32):
            with T.block("R"):
                v0 = T.axis.spatial(32, f // n)
                v1 = T.axis.spatial(n, f % n)
                R[v0, v1] = A[v0, v1] * T.float32(2)
        for i, j in T.grid(16, n):
            with T.block("C"):
                v0, v1 = T.axis.remap("SS", [i, j])
                C[v0, v1] = R[v0, v1] + T.float32(1)

    sch = tvm.tir.Schedule(half)
    sch.reverse_compute_at(sch.get_block("C"), sch.get_loops(sch.get_block("R"))[0])
    text = sch.mod.script()
    assert "T.where(f // n * (-1) + 15 >= 0)" in text, text
    lib = tvm.build(sch.mod, target="llvm")
    for n in (1, 3):
        a = np.random.default_rng(n).standard_normal((32, n)).astype("float32")
        c = np.full((16, n), np.nan, "float32")
        lib["half"](a, c)
        np.testing.assert_allclose(c, a[:16] * 2 + 1, rtol=1e-6)


def test_a_divisor_that_is_a_loop_variable_is_refused():
    @T.prim_func
    def by_loop(a: T.handle, c: T.handle):
        A = T.match_buffer(a, (64,))
        C = T.match_buffer(c, (64,))
        for i, j in T.grid(8, 8):
            with T.block("C"):
                vi = T.axis.spatial(64, i * 8 + j)
                vk = T.axis.reduce(8, i // (j + 1))
                with T.init():
                    C[vi] = T.float32(0)
                C[vi] = C[vi] + A[vk]

    sch = tvm.tir.Schedule(by_loop)
    with pytest.raises(tvm.tir.ScheduleError, match="not quasi-affine"):
        sch.rfactor(sch.get_loops(sch.get_block("C"))[1], 0)


def test_the_threads_reduce_across_the_unit_loops_on_the_gpu():
    """Bound to blocks and threads: the write-back's reduce loop on
    threadIdx.x with its unit loops inside is a cross-thread reduction the
    GPU lowering takes. Its values are checked serially on the CPU."""
    sch = rfactor_schedule(gpu=True)
    assert tvm.build(sch.mod, target="cuda").target == "cuda"
    check_values(serial_on_cpu(sch.mod), "main")


@pytest.mark.skipif(not os.path.exists("/usr/local/cuda/bin/ptxas"),
                    reason="no CUDA toolkit (ptxas)")
def test_the_kernel_assembles_with_ptxas():
    sch = rfactor_schedule(gpu=True)
    for arch in ("sm_80", "sm_90"):
        tvm.build(sch.mod, target=f"cuda -arch={arch} -format=bin")
