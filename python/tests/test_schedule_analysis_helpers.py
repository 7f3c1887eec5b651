"""The schedule analyses the auto-scheduler's rules ask: how a block's
iteration space folds into a tensor intrinsic's
(get_auto_tensorize_mapping_info), the layout in which an access walks a
buffer in loop order (suggest_index_map), output blocks; and the pieces
they stand on (IndexMap.is_equivalent_to, te_workload, the WMMA
intrinsics)."""
import pytest

import tensorir as tvm
from tensorir import te, tir
from tensorir.meta_schedule.testing import te_workload
from tensorir.script import tir as T
from tensorir.tir import IndexMap, floordiv, floormod
from tensorir.tir.schedule.analysis import (get_auto_tensorize_mapping_info,
                                            is_output_block, suggest_index_map)
from tensorir.tir.tensor_intrin import cuda

WMMA_F32 = tir.TensorIntrin.get(cuda.WMMA_SYNC_16x16x16_f16f16f32_INTRIN).desc


def _mapping(func, block):
    sch = tir.Schedule(te.create_prim_func(func))
    return get_auto_tensorize_mapping_info(sch, sch.get_block(block), WMMA_F32)


def _same_map(index_map, fn):
    return IndexMap.from_func(fn).is_equivalent_to(index_map)


def test_a_convolution_folds_into_the_matmul_intrinsic():
    # n, h, w index the output and the input as the intrinsic's i indexes C
    # and A: fused, outer first; rh, rw, rc index the input and the weight.
    info = _mapping(te_workload.conv2d_nhwc(2, 8, 8, 32, 16, 3, 1, 1, in_dtype="float16",
                                            out_dtype="float32"), "conv2d_nhwc")
    (mapping,) = info.mappings
    assert _same_map(mapping, lambda n, h, w, c, rh, rw, rc: (n * 64 + h * 8 + w, c,
                                                             rh * 96 + rw * 32 + rc))
    assert not _same_map(mapping, lambda n, h, w, c, rh, rw, rc: (n * 64 + h * 8 + w, c,
                                                                 rh * 96 + rw * 32))
    assert sorted(b.name for b in info.lhs_buffer_map) == ["PadInput", "conv2d_nhwc", "weight"]
    assert len(info.rhs_iters) == 3 and len(info.lhs_iters) == 7


def test_a_batch_variable_indexing_every_buffer_stays_outside():
    info = _mapping(te_workload.batch_matmul_nkkm(4, 32, 32, 32, in_dtype="float16",
                                                  out_dtype="float32"), "Z")
    assert _same_map(info.mappings[0], lambda b, i, j, k: (b, i, j, k))


def test_a_unit_extent_keeps_its_variable():
    info = _mapping(te_workload.matmul(1, 32, 32, in_dtype="float16", out_dtype="float32"), "C")
    assert _same_map(info.mappings[0], lambda i, j, k: (i, j, k))


def test_bodies_that_differ_have_no_mapping():
    # f32 inputs (the description reads f16), an elementwise block, a max.
    assert _mapping(te_workload.matmul(32, 32, 32), "C") is None
    assert _mapping(te_workload.matmul_relu(32, 32, 32, in_dtype="float16",
                                            out_dtype="float32"), "compute") is None
    A = te.placeholder((32, 32), "float16", name="A")
    B = te.placeholder((32, 32), "float16", name="B")
    k = te.reduce_axis((0, 32), name="k")
    C = te.compute((32, 32), lambda i, j: te.max(A[i, k].astype("float32") *
                                                 B[k, j].astype("float32"), axis=k), name="C")
    assert _mapping([A, B, C], "C") is None


