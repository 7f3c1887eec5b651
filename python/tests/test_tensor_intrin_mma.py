"""mma.sync's tensor intrinsics (tvm.tir.tensor_intrin.cuda: ldmatrix, mma,
fill, store) on a GEMM scheduled for tensor cores: the fragment layouts,
the scheduling (warp buffers, transform_layout, tensorize), and the
refusals. Building the result for the GPU is in test_cuda_mma.py."""
import itertools

import pytest

import tensorir as tvm
from tensorir import te
from tensorir.tir.tensor_intrin import cuda as intrin


def test_layouts_are_bijections_and_inverse():
    # Each tile element has one (lane, position), every slot is used once.
    for layout, rows, cols, local in (
            (intrin.shared_16x16_to_ldmatrix_32x8_layout, 16, 16, 8),
            (intrin.shared_16x32_to_ldmatrix_32x16_layout, 16, 32, 16),
            (intrin.shared_32x16_to_ldmatrix_32x16_layout, 32, 16, 16)):
        slots = {layout(i, j) for i, j in itertools.product(range(rows), range(cols))}
        assert slots == set(itertools.product(range(32), range(local)))
    for lane, pos in itertools.product(range(32), range(8)):
        row, col = intrin.ldmatrix_32x8_to_shared_16x16_layout(lane, pos)
        assert intrin.shared_16x16_to_ldmatrix_32x8_layout(row, col) == (lane, pos)


def test_intrin_group_names_registered_intrinsics():
    group = intrin.get_mma_intrin_group("shared", "global", "float16", "float32", False, True)
    assert group == {"init": "mma_fill_16x16_f32", "load_a": "mma_ldmatrix_f16_a",
                     "load_b": "mma_ldmatrix_f16_b_trans", "compute": "mma_f16f16f32_trans_b",
                     "store": "mma_store_16x16_f32_global_simple_"}
    for name in group.values():
        assert tvm.tir.TensorIntrin.get(name) is not None
    with pytest.raises(ValueError, match="in_dtype"):
        intrin.get_mma_intrin_group("shared", "global", "float32", "float32", False, False)


