"""One random generator per schedule primitive (GENERATORS: primitive name
-> function(ctx) -> Step).

A generator looks at the schedule as it is (ctx: the blocks, the loops
above each block and their extents) and draws arguments that are mostly
legal-looking and sometimes not: loops of another block, factors that do not
divide or are below 1, non-adjacent loops, a loop given twice, unknown
names and thread axes. The schedule is expected to refuse what is illegal
(ScheduleError); what it accepts must compute what the unscheduled program
computes.

A step names blocks and loops symbolically (steps.py), so that it can be
replayed after the steps before it were dropped by the shrinker. A
primitive of `ext.primitive_names()` without a generator here fails
python/tests/test_schedule_diff.py.
"""
import re
from collections import Counter

import tensorir.tir.tensor_intrin  # noqa: F401 - registers the intrinsics tensorize names

from nest import Nest
from steps import Step, block_ref, cached_block, loop_ref

THREAD_AXES = ["blockIdx.x", "blockIdx.y", "threadIdx.x", "threadIdx.y", "threadIdx.z",
               "vthread", "vthread.x"]
ANNOTATION_KEYS = ["pragma_auto_unroll_max_step", "pragma_unroll_explicit",
                   "software_pipeline_stage", "unroll_limit", "schedule_diff_mark"]


class Context:
    """What a generator sees: the schedule, the RNG and the kernel's blocks;
    `loops(block)` lists the extents (None: not a constant) of the loops
    above a block, outermost first; `nest` is the module's printed form read
    back (nest.py): which loops blocks share, annotations, allocated
    buffers."""

    def __init__(self, sch, rng, blocks):
        self.sch, self.rng = sch, rng
        self._loops = {}
        text = sch.mod.mlir()
        self.nest = Nest(text)
        # The blocks there now, by their current names (an inline removes
        # one, decompose_reduction renames one and adds its init block);
        # not a name two blocks share (two copy stages of one buffer), which
        # get_block refuses as ambiguous.
        counts = Counter(re.findall(r'tir\.block "([^"]*)"', text))
        self.blocks = [b for b in (list(self.nest.loops) or list(blocks))
                       if counts.get(b, 1) == 1]

    def loops(self, block):
        if block not in self._loops:
            rvs = self.sch.get_loops(cached_block(self.sch, block))
            self._loops[block] = [self.sch._native.loop_extent(rv._handle) for rv in rvs]
        return self._loops[block]

    def chance(self, p):
        return self.rng.random() < p

    def block(self):
        return self.rng.choice(self.blocks)

    def block_with_loops(self):
        candidates = [b for b in self.blocks if self.loops(b)]
        return self.rng.choice(candidates) if candidates else None

    def loop(self):
        """(ref, extent) of a random loop, or (None, None) when none is left."""
        block = self.block_with_loops()
        if block is None:
            return None, None
        extents = self.loops(block)
        index = self.rng.randrange(len(extents))
        return loop_ref(block, index), extents[index]

    def any_ref(self):
        """A block or a loop."""
        ref, _ = self.loop()
        return ref if ref is not None and self.chance(0.6) else block_ref(self.block())


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


def _at_step(ctx, prim):
    """compute_at: mostly a block and a loop of a block after it (its
    consumers come after it) that does not contain it; reverse_compute_at:
    of a block before it. Sometimes any loop."""
    blocks = ctx.blocks
    block = ctx.block()
    # (Not a name two blocks share: the Context leaves those out.)
    producers = [b for b in ctx.nest.writers_of_allocations() if b in blocks]
    if producers and ctx.chance(0.8):  # a block that is not an output block, or its consumer
        block = ctx.rng.choice(producers)
        if prim == "reverse_compute_at" and blocks.index(block) + 1 < len(blocks):
            block = ctx.rng.choice(blocks[blocks.index(block) + 1:])
    position = blocks.index(block)
    others = [b for b in (blocks[position + 1:] if prim == "compute_at" else blocks[:position])
              if ctx.loops(b)]
    if not others and ctx.chance(0.75):
        return None  # (a kernel of one block: only a refusal to test)
    if others and ctx.chance(0.9):
        target = ctx.rng.choice(others)
        shared = ctx.nest.shared_depth(block, target)
        count = len(ctx.loops(target))
        index = ctx.rng.randrange(shared, count) if shared < count else count - 1
        loop = loop_ref(target, index)
    else:
        loop, _ = ctx.loop()
        if loop is None:
            return None
    kw = {}
    if ctx.chance(0.4):
        kw["preserve_unit_loops"] = ctx.chance(0.5)
    if ctx.chance(0.15):
        kw["index"] = ctx.rng.choice([-1, -2, 0, 1, 2, -3])
    return Step(prim, [block_ref(block), loop], kw)


