"""get_tensorize_loop_mapping and tile_with_tensor_intrin: which loops a
tensor intrinsic's description loops stand for (by binding, whatever the
loop order), the padding an extent needs, the None cases, and tiled
programs that tensorize and run with the numbers of the originals."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import te, tir
from tensorir.script import tir as T
from tensorir.tir.schedule.analysis import get_tensorize_loop_mapping
from tensorir.tir.schedule.testing import verify_trace_roundtrip
from tensorir.tir.schedule.transform import tile_with_tensor_intrin
from tensorir.tir.stmt import For
from tensorir.tir.stmt_functor import post_order_visit
from tensorir.tir.tensor_intrin import x86


def _dot_program(m=32, n=64, k=32):
    X = te.placeholder((m, k), name="X", dtype="uint8")
    W = te.placeholder((n, k), name="W", dtype="int8")
    ak = te.reduce_axis((0, k), name="k")
    out = te.compute((m, n), lambda i, j: te.sum(
        X[i, ak].astype("int32") * W[j, ak].astype("int32"), axis=ak), name="compute")
    return te.create_prim_func([X, W, out])


@T.prim_func
def mm4_desc(a: T.handle, b: T.handle, c: T.handle):
    A = T.match_buffer(a, (4, 4), "float32", offset_factor=1)
    B = T.match_buffer(b, (4, 4), "float32", offset_factor=1)
    C = T.match_buffer(c, (4, 4), "float32", offset_factor=1)
    with T.block("root"):
        T.reads(C[0:4, 0:4], A[0:4, 0:4], B[0:4, 0:4])
        T.writes(C[0:4, 0:4])
        for i, j, k in T.grid(4, 4, 4):
            with T.block("update"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


@T.prim_func
def mm4_impl(a: T.handle, b: T.handle, c: T.handle):
    A = T.match_buffer(a, (4, 4), "float32", offset_factor=1)
    B = T.match_buffer(b, (4, 4), "float32", offset_factor=1)
    C = T.match_buffer(c, (4, 4), "float32", offset_factor=1)
    with T.block("root"):
        T.reads(C[0:4, 0:4], A[0:4, 0:4], B[0:4, 0:4])
        T.writes(C[0:4, 0:4])
        T.evaluate(T.call_extern("", "mm4", C.data, A.data, B.data))


tir.TensorIntrin.register("test_mm4", mm4_desc, mm4_impl, override=True)


def _matmul(n, m, k):
    A = te.placeholder((n, k), name="A")
    B = te.placeholder((k, m), name="B")
    rk = te.reduce_axis((0, k), name="k")
    C = te.compute((n, m), lambda i, j: te.sum(A[i, rk] * B[rk, j], axis=rk), name="C")
    D = te.compute((n, m), lambda i, j: C[i, j] * 2.0, name="D")
    return te.create_prim_func([A, B, D])


def _desc_loops(desc):
    loops = []
    post_order_visit(desc.body, lambda n: loops.append(n) if isinstance(n, For) else None)
    return loops[::-1]


def test_the_mapping_takes_the_last_variables_of_each_kind():
    # The description's vi (spatial), vk (reduce) take j and k of the
    # block (the nearest earlier of each kind); i stays outside.
    sch = tir.Schedule(_dot_program())
    block = sch.get_block("compute")
    desc = tir.TensorIntrin.get(x86.VNNI_DOT_16x4_INTRIN).desc
    info = get_tensorize_loop_mapping(sch, block, desc)
    i, j, k = sch.get_loops(block)
    di, dk = _desc_loops(desc)
    assert info.loop_map == {sch.get_sref(j): di, sch.get_sref(k): dk}
    assert info.desc_loop_indexer == {di: 0, dk: 1}
    assert info.block_iter_paddings is None


def test_the_mapping_follows_bindings_not_loop_order():
    sch = tir.Schedule(_matmul(32, 32, 32))
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    sch.reorder(k, i, j)
    di, dj, dk = _desc_loops(mm4_desc)
    info = get_tensorize_loop_mapping(sch, block, mm4_desc)
    assert info.loop_map == {sch.get_sref(i): di, sch.get_sref(j): dj, sch.get_sref(k): dk}


def test_padding_is_proposed_only_when_allowed():
    sch = tir.Schedule(_matmul(30, 32, 18))
    block = sch.get_block("C")
    assert get_tensorize_loop_mapping(sch, block, mm4_desc) is None
    info = get_tensorize_loop_mapping(sch, block, mm4_desc, allow_padding=True)
    assert [int(p) for p in info.block_iter_paddings] == [4, 1, 4]


def test_no_mapping_cases_are_none():
    # Loops that are not one per iteration variable (TVM aborts here).
    sch = tir.Schedule(_matmul(32, 32, 32))
    block = sch.get_block("C")
    sch.split(sch.get_loops(block)[0], [None, 8])
    assert get_tensorize_loop_mapping(sch, block, mm4_desc) is None
    # A block with fewer iteration variables than the description.
    sch = tir.Schedule(_matmul(32, 32, 32))
    assert get_tensorize_loop_mapping(sch, sch.get_block("D"), mm4_desc) is None
    # An extent that is not a multiple, padding not allowed.
    sch = tir.Schedule(_matmul(30, 32, 32))
    before = sch.mod.mlir()
    assert tile_with_tensor_intrin(sch, sch.get_block("C"), "test_mm4") is None
    assert sch.mod.mlir() == before
    with pytest.raises(ValueError, match="is not registered"):
        sch = tir.Schedule(_matmul(32, 32, 32))
        tile_with_tensor_intrin(sch, sch.get_block("C"), "no_such_intrin")


@pytest.mark.parametrize("intrin", [x86.AVX512_DOT_16x4_INTRIN])
def test_tiled_loops_tensorize_and_run(intrin):
    func = _dot_program()
    sch = tir.Schedule(func, debug_mask="all")
    block = sch.get_block("compute")
    sch.transform_layout(block, "W", lambda i, j: [i // 16, j // 4, i % 16, j % 4])
    tiled = tile_with_tensor_intrin(sch, block, intrin)
    loops = sch.get_loops(block)
    assert [int(sch.get(l).extent) for l in loops] == [32, 4, 8, 16, 4]
    assert sch.get(tiled) == sch.get(loops[3])
    sch.decompose_reduction(block, loops[2])
    sch.tensorize(tiled, intrin)
    verify_trace_roundtrip(sch, mod=func)
    rng = np.random.default_rng(7)
    x = rng.integers(0, 256, (32, 32)).astype("uint8")
    w = rng.integers(-128, 128, (64, 32)).astype("int8")
    out = tvm.nd.array(np.zeros((32, 64), "int32"))
    tvm.compile(sch.mod, target="llvm")(tvm.nd.array(x), tvm.nd.array(w), out)
    np.testing.assert_array_equal(out.numpy(), x.astype("int32") @ w.astype("int32").T)


def test_padded_tiling_inlines_the_copies_and_computes_the_same():
    func = _matmul(30, 32, 18)
    sch = tir.Schedule(func, debug_mask="all")
    block = sch.get_block("C")
    tiled = tile_with_tensor_intrin(sch, block, "test_mm4", allow_padding=True)
    loops = sch.get_loops(block)
    assert [int(sch.get(l).extent) for l in loops] == [8, 8, 5, 4, 4, 4]
    assert sch.get(tiled) == sch.get(loops[3])
    kinds = [inst.kind.name for inst in sch.trace.insts]
    assert kinds[:2] == ["GetBlock", "PadEinsum"] and "ComputeInline" in kinds
    # The unpadded result is written by the consumer straight from the
    # padded block's buffer (its copy inlined).
    assert "C_pad" in sch.mod["main"].script()
    verify_trace_roundtrip(sch, mod=func)
    rng = np.random.default_rng(8)
    a = rng.uniform(-1, 1, (30, 18)).astype("float32")
    b = rng.uniform(-1, 1, (18, 32)).astype("float32")
    d = tvm.nd.array(np.zeros((30, 32), "float32"))
    tvm.compile(sch.mod, target="llvm")(tvm.nd.array(a), tvm.nd.array(b), d)
    np.testing.assert_allclose(d.numpy(), (a @ b) * 2, rtol=1e-5, atol=1e-5)
