"""A CPU schedule of conv2d NCHW (stride 1, "same" padding) written once for
TVM's Python API and tir's, as bench/gemm_schedule.py is for GEMM;
bench/cpu_peers.py builds it with each.

The padded input is one copy (block "pad"); the convolution (block "conv")
is an implicit GEMM whose micro-tile is `xr` output columns of one row by
`fr` output channels: the weights are packed once (cache_read +
transform_layout) as [F / fr][C][KH][KW][fr] so that a micro-tile's fr
channels are `fr / lanes` vectors, the input pixel of each column is
broadcast, and the fr x xr accumulators live in vector registers
(cache_write "local" at the tile, laid out channels-last by
transform_layout, written back to NCHW after the reduction over channels
and window, a vector of xr columns per channel). Output rows run in
parallel.
"""


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


def schedule_conv(tvm, func, get_block, fr=32, xr=8, lanes=16):
    sch = tvm.s_tir.Schedule(func) if hasattr(tvm, "s_tir") else tvm.tir.Schedule(func)
    conv = getattr(sch, get_block)("conv")
    acc = sch.cache_write(conv, 0, "local")
    # The accumulator with channels innermost: a micro-tile's channels are
    # contiguous vectors.
    sch.transform_layout(conv, ("write", 0), lambda b, f, y, x: (b, y, x, f))
    wpack = sch.cache_read(conv, 1, "global")
    to_panel = lambda f, c, r, s: (f // fr, c, r, s, f % fr)  # noqa: E731
    sch.transform_layout(wpack, ("write", 0), to_panel)
    sch.transform_block_layout(wpack, to_panel)
    b, f, y, x, rc, ry, rx = sch.get_loops(conv)
    fo, fi = sch.split(f, [None, fr])
    xo, xi = sch.split(x, [None, xr])
    sch.reorder(b, y, fo, xo, rc, ry, rx, xi, fi)
    sch.reverse_compute_at(acc, xo)
    sch.parallel(y)
    fi0, fi1 = sch.split(fi, [fr // lanes, lanes])
    sch.unroll(xi)
    sch.unroll(fi0)
    sch.vectorize(fi1)
    sch.decompose_reduction(conv, rc)
    # The write-back transposes the tile to NCHW: for each channel, xr
    # contiguous columns as one vector (gathered from the tile), channels
    # unrolled. Left to LLVM, it scattered each channel vector to xr rows
    # of O: 11% of the time, against 8.5% (one thread, 64 -> 64 at 56^2).
    write_channels, write_columns = sch.get_loops(acc)[-2:]
    sch.unroll(write_channels)
    sch.vectorize(write_columns)
    pad = getattr(sch, get_block)("pad")
    sch.parallel(sch.get_loops(pad)[1])
    sch.parallel(sch.get_loops(wpack)[0])
    return sch.mod
