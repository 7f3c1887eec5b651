"""The generators of the loop primitives: split and the sampling that feeds
it, fuse, merge, reorder, add_unit_loop, loop_partition, the loop kinds
and thread bindings, annotations and software pipelines."""
from steps import Step, block_ref, cached_block, loop_ref


THREAD_AXES = ["blockIdx.x", "blockIdx.y", "threadIdx.x", "threadIdx.y", "threadIdx.z",
               "vthread", "vthread.x"]


ANNOTATION_KEYS = ["pragma_auto_unroll_max_step", "pragma_unroll_explicit",
                   "software_pipeline_stage", "unroll_limit", "schedule_diff_mark"]


def _divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def _factor(ctx, extent):
    """A split factor: mostly a divisor of the extent or a small number,
    sometimes more than the extent, 1, 0 or negative."""
    r = ctx.rng.random()
    if extent and r < 0.45:
        return ctx.rng.choice(_divisors(extent))
    if r < 0.85:
        return ctx.rng.randint(2, 8)
    if r < 0.97:
        return ctx.rng.randint(1, (extent or 8) + 3)
    return ctx.rng.choice([0, -2])


def gen_split(ctx):
    loop, extent = ctx.loop()
    if loop is None:
        return None
    n = ctx.rng.choice([2, 2, 2, 3, 3, 4]) if not ctx.chance(0.02) else 1
    factors = [_factor(ctx, extent) for _ in range(n)]
    if ctx.chance(0.85):
        factors[ctx.rng.randrange(n)] = None
        if ctx.chance(0.03):
            factors[ctx.rng.randrange(n)] = None  # two inferred factors
    kw = {"factors": factors}
    if ctx.chance(0.3):
        kw["preserve_unit_iters"] = ctx.chance(0.5)
    product = 1
    for f in factors:
        product *= f if f else 1
    # disable_predication asserts that the factors divide the extent: only
    # where they multiply to it exactly (otherwise out-of-bounds accesses are
    # the caller's fault, not a miscompile).
    if extent and None not in factors and product == extent and ctx.chance(0.3):
        kw["disable_predication"] = True
    return Step("split", [loop], kw)


def gen_sample_perfect_tile(ctx):
    loop, extent = ctx.loop()
    if loop is None:
        return None
    n = ctx.rng.choice([2, 2, 2, 3, 3, 4]) if not ctx.chance(0.05) else 1
    kw = {"n": n, "max_innermost_factor": ctx.rng.choice([16, 16, 4, 0, 2])}
    if ctx.chance(0.1):  # a decision of the caller, possibly wrong
        kw["decision"] = [ctx.rng.randint(1, 6) for _ in range(n)]
    # Sampled, then split by the factors it returns (TVM's idiom); the
    # decision drawn is recorded in the step for replays.
    return Step("sample_perfect_tile", [loop], kw)


def gen_sample_categorical(ctx):
    # A draw that changes nothing on its own; its decision is recorded.
    k = ctx.rng.choice([1, 2, 3])
    return Step("sample_categorical", [],
                {"candidates": [ctx.rng.randint(1, 8) for _ in range(k)],
                 "probs": [ctx.rng.choice([0.0, 0.5, 1.0, 2.0]) or 0.25 for _ in range(k)]})


def gen_sample_compute_location(ctx):
    # The places are found by compute_inline's and compute_at's own checks
    # (nothing changes); sometimes a recorded decision, possibly stale.
    kw = {}
    if ctx.chance(0.3):
        kw["decision"] = ctx.rng.randint(-2, 4)
    return Step("sample_compute_location", [block_ref(ctx.block())], kw)


def gen_enter_postproc(ctx):
    return Step("enter_postproc", [], {})


def _loop_run(ctx, block, length):
    extents = ctx.loops(block)
    start = ctx.rng.randrange(len(extents) - length + 1)
    return [loop_ref(block, start + i) for i in range(length)]


def gen_fuse(ctx):
    block = ctx.block_with_loops()
    if block is None:
        return None
    extents = ctx.loops(block)
    r = ctx.rng.random()
    if r < 0.8 and len(extents) >= 2:
        length = ctx.rng.choice([2, 2, 2, 3]) if len(extents) >= 3 else 2
        loops = _loop_run(ctx, block, length)
    elif r < 0.9:  # any loops, perhaps of other blocks, perhaps twice
        loops = [ctx.loop()[0] for _ in range(ctx.rng.choice([1, 2, 2, 3]))]
    else:
        loops = [loop_ref(block, i) for i in sorted(ctx.rng.sample(range(len(extents)),
                                                                   min(2, len(extents))))]
    kw = {"preserve_unit_iters": ctx.chance(0.5)} if ctx.chance(0.2) else {}
    return Step("fuse", loops, kw)


