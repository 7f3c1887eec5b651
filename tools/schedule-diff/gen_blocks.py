"""The generators of the block primitives: compute_at and
reverse_compute_at, decompose_reduction, rfactor, blockize, tensorize, the
inlines, fuse_reduction_epilogue, the block layouts, and the queries."""
import tensorir.tir.tensor_intrin  # noqa: F401 - registers the intrinsics tensorize names
from context import random_index_map
from steps import Step, block_ref, cached_block, loop_ref


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


def gen_transform_block_layout(ctx):
    r = ctx.rng
    block = ctx.block()
    n = cached_block(ctx.sch, block)._handle.num_iter_vars or 0
    return Step("transform_block_layout", [block_ref(block)],
                {"index_map": random_index_map(r, n)})


def gen_reorder_block_iter_var(ctx):
    r = ctx.rng
    block = ctx.block()
    n = cached_block(ctx.sch, block)._handle.num_iter_vars or 0
    order = list(range(n))
    r.shuffle(order)
    if n and r.random() < 0.1:  # not a permutation: refused
        order[0] = order[-1] if n > 1 else n
    return Step("reorder_block_iter_var", [block_ref(block)], {"new_order": order})


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
