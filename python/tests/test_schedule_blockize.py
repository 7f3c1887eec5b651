"""blockize through tir.Schedule: the blockized program computes the
numbers of the original (element-wise tiles, a tiled matmul whose outer
block reduces and initializes its tile, a reduction blockized whole), the
trace replays, and refusals leave the IR as it was."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def scale(A: T.Buffer((32, 48), "float32"), B: T.Buffer((32, 48), "float32")):
    for i, j in T.grid(32, 48):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(3)


@T.prim_func
def matmul(A: T.Buffer((16, 24), "float32"), B: T.Buffer((24, 8), "float32"),
           C: T.Buffer((16, 8), "float32")):
    for i, j, k in T.grid(16, 8, 24):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


def fused_rows(rows):
    """B = A + 1 over rows x 8 elements, one loop over all of them."""
    @T.prim_func
    def fused(A: T.Buffer((rows, 8), "float32"), B: T.Buffer((rows, 8), "float32")):
        for f in range(rows * 8):
            with T.block("B"):
                vi = T.axis.spatial(rows, f // 8)
                vj = T.axis.spatial(8, f % 8)
                B[vi, vj] = A[vi, vj] + T.float32(1)
    return fused


fused = fused_rows(8)


def run(mod, name, *arrays):
    outs = [a.copy() for a in arrays]
    tvm.build(mod)[name](*outs)
    return outs


def test_blockize_elementwise_tiles():
    a = np.random.default_rng(0).random((32, 48)).astype("float32")
    expected = run(scale, "scale", a, np.zeros_like(a))
    sch = tvm.tir.Schedule(scale)
    i, j = sch.get_loops("B")
    io, ii = sch.split(i, [None, 8])
    jo, ji = sch.split(j, [None, 16])
    sch.reorder(io, jo, ii, ji)
    outer = sch.blockize(ii)
    assert sch.get(outer).name_hint == "B_o"
    text = sch.mod.mlir()
    assert 'tir.block "B_o"(%vi_o = spatial(4, %i_0), %vj_o = spatial(3, %j_0))' in text
    assert 'tir.block "B"(%vi_i = spatial(8, %i_1), %vj_i = spatial(16, %j_1))' in text
    np.testing.assert_array_equal(run(sch.mod, "scale", a, np.zeros_like(a))[1], expected[1])
    verify_trace_roundtrip(sch, scale)


@pytest.mark.parametrize("preserve_unit_iters", [True, False])
def test_blockize_matmul_tile_with_init(preserve_unit_iters):
    rng = np.random.default_rng(1)
    a, b = rng.random((16, 24)).astype("float32"), rng.random((24, 8)).astype("float32")
    expected = run(matmul, "matmul", a, b, np.zeros((16, 8), "float32"))[2]
    sch = tvm.tir.Schedule(matmul)
    i, j, k = sch.get_loops("C")
    io, ii = sch.split(i, [None, 4])
    jo, ji = sch.split(j, [None, 4])
    ko, ki = sch.split(k, [None, 8])
    sch.reorder(io, jo, ko, ii, ji, ki)
    sch.blockize(ii, preserve_unit_iters=preserve_unit_iters)
    text = sch.mod.mlir()
    # The outer block reduces over ko and initializes its 4x4 tile.
    assert "%vk_o = reduce(3, %k_0)" in text and 'tir.block "C_init"' in text
    got = run(sch.mod, "matmul", a, b, np.zeros((16, 8), "float32"))[2]
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    verify_trace_roundtrip(sch, matmul)


def test_blockized_init_decomposes():
    # The outer block's init indexes its tile by the spatial variables only
    # (no leftover operand for the reduce one), so decompose_reduction can
    # hoist it above the k loop.
    rng = np.random.default_rng(2)
    a, b = rng.random((16, 24)).astype("float32"), rng.random((24, 8)).astype("float32")
    expected = run(matmul, "matmul", a, b, np.zeros((16, 8), "float32"))[2]
    sch = tvm.tir.Schedule(matmul)
    i, j, k = sch.get_loops("C")
    io, ii = sch.split(i, [None, 4])
    jo, ji = sch.split(j, [None, 4])
    ko, ki = sch.split(k, [None, 8])
    sch.reorder(io, jo, ko, ii, ji, ki)
    outer = sch.blockize(ii)
    sch.decompose_reduction(outer, ko)
    got = run(sch.mod, "matmul", a, b, np.zeros((16, 8), "float32"))[2]
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    verify_trace_roundtrip(sch, matmul)


def test_blockize_refuses_a_binding_that_does_not_divide():
    sch = tvm.tir.Schedule(fused_rows(6))
    f, = sch.get_loops("B")
    fo, fi = sch.split(f, [None, 12])
    before = sch.mod.mlir()
    # vi = (fo * 12 + fi) // 8 mixes both sides of fi (fi in [0, 12)
    # crosses a multiple of 8).
    with pytest.raises(tvm.tir.ScheduleError, match="a term mixes both"):
        sch.blockize(fi)
    assert sch.mod.mlir() == before


def test_blockize_a_binding_whose_inner_part_cannot_carry():
    # vi = (fo * 4 + fi) // 8 with fi in [0, 4) is fo // 2: fi never
    # carries into it, so the tile of 4 is blockized (TVM v0.23 refuses
    # this, its subspace division not seeing it; the result is a valid
    # blockize of the same numbers).
    a = np.arange(64, dtype="float32").reshape(8, 8)
    expected = run(fused, "fused", a, np.zeros_like(a))[1]
    sch = tvm.tir.Schedule(fused)
    f, = sch.get_loops("B")
    fo, fi = sch.split(f, [None, 4])
    sch.blockize(fi)
    assert 'tir.block "B_o"' in sch.mod.mlir()
    np.testing.assert_array_equal(run(sch.mod, "fused", a, np.zeros_like(a))[1], expected)
    verify_trace_roundtrip(sch, fused)


@T.prim_func
def two_stages(A: T.Buffer((4, 16), "float32"), B: T.Buffer((4, 16), "float32"),
               C: T.Buffer((4, 16), "float32")):
    for m in range(4):
        for j in range(16):
            with T.block("B"):
                vm, vj = T.axis.remap("SS", [m, j])
                B[vm, vj] = A[vm, vj] + T.float32(1)
        for j in range(16):
            with T.block("C"):
                vm, vj = T.axis.remap("SS", [m, j])
                C[vm, vj] = B[vm, vj] * T.float32(2)


def test_blockize_blocks_under_a_common_loop():
    a = np.random.default_rng(2).random((4, 16)).astype("float32")
    zeros = np.zeros((4, 16), "float32")
    expected = run(two_stages, "two_stages", a, zeros, zeros)
    sch = tvm.tir.Schedule(two_stages)
    outer = sch.blockize([sch.get_block("B"), sch.get_block("C")])
    assert sch.get(outer).name_hint == "outer_B_C_"
    text = sch.mod.mlir()
    assert 'tir.block "outer_B_C_"(%vm_o = spatial(4, %m), %vj_o = spatial(1, 0))' in text
    got = run(sch.mod, "two_stages", a, zeros, zeros)
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(g, e)
    verify_trace_roundtrip(sch, two_stages)


def test_blockize_blocks_refusals_leave_the_ir():
    sch = tvm.tir.Schedule(matmul)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match="tir.init in the form of a list"):
        sch.blockize([sch.get_block("C")])
    assert sch.mod.mlir() == before