def gemm(n, in_dtype, out_dtype, b_transposed):
    a = te.placeholder((n, n), in_dtype, name="A")
    b = te.placeholder((n, n), in_dtype, name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute(
        (n, n), lambda i, j: te.sum(
            tvm.tir.Cast(out_dtype, a[i, k])
            * tvm.tir.Cast(out_dtype, b[j, k] if b_transposed else b[k, j]), axis=[k]),
        name="C")
    return te.create_prim_func([a, b, c])


def fragment_map(layout, rows, cols):
    return lambda i, j: (i // rows, j // cols, *layout(i % rows, j % cols))


CONFIGS = {
    # in, out, B transposed, k per instruction, load A, load B, mma, fill, store
    "f16f16f32": ("float16", "float32", False, 16, "mma_ldmatrix_f16_a", "mma_ldmatrix_f16_b",
                  "mma_f16f16f32", "mma_fill_16x16_f32", "mma_store_16x16_f32_global_"),
    "f16f16f32_trans_b": ("float16", "float32", True, 16, "mma_ldmatrix_f16_a",
                          "mma_ldmatrix_f16_b_trans", "mma_f16f16f32_trans_b",
                          "mma_fill_16x16_f32", "mma_store_16x16_f32_global_"),
    "f16f16f16": ("float16", "float16", False, 16, "mma_ldmatrix_f16_a", "mma_ldmatrix_f16_b",
                  "mma_f16f16f16", "mma_fill_16x16_f16", "mma_store_16x16_f16_global_"),
    "i8i8i32": ("int8", "int32", False, 32, "mma_ldmatrix_i8_a", "mma_ldmatrix_i8_b",
                "mma_i8i8i32", "mma_fill_16x16_i32", "mma_store_16x16_i32_global_"),
    "i8i8i32_trans_b": ("int8", "int32", True, 32, "mma_ldmatrix_i8_a",
                        "mma_ldmatrix_i8_b_trans", "mma_i8i8i32_trans_b", "mma_fill_16x16_i32",
                        "mma_store_16x16_i32_global_"),
}


def schedule_mma(config, n=128):
    """A tensor-core GEMM: 16 x 16 output tiles, a 2 x 2 grid of warps per
    block each computing 2 x 2 tiles, A and B staged in shared memory per
    k step, fragments in warp buffers laid out for the instructions."""
    in_dtype, out_dtype, b_trans, k_inner, load_a, load_b, mma, fill, store = CONFIGS[config]
    sch = tvm.tir.Schedule(gemm(n, in_dtype, out_dtype, b_trans))
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    i, i_t = sch.split(i, [None, 16])
    j, j_t = sch.split(j, [None, 16])
    k, k_t = sch.split(k, [None, k_inner])
    sch.reorder(i, j, k, i_t, j_t, k_t)
    tile = sch.blockize(i_t)
    i_b, i_w, i_f = sch.split(i, [None, 2, 2])
    j_b, j_w, j_f = sch.split(j, [None, 2, 2])
    k_o, k_i = sch.split(k, [None, 2])
    sch.reorder(i_b, j_b, i_w, j_w, k_o, k_i, i_f, j_f)
    sch.bind(sch.fuse(i_b, j_b), "blockIdx.x")
    sch.bind(sch.fuse(i_w, j_w), "threadIdx.y")
    for operand in (0, 1):
        cached = sch.cache_read(tile, operand, "shared")
        sch.compute_at(cached, k_o)
        vector = 16 if in_dtype == "int8" else 8
        _, ty, tx, vec = sch.split(sch.fuse(*sch.get_loops(cached)[-2:]), [None, 4, 32, vector])
        sch.bind(ty, "threadIdx.y")
        sch.bind(tx, "threadIdx.x")
        sch.vectorize(vec)
    a_frag = sch.cache_read(tile, 0, "warp")
    b_frag = sch.cache_read(tile, 1, "warp")
    sch.compute_at(a_frag, k_i)
    sch.compute_at(b_frag, k_i)
    c_frag = sch.cache_write(tile, 0, "warp")
    sch.reverse_compute_at(c_frag, sch.get_loops(tile)[1])
    r, s = sch.get_loops(c_frag)[-2:]
    r_o, r_i = sch.split(r, [None, 16])
    s_o, s_i = sch.split(s, [None, 16])
    sch.reorder(r_o, s_o, r_i, s_i)
    sch.decompose_reduction(tile, sch.get_loops(tile)[2])

    def fragment_tiles(block, rows, cols):
        r, s = sch.get_loops(block)[-2:]
        r_o, r_i = sch.split(r, [None, rows])
        s_o, s_i = sch.split(s, [None, cols])
        sch.reorder(r_o, s_o, r_i, s_i)
        return r_i

    lay16 = fragment_map(intrin.shared_16x16_to_ldmatrix_32x8_layout, 16, 16)
    if k_inner == 16:
        map_a = map_b = lay16
    else:
        map_a = fragment_map(intrin.shared_16x32_to_ldmatrix_32x16_layout, 16, 32)
        map_b = map_a if b_trans else fragment_map(
            intrin.shared_32x16_to_ldmatrix_32x16_layout, 32, 16)
    loop_a = fragment_tiles(a_frag, 16, k_inner)
    loop_b = fragment_tiles(b_frag, *((16, k_inner) if b_trans else (k_inner, 16)))
    sch.transform_layout(a_frag, ("write", 0), map_a)
    sch.transform_layout(b_frag, ("write", 0), map_b)
    sch.transform_layout(c_frag, ("read", 0), lay16)
    sch.tensorize(loop_a, load_a)
    sch.tensorize(loop_b, load_b)
    sch.tensorize(sch.get_loops(c)[-3], mma)
    sch.tensorize(sch.get_loops(sch.get_block("C_init"))[-2], fill)
    sch.tensorize(sch.get_loops(c_frag)[-2], store)
    return sch


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_gemm_tensorized_with_mma(config):
    sch = schedule_mma(config)
    text = sch.mod.script()
    # Two m16n8 products per 16 x 16 tile; ldmatrix for A (and for B except
    # 8-bit B untransposed, which each lane reads itself); the fill and the
    # store as the lanes' own stores.
    assert text.count('"tir.ptx_mma"') == 2
    in_dtype, b_trans = CONFIGS[config][0], CONFIGS[config][2]
    loads = 1 if in_dtype == "int8" and not b_trans else 2
    assert text.count('"tir.ptx_ldmatrix"') == loads
    assert 'scope="warp"' in text
    # Nothing of the fragments is left untensorized: each warp buffer is
    # read or written only through the intrinsics' views.
    assert text.count("T.match_buffer(A_shared_warp[") == 2
    assert text.count("T.match_buffer(C_warp[") == 3
    assert 'A_shared_warp = T.alloc_buffer((8, {}, 32, {})'.format(
        128 // CONFIGS[config][3], CONFIGS[config][3] // 2) in text


def test_mma_refuses_another_dtype():
    # An f16 -> f32 product does not match the f16 -> f16 instruction.
    sch = tvm.tir.Schedule(gemm(32, "float16", "float32", False))
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    i, i_t = sch.split(i, [None, 16])
    j, j_t = sch.split(j, [None, 16])
    k, k_t = sch.split(k, [None, 16])
    sch.reorder(i, j, k, i_t, j_t, k_t)
    with pytest.raises(tvm.tir.ScheduleError):
        sch.tensorize(i_t, "mma_f16f16f16")


def test_float8_intrinsics_declared():
    # Declared under TVM's names (the float8 instructions need sm_89).
    for name in ("LDMATRIX_e4m3_A_INTRIN", "LDMATRIX_e5m2_B_TRANS_INTRIN",
                 "MMA_e4m3e4m3f32_TRANS_B_INTRIN", "MMA_e5m2e5m2f32_TRANS_B_INTRIN"):
        assert isinstance(getattr(intrin, name), str)
