"""Tensor-core GEMMs (mma.sync) built for the GPU: the schedule of
test_tensor_intrin_mma lowered to kernels whose fragments are each lane's
registers (warp buffers divided among the lanes), ldmatrix and mma.sync in
the PTX, assembled by ptxas for sm_80 and sm_90; run against numpy where
there is a GPU; the refusals of what the lowering does not take."""
import os
import re

import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T

from test_tensor_intrin_mma import CONFIGS, programs, schedule_mma

HAVE_GPU = tvm.cuda(0).exist
HAVE_PTXAS = os.path.exists("/usr/local/cuda/bin/ptxas")

# (ldmatrix with .trans, without) per 16 x k step, the mma instruction.
EXPECTED = {
    "f16f16f32": (2, 2, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
    "f16f16f32_trans_b": (0, 4, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
    "f16f16f16": (2, 2, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"),
    "bf16bf16f32": (2, 2, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    "bf16bf16f32_trans_b": (0, 4, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    "i8i8i32": (0, 2, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"),
    "i8i8i32_trans_b": (0, 4, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"),
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_mma_gemm_ptx(config):
    lib = tvm.build(schedule_mma(config).mod, target="cuda -arch=sm_80")
    ptx = lib.get_source("ll")  # the host code, the kernel's PTX in it
    transposed, plain, mma = EXPECTED[config]
    # 2 x 2 tiles of 16 x 16 per warp and k step, each two m16n8 products
    # (the k loop may be unrolled).
    steps, rest = divmod(ptx.count(mma), 8)
    assert steps >= 1 and rest == 0
    assert ptx.count("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") == transposed * steps
    assert ptx.count("ldmatrix.sync.aligned.m8n8.x4.shared.b16") == plain * steps
    # Two barriers per k step: before the copies into shared memory
    # overwrite what ldmatrix read, and after them.
    assert ptx.count("bar.sync") == 2
    # The fragments and accumulators stay in registers: the loops over a
    # warp's tiles are unrolled, the fragments allocated once per thread,
    # their indices constants.
    assert "ld.local" not in ptx and "st.local" not in ptx


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas) for -format=bin")
@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_mma_gemm_assembles(config, arch):
    tvm.build(schedule_mma(config).mod, target=f"cuda -arch={arch} -format=bin")


def check_on_gpu(sch, in_dtype, out_dtype, b_transposed, n, seed):
    """The scheduled GEMM on the GPU against numpy in float64."""
    lib = tvm.build(sch.mod, target="cuda")
    rng = np.random.default_rng(seed)
    if in_dtype == "int8":
        a, b = (rng.integers(-128, 128, (n, n)).astype("int8") for _ in range(2))
    else:
        a, b = (rng.standard_normal((n, n)).astype("float16") for _ in range(2))
    expected = a.astype("float64") @ (b.T if b_transposed else b).astype("float64")
    dev = tvm.cuda(0)
    c = tvm.nd.array(np.zeros((n, n), out_dtype), dev)
    lib["gemm"](tvm.nd.array(a, dev), tvm.nd.array(b, dev), c)
    tolerance = {"float16": 5e-2, "float32": 1e-3, "int32": 0}[out_dtype]
    np.testing.assert_allclose(c.numpy().astype("float64"), expected, rtol=tolerance,
                               atol=tolerance)


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_mma_gemm_on_gpu(config):
    in_dtype, out_dtype, b_trans = CONFIGS[config][:3]
    if in_dtype == "bfloat16":
        pytest.skip("the runtime takes no bfloat16 arrays (numpy has none); the bf16 GEMM "
                    "is checked as PTX and by ptxas")
    check_on_gpu(schedule_mma(config, 128), in_dtype, out_dtype, b_trans, 128, seed=0)


# in, out, B transposed: the product's instruction, ldmatrix per k step.
WMMA_CONFIGS = {
    ("float16", "float32", False): ("m16n8k16.row.col.f32.f16.f16.f32", 4),
    ("float16", "float32", True): ("m16n8k16.row.col.f32.f16.f16.f32", 4),
    ("float16", "float16", False): ("m16n8k16.row.col.f16.f16.f16.f16", 4),
    ("float16", "float16", True): ("m16n8k16.row.col.f16.f16.f16.f16", 4),
    # 8-bit B stored k x n: each lane reads it (no ldmatrix transposes bytes).
    ("int8", "int32", False): ("m16n8k16.row.col.satfinite.s32.s8.s8.s32", 2),
    ("int8", "int32", True): ("m16n8k16.row.col.satfinite.s32.s8.s8.s32", 4),
}


def schedule_wmma(in_dtype, out_dtype, b_transposed, n=128):
    func = programs.matmul_mixed(n, in_dtype, out_dtype, b_transposed)
    return programs.schedule_matmul_mma(func, in_dtype, out_dtype, b_transposed, wmma=True)


@pytest.mark.parametrize("config", sorted(WMMA_CONFIGS))
def test_wmma_gemm_ptx(config):
    # WMMA's intrinsics: the same instructions on the lanes' registers
    # (ldmatrix, two m16n8k16 per 16 x 16 x 16 product), no local memory.
    ptx = tvm.build(schedule_wmma(*config).mod, target="cuda -arch=sm_80").get_source("ll")
    instruction, loads = WMMA_CONFIGS[config]
    steps, rest = divmod(ptx.count("mma.sync.aligned." + instruction), 8)
    assert steps >= 1 and rest == 0
    assert ptx.count("ldmatrix.sync.aligned") == loads * steps
    assert "ld.local" not in ptx and "st.local" not in ptx


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas) for -format=bin")
@pytest.mark.parametrize("config", sorted(WMMA_CONFIGS))
def test_wmma_gemm_assembles(config):
    for arch in ("sm_80", "sm_90"):
        tvm.build(schedule_wmma(*config).mod, target=f"cuda -arch={arch} -format=bin")


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
@pytest.mark.parametrize("config", sorted(WMMA_CONFIGS))
def test_wmma_gemm_on_gpu(config):
    check_on_gpu(schedule_wmma(*config, 128), *config, 128, seed=1)


# 8-bit floats (sm_89 and newer): m16n8k32 into f32, as int8 (ldmatrix for
# A and for B stored n x k, each lane's loads for B stored k x n).
FLOAT8 = {
    ("float8_e4m3fn", False): ("e4m3", 2), ("float8_e4m3fn", True): ("e4m3", 4),
    ("float8_e5m2", False): ("e5m2", 2), ("float8_e5m2", True): ("e5m2", 4),
}


def schedule_float8(dtype, b_transposed, n=128):
    return programs.schedule_matmul_mma(programs.matmul_mixed(n, dtype, "float32", b_transposed),
                                        dtype, "float32", b_transposed)


@pytest.mark.parametrize("dtype, b_transposed", sorted(FLOAT8))
def test_float8_gemm_ptx(dtype, b_transposed):
    lib = tvm.build(schedule_float8(dtype, b_transposed).mod, target="cuda -arch=sm_90")
    ptx = lib.get_source("ll")
    name, loads = FLOAT8[(dtype, b_transposed)]
    instruction = f"mma.sync.aligned.m16n8k32.row.col.f32.{name}.{name}.f32"
    steps, rest = divmod(ptx.count(instruction), 8)
    assert steps >= 1 and rest == 0
    assert ptx.count("ldmatrix.sync.aligned.m8n8.x4.shared.b16") == loads * steps
    # The instruction is PTX 8.4's: the module says so.
    assert ".version 8.4" in ptx
    assert "ld.local" not in ptx and "st.local" not in ptx
    # The signature names the element type as TVM does.
    assert f"buffer A {dtype}" in ptx


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas) for -format=bin")
@pytest.mark.parametrize("dtype, b_transposed", sorted(FLOAT8))
def test_float8_gemm_assembles(dtype, b_transposed):
    for arch in ("sm_89", "sm_90"):
        tvm.build(schedule_float8(dtype, b_transposed).mod, target=f"cuda -arch={arch} -format=bin")


def test_float8_before_sm89_refused():
    with pytest.raises(Exception, match="calls 'tir.ptx_mma' on e4m3 operands \\(8-bit floats\\), "
                                        "which needs sm_89 or newer, not sm_86"):
        tvm.build(schedule_float8("float8_e4m3fn", False).mod, target="cuda -arch=sm_86")


# Software-pipelined tensor-core GEMMs: the k step's tiles of A and B
# copied one step ahead (two copies of each), by cp.async.
PIPELINED = {
    # name: schedule options, 16-byte cp.async per block and step, whether
    # the tiles are dynamic shared memory (over 48 KiB).
    "mma_async": (dict(pipeline="async"), 4, False),
    "wmma_async": (dict(pipeline="async", wmma=True), 4, False),
    "mma_async_64k": (dict(pipeline="async", tiles=(4, 4), k_tiles=4), 16, True),
    "mma_async_padded": (dict(pipeline="async", pad=True), 4, False),
    "mma_async_padded_64k": (dict(pipeline="async", tiles=(4, 4), k_tiles=4, pad=True), 16,
                             True),
}


def schedule_pipelined(name, n=256):
    options = PIPELINED[name][0]
    return programs.schedule_matmul_mma(programs.matmul_mixed(n), **options)


@pytest.mark.parametrize("name", sorted(PIPELINED))
def test_pipelined_gemm_ptx(name):
    ptx = tvm.build(schedule_pipelined(name).mod, target="cuda -arch=sm_80").get_source("ll")
    _, per_step, dynamic = PIPELINED[name]
    # The steps in the code: the prologue's, the steady loop's two (unrolled
    # by two, to name the tiles' copies), the last one. Each copies A's and
    # B's next tiles by 16-byte cp.async (.cg), none through registers, and
    # commits them as one group; the steady steps wait for all but the
    # newest group, the epilogue for all.
    assert ptx.count("cp.async.cg.shared.global") == per_step * 4
    assert "ld.global" not in ptx
    assert ptx.count("cp.async.commit_group") == 4
    assert ptx.count("cp.async.wait_group \\091;") == 3
    assert ptx.count("cp.async.wait_group \\090;") == 1
    assert ("__tir_dynamic_shared[]" in ptx) == dynamic
    assert "ld.local" not in ptx and "st.local" not in ptx


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas) for -format=bin")
@pytest.mark.parametrize("name", sorted(PIPELINED))
def test_pipelined_gemm_assembles(name):
    for arch in ("sm_80", "sm_90"):
        tvm.build(schedule_pipelined(name).mod, target=f"cuda -arch={arch} -format=bin")


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
@pytest.mark.parametrize("name", sorted(PIPELINED))
def test_pipelined_gemm_on_gpu(name):
    check_on_gpu(schedule_pipelined(name), "float16", "float32", False, 256, seed=2)


def test_padded_shared_tiles():
    # storage_align(0, -2, 32, 8) on the shared copies: A's 64 x 32 tile
    # gets rows of 40 halves (63 * 40 + 32 of them: 5104 bytes), B's 32 x 64
    # rows of 72 (31 * 72 + 64: 4592 bytes), two copies of each; unpadded,
    # each is 4096 bytes.
    def shared_sizes(pad):
        ptx = tvm.build(programs.schedule_matmul_mma(
            programs.matmul_mixed(256), pipeline="async", pad=pad).mod,
            target="cuda -arch=sm_80").get_source("ll")
        return sorted(int(n) for n in re.findall(r"\.shared \.align 16 \.b8 \w+\[(\d+)\]", ptx))
    assert shared_sizes(False) == [4096] * 4
    assert shared_sizes(True) == [4592, 4592, 5104, 5104]


def test_async_pipeline_before_sm80_refused():
    with pytest.raises(Exception, match="loop 'k_0_0' has asynchronous stages .* need "
                                        "cp.async: sm_80 or newer, not sm_75"):
        tvm.build(schedule_pipelined("mma_async").mod, target="cuda -arch=sm_75")


def test_shared_memory_over_the_chip_refused():
    # 128 KiB of tiles (two copies of A's and B's 128 x 128 f16 tiles): over
    # what a block holds on sm_86 (99 KiB), within sm_80's 163 KiB (dynamic
    # shared memory).
    sch = programs.schedule_matmul_mma(programs.matmul_mixed(256), tiles=(4, 4), k_tiles=8,
                                       pipeline="async")
    with pytest.raises(Exception, match="holding 131072 bytes of shared memory, over the "
                                        "101376 bytes one block may hold on sm_86"):
        tvm.build(sch.mod, target="cuda -arch=sm_86")
    ptx = tvm.build(sch.mod, target="cuda -arch=sm_80").get_source("ll")
    assert "__tir_dynamic_shared[]" in ptx


def test_tensor_cores_before_sm80_refused():
    # mma.sync m16n8k16 is sm_80's: refused, not a crash in the backend.
    with pytest.raises(Exception, match="calls 'tir.ptx_ldmatrix', a tensor-core instruction"
                                        ".* needs sm_80 or newer, not sm_75"):
        tvm.build(schedule_wmma("float16", "float32", False).mod, target="cuda -arch=sm_75")


def test_wmma_store_into_shared_memory_is_fenced():
    # Accumulators stored into shared memory by each lane, then copied out
    # by all the block's threads: a barrier between (besides the k step's
    # two).
    func = programs.matmul_mixed(128, "float16", "float32", False)
    sch = programs.schedule_matmul_mma(func, wmma=True, stage_c=True)
    ptx = tvm.build(sch.mod, target="cuda -arch=sm_80").get_source("ll")
    assert ptx.count("bar.sync") == 3


def test_warp_buffer_without_lanes_refused():
    # A "warp" cache left in the matrix's own layout has no lane dimension.
    @T.prim_func
    def copy(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
        W = T.alloc_buffer((64, 64), "float32", scope="warp")
        for i in T.thread_binding(64, thread="blockIdx.x"):
            for j in T.thread_binding(64, thread="threadIdx.x"):
                with T.block("W"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    W[vi, vj] = A[vi, vj]
                with T.block("B"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    B[vi, vj] = W[vi, vj]

    with pytest.raises(Exception, match="second-to-last dimension is the warp's 32 lanes"):
        tvm.build(copy, target="cuda")


def test_cross_lane_access_refused():
    # Lane t reading row t + 1 of a fragment needs a shuffle.
    @T.prim_func
    def shift(A: T.Buffer((32, 8), "float32"), B: T.Buffer((32, 8), "float32")):
        W = T.alloc_buffer((32, 8), "float32", scope="warp")
        for w in T.thread_binding(1, thread="blockIdx.x"):
            for t in T.thread_binding(32, thread="threadIdx.x"):
                for l in range(8):
                    with T.block("W"):
                        vt, vl = T.axis.remap("SS", [t, l])
                        W[vt, vl] = A[vt, vl]
            for t in T.thread_binding(32, thread="threadIdx.x"):
                for l in range(8):
                    with T.block("B"):
                        vt, vl = T.axis.remap("SS", [t, l])
                        B[vt, vl] = W[(vt + 1) % 32, vl]

    with pytest.raises(Exception, match="not the lane's own"):
        tvm.build(shift, target="cuda")
