"""The fused attention kernels of bench/gpu: softmax(Q K^T / sqrt(d)) V
over (heads, n, d) in one kernel each, beside PyTorch's
scaled_dot_product_attention in run.py (attention_h*, tcattention_h*,
flashattention_h*):

- attention + schedule_attention: the TensorIR function of its stages,
  scheduled by primitives (the schedule the GPU pipeline gives a model's
  nn.attention, relax.backend), a warp per query, the row's scores in
  shared memory;
- schedule_attention_tensor_cores: both products on tensor cores (WMMA);
- flash_attention: streamed over the keys with an online softmax."""
import tensorir as tvm
from tensorir.relax.backend import schedule_attention  # noqa: F401 - the package's
from tensorir.script import tir as T


def attention(heads, n, d, dtype="float16", weights="float32"):
    """Scaled dot-product attention over `heads` independent heads, each
    with `n` queries, keys and values of `d` features: O = softmax(Q K^T /
    sqrt(d)) V, the scores, their row maxima and sums in float32, the
    exponentials (the weights before they are divided by the sum) in
    `weights` (float16 for tensor cores: their sum and their products with
    V then take them rounded). Unscheduled, it is five stages over whole
    rows (the scores an n x n buffer per head); schedule_attention and
    schedule_attention_tensor_cores fuse them into one kernel."""
    scale = 1.0 / float(d) ** 0.5

    @T.prim_func
    def attention(Q: T.Buffer((heads, n, d), dtype), K: T.Buffer((heads, n, d), dtype),
                  V: T.Buffer((heads, n, d), dtype), O: T.Buffer((heads, n, d), dtype)):
        T.func_attr({"global_symbol": "attention", "tir.noalias": True})
        S = T.alloc_buffer((heads, n, n), "float32")
        mx = T.alloc_buffer((heads, n), "float32")
        P = T.alloc_buffer((heads, n, n), weights)
        den = T.alloc_buffer((heads, n), "float32")
        acc = T.alloc_buffer((heads, n, d), "float32")
        for h, i, j, k in T.grid(heads, n, n, d):
            with T.block("S"):
                vh, vi, vj, vk = T.axis.remap("SSSR", [h, i, j, k])
                with T.init():
                    S[vh, vi, vj] = T.float32(0)
                S[vh, vi, vj] = S[vh, vi, vj] + (T.Cast("float32", Q[vh, vi, vk])
                                                 * T.Cast("float32", K[vh, vj, vk]))
        for h, i, j in T.grid(heads, n, n):
            with T.block("max"):
                vh, vi, vj = T.axis.remap("SSR", [h, i, j])
                with T.init():
                    mx[vh, vi] = T.float32(-3.4028234663852886e38)
                mx[vh, vi] = T.max(mx[vh, vi], S[vh, vi, vj])
        for h, i, j in T.grid(heads, n, n):
            with T.block("P"):
                vh, vi, vj = T.axis.remap("SSS", [h, i, j])
                P[vh, vi, vj] = T.Cast(weights, T.exp((S[vh, vi, vj] - mx[vh, vi])
                                                      * T.float32(scale)))
        for h, i, j in T.grid(heads, n, n):
            with T.block("sum"):
                vh, vi, vj = T.axis.remap("SSR", [h, i, j])
                with T.init():
                    den[vh, vi] = T.float32(0)
                den[vh, vi] = den[vh, vi] + T.Cast("float32", P[vh, vi, vj])
        for h, i, k, j in T.grid(heads, n, d, n):
            with T.block("PV"):
                vh, vi, vk, vj = T.axis.remap("SSSR", [h, i, k, j])
                with T.init():
                    acc[vh, vi, vk] = T.float32(0)
                acc[vh, vi, vk] = acc[vh, vi, vk] + (T.Cast("float32", P[vh, vi, vj])
                                                     * T.Cast("float32", V[vh, vj, vk]))
        for h, i, k in T.grid(heads, n, d):
            with T.block("O"):
                vh, vi, vk = T.axis.remap("SSS", [h, i, k])
                O[vh, vi, vk] = T.Cast(dtype, acc[vh, vi, vk] / den[vh, vi])
    return attention


