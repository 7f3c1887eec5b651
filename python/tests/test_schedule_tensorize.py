"""tensorize and loop_partition through tir.Schedule: tensorized programs
run and give the numbers of the originals (an f32 matmul on the FMA
micro-kernel, a uint8 x int8 matmul on the 16x4 dot products, VNNI where the
CPU has it), a user's intrinsic registered from TVMScript matches and
replaces a block, refusals leave the IR as it was, and partitioned loops
compute what the loop did."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import te, tir
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip
from tensorir.tir.tensor_intrin import x86


def _cpu_has(flag):
    try:
        with open("/proc/cpuinfo") as f:
            return flag in f.read().split()
    except OSError:
        return False


@T.prim_func
def matmul(A: T.Buffer((24, 12), "float32"), B: T.Buffer((12, 48), "float32"),
           C: T.Buffer((24, 48), "float32")):
    for i, j, k in T.grid(24, 48, 12):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


def _fma_schedule():
    sch = tir.Schedule(matmul, debug_mask="all")
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    jo, ji = sch.split(j, [None, 16])
    sch.reorder(i, jo, k, ji)
    sch.decompose_reduction(block, k)
    return sch, ji


def test_fma_micro_kernel_tensorizes_a_matmul_and_runs():
    sch, ji = _fma_schedule()
    sch.tensorize(ji, x86.AVX512_FMA_F32_16_INTRIN)
    text = sch.mod.mlir()
    assert 'tir.call "call_extern"("llvm.fma.v16f32"' in text
    assert text.count("tir.match_buffer") == 3
    verify_trace_roundtrip(sch, mod=matmul)
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (24, 12)).astype("float32")
    b = rng.uniform(-1, 1, (12, 48)).astype("float32")
    c = tvm.nd.array(np.zeros((24, 48), "float32"))
    tvm.compile(sch.mod, target="llvm")(tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a @ b, rtol=1e-5, atol=1e-5)


def test_a_mismatch_is_refused_and_leaves_the_ir_alone():
    sch, ji = _fma_schedule()
    i, _, k, _ = sch.get_loops(sch.get_block("C_update"))
    before, trace = sch.mod.mlir(), sch.trace.as_transform_script()
    # The reduction loop with the tile under it is two loops deep.
    with pytest.raises(tir.ScheduleError, match="does not match tensor intrinsic"):
        sch.tensorize(k, x86.AVX512_FMA_F32_16_INTRIN)
    # What blockize refuses (the row loop holds the init and the update).
    with pytest.raises(tir.ScheduleError, match="blockize needs loop 'i'"):
        sch.tensorize(i, x86.AVX512_FMA_F32_16_INTRIN)
    # Another dtype than the description's (the dot product is on integers).
    with pytest.raises(tir.ScheduleError, match="holds f32, the description's"):
        sch.tensorize(ji, x86.AVX512_DOT_16x4_INTRIN)
    assert sch.mod.mlir() == before
    assert sch.trace.as_transform_script() == trace


def test_an_unknown_intrinsic_is_a_value_error():
    sch, ji = _fma_schedule()
    assert tir.TensorIntrin.get("no_such_intrin", allow_missing=True) is None
    with pytest.raises(ValueError, match="not registered"):
        sch.tensorize(ji, "no_such_intrin")


def _dot_program(m=32, n=32, k=16):
    X = te.placeholder((m, k), name="X", dtype="uint8")
    W = te.placeholder((n, k), name="W", dtype="int8")
    ak = te.reduce_axis((0, k), name="k")
    out = te.compute((m, n), lambda i, j: te.sum(
        X[i, ak].astype("int32") * W[j, ak].astype("int32"), axis=ak), name="compute")
    return te.create_prim_func([X, W, out])


@pytest.mark.parametrize("intrin", [
    x86.AVX512_DOT_16x4_INTRIN,
    pytest.param(x86.VNNI_DOT_16x4_INTRIN, marks=pytest.mark.skipif(
        not _cpu_has("avx512_vnni"), reason="this CPU has no avx512_vnni (vpdpbusd)")),
])
def test_uint8_int8_dot_products_run(intrin):
    func = _dot_program()
    sch = tir.Schedule(func, debug_mask="all")
    block = sch.get_block("compute")
    sch.transform_layout(block, "W", lambda i, j: [i // 16, j // 4, i % 16, j % 4])
    _, j, k = sch.get_loops(block)
    _, ji = sch.split(j, factors=[None, 16])
    ko, ki = sch.split(k, factors=[None, 4])
    sch.reorder(ko, ji, ki)
    sch.decompose_reduction(block, ko)
    sch.tensorize(ji, intrin)
    verify_trace_roundtrip(sch, mod=func)
    rng = np.random.default_rng(5)
    x = rng.integers(0, 256, (32, 16)).astype("uint8")   # bytes >= 128 included
    w = rng.integers(-128, 128, (32, 16)).astype("int8")
    out = tvm.nd.array(np.zeros((32, 32), "int32"))
    tvm.compile(sch.mod, target="llvm")(tvm.nd.array(x), tvm.nd.array(w), out)
    np.testing.assert_array_equal(out.numpy(), x.astype("int32") @ w.astype("int32").T)


@T.prim_func
def pair_sum_desc(a: T.handle, c: T.handle):
    A = T.match_buffer(a, (2, 4), "float32", offset_factor=1)
    C = T.match_buffer(c, (4,), "float32", offset_factor=1)
    with T.block("root"):
        T.reads(C[0:4], A[0:2, 0:4])
        T.writes(C[0:4])
        for r, j in T.grid(2, 4):
            with T.block("sum"):
                vr, vj = T.axis.remap("RS", [r, j])
                C[vj] = C[vj] + A[vr, vj]


@T.prim_func
def pair_sum_impl(a: T.handle, c: T.handle):
    A = T.match_buffer(a, (2, 4), "float32", offset_factor=1)
    C = T.match_buffer(c, (4,), "float32", offset_factor=1)
    with T.block("root"):
        T.reads(C[0:4], A[0:2, 0:4])
        T.writes(C[0:4])
        T.evaluate(T.call_extern("", "pair_sum", C.data, C.elem_offset, A.data, A.elem_offset))


tir.TensorIntrin.register("test_pair_sum", pair_sum_desc, pair_sum_impl)


@T.prim_func
def column_sums(A: T.Buffer((6, 8), "float32"), C: T.Buffer((8,), "float32")):
    for r0, c0, r1, c1 in T.grid(3, 2, 2, 4):
        with T.block("C"):
            vr = T.axis.reduce(6, r0 * 2 + r1)
            vc = T.axis.spatial(8, c0 * 4 + c1)
            C[vc] = C[vc] + A[vr, vc]


def test_a_registered_intrinsic_matches_with_offsets():
    sch = tir.Schedule(column_sums, debug_mask="all")
    r1 = sch.get_loops(sch.get_block("C"))[2]
    sch.tensorize(r1, "test_pair_sum")
    text = sch.mod.mlir()
    # The views start at the tile: rows r0 * 2, columns c0 * 4.
    assert "* 2 : %" in text and "* 4 : %" in text
    assert 'tir.call "call_extern"("pair_sum"' in text
    assert "memref.extract_strided_metadata" in text  # C.elem_offset, A.elem_offset
    verify_trace_roundtrip(sch, mod=column_sums)
    # A reduction over another buffer layout is not the description's.
    sch2 = tir.Schedule(column_sums, debug_mask="all")
    c1 = sch2.get_loops(sch2.get_block("C"))[3]
    with pytest.raises(tir.ScheduleError, match="test_pair_sum"):
        sch2.tensorize(c1, "test_pair_sum")


@T.prim_func
def rows_then_sums(A: T.Buffer((20, 6), "float32"), B: T.Buffer((20, 6), "float32"),
                   S: T.Buffer((20,), "float32")):
    for i, j in T.grid(20, 6):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2) + T.float32(1)
    for i, k in T.grid(20, 6):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + B[vi, vk]


def _run(mod, a):
    b = tvm.nd.array(np.zeros((20, 6), "float32"))
    s = tvm.nd.array(np.zeros((20,), "float32"))
    tvm.compile(mod, target="llvm")(tvm.nd.array(a), b, s)
    return b.numpy(), s.numpy()


@pytest.mark.parametrize("block,loop,factors", [
    ("B", 0, [3, None, 5]),     # an inferred middle partition
    ("B", 1, [1, 2]),           # the rest is one more partition
    ("S", 1, [2, None]),        # a reduction: the init stays in the first partition
])
def test_loop_partition_computes_what_the_loop_did(block, loop, factors):
    sch = tir.Schedule(rows_then_sums, debug_mask="all")
    parts = sch.loop_partition(sch.get_loops(sch.get_block(block))[loop], factors)
    assert len(parts) == len(factors) + (0 if None in factors else 1)
    verify_trace_roundtrip(sch, mod=rows_then_sums)
    a = np.random.default_rng(9).uniform(-1, 1, (20, 6)).astype("float32")
    for got, want in zip(_run(sch.mod, a), _run(tvm.IRModule({"main": rows_then_sums}), a)):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_loop_partition_refusals_leave_the_ir_alone():
    sch = tir.Schedule(rows_then_sums, debug_mask="all")
    i = sch.get_loops(sch.get_block("B"))[0]
    before = sch.mod.mlir()
    with pytest.raises(tir.ScheduleError, match="factor 1 is -1"):
        sch.loop_partition(i, [4, -1])          # -1 is not "inferred" here, as in TVM
    with pytest.raises(tir.ScheduleError, match="sum to 20"):
        sch.loop_partition(i, [10, 10])
    assert sch.mod.mlir() == before


# Every dot-product intrinsic of tvm.tir.tensor_intrin: lanes of C (0: one
# scalar accumulator), the reduction length, A / B / C dtypes and scopes.
_SHARED = ("shared", "shared", "local")
DOT_INTRINSICS = [
    (x86.VNNI_DOT_16x4_INTRIN, 16, 4, ("uint8", "int8", "int32"), None),
    (x86.AVX512_DOT_16x4_INTRIN, 16, 4, ("uint8", "int8", "int32"), None),
    ("dot_4x4_i8i8s32_neon", 4, 4, ("int8", "int8", "int32"), None),
    ("dot_4x4_i8i8s32_sdot", 4, 4, ("int8", "int8", "int32"), None),
    ("dot_32x4_u8u8i32_vrmpy", 32, 4, ("uint8", "uint8", "int32"), None),
    ("dot_32x2_i16i16i32_vdmpy", 32, 2, ("int16", "int16", "int32"), None),
    ("dp4a_s8s8s32", 0, 4, ("int8", "int8", "int32"), _SHARED),
    ("dp4a_u8s8s32", 0, 4, ("uint8", "int8", "int32"), _SHARED),
    ("dp4a_s8u8s32", 0, 4, ("int8", "uint8", "int32"), _SHARED),
    ("dp4a_u8u8u32", 0, 4, ("uint8", "uint8", "uint32"), _SHARED),
    ("sdot4", 0, 4, ("int8", "int8", "int32"), _SHARED),
]


def _dot_source(lanes, reduce, dtypes, scopes):
    """C[i, j] += A[i, k] * B[j, k] in C's dtype, with j tiled by `lanes`
    (none for a scalar intrinsic) and k by `reduce`, the buffers in the
    intrinsic's scopes (allocated in the function when not global)."""
    a, b, c = dtypes
    j_tile = max(lanes, 1)
    m, n, k = 2, 2 * j_tile, 2 * reduce
    shapes = {"A": (m, k, a), "B": (n, k, b), "C": (m, n, c)}
    params, allocs = [], []
    for (buf, (d0, d1, dt)), scope in zip(shapes.items(), scopes or (None,) * 3):
        if scope:
            allocs.append(f'    {buf} = T.alloc_buffer(({d0}, {d1}), "{dt}", scope="{scope}")')
        else:
            params.append(f'{buf}: T.Buffer(({d0}, {d1}), "{dt}")')
    j_loops = ("j0, k0, j1, k1", f"{n // j_tile}, 2, {j_tile}, {reduce}",
               f"j0 * {j_tile} + j1") if lanes else ("j, k0, k1", f"{n}, 2, {reduce}", "j")
    return "\n".join([
        "@T.prim_func",
        f"def dot({', '.join(params)}):",
        *allocs,
        f"    for i, {j_loops[0]} in T.grid({m}, {j_loops[1]}):",
        '        with T.block("C"):',
        f"            vi = T.axis.spatial({m}, i)",
        f"            vj = T.axis.spatial({n}, {j_loops[2]})",
        f"            vk = T.axis.reduce({k}, k0 * {reduce} + k1)",
        f'            C[vi, vj] = C[vi, vj] + T.Cast("{c}", A[vi, vk]) * T.Cast("{c}", B[vj, vk])',
    ]) + "\n"


