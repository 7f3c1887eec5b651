"""Warpgroup tensor-core GEMMs (sm_90a's wgmma, tir's own intrinsics in
tvm.tir.tensor_intrin.cuda): the schedule of bench/gpu's
schedule_matmul_wgmma tensorized and built for sm_90a, the structure of
its PTX, ptxas's acceptance, the run against numpy where there is a
Hopper GPU, and the refusals (another chip, operands not laid out for the
instruction)."""
import os
import re
import sys

import numpy as np
import pytest

import tensorir as tvm
from tensorir.tir.tensor_intrin import cuda as intrin
from tensorir.tir.tensor_intrin import wgmma

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "gpu"))
import programs  # noqa: E402

HAVE_PTXAS = os.path.exists("/usr/local/cuda/bin/ptxas")
HAVE_HOPPER = tvm.cuda(0).exist and tvm.cuda(0).compute_version == "9.0"

# name: schedule options, wgmma per k tile (k_tiles), whether pipelined.
CONFIGS = {
    "n128_wg2": (dict(n_tile=128, warpgroups=2, pipeline=None), 4),
    "n128_wg2_async": (dict(n_tile=128, warpgroups=2, pipeline="async"), 4),
    "n256_wg1_async": (dict(n_tile=256, warpgroups=1, pipeline="async"), 4),
    "n64_wg2_k2_sync": (dict(n_tile=64, warpgroups=2, k_tiles=2, pipeline="sync"), 2),
    "n128_wg2_unpadded": (dict(n_tile=128, warpgroups=2, pad=False), 4),
    "n128_wg2_3stages": (dict(n_tile=128, warpgroups=2, stages=3), 4),
    "n64_wg1_group2": (dict(n_tile=64, warpgroups=1, group=2), 4),
}


def schedule(name, n=256, in_dtype="float16"):
    options = CONFIGS[name][0]
    func = programs.matmul_mixed(n, in_dtype, "float32", b_transposed=True)
    return programs.schedule_matmul_wgmma(func, **options)


def ptx_of(lib):
    """The PTX a CUDA build embeds in its host code (an LLVM string)."""
    source = lib.get_source()
    start = source.index(".version")
    text = source[start:source.index('\\00"', start)]
    return text.replace("\\0A", "\n").replace("\\09", "\t").replace("\\22", '"')


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_wgmma_gemm_ptx(name):
    options, per_tile = CONFIGS[name]
    ptx = ptx_of(tvm.build(schedule(name).mod, target="cuda -arch=sm_90a"))
    assert ".target sm_90a" in ptx
    products = ptx.count("wgmma.mma_async.sync.aligned.m64n%dk16.f32.f16.f16"
                         % options["n_tile"])
    # The k tile's products (its loop unrolled) are issued back to back:
    # each committed, one fence before and one wait after them all; every
    # product is K-major on both sides (no transposes).
    steps = ptx.count("wgmma.fence.sync.aligned")
    assert steps >= 1 and products == per_tile * steps
    assert ptx.count("wgmma.commit_group.sync.aligned") == products
    assert ptx.count("wgmma.wait_group.sync.aligned") == steps
    assert ptx.count("fence.proxy.async.shared::cta") == steps
    assert re.search(r"wgmma\.mma_async[^;]*, p, 1,\s*1, 0,\s*0;", ptx)
    # The accumulators stay in registers.
    assert "ld.local" not in ptx and "st.local" not in ptx
    if options.get("pipeline", "async") == "async":
        assert "cp.async.cg.shared.global" in ptx and "ld.global" not in ptx
        # The steady steps wait for all but the newest stages - 1 groups.
        waits = re.findall(r"cp\.async\.wait_group\s+(\d+);", ptx)
        assert max(int(w) for w in waits) == options.get("stages", 2) - 1
    else:
        assert "cp.async" not in ptx


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas) for -format=bin")
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_wgmma_gemm_assembles(name):
    tvm.build(schedule(name).mod, target="cuda -arch=sm_90a -format=bin")


def test_wgmma_bf16():
    func = programs.matmul_mixed(256, "bfloat16", "float32", b_transposed=True)
    sch = programs.schedule_matmul_wgmma(func, n_tile=128, warpgroups=2, pipeline="async",
                                         in_dtype="bfloat16")
    ptx = ptx_of(tvm.build(sch.mod, target="cuda -arch=sm_90a"))
    assert "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16" in ptx