def gen_merge(ctx):
    """Loops of two or three blocks at one depth (mostly their same level;
    sometimes different levels, which merge refuses)."""
    r = ctx.rng
    blocks = [b for b in ctx.blocks if ctx.loops(b)]
    if len(blocks) < 2:
        return None

    def buffers(block):
        h = cached_block(ctx.sch, block)._handle
        reads, writes = set(h.read_buffer_names or []), set(h.write_buffer_names or [])
        return reads | writes, writes

    # Mostly blocks that share no buffer one of them writes (merge refuses
    # the others: their iterations would interleave).
    independent = [(a, b) for i, a in enumerate(blocks) for b in blocks[i + 1:]
                   if not (buffers(a)[1] & buffers(b)[0] or buffers(b)[1] & buffers(a)[0])]
    if independent and ctx.chance(0.8):
        chosen = list(r.choice(independent))
        r.shuffle(chosen)
    else:
        chosen = r.sample(blocks, 3 if len(blocks) >= 3 and ctx.chance(0.3) else 2)
    depth = r.randrange(min(len(ctx.loops(b)) for b in chosen))
    loops = [loop_ref(b, depth if ctx.chance(0.9) else r.randrange(len(ctx.loops(b))))
             for b in chosen]
    return Step("merge", loops, {})


def gen_reorder(ctx):
    block = ctx.block_with_loops()
    if block is None:
        return None
    extents = ctx.loops(block)
    if ctx.chance(0.92) and len(extents) >= 2:
        chosen = ctx.rng.sample(range(len(extents)), ctx.rng.randint(2, len(extents)))
        loops = [loop_ref(block, i) for i in chosen]
    else:  # loops of any blocks, perhaps one twice
        loops = [ctx.loop()[0] for _ in range(ctx.rng.randint(2, 3))]
        if ctx.chance(0.2):
            loops.append(loops[0])
    return Step("reorder", loops, {})


def gen_add_unit_loop(ctx):
    return Step("add_unit_loop", [ctx.any_ref()], {})


def gen_loop_partition(ctx):
    """Sizes (one to three, mostly one inferred) that mostly fit the
    extent; sometimes a size of 0 or sizes that reach the extent
    (refused)."""
    loop, extent = ctx.loop()
    if loop is None:
        return None
    r = ctx.rng
    n = r.choice([1, 1, 2, 2, 3])
    top = max(1, (extent or 8) // n)
    factors = [r.randint(1, top) for _ in range(n)]
    if ctx.chance(0.6):
        factors[r.randrange(n)] = None
    if ctx.chance(0.05):
        factors[r.randrange(n)] = 0
    kw = {"factors": factors}
    if ctx.chance(0.2):
        kw["preserve_unit_iters"] = ctx.chance(0.5)
    return Step("loop_partition", [loop], kw)


def _loop_kind(prim):
    def gen(ctx):
        loop, _ = ctx.loop()
        return None if loop is None else Step(prim, [loop], {})
    gen.__name__ = f"gen_{prim}"
    return gen


def gen_bind(ctx):
    loop, _ = ctx.loop()
    if loop is None:
        return None
    axis = ctx.rng.choice(THREAD_AXES) if ctx.chance(0.95) else "warpIdx.q"
    return Step("bind", [loop], {"thread_axis": axis})


def _annotation_value(ctx, key):
    if key == "pragma_auto_unroll_max_step":
        return ctx.rng.choice([0, 4, 16])
    if key == "pragma_unroll_explicit":
        return ctx.rng.choice([0, 1])
    if key == "unroll_limit":  # the build's limit of full unrolling (0 would lift it)
        return ctx.rng.choice([64, 4096])
    if key == "software_pipeline_stage":
        return [ctx.rng.randint(0, 2) for _ in range(2)]
    return ctx.rng.choice([1, "text", True, 2.5])


def gen_software_pipeline(ctx):
    """A loop's software pipeline (stages and order, one annotation each):
    mostly one entry per statement of its body (the loops and blocks
    right under it, as the nest reads them), stages 0 to 2, a random
    order; illegal pipelines are refused by the build."""
    block = ctx.block_with_loops()
    if block is None:
        return None
    index = ctx.rng.randrange(len(ctx.loops(block)))
    lines = ctx.nest.loops.get(block, [])
    count = 1
    if index < len(lines):
        line = lines[index]
        children = set()
        for other, loops in ctx.nest.loops.items():
            if line in loops:
                i = loops.index(line)
                children.add(loops[i + 1] if i + 1 < len(loops) else other)
        count = max(1, len(children))
    if ctx.chance(0.05):
        count += ctx.rng.choice([-1, 1]) if count > 1 else 1
    stages = [ctx.rng.randint(0, 2) for _ in range(count)]
    order = list(range(count))
    if ctx.chance(0.5):
        ctx.rng.shuffle(order)
    return Step("annotate", [loop_ref(block, index)],
                {"ann_key": "software_pipeline_stage", "ann_val": stages,
                 "pipeline_order": order})


def gen_annotate(ctx):
    key = ctx.rng.choice(ANNOTATION_KEYS)
    if key == "software_pipeline_stage" and ctx.chance(0.8):
        step = gen_software_pipeline(ctx)
        if step is not None:
            return step
    return Step("annotate", [ctx.any_ref()], {"ann_key": key,
                                               "ann_val": _annotation_value(ctx, key)})


def gen_unannotate(ctx):
    """Mostly a key the block or loop has."""
    annotated = ctx.nest.annotated()
    if not annotated and ctx.chance(0.7):
        return None  # (nothing to remove: only a refusal to test)
    if annotated and ctx.chance(0.8):
        block, index, key = ctx.rng.choice(annotated)
        ref = block_ref(block) if index is None else loop_ref(block, index)
        return Step("unannotate", [ref], {"ann_key": key})
    return Step("unannotate", [ctx.any_ref()], {"ann_key": ctx.rng.choice(ANNOTATION_KEYS)})
