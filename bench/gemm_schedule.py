"""The CPU GEMM schedule of bench/matmul_primitives_schedule.mlir, written
once for both TVM's Python API and tir's (tensorir answers `import tvm`):
cache_write "local" (the accumulator tile), cache_read "global" of B laid
out as panels of `nr` columns, tiles of mr x nr with the k loop inside,
packing at the panel loop, the tile loop parallel, the inner loops
unrolled and vectorized by 16. bench/gemm_peers.py builds it with each."""


def schedule(tvm, func, get_block, mr=8, nr=32):
    sch = tvm.s_tir.Schedule(func) if hasattr(tvm, "s_tir") else tvm.tir.Schedule(func)
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
    j1a, j1b = sch.split(j1, [nr // 16, 16])
    sch.unroll(i1)
    sch.unroll(j1a)
    sch.vectorize(j1b)
    sch.decompose_reduction(c, k)
    loops = sch.get_loops(pack)
    a1, a2 = sch.split(loops[-1], [nr // 16, 16])
    sch.unroll(a1)
    sch.vectorize(a2)
    loops = sch.get_loops(wb)
    b1, b2 = sch.split(loops[-1], [nr // 16, 16])
    sch.unroll(loops[-2])
    sch.unroll(b1)
    sch.vectorize(b2)
    return sch.mod