def test_padded_operand_tiles():
    # storage_align(0, 64, 8) on the (k / 8, row, 8) tiles: the halves of
    # k 1032 elements (2064 bytes, 129 x 16) apart rather than 1024: the
    # descriptors' leading byte offset field (bits 16-29) is 129.
    def descriptor_bits(pad):
        sch = schedule("n128_wg2_unpadded" if not pad else "n128_wg2")
        ptx = ptx_of(tvm.build(sch.mod, target="cuda -arch=sm_90a"))
        return {int(c) for c in re.findall(r"or\.b64\s+%rd\d+, %rd\d+, (\d+);", ptx)
                if int(c) >= 1 << 32}
    assert descriptor_bits(True) == {(8 << 32) | (129 << 16)}
    assert descriptor_bits(False) == {(8 << 32) | (128 << 16)}


@pytest.mark.skipif(not HAVE_HOPPER, reason="no Hopper GPU (sm_90) here")
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_wgmma_gemm_on_gpu(name):
    n = 512
    lib = tvm.build(schedule(name, n).mod, target="cuda")
    rng = np.random.default_rng(5)
    a, b = (rng.standard_normal((n, n)).astype("float16") for _ in range(2))
    dev = tvm.cuda(0)
    c = tvm.nd.array(np.zeros((n, n), "float32"), dev)
    lib["gemm"](tvm.nd.array(a, dev), tvm.nd.array(b, dev), c)
    expected = a.astype("float64") @ b.T.astype("float64")
    np.testing.assert_allclose(c.numpy(), expected, rtol=1e-3, atol=1e-3)


def test_wgmma_needs_sm90a():
    for chip in ("sm_90", "sm_80"):
        with pytest.raises(Exception, match="calls 'tir.ptx_wgmma', a warpgroup tensor-core "
                                            r"instruction \(wgmma.mma_async\), which needs "
                                            f"sm_90a .*, not {chip}"):
            tvm.build(schedule("n128_wg2").mod, target=f"cuda -arch={chip}")


def test_operands_not_laid_out_for_wgmma_refused():
    # The shared tiles left row-major (no transform_layout to the core
    # matrices' layout): tensorize finds no match for the intrinsic, whose
    # description reads A[k // 8, i, k % 8].
    func = programs.matmul_mixed(256, "float16", "float32", b_transposed=True)
    sch = tvm.tir.Schedule(func)
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    i, i_t = sch.split(i, [None, 64])
    j, j_t = sch.split(j, [None, 128])
    k, k_t = sch.split(k, [None, 16])
    sch.reorder(i, j, k, i_t, j_t, k_t)
    sch.blockize(i_t)
    with pytest.raises(Exception, match="tensorize"):
        sch.tensorize(sch.get_loops(c)[-3], "wgmma_m64n128k16_f16f16f32")


def test_warpgroup_layout_is_the_store_inverse():
    # Every element of a 64 x N accumulator has one (thread, position), and
    # the store's inverse (the implementation's) gives it back.
    for n in wgmma.SIZES:
        seen = set()
        for i in range(64):
            for j in range(n):
                t, l = intrin.warpgroup_layout(i, j)
                assert 0 <= t < 128 and 0 <= l < n // 2
                seen.add((t, l))
                row = 16 * (t // 32) + 8 * (l % 4 // 2) + t % 32 // 4
                col = 8 * (l // 4) + t % 4 * 2 + l % 2
                assert (row, col) == (i, j)
        assert len(seen) == 64 * n


def test_intrin_group():
    assert intrin.get_wgmma_intrin_group(128) == {
        "init": "wgmma_fill_m64n128_f32", "compute": "wgmma_m64n128k16_f16f16f32_dyn",
        "store": "wgmma_store_m64n128_f32_global"}
    with pytest.raises(ValueError, match="n is one of"):
        intrin.get_wgmma_intrin_group(96)
    with pytest.raises(ValueError, match="in_dtype is float16 or bfloat16"):
        intrin.get_wgmma_intrin_group(128, "int8")