def gen_compute_at(ctx):
    return _at_step(ctx, "compute_at")


def gen_reverse_compute_at(ctx):
    return _at_step(ctx, "reverse_compute_at")


def gen_decompose_reduction(ctx):
    """Mostly a block with a tir.init and one of its loops (the loops below
    the reduction loops are refused); sometimes a loop of another block."""
    reductions = [b for b in ctx.blocks if b in ctx.nest.reductions and ctx.loops(b)]
    if not reductions and ctx.chance(0.8):
        return None  # (no reduction left: only a refusal to test)
    block = ctx.rng.choice(reductions) if reductions and ctx.chance(0.9) else ctx.block()
    if ctx.loops(block) and ctx.chance(0.9):
        loop = loop_ref(block, ctx.rng.randrange(len(ctx.loops(block))))
    else:
        loop, _ = ctx.loop()
        if loop is None:
            return None
    return Step("decompose_reduction", [block_ref(block), loop], {})


def gen_rfactor(ctx):
    """Mostly the innermost or a deeper loop of a reduction block (a loop
    that feeds a reduce variable, after a split: the tiles' partial results),
    a factor_axis in range; sometimes a loop that feeds a spatial variable,
    an out-of-range axis, or a block without a tir.init."""
    reductions = [b for b in ctx.blocks if b in ctx.nest.reductions and ctx.loops(b)]
    if not reductions and ctx.chance(0.8):
        return None
    block = ctx.rng.choice(reductions) if reductions and ctx.chance(0.9) else ctx.block()
    n = len(ctx.loops(block))
    if not n:
        return None
    at = n - 1 - min(ctx.rng.randrange(n), ctx.rng.randrange(n))  # mostly inner
    axis = ctx.rng.choice([0, 0, 1, -1, 2]) if ctx.chance(0.9) else ctx.rng.choice([5, -6])
    return Step("rfactor", [loop_ref(block, at)], {"factor_axis": axis})


def gen_blockize(ctx):
    """Mostly an inner loop of a block (a tile after splits), sometimes an
    outer one; now and then a list of blocks under a common loop (often
    refused: their outer parts must agree)."""
    block = ctx.block()
    n = len(ctx.loops(block))
    if ctx.chance(0.15) and len(ctx.blocks) > 1:
        others = [b for b in ctx.blocks if b != block]
        return Step("blockize", [block_ref(block), block_ref(ctx.rng.choice(others))],
                    {"preserve_unit_iters": ctx.chance(0.5)})
    if not n:
        return None
    at = n - 1 - min(ctx.rng.randrange(n), ctx.rng.randrange(n))
    return Step("blockize", [loop_ref(block, at)], {"preserve_unit_iters": ctx.chance(0.7)})


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


# The intrinsics tensorize draws from: those tir lowers on any x86 CPU
# (tensorir.tir.tensor_intrin.x86; VNNI needs the instruction, left out).
TENSOR_INTRINSICS = ["fma_f32_16_avx512", "dot_16x4_avx512"]


def gen_tensorize(ctx):
    """Mostly the innermost loop of a block (a row tile of 16 after a split
    matches the FMA micro-kernel), sometimes an outer loop or the block
    itself; most draws do not match and are refused."""
    block = ctx.block()
    extents = ctx.loops(block)
    n = len(extents)
    intrin = ctx.rng.choice(TENSOR_INTRINSICS)
    if n and extents[-1] == 16 and ctx.chance(0.8):
        intrin = "fma_f32_16_avx512"  # a 16-wide inner loop: the FMA's shape
    if not n or ctx.chance(0.1):
        return Step("tensorize", [block_ref(block)], {"tensor_intrin": intrin})
    at = n - 1 if ctx.chance(0.7) else ctx.rng.randrange(n)
    kw = {"tensor_intrin": intrin}
    if ctx.chance(0.2):
        kw["preserve_unit_iters"] = ctx.chance(0.5)
    return Step("tensorize", [loop_ref(block, at)], kw)