def schedule_attention_tensor_cores(func, warps=4, tensorize=True):
    """One kernel whose two products run on tensor cores (WMMA's 16 x 16 x
    16 fragments; `attention(..., weights="float16")`): a block of `warps`
    warps per 16 queries of a head. The scores S = Q K^T: the block's
    queries staged in shared memory, each warp takes every `warps`-th tile
    of 16 keys (staged in shared memory by its lanes), multiplies and
    stores the 16 x 16 tile of scores into dynamic shared memory. The
    softmax: each warp reduces 16 / `warps` rows by warp shuffles and
    writes their weights (float16, dynamic shared memory). The context P V:
    each warp computes every `warps`-th 16-wide column tile of the output
    over the keys, 16 at a time (V's tile staged in shared memory), into
    shared memory; then every thread divides its elements by the row's sum.
    Shared memory holds 16 rows of scores and weights (96 bytes per key):
    n <= 2048 on sm_90. `tensorize=False` stops before the fragments
    become instructions (the schedule then runs on the CPU, its thread
    loops serially)."""
    from tensorir.tir.tensor_intrin import cuda  # noqa: F401 (registers WMMA's intrinsics)
    sch = tvm.tir.Schedule(func)
    out = sch.get_block("O")
    h, i, k = sch.get_loops(out)
    i_b, i_t = sch.split(i, [None, 16])
    block_x = sch.fuse(h, i_b)
    sch.bind(block_x, "blockIdx.x")
    _, ty, tx = sch.split(sch.fuse(i_t, k), [None, warps, 32])
    sch.bind(ty, "threadIdx.y")
    sch.bind(tx, "threadIdx.x")

    def tiles(block):
        """The block, under block_x, as 16 x 16 x 16 tiles: its column
        tiles dealt to the warps. Returns the tile block, the loop over a
        warp's column tiles and the reduction's loop."""
        sch.compute_at(block, block_x)
        r, c, red = sch.get_loops(block)[-3:]
        c_o, c_t = sch.split(c, [None, 16])
        red_o, red_t = sch.split(red, [None, 16])
        c_s, c_w = sch.split(c_o, [None, warps])
        sch.reorder(c_w, c_s, red_o, r, c_t, red_t)
        tile = sch.blockize(r)
        sch.bind(c_w, "threadIdx.y")
        return tile, c_s, red_o

    context, context_cols, context_keys = tiles(sch.get_block("PV"))
    sch.set_scope(context, 0, "shared")
    for name in ("sum", "P", "max"):
        block = sch.get_block(name)
        sch.compute_at(block, block_x)
        r, c = sch.get_loops(block)[-2:]
        r_w, _ = sch.split(r, [warps, None])
        sch.bind(r_w, "threadIdx.y")
        _, lane = sch.split(c, [None, 32])
        sch.bind(lane, "threadIdx.x")
        sch.set_scope(block, 0, "shared.dyn" if name == "P" else "shared")
    scores, score_cols, score_red = tiles(sch.get_block("S"))
    sch.set_scope(scores, 0, "shared.dyn")

    def fragments(tile, cols, red):
        a = sch.cache_read(tile, 0, "wmma.matrix_a", consumer_blocks=[tile])
        b = sch.cache_read(tile, 1, "wmma.matrix_b")
        sch.compute_at(a, red)
        sch.compute_at(b, red)
        c = sch.cache_write(tile, 0, "wmma.accumulator")
        sch.reverse_compute_at(c, cols)
        sch.decompose_reduction(tile, red)
        return a, b, c

    def stage(block, at, threads):
        """`block`'s operand copied into shared memory under `at` by
        `threads` (threadIdx.y's extent, 1 for a warp's own lanes), 8
        neighbours (16 bytes) a thread."""
        cached = sch.cache_read(block, 0, "shared")
        sch.compute_at(cached, at)
        fused = sch.fuse(*sch.get_loops(cached)[-2:])
        if threads > 1:
            _, ty, lane, vec = sch.split(fused, [None, threads, 32, 8])
            sch.bind(ty, "threadIdx.y")
        else:
            _, lane, vec = sch.split(fused, [None, 32, 8])
        sch.bind(lane, "threadIdx.x")
        sch.vectorize(vec)

    q_frag, k_frag, s_frag = fragments(scores, score_cols, score_red)
    p_frag, v_frag, o_frag = fragments(context, context_cols, context_keys)
    stage(q_frag, block_x, warps)   # the block's 16 queries
    stage(k_frag, score_cols, 1)    # a warp's 16 keys
    stage(v_frag, context_keys, 1)  # a 16 x 16 tile of V
    if not tensorize:
        return sch
    for block, intrin in ((q_frag, "wmma_load_16x16x16_f16_a_shared"),
                          (k_frag, "wmma_load_16x16x16_f16_b_trans_shared"),
                          (s_frag, "wmma_store_16x16x16_f32_shared_dyn"),
                          (p_frag, "wmma_load_16x16x16_f16_a_shared_dyn"),
                          (v_frag, "wmma_load_16x16x16_f16_b_shared"),
                          (o_frag, "wmma_store_16x16x16_f32_shared")):
        sch.tensorize(sch.get_loops(block)[-2], intrin)
    sch.tensorize(scores, "wmma_sync_16x16x16_f16f16f32_trans")
    sch.tensorize(context, "wmma_sync_16x16x16_f16f16f32")
    for name in ("S_o_init", "PV_o_init"):
        sch.tensorize(sch.get_block(name), "wmma_fill_16x16x16_f32")
    return sch