def test_suggested_layouts_walk_the_buffer_in_loop_order():
    i, j = tir.Var("i", "int32"), tir.Var("j", "int32")
    loops = [tir.For(v, 0, e, tir.ForKind.SERIAL, tir.Evaluate(0)) for v, e in ((i, 32), (j, 64))]
    index_map = suggest_index_map(
        tir.decl_buffer((8, 256)),
        [floordiv(i, 16) * 4 + floordiv(j, 16), floormod(i, 16) * 16 + floormod(j, 16)],
        loops, True)
    assert _same_map(index_map, lambda x, y: (x // 4, y // 16, x % 4, y % 16))
    assert _same_map(index_map.inverse([8, 256]), lambda a, b, c, d: (a * 4 + c, b * 16 + d))
    # Two digits of one loop that continue each other are one: three
    # digits, two dimensions.
    f = tir.Var("f", "int32")
    two = [tir.For(v, 0, e, tir.ForKind.SERIAL, tir.Evaluate(0)) for v, e in ((i, 2), (f, 8))]
    index_map = suggest_index_map(
        tir.decl_buffer((2, 8)), [i, floordiv(floormod(f, 8), 4) * 4 + floormod(f, 4)], two, True)
    assert _same_map(index_map, lambda a, b: (a, b))
    # Digits of one loop around another's: ordered by loop.
    index_map = suggest_index_map(
        tir.decl_buffer((16,)), [floordiv(f, 4) * 8 + i * 4 + floormod(f, 4)], two, True)
    assert _same_map(index_map, lambda x: (x // 4 % 2, x // 8, x % 4))
    # Gaps between the digits (a strided access), a loop not given, a
    # constant: no layout.
    assert suggest_index_map(tir.decl_buffer((64,)), [i * 2], loops[:1], True) is None
    assert suggest_index_map(tir.decl_buffer((64,)), [i + j], loops[:1], True) is None
    assert suggest_index_map(tir.decl_buffer((64,)), [tir.IntImm("int32", 3)], loops, True) is None
    assert suggest_index_map(tir.decl_buffer((0,)), [i], loops[:1], True) is None


def test_output_blocks_write_what_their_scope_does_not_allocate():
    @T.prim_func
    def two(A: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        B = T.alloc_buffer((8,), "float32")
        for i in range(8):
            with T.block("B"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] * T.float32(2)
        for i in range(8):
            with T.block("C"):
                vi = T.axis.remap("S", [i])
                C[vi] = B[vi] + T.float32(1)

    sch = tir.Schedule(two)
    assert is_output_block(sch, sch.get_block("C"))
    assert not is_output_block(sch, sch.get_block("B"))


def test_get_of_an_sref_is_its_statement_and_equals_the_view():
    sch = tir.Schedule(te.create_prim_func(te_workload.matmul(16, 16, 16)))
    i, j, k = sch.get_loops(sch.get_block("C"))
    sref = sch.get_sref(j)
    assert sch.get(sref) is sref.stmt
    assert sch.get(sref) == sch.get(j) and sch.get(j) == sch.get(sref)
    assert not sch.get(sref) == sch.get(i)


def test_wmma_intrinsics_are_registered_with_tvm_names():
    assert cuda.WMMA_SYNC_16x16x16_f16f16f32_INTRIN == "wmma_sync_16x16x16_f16f16f32"
    def scopes(intrin):
        desc = tir.TensorIntrin.get(intrin).desc
        return [desc.buffer_map[p].scope() for p in desc.params]

    for name in cuda.__all__:
        if name.startswith("WMMA_SYNC"):
            assert scopes(getattr(cuda, name)) == [
                "wmma.matrix_a", "wmma.matrix_b", "wmma.accumulator"]
    # The fragment moves around it, and a group of them by configuration.
    assert scopes(cuda.WMMA_LOAD_16x16x16_F16_A_INTRIN) == ["shared", "wmma.matrix_a"]
    assert scopes(cuda.WMMA_LOAD_16x16x16_F16_B_TRANS_DYN_INTRIN) == ["shared.dyn",
                                                                       "wmma.matrix_b"]
    assert scopes(cuda.WMMA_FILL_16x16x16_F32_INTRIN) == ["wmma.accumulator"]
    assert scopes(cuda.WMMA_STORE_16x16x16_F32_GLOBAL_INTRIN) == ["wmma.accumulator",
                                                                   "global"]
    group = cuda.get_wmma_intrin_group("shared.dyn", "global", "int8", "int32", True)
    assert group["load_b"] == "wmma_load_16x16x16_s8_b_trans_shared_dyn"
    assert group["compute"] == "wmma_sync_16x16x16_s8s8s32_trans"
    assert all(tir.TensorIntrin.get(name) for name in group.values())
    with pytest.raises(ValueError, match="not registered"):
        tir.TensorIntrin.get("wmma_sync_8x8x8")
