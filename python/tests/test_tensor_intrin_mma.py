"""mma.sync's tensor intrinsics (tvm.tir.tensor_intrin.cuda: ldmatrix, mma,
fill, store) on a GEMM scheduled for tensor cores: the fragment layouts,
the scheduling (warp buffers, transform_layout, tensorize), and the
refusals. Building the result for the GPU is in test_cuda_mma.py."""
import itertools
import os
import sys

import pytest

import tensorir as tvm
from tensorir import te
from tensorir.tir.tensor_intrin import cuda as intrin

from conftest import ROOT


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


sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
import programs  # noqa: E402

# The configurations, by TVM's name of the product: (in, out, B transposed).
CONFIGS = {
    "f16f16f32": ("float16", "float32", False),
    "f16f16f32_trans_b": ("float16", "float32", True),
    "f16f16f16": ("float16", "float16", False),
    # tir's own (TVM registers no bfloat16 mma.sync intrinsics).
    "bf16bf16f32": ("bfloat16", "float32", False),
    "bf16bf16f32_trans_b": ("bfloat16", "float32", True),
    "i8i8i32": ("int8", "int32", False),
    "i8i8i32_trans_b": ("int8", "int32", True),
}


def gemm(n, in_dtype, out_dtype, b_transposed):
    return programs.matmul_mixed(n, in_dtype, out_dtype, b_transposed)


def schedule_mma(config, n=128):
    """bench/gpu's tensor-core GEMM schedule (2 x 2 warps per block, 2 x 2
    tiles of 16 x 16 per warp, k steps of two instructions)."""
    in_dtype, out_dtype, b_transposed = CONFIGS[config]
    return programs.schedule_matmul_mma(gemm(n, in_dtype, out_dtype, b_transposed), in_dtype,
                                        out_dtype, b_transposed)


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_gemm_tensorized_with_mma(config):
    sch = schedule_mma(config)
    text = sch.mod.script()
    # Two m16n8 products per 16 x 16 tile; ldmatrix for A (and for B except
    # 8-bit B untransposed, which each lane reads itself); the fill and the
    # store as the lanes' own stores.
    assert text.count('"tir.ptx_mma"') == 2
    in_dtype, _, b_trans = CONFIGS[config]
    loads = 1 if in_dtype == "int8" and not b_trans else 2
    assert text.count('"tir.ptx_ldmatrix"') == loads
    assert 'scope="warp"' in text
    # Nothing of the fragments is left untensorized: each warp buffer is
    # read or written only through the intrinsics' views.
    assert text.count("T.match_buffer(A_shared_warp[") == 2
    assert text.count("T.match_buffer(C_warp[") == 3
    k_inner = 32 if in_dtype == "int8" else 16
    assert 'A_shared_warp = T.alloc_buffer((8, {}, 32, {})'.format(
        128 // k_inner, k_inner // 2) in text


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
