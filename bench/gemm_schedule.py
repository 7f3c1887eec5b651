"""CPU GEMM schedules written once for TVM's Python API and tir's (tensorir
answers `import tvm`); bench/cpu_peers.py builds them with each.

`schedule` is bench/matmul_primitives_schedule.mlir's: cache_write "local"
(the accumulator tile), cache_read "global" of B laid out as panels of `nr`
columns, tiles of mr x nr with the whole k loop inside, packing at the panel
loop, the tile loop parallel, the inner loops unrolled and vectorized.

`schedule_packed` is GotoBLAS's loop nest written in primitives, in one of
two orders. B is packed into micro-panels of nr columns (cache_read +
transform_layout, padded with zeros where a panel overhangs); micro-tiles
of mr x nr keep their accumulators in vector registers across a block of
kc of the reduction (rows unrolled, columns unrolled into vectors; LLVM
keeps the tile of C in registers across the k loop). A is read where it
is, as TVM's x86 dense schedules do: a micro-tile broadcasts one element
of each of its mr rows per step of k, mr sequential streams that need no
packing to stay in cache (packing A as well, [M / mr][K][mr], copied A
through memory on every call: 1-2% slower on one thread and two, 4% at
127x255x63; docs/performance.md).

- "rows": B packed once, in a parallel nest of its own; then for each block
  of nc columns and each block of kc, the rows in blocks of mc (parallel),
  and in them the micro-tiles: the B block (kc x nc) stays in L3 for all
  rows, a B micro-panel (kc x nr) and the A block (mc x kc) in L2 while the
  mc / mr micro-tiles of the block use them. A is read once per block of
  nc columns.
- "panels": the micro-panels are the parallel loop, and each is packed
  where it is used (compute_at), then meets every row of A: one parallel
  nest, each panel packed by the thread that uses it and into its L2, but
  A read once per panel (N / nr times), from L3 while it fits there.

`packed_order` picks the order: "panels" where a panel (K x nr) fits
half of L2, the A of the threads' problems a quarter of L3, and the
panels share out among the threads as evenly as the row blocks do, else
"rows". At 127x255x63 on two threads "panels" runs 179 GFLOP/s where
"rows" ran 147 (two parallel nests for 22-27 us of work); at 2048^3
"rows" is 4% faster on one thread (A is 16 MiB).

In both, C's init stays in the block (no decompose_reduction): --tir-partition-loops
peels the iterations where it runs (the first of the k-block loop, and in
it the first of the k loop), so each tile of C starts from zeroed
registers and is never zeroed in memory nor read back before its first
block of k; a separate zeroing nest, unrolled by LLVM with every tail
the partitioning made, cost seconds of code generation at odd sizes and
15% at K = 64. `host_tiles` picks the sizes from the host's vector width
and cache sizes.
"""
import os


def _schedule(tvm, func):
    return tvm.s_tir.Schedule(func) if hasattr(tvm, "s_tir") else tvm.tir.Schedule(func)