def flash_attention(heads, n, d, dtype="float16", rows=8):
    """Attention streamed over the keys, 32 at a time, as FlashAttention
    does it (an online softmax), on CUDA cores: one kernel, whose block
    takes `rows` queries of a head, a warp per query. For each tile of 32
    keys, each lane scores one key (the query row staged in shared memory,
    scaled), the warp reduces the tile's maximum and the sum of its
    exponentials by shuffles (cross-thread reductions in groups), the
    running sum and every output feature are rescaled by exp(old maximum -
    new maximum), and each lane adds the tile's weighted values into its
    features (d / 32 of them). Only tiles and per-row state live in shared
    memory, so the sequence length is not bounded by it. The tile's keys
    and values are staged in shared memory once for the block's warps.
    Written scheduled
    (its loops bound to GPU threads in the script: the running state is
    carried across the key tiles, which no stage pipeline expresses);
    each step between barriers is a loop nest of its own, so the kernel
    also runs on the CPU with its thread loops serial. The row's state is
    updated by lane 0 (the others read it after a barrier)."""
    if n % 32 or d % 32 or n % rows or 32 % rows:
        raise ValueError(f"flash_attention: the sequence ({n}) and the head size ({d}) are "
                         f"multiples of 32 (a warp's lanes), the sequence of rows ({rows}), "
                         f"which divide 32")
    scale = 1.0 / float(d) ** 0.5
    tiles, per_lane, row_tiles = n // 32, d // 32, n // rows

    @T.prim_func
    def flash_attention(Q: T.Buffer((heads, n, d), dtype), K: T.Buffer((heads, n, d), dtype),
                        V: T.Buffer((heads, n, d), dtype), O: T.Buffer((heads, n, d), dtype)):
        T.func_attr({"global_symbol": "flash_attention", "tir.noalias": True})
        q = T.alloc_buffer((heads, n, d), "float32", scope="shared")
        K_tile = T.alloc_buffer((heads, n, d), dtype, scope="shared")
        V_tile = T.alloc_buffer((heads, n, d), dtype, scope="shared")
        S = T.alloc_buffer((heads, n, n), "float32", scope="shared")
        P = T.alloc_buffer((heads, n, n), "float32", scope="shared")
        acc = T.alloc_buffer((heads, n, d), "float32", scope="shared")
        m = T.alloc_buffer((heads, n), "float32", scope="shared")
        l = T.alloc_buffer((heads, n), "float32", scope="shared")
        mt = T.alloc_buffer((heads, n), "float32", scope="shared")
        lt = T.alloc_buffer((heads, n), "float32", scope="shared")
        for bx in T.thread_binding(heads * row_tiles, thread="blockIdx.x"):
            for ty in T.thread_binding(rows, thread="threadIdx.y"):
                for tx in T.thread_binding(32, thread="threadIdx.x"):
                    for c in range(per_lane):
                        with T.block("q"):
                            vh = T.axis.spatial(heads, bx // row_tiles)
                            vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                            vk = T.axis.spatial(d, c * 32 + tx)
                            q[vh, vi, vk] = T.Cast("float32", Q[vh, vi, vk]) * T.float32(scale)
                            acc[vh, vi, vk] = T.float32(0)
                    with T.block("state"):
                        vh = T.axis.spatial(heads, bx // row_tiles)
                        vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                        T.where(tx == 0)
                        m[vh, vi] = T.float32(-3.4028234663852886e38)
                        l[vh, vi] = T.float32(0)
            for t in range(tiles):
                # The tile's keys and values, staged once for the block's
                # warps (consecutive lanes: consecutive features).
                for ty in T.thread_binding(rows, thread="threadIdx.y"):
                    for tx in T.thread_binding(32, thread="threadIdx.x"):
                        for r, c in T.grid(32 // rows, per_lane):
                            with T.block("KV"):
                                vh = T.axis.spatial(heads, bx // row_tiles)
                                vj = T.axis.spatial(n, t * 32 + r * rows + ty)
                                vk = T.axis.spatial(d, c * 32 + tx)
                                K_tile[vh, vj, vk] = K[vh, vj, vk]
                                V_tile[vh, vj, vk] = V[vh, vj, vk]
                for ty in T.thread_binding(rows, thread="threadIdx.y"):
                    for tx in T.thread_binding(32, thread="threadIdx.x"):
                        for k in range(d):
                            with T.block("S"):
                                vh = T.axis.spatial(heads, bx // row_tiles)
                                vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                                vj = T.axis.spatial(n, t * 32 + tx)
                                vk = T.axis.reduce(d, k)
                                with T.init():
                                    S[vh, vi, vj] = T.float32(0)
                                S[vh, vi, vj] = S[vh, vi, vj] + (
                                    q[vh, vi, vk] * T.Cast("float32", K_tile[vh, vj, vk]))
                for ty in T.thread_binding(rows, thread="threadIdx.y"):
                    for tx in T.thread_binding(32, thread="threadIdx.x"):
                        with T.block("tile_max"):
                            vh = T.axis.spatial(heads, bx // row_tiles)
                            vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                            vt = T.axis.opaque(tiles, t)
                            vj = T.axis.reduce(32, tx)
                            with T.init():
                                mt[vh, vi] = T.float32(-3.4028234663852886e38)
                            mt[vh, vi] = T.max(mt[vh, vi], S[vh, vi, vt * 32 + vj])
                for ty in T.thread_binding(rows, thread="threadIdx.y"):
                    for tx in T.thread_binding(32, thread="threadIdx.x"):
                        with T.block("P"):
                            vh = T.axis.spatial(heads, bx // row_tiles)
                            vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                            vj = T.axis.spatial(n, t * 32 + tx)
                            new_max = T.max(m[vh, vi], mt[vh, vi])
                            P[vh, vi, vj] = T.exp(S[vh, vi, vj] - new_max)
                for ty in T.thread_binding(rows, thread="threadIdx.y"):
                    for tx in T.thread_binding(32, thread="threadIdx.x"):
                        with T.block("tile_sum"):
                            vh = T.axis.spatial(heads, bx // row_tiles)
                            vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                            vt = T.axis.opaque(tiles, t)
                            vj = T.axis.reduce(32, tx)
                            with T.init():
                                lt[vh, vi] = T.float32(0)
                            lt[vh, vi] = lt[vh, vi] + P[vh, vi, vt * 32 + vj]
                for ty in T.thread_binding(rows, thread="threadIdx.y"):
                    for tx in T.thread_binding(32, thread="threadIdx.x"):
                        for c in range(per_lane):
                            with T.block("rescale"):
                                vh = T.axis.spatial(heads, bx // row_tiles)
                                vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                                vk = T.axis.spatial(d, c * 32 + tx)
                                new_max = T.max(m[vh, vi], mt[vh, vi])
                                acc[vh, vi, vk] = acc[vh, vi, vk] * T.exp(m[vh, vi] - new_max)
                            for j in range(32):
                                with T.block("PV"):
                                    vh = T.axis.spatial(heads, bx // row_tiles)
                                    vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                                    vk = T.axis.spatial(d, c * 32 + tx)
                                    vj = T.axis.opaque(n, t * 32 + j)
                                    acc[vh, vi, vk] = acc[vh, vi, vk] + (
                                        P[vh, vi, vj] * T.Cast("float32", V_tile[vh, vj, vk]))
                for ty in T.thread_binding(rows, thread="threadIdx.y"):
                    for tx in T.thread_binding(32, thread="threadIdx.x"):
                        with T.block("update"):
                            vh = T.axis.spatial(heads, bx // row_tiles)
                            vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                            T.where(tx == 0)
                            new_max = T.max(m[vh, vi], mt[vh, vi])
                            l[vh, vi] = l[vh, vi] * T.exp(m[vh, vi] - new_max) + lt[vh, vi]
                            m[vh, vi] = new_max
            for ty in T.thread_binding(rows, thread="threadIdx.y"):
                for tx in T.thread_binding(32, thread="threadIdx.x"):
                    for c in range(per_lane):
                        with T.block("O"):
                            vh = T.axis.spatial(heads, bx // row_tiles)
                            vi = T.axis.spatial(n, bx % row_tiles * rows + ty)
                            vk = T.axis.spatial(d, c * 32 + tx)
                            O[vh, vi, vk] = T.Cast(dtype, acc[vh, vi, vk] / l[vh, vi])
    # Each lane scores its own key, reading its row of the keys' tile
    # along the features: rows one bank apart (padded by a 4-byte word),
    # so the 32 lanes read 32 banks.
    sch = tvm.tir.Schedule(flash_attention)
    word = 4 // (tvm.DataType(dtype).bits // 8)
    sch.storage_align(sch.get_block("KV"), 0, axis=1, factor=d, offset=word)
    return sch.mod["main"]