def _inline_step(ctx, prim):
    """compute_inline: mostly a block writing a buffer the function
    allocates (not an output block); reverse_compute_inline: mostly a block
    after such a writer (perhaps its consumer). Sometimes any block."""
    writers = ctx.nest.writers_of_allocations()
    block = ctx.block()
    if writers and ctx.chance(0.85):
        # Mostly blocks without a tir.init (TVM refuses those).
        plain = [b for b in writers if b not in ctx.nest.reductions]
        block = ctx.rng.choice(plain if plain and ctx.chance(0.8) else writers)
        later = ctx.blocks[ctx.blocks.index(block) + 1:] if block in ctx.blocks else []
        plain = [b for b in later if b not in ctx.nest.reductions]
        if prim == "reverse_compute_inline" and later:
            block = ctx.rng.choice(plain if plain and ctx.chance(0.8) else later)
    return Step(prim, [block_ref(block)], {})


def gen_compute_inline(ctx):
    return _inline_step(ctx, "compute_inline")


def gen_reverse_compute_inline(ctx):
    return _inline_step(ctx, "reverse_compute_inline")


def gen_fuse_reduction_epilogue(ctx):
    """Mostly a reduction writing a buffer the function allocates and a
    block after it (perhaps its bias epilogue); sometimes any two blocks."""
    r = ctx.rng
    reductions = [b for b in ctx.nest.writers_of_allocations() if b in ctx.nest.reductions]
    if reductions and ctx.chance(0.85):
        reduction = r.choice(reductions)
        later = ctx.blocks[ctx.blocks.index(reduction) + 1:] if reduction in ctx.blocks else []
        epilogue = r.choice(later) if later else ctx.block()
    else:
        reduction, epilogue = ctx.block(), ctx.block()
    return Step("fuse_reduction_epilogue", [block_ref(reduction), block_ref(epilogue)], {})


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


def _random_index_map(r, rank):
    """A lambda's source over `rank` indices: a permutation, a split of one
    index by a small factor (padding where it does not divide), or the
    identity."""
    names = [f"d{k}" for k in range(rank)]
    exprs = list(names)
    choice = r.random()
    if rank >= 2 and choice < 0.35:
        r.shuffle(exprs)
    elif rank and choice < 0.85:
        k = r.randrange(rank)
        f = r.choice([2, 3, 4, 8])
        exprs[k:k + 1] = [f"{names[k]} // {f}", f"{names[k]} % {f}"]
        if r.random() < 0.3:
            exprs.append(exprs.pop(k + 1))
    if not exprs:
        return "lambda: ()"
    return f"lambda {', '.join(names)}: ({', '.join(exprs)},)"


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
    kw = {"buffer": [kind, index], "index_map": _random_index_map(r, rank)}
    if ctx.chance(0.4):     # pads where a split factor does not divide
        kw["pad_value"] = r.choice([0, 0.0, -3, 2.5])
        if ctx.chance(0.3):  # computed from the new indices (integer buffers)
            kw["pad_value"] = "lambda *ix: ix[0] * 3 + ix[-1] + 1"
    if ctx.chance(0.1):
        kw["index_map"] = _random_index_map(r, rank + 1)      # wrong arity
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


def gen_transform_block_layout(ctx):
    r = ctx.rng
    block = ctx.block()
    n = cached_block(ctx.sch, block)._handle.num_iter_vars or 0
    return Step("transform_block_layout", [block_ref(block)],
                {"index_map": _random_index_map(r, n)})


def gen_reorder_block_iter_var(ctx):
    r = ctx.rng
    block = ctx.block()
    n = cached_block(ctx.sch, block)._handle.num_iter_vars or 0
    order = list(range(n))
    r.shuffle(order)
    if n and r.random() < 0.1:  # not a permutation: refused
        order[0] = order[-1] if n > 1 else n
    return Step("reorder_block_iter_var", [block_ref(block)], {"new_order": order})


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
        "index_map": _random_index_map(r, n),
    })


def gen_reindex_cache_read(ctx):
    return _reindex_cache_step(ctx, "reindex_cache_read")


def gen_reindex_cache_write(ctx):
    return _reindex_cache_step(ctx, "reindex_cache_write")


def gen_get_block(ctx):
    name = ctx.block() if ctx.chance(0.9) else "no_such_block"
    return Step("get_block", [], {"name": name})


def gen_get_loops(ctx):
    return Step("get_loops", [block_ref(ctx.block())], {})


def gen_get_child_blocks(ctx):
    return Step("get_child_blocks", [ctx.any_ref()], {})


def gen_get_output_blocks(ctx):
    return Step("get_output_blocks", [block_ref(ctx.block())], {})


def gen_get_producers(ctx):
    return Step("get_producers", [block_ref(ctx.block())], {})


