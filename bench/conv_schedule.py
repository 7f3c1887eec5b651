"""A CPU schedule of conv2d NCHW (stride 1, "same" padding) written once for
TVM's Python API and tir's, as bench/gemm_schedule.py is for GEMM;
bench/cpu_peers.py builds it with each.

The padded input is one copy (block "pad"); the convolution (block "conv")
is computed directly in NCHW, as TVM's spatial-pack schedules do: a
micro-tile is `fr` output channels by `yr` output rows by `xr` output
columns, the columns as `xr / lanes` vectors. For each input channel and
each tap of the window, a micro-tile loads one vector of the padded input
per row and vector of columns (shifted by the tap) and broadcasts one
weight per channel straight from W, whose [F][C][KH][KW] layout needs no
packing; the fr x yr x xr / lanes accumulators live in vector registers
(cache_write "local" at the tile) and are written back to O as they are,
columns contiguous. Row blocks run in parallel.

This replaced a channels-last micro-tile (32 channels as two vectors by 8
columns) that needed the weights packed to [F / 32][C][KH][KW][32] and its
tile transposed back to NCHW; those two took 2% of the time, and the direct
tile runs 2-3% faster on one thread and two (docs/performance.md).
"""


import gemm_schedule


def conv2d_nchw(T, n, c, h, w, f, kh, kw):
    """The program in tir's TVMScript (`T`: tensorir.script.tir); TVM 0.27
    spells blocks T.sblock, so bench/cpu_peers.py writes its copy out."""
    ph, pw = kh // 2, kw // 2

    @T.prim_func
    def conv(I: T.Buffer((n, c, h, w), "float32"), W: T.Buffer((f, c, kh, kw), "float32"),
             O: T.Buffer((n, f, h, w), "float32")):
        T.func_attr({"global_symbol": "conv", "tir.noalias": True})
        P = T.alloc_buffer((n, c, h + 2 * ph, w + 2 * pw), "float32")
        for b, ci, y, x in T.grid(n, c, h + 2 * ph, w + 2 * pw):
            with T.block("pad"):
                vb, vc, vy, vx = T.axis.remap("SSSS", [b, ci, y, x])
                P[vb, vc, vy, vx] = T.if_then_else(
                    vy >= ph and vy < h + ph and vx >= pw and vx < w + pw,
                    I[vb, vc, vy - ph, vx - pw], T.float32(0))
        for b, fo, y, x, rc, ry, rx in T.grid(n, f, h, w, c, kh, kw):
            with T.block("conv"):
                vb, vf, vy, vx, vc, vry, vrx = T.axis.remap("SSSSRRR", [b, fo, y, x, rc, ry, rx])
                with T.init():
                    O[vb, vf, vy, vx] = T.float32(0)
                O[vb, vf, vy, vx] = O[vb, vf, vy, vx] + P[vb, vc, vy + vry, vx + vrx] * W[vf, vc, vry, vrx]
    return conv


def conv_tiles(shape, lanes=None):
    """The micro-tile (fr, yr, xr, lanes) for conv2d of `shape` (N, C, H,
    W, F, KH, KW) on this host: two rows by two vectors of columns (one
    where the output is narrower than two) by as many channels as keep half
    the vector registers for accumulators (AVX-512: 4 channels, 16 of 32
    registers; AVX2: 2 channels, 8 of 16); the rest hold the input vectors
    and the broadcast weights. On an AMD Zen 4, 1x64x56x56 3x3 64 -> 64:
    115.6 GFLOP/s, 99% of the FMA peak (24 or 28 accumulators measured
    111.4-114.8, one vector of columns by 4 rows 115.3)."""
    lanes = lanes or gemm_schedule.host_lanes()
    width = shape[3]
    rows, vectors = 2, 2 if width >= 2 * lanes else 1
    registers = 32 if lanes >= 16 else 16
    return registers // 2 // (rows * vectors), rows, vectors * lanes, lanes


def schedule_conv(tvm, func, get_block, shape, tiles=None):
    """The direct NCHW schedule of the module docstring for conv2d_nchw's
    function of `shape` (N, C, H, W, F, KH, KW); `tiles` is conv_tiles'
    (fr, yr, xr, lanes), this host's by default. Sizes that
    the tile does not divide leave tails (split's predicate), which
    tir's --tir-partition-loops gives loops of their own."""
    fr, yr, xr, lanes = tiles or conv_tiles(shape)
    sch = tvm.s_tir.Schedule(func) if hasattr(tvm, "s_tir") else tvm.tir.Schedule(func)
    conv = getattr(sch, get_block)("conv")
    acc = sch.cache_write(conv, 0, "local")
    b, f, y, x, rc, ry, rx = sch.get_loops(conv)
    fo, fi = sch.split(f, [None, fr])
    yo, yi = sch.split(y, [None, yr])
    xo, xi = sch.split(x, [None, xr])
    sch.reorder(b, yo, fo, xo, rc, ry, rx, yi, fi, xi)
    sch.reverse_compute_at(acc, xo)
    sch.parallel(yo)
    xv, xl = sch.split(xi, [None, lanes])
    sch.unroll(yi)
    sch.unroll(fi)
    sch.unroll(xv)
    sch.vectorize(xl)
    sch.decompose_reduction(conv, rc)
    # The write-back: each row of the tile, a vector at a time.
    _, columns = sch.split(sch.get_loops(acc)[-1], [None, lanes])
    sch.vectorize(columns)
    pad = getattr(sch, get_block)("pad")
    sch.parallel(sch.get_loops(pad)[1])
    return sch.mod

