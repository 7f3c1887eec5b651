"""The GPU programs of bench/gpu: TVMScript functions and their GPU
schedules (tir.Schedule primitives: split, bind, cache_read / cache_write,
compute_at, unroll, vectorize). build_artifacts.py compiles them here;
run.py runs the exported libraries on the GPU machine."""
import tensorir as tvm
from tensorir.script import tir as T


def vector_add(n):
    @T.prim_func
    def vadd(A: T.Buffer((n,), "float32"), B: T.Buffer((n,), "float32"),
             C: T.Buffer((n,), "float32")):
        T.func_attr({"global_symbol": "vadd", "tir.noalias": True})
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]
    return vadd


def schedule_vector_add(func, threads=256, lanes=4):
    """Each thread adds `lanes` neighbours (vector loads and stores)."""
    sch = tvm.tir.Schedule(func)
    (i,) = sch.get_loops(sch.get_block("C"))
    bx, tx, vec = sch.split(i, factors=[None, threads, lanes])
    sch.bind(bx, "blockIdx.x")
    sch.bind(tx, "threadIdx.x")
    if lanes > 1:
        sch.vectorize(vec)
    return sch.mod


def matmul(m, n, k):
    @T.prim_func
    def gemm(A: T.Buffer((m, k), "float32"), B: T.Buffer((k, n), "float32"),
             C: T.Buffer((m, n), "float32")):
        T.func_attr({"global_symbol": "gemm", "tir.noalias": True})
        for i, j, r in T.grid(m, n, k):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    return gemm


def batch_matmul(batch, m, n, k):
    """C[b] = A[b] @ B[b] for `batch` pairs (attention's scores and
    context products)."""
    @T.prim_func
    def bmm(A: T.Buffer((batch, m, k), "float32"), B: T.Buffer((batch, k, n), "float32"),
            C: T.Buffer((batch, m, n), "float32")):
        T.func_attr({"global_symbol": "bmm", "tir.noalias": True})
        for b, i, j, r in T.grid(batch, m, n, k):
            with T.block("C"):
                vb, vi, vj, vk = T.axis.remap("SSSR", [b, i, j, r])
                with T.init():
                    C[vb, vi, vj] = T.float32(0)
                C[vb, vi, vj] = C[vb, vi, vj] + A[vb, vi, vk] * B[vb, vk, vj]
    return bmm


def schedule_matmul_naive(func, tile=16):
    """One thread per element of C, blocks of tile x tile threads."""
    sch = tvm.tir.Schedule(func)
    i, j, _ = sch.get_loops(sch.get_block("C"))
    by, ty = sch.split(i, factors=[None, tile])
    bx, tx = sch.split(j, factors=[None, tile])
    sch.reorder(by, bx, ty, tx)
    sch.bind(by, "blockIdx.y")
    sch.bind(bx, "blockIdx.x")
    sch.bind(ty, "threadIdx.y")
    sch.bind(tx, "threadIdx.x")
    return sch.mod


def softmax(m, n):
    @T.prim_func
    def softmax_rows(A: T.Buffer((m, n), "float32"), S: T.Buffer((m, n), "float32")):
        T.func_attr({"global_symbol": "softmax", "tir.noalias": True})
        mx = T.alloc_buffer((m,), "float32")
        den = T.alloc_buffer((m,), "float32")
        for i, j in T.grid(m, n):
            with T.block("max"):
                vi, vj = T.axis.remap("SR", [i, j])
                with T.init():
                    mx[vi] = T.float32(-3.4028234663852886e38)
                mx[vi] = T.max(mx[vi], A[vi, vj])
        for i, j in T.grid(m, n):
            with T.block("sum"):
                vi, vj = T.axis.remap("SR", [i, j])
                with T.init():
                    den[vi] = T.float32(0)
                den[vi] = den[vi] + T.exp(A[vi, vj] - mx[vi])
        for i, j in T.grid(m, n):
            with T.block("out"):
                vi, vj = T.axis.remap("SS", [i, j])
                S[vi, vj] = T.exp(A[vi, vj] - mx[vi]) / den[vi]
    return softmax_rows