def gen_get_consumers(ctx):
    return Step("get_consumers", [block_ref(ctx.block())], {})


GENERATORS = {
    "get_block": gen_get_block,
    "get_loops": gen_get_loops,
    "get_child_blocks": gen_get_child_blocks,
    "get_producers": gen_get_producers,
    "get_output_blocks": gen_get_output_blocks,
    "get_consumers": gen_get_consumers,
    "sample_perfect_tile": gen_sample_perfect_tile,
    "sample_categorical": gen_sample_categorical,
    "enter_postproc": gen_enter_postproc,
    "reorder_block_iter_var": gen_reorder_block_iter_var,
    "sample_compute_location": gen_sample_compute_location,
    "split": gen_split,
    "fuse": gen_fuse,
    "reorder": gen_reorder,
    "add_unit_loop": gen_add_unit_loop,
    "compute_at": gen_compute_at,
    "reverse_compute_at": gen_reverse_compute_at,
    "compute_inline": gen_compute_inline,
    "reverse_compute_inline": gen_reverse_compute_inline,
    "decompose_reduction": gen_decompose_reduction,
    "parallel": _loop_kind("parallel"),
    "vectorize": _loop_kind("vectorize"),
    "unroll": _loop_kind("unroll"),
    "bind": gen_bind,
    "annotate": gen_annotate,
    "unannotate": gen_unannotate,
    "storage_align": gen_storage_align,
    "set_scope": gen_set_scope,
    "unsafe_set_dtype": gen_unsafe_set_dtype,
    "annotate_buffer_access": gen_annotate_buffer_access,
    "read_at": gen_read_at,
    "write_at": gen_write_at,
    "fuse_reduction_epilogue": gen_fuse_reduction_epilogue,
    "rolling_buffer": gen_rolling_buffer,
    "decompose_padding": gen_decompose_padding,
    "pad_einsum": gen_pad_einsum,
    "cache_read": gen_cache_read,
    "cache_write": gen_cache_write,
    "cache_inplace": gen_cache_inplace,
    "cache_index": gen_cache_index,
    "reindex": gen_reindex,
    "transform_layout": gen_transform_layout,
    "merge": gen_merge,
    "loop_partition": gen_loop_partition,
    "tensorize": gen_tensorize,
    "rfactor": gen_rfactor,
    "blockize": gen_blockize,
    "transform_block_layout": gen_transform_block_layout,
    "set_axis_separator": gen_set_axis_separator,
    "reindex_cache_read": gen_reindex_cache_read,
    "reindex_cache_write": gen_reindex_cache_write,
}

# How often each primitive is drawn, relative to 1 (the loop restructurers
# find the bugs; queries cannot change anything).
WEIGHTS = {
    "split": 4, "fuse": 3, "reorder": 3, "compute_at": 2, "reverse_compute_at": 2,
    "compute_inline": 1, "reverse_compute_inline": 1,
    "sample_perfect_tile": 1.5, "vectorize": 1.5, "parallel": 1.5, "unroll": 1.5,
    "get_block": 0.3, "get_loops": 0.3, "get_child_blocks": 0.3, "get_producers": 0.3,
    "get_consumers": 0.3, "annotate": 0.5, "unannotate": 0.5, "storage_align": 0.5, "set_scope": 0.5,
    "cache_read": 1, "cache_write": 1, "reindex": 1,
    "transform_layout": 1, "transform_block_layout": 1, "set_axis_separator": 0.5,
    "reindex_cache_read": 1, "reindex_cache_write": 1,
    "add_unit_loop": 0.7, "bind": 0.7, "decompose_reduction": 1, "rolling_buffer": 1,
    "decompose_padding": 1, "pad_einsum": 1, "cache_inplace": 1, "cache_index": 1, "merge": 1,
    "rfactor": 1.5, "blockize": 1, "unsafe_set_dtype": 0.5, "fuse_reduction_epilogue": 1,
    "annotate_buffer_access": 0.7, "read_at": 1, "write_at": 1,
}


def draw_step(ctx, primitives):
    """A step of one of `primitives` (drawn by WEIGHTS); None when the
    drawn primitive has nothing to work on."""
    # Every generator starts from a block: none is left to name (a
    # tensorized kernel whose only block two copies share) means no step.
    if not ctx.blocks:
        return None
    weights = [WEIGHTS.get(p, 1.0) for p in primitives]
    prim = ctx.rng.choices(primitives, weights)[0]
    return GENERATORS[prim](ctx)
