"""The CPU schedules bench/cpu_peers.py times (bench/gemm_schedule.py's
schedule_packed for GEMM and batch matmul, bench/conv_schedule.py's
schedule_conv) compute what the unscheduled programs do, at sizes their
tiles divide and sizes they do not, and the tile picker stays within the
problem and the host's registers."""
import os
import platform
import re
import subprocess
import sys

import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
import conv_schedule  # noqa: E402
import gemm_schedule  # noqa: E402
import programs  # noqa: E402


def run(mod, name, *arrays, out_shape):
    out = tvm.nd.array(np.full(out_shape, np.nan, "float32"))
    tvm.build(mod)[name](*(tvm.nd.array(a) for a in arrays), out)
    return out.numpy()


@pytest.mark.parametrize("shape", [(2, 48, 64, 32), (3, 33, 17, 70), (1, 7, 100, 5)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("order", ["rows", "panels"])
def test_batch_matmul(shape, threads, order):
    rng = np.random.default_rng(2)
    b, m, n, k = shape
    a = rng.standard_normal((b, m, k)).astype("float32")
    w = rng.standard_normal((b, k, n)).astype("float32")
    tiles = (6, 32, 12, 64, 16, 16)
    mod = gemm_schedule.schedule_packed(tvm, programs.batch_matmul(*shape), "get_block", shape,
                                        tiles=tiles, threads=threads, order=order)
    got = run(mod, "bmm", a, w, out_shape=(b, m, n))
    np.testing.assert_allclose(got, a.astype("float64") @ w, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape, threads", [((64, 96, 48), 1), ((50, 70, 30), 2)],
                         ids=["divides", "tails"])
@pytest.mark.parametrize("order", ["rows", "panels"])
def test_packed_schedule_replays_as_a_transform_script(shape, threads, order):
    """The packed GEMM schedule written in Python is also a transform script
    (its trace, which `bench/gemm_schedule.py M N K` prints): tir-opt
    replays it to the same module, and that module computes the GEMM."""
    func = programs.matmul(*shape)
    sch = gemm_schedule.packed_schedule(tvm, func, "get_block", shape,
                                        tiles=(6, 32, 12, 64, 16, 16), threads=threads,
                                        order=order)
    verify_trace_roundtrip(sch, func, text_format="transform")
    m, n, k = shape
    rng = np.random.default_rng(4)
    a = rng.standard_normal((m, k)).astype("float32")
    b = rng.standard_normal((k, n)).astype("float32")
    got = run(sch.mod, "gemm", a, b, out_shape=(m, n))
    np.testing.assert_allclose(got, a.astype("float64") @ b, rtol=1e-4, atol=1e-4)


def test_packed_schedule_script_for_this_host():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gemm_schedule.py"),
                          "100", "200", "300", "--threads", "2"],
                         capture_output=True, text=True, check=True).stdout
    tiles = gemm_schedule.packed_tiles((100, 200, 300), 2)
    assert out.startswith(f"// The packed GEMM schedule of bench/gemm_schedule.py for "
                          f"100 x 200 x 300, 2 thread(s), tiles (mr, nr, mc, nc, kc, lanes) "
                          f"= {tiles}")
    assert "transform.named_sequence @__transform_main" in out
    assert f"transform.tir.split %2#2 [?, {tiles[4]}]" in out, out


def test_packed_order_is_checked():
    with pytest.raises(ValueError, match="order must be 'rows' or 'panels'"):
        gemm_schedule.packed_schedule(tvm, programs.matmul(8, 8, 8), "get_block", (8, 8, 8),
                                      order="columns")


@pytest.mark.parametrize("shape, threads, order", [
    ((2048, 2048, 2048), 1, "rows"),     # A (16 MiB) is over a quarter of L3
    ((1024, 1024, 1024), 2, "panels"),   # 16 panels: 8 + 8
    ((127, 255, 63), 2, "panels"),       # 4 panels, 2 + 2 (64 + 64, 64 + 63)
    ((300, 200, 500), 2, "rows"),        # panels of 64, 64 | 64, 8: 128 of 200
    ((300, 200, 500), 1, "panels"),
    ((16, 512, 512, 64), 2, "panels"),   # the batches are parallel
    ((64, 256, 4096), 1, "rows"),        # a 4096 x 64 panel (1 MiB) is over half of L2
])
def test_packed_order(shape, threads, order):
    """Panels where a panel stays in L2, every panel may read all of A from
    L3 and the panels share out as evenly as the row blocks; rows
    otherwise."""
    tiles = gemm_schedule.host_tiles(shape[-3:], 16, 1024 * 1024, threads=threads)
    assert gemm_schedule.packed_order(shape, tiles, threads, l2=1024 * 1024,
                                      l3=32 * 1024 * 1024) == order