def pipeline_copies(sch, loop, pipeline, stages=2):
    """Software-pipelines `loop`, whose statements are A's copy, B's copy
    and the update: the copies run `stages - 1` iterations ahead (each
    tile then has `stages` copies), by cp.async when `pipeline` is
    "async" ("sync": ordinary loads and stores)."""
    if pipeline not in ("sync", "async"):
        raise ValueError(f"pipeline is 'sync' or 'async', not {pipeline!r}")
    if stages < 2:
        raise ValueError(f"a pipeline has 2 or more stages, not {stages}")
    sch.annotate(loop, "software_pipeline_stage", [0, 0, stages - 1])
    sch.annotate(loop, "software_pipeline_order", [0, 1, 2])
    if pipeline == "async":
        sch.annotate(loop, "software_pipeline_async_stages", [0])


def schedule_matmul_tiled(func, bm=128, bn=128, bk=8, tm=8, tn=8, vec=1,
                          pipeline=None, spread_b=False, group=None, warp=None,
                          staged=False, async_copies=False):
    """A block of (bm / tm) x (bn / tn) threads computes a bm x bn tile of C;
    each thread a tm x tn tile, kept in registers (cache_write "local");
    tiles of A and B go through shared memory bk columns / rows at a time
    (cache_read "shared" at the k loop, copied by all the block's threads
    together, `vec` neighbours per thread with vector loads); the innermost
    loops unrolled. `pipeline`: (stages, orders) of the k loop's three
    statements (copy of A, copy of B, update), as TVM's
    software_pipeline_stage / software_pipeline_order annotations: with
    ([0, 0, 1], [0, 1, 2]) the next tiles are copied into a second pair
    of shared buffers while the current ones are multiplied (with the
    order [1, 2, 0] the update comes first in a step and one buffer each
    suffices, a barrier between the update and the next copies).
    `spread_b`: the shared tile of B laid out (transform_layout) so that
    the j-th group of 4 columns of every thread's tn columns lies next to
    the same group of the other threads: a warp's 4-wide reads of a row
    are then 16 bytes per thread side by side, without the bank conflicts
    of tn > 4 columns per thread (32 bytes apart).
    `group`: the blocks run `group` rows of tiles at a time, column by
    column (one blockIdx.x over the fused block loops), so that the blocks
    running together share rows of A and columns of B in the L2 cache.
    `warp` = (wy, wx): each warp's 32 threads are wy rows by wx columns of
    the block's thread grid (one threadIdx.x over both), so a warp reads
    wy x tm rows of the A tile and wx x tn columns of the B tile (rather
    than one row of threads across the whole B tile).
    `staged`: the copies go through registers (cache_read "local" of each
    shared copy, laid out one k step per row of the local buffer, so that
    each thread's part has constant indices): the k loop is pipelined so
    that a step loads the next tiles from global memory into registers,
    multiplies the current ones, then stores the registers into shared
    memory (stages [0, 0, 0, 0, 1], order [0, 3, 1, 4, 2]): the loads'
    latency is hidden behind the update, one shared buffer each.
    `async_copies`: the pipelined copies (stage 0 of `pipeline`) are
    cp.async's (sm_80 and newer), which need no registers and let the
    threads go on to the update at once."""
    sch = tvm.tir.Schedule(func)
    block = sch.get_block("C")
    write_back = sch.cache_write(block, 0, "local")
    i, j, k = sch.get_loops(block)
    ty, tx = bm // tm, bn // tn
    i0, i1, i2 = sch.split(i, factors=[None, ty, tm])
    j0, j1, j2 = sch.split(j, factors=[None, tx, tn])
    k0, k1 = sch.split(k, factors=[None, bk])
    sch.reorder(i0, j0, i1, j1, k0, k1, i2, j2)
    if group:
        rows, inner = sch.split(i0, factors=[None, group])
        sch.reorder(rows, j0, inner)
        sch.bind(sch.fuse(rows, j0, inner), "blockIdx.x")
    else:
        sch.bind(i0, "blockIdx.y")
        sch.bind(j0, "blockIdx.x")
    if warp:
        wy, wx = warp
        i1o, i1i = sch.split(i1, factors=[None, wy])
        j1o, j1i = sch.split(j1, factors=[None, wx])
        sch.reorder(i1o, j1o, i1i, j1i)
        j1 = sch.fuse(i1o, j1o, i1i, j1i)
        sch.bind(j1, "threadIdx.x")
        threads = [ty * tx]
    else:
        sch.bind(i1, "threadIdx.y")
        sch.bind(j1, "threadIdx.x")
        threads = [ty, tx]
    sch.reverse_compute_at(write_back, j1)
    reads = [str(r.buffer.name) for r in sch.get(block).reads]
    caches = [sch.cache_read(block, reads.index(name), "shared") for name in ("A", "B")]
    stages = []
    if staged:
        if pipeline is not None:
            raise ValueError("staged copies come with their own pipeline; "
                             "give staged=True or pipeline, not both")
        stages = [sch.cache_read(cache, 0, "local") for cache in caches]
        sch.transform_layout(stages[0], ("write", 0), lambda r, c: (c // bk, r, c % bk))
        sch.transform_layout(stages[1], ("write", 0), lambda r, c: (r // bk, r % bk, c))
        pipeline = ([0, 0, 0, 0, 1], [0, 3, 1, 4, 2])
    if spread_b and tn > 4:
        def spread(r, c):
            return (r, c // bn, c % tn // 4, c % bn // tn, c % 4)
        sch.transform_layout(caches[1], ("write", 0), spread)
    for cache in caches + stages:
        sch.compute_at(cache, k0)
        fused = sch.fuse(*sch.get_loops(cache)[-2:])
        outer, *bound, fv = sch.split(fused, factors=[None, *threads, vec])
        for loop, tag in zip(bound, ["threadIdx.y", "threadIdx.x"][-len(bound):]):
            sch.bind(loop, tag)
        if vec > 1:
            sch.vectorize(fv)
        if staged:
            # A thread's staged elements in registers: constant indices.
            sch.unroll(outer)
    init = sch.decompose_reduction(block, k0)
    if async_copies and (pipeline is None or staged):
        raise ValueError("async_copies makes a pipeline's copies asynchronous: give "
                         "pipeline (and not staged)")
    if pipeline is not None:
        sch.annotate(k0, "software_pipeline_stage", list(pipeline[0]))
        sch.annotate(k0, "software_pipeline_order", list(pipeline[1]))
        if async_copies:
            sch.annotate(k0, "software_pipeline_async_stages", [0])
    # Every loop over the register tile unrolled: its elements stay in
    # registers (constant indices).
    for loop in [k1, i2, j2] + sch.get_loops(init)[-2:] + sch.get_loops(write_back)[-2:]:
        sch.unroll(loop)
    # Unrolled whatever its size (bk x tm x tn updates may pass the
    # unroller's default limit).
    sch.annotate(k1, "unroll_limit", 0)
    return sch.mod


def schedule_softmax(func, threads=256):
    """One block of `threads` threads per row: the row's max and sum are
    reductions across the block's threads (the reduce loop split, its inner
    part bound to threadIdx.x), kept in shared memory for the row; each
    thread handles every `threads`-th element."""
    sch = tvm.tir.Schedule(func)
    out = sch.get_block("out")
    i, j = sch.get_loops(out)
    sch.bind(i, "blockIdx.x")
    _, tx = sch.split(j, factors=[None, threads])
    sch.bind(tx, "threadIdx.x")
    for name in ("sum", "max"):
        block = sch.get_block(name)
        sch.compute_at(block, i)
        _, inner = sch.split(sch.get_loops(block)[-1], factors=[None, threads])
        sch.bind(inner, "threadIdx.x")
        sch.set_scope(block, 0, "shared")
    return sch.mod


def matmul_mixed(n, in_dtype="float16", out_dtype="float32", b_transposed=False):
    """C = A B (B given transposed: A B^T) over n x n matrices of `in_dtype`,
    products and sums in `out_dtype`."""
    from tensorir import te
    a = te.placeholder((n, n), in_dtype, name="A")
    b = te.placeholder((n, n), in_dtype, name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute(
        (n, n), lambda i, j: te.sum(
            tvm.tir.Cast(out_dtype, a[i, k])
            * tvm.tir.Cast(out_dtype, b[j, k] if b_transposed else b[k, j]), axis=[k]),
        name="C")
    return te.create_prim_func([a, b, c]).with_attr("global_symbol", "gemm")


# mma.sync's intrinsics per configuration (tvm.tir.tensor_intrin.cuda):
# (k per instruction, load A, load B, mma, fill, store).
MMA_INTRINSICS = {
    ("float16", "float32", False): (16, "mma_ldmatrix_f16_a", "mma_ldmatrix_f16_b",
                                    "mma_f16f16f32", "mma_fill_16x16_f32",
                                    "mma_store_16x16_f32_global_"),
    ("float16", "float32", True): (16, "mma_ldmatrix_f16_a", "mma_ldmatrix_f16_b_trans",
                                   "mma_f16f16f32_trans_b", "mma_fill_16x16_f32",
                                   "mma_store_16x16_f32_global_"),
    ("float16", "float16", False): (16, "mma_ldmatrix_f16_a", "mma_ldmatrix_f16_b",
                                    "mma_f16f16f16", "mma_fill_16x16_f16",
                                    "mma_store_16x16_f16_global_"),
    ("int8", "int32", False): (32, "mma_ldmatrix_i8_a", "mma_ldmatrix_i8_b", "mma_i8i8i32",
                               "mma_fill_16x16_i32", "mma_store_16x16_i32_global_"),
    ("int8", "int32", True): (32, "mma_ldmatrix_i8_a", "mma_ldmatrix_i8_b_trans",
                              "mma_i8i8i32_trans_b", "mma_fill_16x16_i32",
                              "mma_store_16x16_i32_global_"),
}
# float8 (sm_89 and newer): as int8 (k 32 per instruction), accumulating in f32.
for _f8, _short in (("float8_e4m3fn", "e4m3"), ("float8_e5m2", "e5m2")):
    for _trans in (False, True):
        MMA_INTRINSICS[(_f8, "float32", _trans)] = (
            32, f"mma_ldmatrix_{_short}_a",
            f"mma_ldmatrix_{_short}_b" + ("_trans" if _trans else ""),
            f"mma_{_short}{_short}f32" + ("_trans_b" if _trans else ""),
            "mma_fill_16x16_f32", "mma_store_16x16_f32_global_")
# bfloat16 -> float32 (tir's intrinsics; TVM has none).
for _trans in (False, True):
    MMA_INTRINSICS[("bfloat16", "float32", _trans)] = (
        16, "mma_ldmatrix_bf16_a", "mma_ldmatrix_bf16_b" + ("_trans" if _trans else ""),
        "mma_bf16bf16f32" + ("_trans_b" if _trans else ""), "mma_fill_16x16_f32",
        "mma_store_16x16_f32_global_")


# WMMA's (16 x 16 x 16 fragments): f16 -> f32 or f16, s8 -> s32.
WMMA_INTRINSICS = {
    (in_dtype, out_dtype, b_transposed): (
        16, f"wmma_load_16x16x16_{i}_a_shared",
        f"wmma_load_16x16x16_{i}_b" + ("_trans" if b_transposed else "") + "_shared",
        f"wmma_sync_16x16x16_{i}{i}{o}" + ("_trans" if b_transposed else ""),
        f"wmma_fill_16x16x16_{o}", f"wmma_store_16x16x16_{o}_global")
    for in_dtype, out_dtype, i, o in (("float16", "float32", "f16", "f32"),
                                      ("float16", "float16", "f16", "f16"),
                                      ("int8", "int32", "s8", "s32"))
    for b_transposed in (False, True)}


def schedule_matmul_mma(func, in_dtype="float16", out_dtype="float32", b_transposed=False,
                        warps=(2, 2), tiles=(2, 2), k_tiles=2, wmma=False, stage_c=False,
                        pipeline=None, pad=False):
    """A GEMM on tensor cores (mma.sync): 16 x 16 output tiles, a grid of
    `warps` per block each computing `tiles` of them, A's and B's tiles
    staged in shared memory per k step of `k_tiles` instructions, the
    fragments in warp buffers laid out for the instructions, then each
    fragment move and product tensorized. With `wmma`, the fragments are
    WMMA's (16 x 16 tiles in the wmma scopes, WMMA's intrinsics);
    with `stage_c` too, the accumulators are stored into shared memory and
    copied out by all the block's threads (as MetaSchedule's tensor-core
    tiles are). With `pipeline` ("sync" or "async"), the k loop is
    software-pipelined: A's and B's tiles of step k + 1 are copied while
    step k multiplies (two copies of each tile), with "async" by cp.async.
    With `pad`, the shared tiles' rows are padded (storage_align, as
    MetaSchedule's tensor-core tiles are: each row's stride 8 16-bit or 16
    8-bit elements past a multiple of 32) so that the 8 rows one ldmatrix
    reads lie in different banks (unpadded rows of 64 or 128 bytes share
    them: 4- or 8-way conflicts)."""
    if pipeline not in (None, "sync", "async"):
        raise ValueError(f"schedule_matmul_mma: pipeline is None, 'sync' or 'async', "
                         f"not {pipeline!r}")
    from tensorir.tir.tensor_intrin import cuda as intrin
    if wmma:
        k_inner, load_a, load_b, mma, fill, store = WMMA_INTRINSICS[
            (in_dtype, out_dtype, b_transposed)]
    else:
        k_inner, load_a, load_b, mma, fill, store = MMA_INTRINSICS[
            (in_dtype, out_dtype, b_transposed)]
    sch = tvm.tir.Schedule(func)
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    i, i_t = sch.split(i, [None, 16])
    j, j_t = sch.split(j, [None, 16])
    k, k_t = sch.split(k, [None, k_inner])
    sch.reorder(i, j, k, i_t, j_t, k_t)
    tile = sch.blockize(i_t)
    i_b, i_w, i_f = sch.split(i, [None, warps[0], tiles[0]])
    j_b, j_w, j_f = sch.split(j, [None, warps[1], tiles[1]])
    k_o, k_i = sch.split(k, [None, k_tiles])
    sch.reorder(i_b, j_b, i_w, j_w, k_o, k_i, i_f, j_f)
    block_x = sch.fuse(i_b, j_b)
    sch.bind(block_x, "blockIdx.x")
    sch.bind(sch.fuse(i_w, j_w), "threadIdx.y")
    vector = 16 if in_dtype in ("int8", "float8_e4m3fn", "float8_e5m2") else 8
    for operand in (0, 1):
        cached = sch.cache_read(tile, operand, "shared")
        sch.compute_at(cached, k_o)
        _, ty, tx, vec = sch.split(sch.fuse(*sch.get_loops(cached)[-2:]),
                                   [None, warps[0] * warps[1], 32, vector])
        sch.bind(ty, "threadIdx.y")
        sch.bind(tx, "threadIdx.x")
        sch.vectorize(vec)
        if pad:
            sch.storage_align(cached, 0, -2, 32, 16 if vector == 16 else 8)
    a_frag = sch.cache_read(tile, 0, "wmma.matrix_a" if wmma else "warp")
    b_frag = sch.cache_read(tile, 1, "wmma.matrix_b" if wmma else "warp")
    sch.compute_at(a_frag, k_i)
    sch.compute_at(b_frag, k_i)
    if stage_c:
        if not wmma:
            raise ValueError("schedule_matmul_mma: stage_c stores WMMA fragments")
        c_shared = sch.cache_write(tile, 0, "shared")
    c_frag = sch.cache_write(tile, 0, "wmma.accumulator" if wmma else "warp")
    sch.reverse_compute_at(c_frag, sch.get_loops(tile)[1])
    if stage_c:
        sch.reverse_compute_at(c_shared, block_x)
        _, ty, tx = sch.split(sch.fuse(*sch.get_loops(c_shared)[-2:]),
                              [None, warps[0] * warps[1], 32])
        sch.bind(ty, "threadIdx.y")
        sch.bind(tx, "threadIdx.x")
        store = store.replace("_global", "_shared")
    r, s = sch.get_loops(c_frag)[-2:]
    r_o, r_i = sch.split(r, [None, 16])
    s_o, s_i = sch.split(s, [None, 16])
    sch.reorder(r_o, s_o, r_i, s_i)
    sch.decompose_reduction(tile, sch.get_loops(tile)[2])

    def fragment_tiles(block, rows, cols):
        r, s = sch.get_loops(block)[-2:]
        r_o, r_i = sch.split(r, [None, rows])
        s_o, s_i = sch.split(s, [None, cols])
        sch.reorder(r_o, s_o, r_i, s_i)
        return r_i

    def fragment_map(layout, rows, cols):
        return lambda i, j: (i // rows, j // cols, *layout(i % rows, j % cols))

    lay16 = fragment_map(intrin.shared_16x16_to_ldmatrix_32x8_layout, 16, 16)
    if k_inner == 16:
        map_a = map_b = lay16
    else:
        map_a = fragment_map(intrin.shared_16x32_to_ldmatrix_32x16_layout, 16, 32)
        map_b = map_a if b_transposed else fragment_map(
            intrin.shared_32x16_to_ldmatrix_32x16_layout, 32, 16)
    loop_a = fragment_tiles(a_frag, 16, k_inner)
    loop_b = fragment_tiles(b_frag, *((16, k_inner) if b_transposed else (k_inner, 16)))
    if not wmma:
        # Each lane's elements in a row (WMMA's fragments are opaque).
        sch.transform_layout(a_frag, ("write", 0), map_a)
        sch.transform_layout(b_frag, ("write", 0), map_b)
        sch.transform_layout(c_frag, ("read", 0), lay16)
    sch.tensorize(loop_a, load_a)
    sch.tensorize(loop_b, load_b)
    sch.tensorize(sch.get_loops(c)[-3], mma)
    sch.tensorize(sch.get_loops(sch.get_block("C_init"))[-2], fill)
    sch.tensorize(sch.get_loops(c_frag)[-2], store)
    if pipeline:
        # k_o's statements: A's copy, B's copy, the k_i loop of products.
        pipeline_copies(sch, k_o, pipeline)
    return sch


def schedule_matmul_wgmma(func, n_tile=128, warpgroups=2, k_tiles=4, pipeline="async",
                          pad=True, in_dtype="float16", stages=2, group=None):
    """C = A B^T (`in_dtype` f16 or bf16 -> f32, `matmul_mixed(...,
    b_transposed=True)`) on
    sm_90a's warpgroup tensor cores (wgmma): each of a block's `warpgroups`
    computes a 64 x `n_tile` tile of C with one wgmma per k step of 16,
    reading A's and B's tiles straight from shared memory, where they are
    staged `k_tiles` steps at a time laid out for the instruction
    (`core_matrix_layout`: 8 x 8 blocks of 128 contiguous bytes); the
    accumulators are the warpgroup's registers ("warpgroup" buffer). With
    `pad`, the halves of each k step lie 16 bytes past a multiple of 128
    apart (storage_align), so the 8 threads copying one row's 8 pieces
    write different banks. With `pipeline` "async" (or "sync"), the k
    tiles `stages - 1` ahead are copied (by cp.async) while the current
    ones multiply. `group`: the blocks run `group` rows of tiles at a time,
    column by column, so that the blocks running together share rows of A
    and of B in the L2 cache."""
    from tensorir.tir.tensor_intrin import cuda as intrin
    names = intrin.get_wgmma_intrin_group(n_tile, in_dtype)
    sch = tvm.tir.Schedule(func)
    c = sch.get_block("C")
    i, j, k = sch.get_loops(c)
    i, i_t = sch.split(i, [None, 64])
    j, j_t = sch.split(j, [None, n_tile])
    k, k_t = sch.split(k, [None, 16])
    sch.reorder(i, j, k, i_t, j_t, k_t)
    tile = sch.blockize(i_t)
    k_o, k_i = sch.split(k, [None, k_tiles])
    # The warpgroups of a block: threadIdx.y (none where there is one).
    if warpgroups > 1:
        i_b, i_w = sch.split(i, [None, warpgroups])
        sch.reorder(i_b, j, i_w, k_o, k_i)
        sch.bind(i_w, "threadIdx.y")
    else:
        i_b = i
        sch.reorder(i_b, j, k_o, k_i)
    if group:
        rows, inner = sch.split(i_b, [None, group])
        sch.reorder(rows, j, inner)
        block_x = sch.fuse(rows, j, inner)
    else:
        block_x = sch.fuse(i_b, j)
    if warpgroups == 1:
        i_w = block_x
    sch.bind(block_x, "blockIdx.x")
    for operand in (0, 1):
        cached = sch.cache_read(tile, operand, "shared.dyn")
        sch.transform_layout(cached, ("write", 0), intrin.core_matrix_layout)
        # The copy iterates the layout (k // 8, row, k % 8): each thread
        # copies 8 neighbours of a row (16 bytes: one row of a core matrix),
        # consecutive threads the next 8 of the row.
        sch.transform_block_layout(cached, intrin.core_matrix_layout)
        sch.compute_at(cached, k_o)
        col_o, row, vec = sch.get_loops(cached)[-3:]
        sch.reorder(row, col_o)
        fused = sch.fuse(row, col_o)
        if warpgroups > 1:
            _, ty, tx = sch.split(fused, [None, warpgroups, 128])
            sch.bind(ty, "threadIdx.y")
        else:
            _, tx = sch.split(fused, [None, 128])
        sch.bind(tx, "threadIdx.x")
        sch.vectorize(vec)
        if pad:
            sch.storage_align(cached, 0, 0, 64, 8)
    acc = sch.cache_write(tile, 0, "warpgroup")
    sch.reverse_compute_at(acc, i_w)
    sch.transform_layout(acc, ("read", 0), lambda r, s: (
        r // 64, s // n_tile, *intrin.warpgroup_layout(r % 64, s % n_tile)))
    sch.decompose_reduction(tile, k_o)
    sch.tensorize(sch.get_loops(c)[-3], names["compute"])
    sch.tensorize(sch.get_loops(sch.get_block("C_init"))[-2], names["init"])
    sch.tensorize(sch.get_loops(acc)[-2], names["store"])
    # A k tile's products one after another in the code: they are issued
    # together and waited for once.
    sch.unroll(k_i)
    if pipeline:
        pipeline_copies(sch, k_o, pipeline, stages)
    return sch
