"""The generators of the buffer primitives: storage_align, the paddings,
rolling_buffer, set_scope, unsafe_set_dtype, the caches, reindex,
transform_layout, annotate_buffer_access, read_at / write_at,
set_axis_separator and the reindex caches."""
from context import random_index_map
from steps import Step, block_ref, cached_block, loop_ref


def gen_storage_align(ctx):
    r = ctx.rng
    factor = r.choice([4, 8, 16, 32, 1]) if ctx.chance(0.9) else r.choice([0, -4])
    writers = [b for b in ctx.nest.writers_of_allocations() if b in ctx.blocks]
    block = ctx.rng.choice(writers) if writers and ctx.chance(0.8) else ctx.block()
    return Step("storage_align", [block_ref(block)], {
        "buffer_index": r.choice([0, 0, 0, 0, 0, 1, -1]),
        "axis": r.choice([0, 1, 1, 1, -1, 2, 5]),
        "factor": factor,
        "offset": r.randint(0, max(factor, 1) - 1) if ctx.chance(0.9) else factor + 1,
    })


def gen_decompose_padding(ctx):
    # Mostly a padding block (the kernels name them "pad"), at any of its
    # loops; other blocks, which do not match the pattern, are refused.
    pads = [b for b in ctx.blocks if "pad" in b and ctx.loops(b)]
    block = ctx.rng.choice(pads) if pads and ctx.chance(0.8) else ctx.block_with_loops()
    if block is None:
        return None
    other = ctx.block_with_loops() if ctx.chance(0.1) else block
    index = ctx.rng.randrange(len(ctx.loops(other)))
    return Step("decompose_padding", [block_ref(block), loop_ref(other, index)], {})


def gen_pad_einsum(ctx):
    # One size per iteration variable (guessed from the loops above the
    # block: right for the kernels' unscheduled blocks), sometimes one too
    # many or a 0; non-einsum blocks are refused.
    block = ctx.block_with_loops()
    if block is None:
        return None
    n = len(ctx.loops(block)) + (ctx.rng.choice([-1, 1]) if ctx.chance(0.1) else 0)
    sizes = [ctx.rng.choice([1, 2, 3, 4, 8, 16]) for _ in range(max(n, 0))]
    if sizes and ctx.chance(0.05):
        sizes[ctx.rng.randrange(len(sizes))] = 0
    return Step("pad_einsum", [block_ref(block)], {"padding": sizes})


def gen_rolling_buffer(ctx):
    # Mostly a writer of an allocation (a producer that compute_at may have
    # put under its consumer's tiles); refused where its windows do not
    # overlap or no loop holds it with its consumers.
    writers = [b for b in ctx.nest.writers_of_allocations() if b in ctx.blocks]
    block = ctx.rng.choice(writers) if writers and ctx.chance(0.85) else ctx.block()
    return Step("rolling_buffer", [block_ref(block)],
                {"write_buffer_index": ctx.rng.choice([0, 0, 0, 0, 1, -1])})


def gen_set_scope(ctx):
    r = ctx.rng
    writers = ctx.nest.writers_of_allocations()
    block = r.choice(writers) if writers and ctx.chance(0.8) else ctx.block()
    scope = (r.choice(["shared", "local", "global", "shared.dyn", "warp"])
             if ctx.chance(0.9) else "no_such_scope")
    return Step("set_scope", [block_ref(block)], {
        "buffer_index": r.choice([0, 0, 0, 0, 0, 1, -1]),
        "storage_scope": scope,
    })


def gen_unsafe_set_dtype(ctx):
    """Mostly a writer of a buffer the function allocates, made float64
    (wider than the kernels' float32 and int32: the program computes
    exactly what it did); sometimes a name that is no dtype, an index past
    its writes."""
    r = ctx.rng
    writers = ctx.nest.writers_of_allocations()
    block = r.choice(writers) if writers and ctx.chance(0.8) else ctx.block()
    dtype = "float64" if ctx.chance(0.9) else "half"
    return Step("unsafe_set_dtype", [block_ref(block)], {
        "buffer_index": r.choice([0, 0, 0, 0, 0, 1, -1]),
        "dtype": dtype,
    })