def _k_loops_store_nothing(ir):
    """Whether the single-block loops of `ir` (LLVM IR) that compute on
    <16 x float> vectors (a micro-tile's steps of k, unrolled) store
    nothing: their accumulators are phis, in registers. Asserts there are
    such loops."""
    loops = []
    for block in re.split(r"\n(?=[\w.]+:)", ir):
        label = re.match(r"([\w.]+):", block)
        branch = block.strip().splitlines()[-1]
        if (label and f"label %{label.group(1)}," in branch + ","
                and re.search(r"= (fmul|fadd|call) .*<16 x float>", block)):
            loops.append(block)
    assert loops, ir
    return not [b for b in loops if "store <16 x float>" in b]


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                    reason="builds for an AVX-512 x86 CPU")
@pytest.mark.parametrize("shape, tiles, threads", [
    # Each thread packs its panel of B into a buffer allocated inside the
    # parallel loop, on the heap when it is over 64 KiB (here 512 x 64
    # floats): the optimizer must know that buffer is not C. (A pointer
    # rounded up to its alignment through integers, or an inlined
    # allocator's phi, hid it.)
    ((12, 128, 512), (6, 64, 6, 128, 512, 16), 2),
    # The batches parallel, A's and C's rows indexed alike (64 x 64): the
    # optimizer must tell the tile's rows of C apart (with scalar
    # evolution; BasicAA could not).
    ((2, 64, 64, 64), None, 1),
])
def test_accumulators_stay_in_registers(shape, tiles, threads):
    """The k loop of the "panels" order, whose accumulators are
    <16 x float> phis, stores nothing; before, C was loaded and stored on
    every step of k, at a third to a half of the speed."""
    batched = len(shape) == 4
    func = programs.batch_matmul(*shape) if batched else programs.matmul(*shape)
    # The tiles of the AVX-512 target the IR is built for (16 lanes), on
    # any host.
    tiles = tiles or gemm_schedule.host_tiles(shape[-3:], 16, threads=threads)
    mod = gemm_schedule.schedule_packed(tvm, func, "get_block", shape, tiles=tiles,
                                        threads=threads, order="panels")
    ir = tvm.build(mod, target="llvm -mcpu=skylake-avx512").get_source()
    assert _k_loops_store_nothing(ir)
    # And the numbers, built for this host.
    *batch, m, n, k = shape
    rng = np.random.default_rng(5)
    a = rng.standard_normal((*batch, m, k)).astype("float32")
    b = rng.standard_normal((*batch, k, n)).astype("float32")
    got = run(mod, "bmm" if batched else "gemm", a, b, out_shape=(*batch, m, n))
    np.testing.assert_allclose(got, a.astype("float64") @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                    reason="builds for an AVX-512 x86 CPU")
def test_accumulators_enter_the_k_loop_in_registers():
    """The first step of k is peeled (where C's init runs); it computes the
    6 x 64 tile of C, and the loop over the rest of k must take those
    values as they are, not store them to C and load them back. LLVM's
    GVN misses the first stores of an unrolled tile (they lie more than
    100 instructions back), the compiler's late forwarding finds them: no
    accumulator of the loop (a <16 x float> phi) starts from a load."""
    shape = (1, 12, 128, 64)
    mod = gemm_schedule.schedule_packed(tvm, programs.batch_matmul(*shape), "get_block", shape,
                                        tiles=(6, 64, 12, 128, 64, 16), threads=1)
    ir = tvm.build(mod, target="llvm -mcpu=skylake-avx512").get_source()
    defined = dict(re.findall(r"^\s*(%[\w.]+) = (\w+)", ir, re.M))
    accumulators = re.findall(r"= phi <16 x float> (.*)", ir)
    assert len(accumulators) >= 24, ir
    starts = [value for incoming in accumulators
              for value in re.findall(r"\[ (%[\w.]+), ", incoming)]
    assert starts and not [v for v in starts if defined.get(v) == "load"], accumulators