def schedule(tvm, func, get_block, mr=8, nr=32, lanes=16):
    sch = _schedule(tvm, func)
    c = getattr(sch, get_block)("C")
    wb = sch.cache_write(c, 0, "local")
    pack = sch.cache_read(c, 1, "global")
    sch.transform_layout(pack, ("write", 0), lambda k, j: (j // nr, k, j % nr))
    sch.transform_block_layout(pack, lambda k, j: (j // nr, k, j % nr))
    i, j, k = sch.get_loops(c)
    i0, i1 = sch.split(i, [None, mr])
    j0, j1 = sch.split(j, [None, nr])
    sch.reorder(j0, i0, k, i1, j1)
    sch.compute_at(pack, j0)
    sch.reverse_compute_at(wb, i0)
    sch.parallel(i0)
    j1a, j1b = sch.split(j1, [nr // lanes, lanes])
    sch.unroll(i1)
    sch.unroll(j1a)
    sch.vectorize(j1b)
    sch.decompose_reduction(c, k)
    loops = sch.get_loops(pack)
    a1, a2 = sch.split(loops[-1], [nr // lanes, lanes])
    sch.unroll(a1)
    sch.vectorize(a2)
    loops = sch.get_loops(wb)
    b1, b2 = sch.split(loops[-1], [nr // lanes, lanes])
    sch.unroll(loops[-2])
    sch.unroll(b1)
    sch.vectorize(b2)
    return sch.mod


def host_tiles(shape, lanes=None, l2=None, threads=1):
    """Tile sizes for C[M, N] += A[M, K] B[K, N] of `shape` (M, N, K) on
    this host: (mr, nr, mc, nc, kc, lanes).

    The micro-tile holds mr x nr accumulators in three quarters of the
    vector registers (AVX-512: 32 registers of 16 lanes, 6 x 64; AVX2: 16
    of 8 lanes, 6 x 16 in twelve), the rest holding a row of B and a
    broadcast element of A. A micro-tile reads one row of B (nr floats) and
    mr elements of A per mr x nr / lanes FMAs, which L2 streams fast
    enough; what costs is loading and storing the tile of C, once per kc
    steps, from L3 or memory when C is large. So kc is as long as a B
    micro-panel (kc x nr) filling a quarter of L2 allows, up to 1024 (2048
    measured no faster, with AVX-512 or AVX2 tiles); the A block (mc x
    kc) takes an eighth of L2 and the B block (kc x nc), read once per
    block of rows, four times L2, which L3 holds (see _fit for how each
    meets the problem's size). On an AMD Zen 4 (1 MiB L2) at 2048^3: 6 x
    64, kc 1024, mc 30, nc 1024, at 88-92% of the FMA peak, where kc 256,
    mc 126, nc 256 (every block within L2) gave 82-85%; see
    docs/performance.md. With `threads`, mc is the one (up to the L2 size
    above, down to half of it) that shares the micro-tiles of rows most
    evenly among the threads: the row blocks are the parallel loop, and
    OpenMP gives each thread a contiguous run of them, so at 1024 rows (171
    micro-tiles) blocks of 5 make 35, 18 blocks (90 micro-tiles) on one
    thread and 17 on the other, where blocks of 2 make 86 and 85."""
    m, n, k = shape
    lanes = lanes or host_lanes()
    l2 = l2 or _cache_bytes(2, 1024 * 1024)
    mr, nr = (6, 4 * lanes) if lanes >= 16 else (6, 2 * lanes)
    kc = _fit(k, min(1024, l2 // 4 // (nr * 4)), 16)
    mc = _fit(m, l2 // 8 // (kc * 4), mr)
    if threads > 1:
        mc = _balanced_rows(m, mc, mr, threads)
    nc = _fit(n, 4 * l2 // (kc * 4), nr)
    return mr, nr, mc, nc, kc, lanes


def _balanced_rows(m, mc, mr, threads):
    """A row block of at most `mc` rows, at least half as many, whose
    blocks of m rows give the threads the most even numbers of micro-tiles
    (each thread takes a contiguous run of ceil(blocks / threads) blocks;
    the last block may be short); the largest of those that tie."""
    tiles = -(-m // mr)
    top = max(1, mc // mr)
    best = min(range(top, max(1, top // 2) - 1, -1),
               key=lambda per_block: _busiest(_row_blocks(tiles, per_block), threads))
    return best * mr


def _row_blocks(tiles, per_block):
    """The micro-tiles of each block of `per_block` of `tiles` rows of
    micro-tiles (the last block may be short)."""
    return [min(per_block, tiles - start) for start in range(0, tiles, per_block)]


def packed_tiles(shape, threads=2):
    """The tiles schedule_packed uses for `shape` ((batch,) M, N, K) on
    `threads` threads: host_tiles', the rows split among the threads unless
    the batches are."""
    return host_tiles(shape[-3:], threads=1 if _batches_parallel(shape, threads) else threads)


def _batches_parallel(shape, threads):
    """Whether schedule_packed runs the batches of `shape` in parallel (a
    batched problem with at least one batch per thread) instead of the row
    blocks."""
    return len(shape) == 4 and shape[0] >= threads


def packed_order(shape, tiles=None, threads=2, l2=None, l3=None):
    """schedule_packed's loop order for `shape` ((batch,) M, N, K) on
    `threads` threads with `tiles` (packed_tiles' by default): "panels"
    where a panel of B (K x nr, packed whole) takes at most half of L2, the
    A the threads work on at once (one batch's each where the batches are
    parallel) at most a quarter of L3 (each panel reads all of its A), and
    the busiest thread's share of the columns, handed out a panel at a
    time, is within 2% of its share of the rows in row blocks (both counted
    in micro-tile widths and heights); else "rows". (module docstring)"""
    m, n, k = shape[-3:]
    mr, nr, mc, _, _, _ = tiles or packed_tiles(shape, threads)
    l2 = l2 or _cache_bytes(2, 1024 * 1024)
    l3 = l3 or _cache_bytes(3, 8 * 1024 * 1024)
    batch_parallel = _batches_parallel(shape, threads)
    working = min(threads, shape[0]) if batch_parallel else 1
    if k * nr * 4 > l2 // 2 or working * m * k * 4 > l3 // 4:
        return "rows"
    if threads == 1 or batch_parallel:
        return "panels"
    widths = [min(nr, n - start) for start in range(0, n, nr)]
    row_tiles = -(-m // mr)
    return ("panels" if _busiest(widths, threads) / n
            <= 1.02 * _busiest(_row_blocks(row_tiles, mc // mr), threads) / row_tiles
            else "rows")


def _busiest(work, threads):
    """The most work one thread gets when a static parallel loop over
    `work` (each iteration's) gives each thread a contiguous run of
    ceil(len(work) / threads) iterations."""
    run = -(-len(work) // threads)
    return max(sum(work[start:start + run]) for start in range(0, len(work), run))


def _fit(extent, target, step):
    """A multiple of `step` near `target` for a loop of `extent`: the
    largest in [target / 2, target] that divides `extent`, else `target`
    rounded down to `step` (the loop then has a tail that
    --tir-partition-loops gives a part of its own); never more than
    `extent` rounded up to `step`."""
    top = min(max(step, target // step * step), -(-extent // step) * step)
    for size in range(top, max(step, top // 2) - 1, -step):
        if extent % size == 0:
            return size
    return top


def schedule_packed(tvm, func, get_block, shape, tiles=None, threads=2, order=None):
    """The GotoBLAS nest of the module docstring, as a module. `func`
    computes block "C" as C[i, j] += A[i, k] * B[k, j] with i, j, k over
    `shape` (M, N, K), or, batched, C[b, i, j] += A[b, i, k] * B[b, k, j]
    over (batch, M, N, K): then each batch is one such nest, the batches
    parallel when there are at least `threads` of them. `order` is
    packed_order's by default."""
    return packed_schedule(tvm, func, get_block, shape, tiles, threads, order).mod


def packed_schedule(tvm, func, get_block, shape, tiles=None, threads=2, order=None):
    """schedule_packed's Schedule (its trace replays it: as_python, or
    as_transform_script for tir-opt)."""
    batched = len(shape) == 4
    m, n, k_extent = shape[-3:]
    batch_parallel = _batches_parallel(shape, threads)
    tiles = tiles or packed_tiles(shape, threads)
    mr, nr, mc, nc, kc, lanes = tiles
    order = order or packed_order(shape, tiles, threads)
    if order not in ("rows", "panels"):
        raise ValueError(f"order must be 'rows' or 'panels', not {order!r}")
    sch = _schedule(tvm, func)
    c = getattr(sch, get_block)("C")
    # B as micro-panels: [N / nr][K][nr].
    pack = sch.cache_read(c, 1, "global")
    to_panel = lambda k, j: (j // nr, k, j % nr)  # noqa: E731
    index_map = _batched(to_panel) if batched else to_panel
    if n % nr == 0:
        sch.transform_layout(pack, ("write", 0), index_map)
        sch.transform_block_layout(pack, index_map)
    else:
        sch.transform_layout(pack, ("write", 0), index_map, pad_value=0.0)
    loops = sch.get_loops(c)
    batch_loops, (i, j, k) = loops[:-3], loops[-3:]
    if order == "rows":
        i0, i2, i3 = sch.split(i, [None, mc // mr, mr])
        j0, j2, j3 = sch.split(j, [None, nc // nr, nr])
        k0, k1 = sch.split(k, [None, kc])
        sch.reorder(*batch_loops, j0, k0, i0, j2, i2, k1, i3, j3)
        sch.parallel(batch_loops[0] if batch_parallel else i0)
    else:
        i2, i3 = sch.split(i, [None, mr])
        j2, j3 = sch.split(j, [None, nr])
        k0, k1 = sch.split(k, [None, kc])
        sch.reorder(*batch_loops, j2, k0, i2, k1, i3, j3)
        sch.parallel(batch_loops[0] if batch_parallel else j2)
    j3a, j3b = sch.split(j3, [nr // lanes, lanes])
    sch.unroll(i3)
    sch.unroll(j3a)
    sch.vectorize(j3b)
    if order == "panels":
        sch.compute_at(pack, j2)
    loops = sch.get_loops(pack)
    if order == "rows":
        sch.parallel(loops[0])
    if n % nr == 0:  # a row of a panel: nr contiguous elements
        _, inner = sch.split(loops[-1], [None, lanes])
        sch.vectorize(inner)
    return sch


def _batched(index_map):
    """`index_map` of (x, y) with a leading batch dimension kept as it is."""
    return lambda b, x, y: (b, *index_map(x, y))


def host_lanes():
    """fp32 lanes of this host's widest vectors: 16 with AVX-512, else 8."""
    return 16 if _cpu_flag("avx512f") else 8


def _cpu_flag(flag):
    try:
        with open("/proc/cpuinfo") as f:
            return any(line.startswith("flags") and flag in line.split() for line in f)
    except OSError:
        return False


def _cache_bytes(level, default):
    """The per-core data (or unified) cache of `level` from sysfs."""
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for entry in sorted(os.listdir(base)):
            path = os.path.join(base, entry)
            with open(os.path.join(path, "level")) as f:
                if int(f.read()) != level:
                    continue
            with open(os.path.join(path, "type")) as f:
                if f.read().strip() not in ("Data", "Unified"):
                    continue
            with open(os.path.join(path, "size")) as f:
                text = f.read().strip()
            scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1], 1)
            return int(text.rstrip("KM")) * scale
    except (OSError, ValueError):
        pass
    return default


def main():
    """Prints the packed schedule of an M x N x K GEMM (block "C" of
    bench/matmul_naive.mlir's form), with this host's tiles, as a transform
    script for tir-opt:

        /usr/bin/python3 bench/gemm_schedule.py 1024 1024 1024 [--threads 2] > s.mlir
        build/bin/tir-opt bench/matmul_naive.mlir \\
            --transform-preload-library=transform-library-paths=s.mlir \\
            --transform-interpreter
    """
    import argparse
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [os.path.join(here, "..", "python"), os.path.join(here, "gpu")]
    import programs
    import tensorir as tvm
    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs=3, type=int, metavar="M N K")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    m, n, k = args.sizes
    sch = packed_schedule(tvm, programs.matmul(m, n, k), "get_block", (m, n, k),
                          threads=args.threads)
    print(f"// The packed GEMM schedule of bench/gemm_schedule.py for {m} x {n} x {k}, "
          f"{args.threads} thread(s), tiles (mr, nr, mc, nc, kc, lanes) = "
          f"{packed_tiles((m, n, k), args.threads)}")
    print(sch.trace.as_transform_script())


if __name__ == "__main__":
    main()