def _cache_step(ctx, prim):
    """cache_read / cache_write: a block, mostly its first buffers (an index
    past them sometimes), a scope (rarely not one), sometimes consumer
    blocks by name."""
    r = ctx.rng
    kind = "read" if prim == "cache_read" else "write"
    kw = {f"{kind}_buffer_index": r.choice([0, 0, 0, 1, 1, 2, -1]),
          "storage_scope": (r.choice(["global", "shared", "local"])
                            if ctx.chance(0.95) else "no_such_scope")}
    consumers = []
    if ctx.chance(0.3):
        consumers = r.sample(ctx.blocks, k=min(len(ctx.blocks), r.randint(1, 2)))
    # Operands: the block, then the consumer blocks (resolved, like every
    # operand, before the step runs).
    return Step(prim, [block_ref(b) for b in [ctx.block(), *consumers]], kw)


def gen_cache_read(ctx):
    return _cache_step(ctx, "cache_read")


def gen_cache_write(ctx):
    return _cache_step(ctx, "cache_write")


def gen_cache_inplace(ctx):
    """cache_inplace: a block, mostly its first read buffer, a scope
    (rarely not one); refused where the block does not also write it."""
    r = ctx.rng
    return Step("cache_inplace", [block_ref(ctx.block())],
                {"read_buffer_index": r.choice([0, 0, 0, 1, -1]),
                 "storage_scope": (r.choice(["global", "local"])
                                   if ctx.chance(0.95) else "no_such_scope")})


def gen_cache_index(ctx):
    """cache_index: a block, a scope (rarely not one), a threshold (mostly
    0, sometimes one that makes rarer computations give way, rarely a
    negative one)."""
    r = ctx.rng
    return Step("cache_index", [block_ref(ctx.block())],
                {"storage_scope": (r.choice(["global", "local"])
                                   if ctx.chance(0.95) else "no_such_scope"),
                 "cse_thresh": r.choice([0, 0, 1, 2, 3]) if ctx.chance(0.97) else -1})


def gen_reindex(ctx):
    """reindex: a block, mostly its first read or write buffer (an index
    past them sometimes), rarely by a kind that is neither."""
    r = ctx.rng
    kind = r.choice(["read", "read", "write"]) if ctx.chance(0.97) else "other"
    return Step("reindex", [block_ref(ctx.block())],
                {"buffer": [kind, r.choice([0, 0, 0, 1, 1, 2, -1])]})


def _allocated_buffer(ctx):
    """(block, kind, index, rank) of a buffer the function allocates and
    some block accesses; None when there is none. A parameter's layout
    change changes the function's signature, which the tester's calls
    cannot follow."""
    r = ctx.rng
    candidates = []
    for name in ctx.blocks:
        handle = cached_block(ctx.sch, name)._handle
        for kind in ("read", "write"):
            names = (handle.read_buffer_names if kind == "read" else handle.write_buffer_names) or []
            ranks = (handle.read_buffer_ranks if kind == "read" else handle.write_buffer_ranks) or []
            for i, (buf, rank) in enumerate(zip(names, ranks)):
                if buf in ctx.nest.allocated:
                    candidates.append((name, kind, i, rank))
    return r.choice(candidates) if candidates else None


def gen_transform_layout(ctx):
    r = ctx.rng
    found = _allocated_buffer(ctx)
    if found is None:
        return None
    block, kind, index, rank = found
    kw = {"buffer": [kind, index], "index_map": random_index_map(r, rank)}
    if ctx.chance(0.4):     # pads where a split factor does not divide
        kw["pad_value"] = r.choice([0, 0.0, -3, 2.5])
        if ctx.chance(0.3):  # computed from the new indices (integer buffers)
            kw["pad_value"] = "lambda *ix: ix[0] * 3 + ix[-1] + 1"
    if ctx.chance(0.1):
        kw["index_map"] = random_index_map(r, rank + 1)      # wrong arity
    return Step("transform_layout", [block_ref(block)], kw)