@pytest.mark.parametrize("shape", [(1, 8, 10, 16, 32, 3, 3), (1, 3, 7, 8, 64, 5, 5),
                                   (2, 4, 6, 24, 32, 1, 1), (1, 4, 5, 40, 6, 3, 3)],
                         ids=lambda s: "x".join(map(str, s)))
def test_conv2d(shape):
    n, c, h, w, f, kh, kw = shape
    rng = np.random.default_rng(3)
    x = rng.standard_normal((n, c, h, w)).astype("float32")
    wt = rng.standard_normal((f, c, kh, kw)).astype("float32")
    func = conv_schedule.conv2d_nchw(T, *shape)
    expected = run(func, "conv", x, wt, out_shape=(n, f, h, w))
    got = run(conv_schedule.schedule_conv(tvm, func, "get_block", shape), "conv", x, wt,
              out_shape=(n, f, h, w))
    padded = np.pad(x, ((0, 0), (0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (kh, kw), axis=(2, 3))
    reference = np.einsum("nchwij,fcij->nfhw", windows.astype("float64"), wt)
    np.testing.assert_allclose(expected, reference, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape", [(1, 64, 56, 56, 64, 3, 3), (1, 3, 7, 8, 64, 5, 5),
                                   (2, 4, 6, 24, 32, 1, 1)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("lanes", [16, 8])
def test_conv_tiles(shape, lanes):
    """conv2d's micro-tile: whole vectors of columns (two where the output
    is that wide), two rows, and channels so that the accumulators take
    half the vector registers (16 of AVX-512's 32, 8 of AVX2's 16)."""
    fr, yr, xr, got_lanes = conv_schedule.conv_tiles(shape, lanes)
    registers = 32 if lanes == 16 else 16
    assert got_lanes == lanes and xr % lanes == 0 and yr == 2
    assert xr == (2 * lanes if shape[3] >= 2 * lanes else lanes)
    assert fr * yr * (xr // lanes) == registers // 2


@pytest.mark.parametrize("shape", [(1024, 1024, 1024), (1000, 1000, 1000), (127, 255, 63),
                                   (5, 3, 2)])
@pytest.mark.parametrize("host", [(16, 1280 * 1024), (16, 1024 * 1024), (8, 256 * 1024)])
def test_host_tiles(shape, host):
    lanes, l2 = host
    mr, nr, mc, nc, kc, got_lanes = gemm_schedule.host_tiles(shape, lanes, l2)
    m, n, k = shape
    assert got_lanes == lanes and nr % lanes == 0
    # Accumulators, a row of B and a broadcast element fit the registers.
    registers = 32 if lanes == 16 else 16
    assert mr * nr // lanes + nr // lanes + 1 <= registers
    assert mc % mr == 0 and nc % nr == 0 and kc % 16 == 0
    assert mc <= -(-m // mr) * mr and nc <= -(-n // nr) * nr and kc <= -(-k // 16) * 16
    # A B micro-panel takes at most a quarter of L2, the A block an eighth
    # (or a single micro-panel), the B block (kept in L3) four times L2.
    assert 4 * kc * nr <= l2 // 4 and kc <= 1024
    assert mc == mr or 4 * kc * mc <= l2 // 8
    assert 4 * kc * nc <= 4 * l2


@pytest.mark.parametrize("m, threads, mc", [(1024, 2, 12), (2048, 2, 18), (1024, 1, 30),
                                            (127, 2, 24), (12, 4, 6)])
def test_row_blocks_balance_threads(m, threads, mc):
    """The row blocks are the parallel loop: with threads, mc is the one
    within [half, all] of the L2 size (30 rows on a 1 MiB L2 at kc 1024)
    that gives the busiest thread the fewest micro-tiles. 1024 rows are 171
    micro-tiles: blocks of 2 make 86 + 85 (blocks of 5, 90 + 81); 2048 rows,
    342 micro-tiles, blocks of 3 make 57 + 57 blocks; 127 rows, 22 micro-tiles,
    12 on the busiest thread with blocks of 2, 3 or 4 (the largest kept)."""
    got = gemm_schedule.host_tiles((m, 1024, 1024), 16, 1024 * 1024, threads=threads)
    assert got[2] == mc