@pytest.mark.parametrize("name,lanes,reduce,dtypes,scopes", DOT_INTRINSICS,
                         ids=[d[0] for d in DOT_INTRINSICS])
def test_every_dot_intrinsic_matches_its_shape(name, lanes, reduce, dtypes, scopes):
    func = tvm.script.from_source(_dot_source(lanes, reduce, dtypes, scopes))
    sch = tir.Schedule(func, debug_mask="all")
    loops = sch.get_loops(sch.get_block("C"))
    sch.tensorize(loops[3], name)  # j1 (a tile of lanes), or k1 (a scalar's)
    assert "tir.match_buffer" in sch.mod.mlir()
    verify_trace_roundtrip(sch, mod=func)
    if name in (x86.VNNI_DOT_16x4_INTRIN, x86.AVX512_DOT_16x4_INTRIN):
        return  # lowered on the CPU (test_uint8_int8_dot_products_run)
    # The others match everywhere but have no CPU lowering: building names
    # the instruction.
    with pytest.raises(ValueError, match="which tir cannot call on the CPU"):
        tvm.compile(sch.mod, target="llvm")


def test_a_cache_of_an_intrinsic_operand_keeps_the_scope_it_declares():
    # The FMA intrinsic views its operands in global memory: a cache of one
    # in shared memory would change the scope under the view.
    sch, ji = _fma_schedule()
    sch.tensorize(ji, x86.AVX512_FMA_F32_16_INTRIN)
    block = sch.get_block("C_update_o")
    before = sch.mod.mlir()
    with pytest.raises(tir.ScheduleError, match="views the buffer through a match_buffer in "
                                                "scope 'global'"):
        sch.cache_read(block, 1, "shared")
    assert sch.mod.mlir() == before
    # In its own scope the cache is fine, and computes what the block did.
    sch.cache_read(block, 1, "global")
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (24, 12)).astype("float32")
    b = rng.uniform(-1, 1, (12, 48)).astype("float32")
    c = np.zeros((24, 48), "float32")
    tvm.build(sch.mod)(a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