def gen_annotate_buffer_access(ctx):
    """A buffer a block reads or writes, its region declared as the whole
    buffer (a superset of any access: later primitives stay exact);
    sometimes ranges for another rank, an empty range, an index past the
    block's buffers."""
    r = ctx.rng
    block = ctx.block()
    handle = cached_block(ctx.sch, block)._handle
    kind = r.choice(["read", "write"])
    shapes = (handle.read_buffer_shapes if kind == "read" else handle.write_buffer_shapes) or []
    if not shapes or ctx.chance(0.05):
        index, shape = len(shapes), [4]
    else:
        index = r.randrange(len(shapes))
        shape = list(shapes[index])
    if any(not isinstance(d, int) for d in shape):
        return None
    ranges = [f"(0, {d})" for d in shape]
    if ranges and ctx.chance(0.1):
        ranges.pop()                                   # wrong rank
    elif ranges and ctx.chance(0.05):
        ranges[0] = "(1, 1)"                           # empty
    return Step("annotate_buffer_access", [block_ref(block)], {
        "buffer_index": index, "buf_type": kind,
        "gen_new_ranges": f"lambda *v: [{', '.join(ranges)}]",
    })


def _read_write_at_step(ctx, prim):
    """read_at / write_at: mostly a loop of the block (outer loops more),
    its first buffers, a scope (rarely not one); sometimes a loop of
    another block."""
    r = ctx.rng
    block = ctx.block()
    n = len(ctx.loops(block))
    if n and ctx.chance(0.9):
        loop = loop_ref(block, min(r.randrange(n), r.randrange(n)))
    else:
        loop, _ = ctx.loop()
        if loop is None:
            return None
    kind = "read" if prim == "read_at" else "write"
    return Step(prim, [loop, block_ref(block)], {
        f"{kind}_buffer_index": r.choice([0, 0, 0, 1, 1, 2]),
        "storage_scope": (r.choice(["global", "shared", "local"])
                          if ctx.chance(0.95) else "no_such_scope"),
    })


def gen_read_at(ctx):
    return _read_write_at_step(ctx, "read_at")


def gen_write_at(ctx):
    return _read_write_at_step(ctx, "write_at")


def gen_set_axis_separator(ctx):
    r = ctx.rng
    found = _allocated_buffer(ctx)
    if found is None:
        return None
    block, kind, index, rank = found
    seps = sorted(r.sample(range(1, rank), k=r.randint(0, rank - 1))) if rank > 1 else []
    if ctx.chance(0.1):
        seps = [rank]
    return Step("set_axis_separator", [block_ref(block)],
                {"buffer": [kind, index], "axis_separators": seps})


def _reindex_cache_step(ctx, prim):
    """reindex_cache_read / _write: a block, mostly its first buffers, a
    scope, and a random map over the block's variables (mostly refused
    where it uses others than the buffer's indices)."""
    r = ctx.rng
    kind = "read" if prim == "reindex_cache_read" else "write"
    block = ctx.block()
    n = cached_block(ctx.sch, block)._handle.num_iter_vars or 0
    return Step(prim, [block_ref(block)], {
        f"{kind}_buffer_index": r.choice([0, 0, 0, 1, 1, -1]),
        "storage_scope": r.choice(["global", "shared", "local"]),
        "index_map": random_index_map(r, n),
    })


def gen_reindex_cache_read(ctx):
    return _reindex_cache_step(ctx, "reindex_cache_read")


def gen_reindex_cache_write(ctx):
    return _reindex_cache_step(ctx, "reindex_cache_write")
