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
python/tests/test_schedule_diff.py. The generators live by the kind of
primitive they draw: gen_loops.py, gen_blocks.py, gen_buffers.py; what they
see and share is context.py.
"""
import gen_blocks as blocks
import gen_buffers as buffers
import gen_loops as loops

GENERATORS = {
    "get_block": blocks.gen_get_block,
    "get_loops": blocks.gen_get_loops,
    "get_child_blocks": blocks.gen_get_child_blocks,
    "get_producers": blocks.gen_get_producers,
    "get_output_blocks": blocks.gen_get_output_blocks,
    "get_consumers": blocks.gen_get_consumers,
    "sample_perfect_tile": loops.gen_sample_perfect_tile,
    "sample_categorical": loops.gen_sample_categorical,
    "enter_postproc": loops.gen_enter_postproc,
    "reorder_block_iter_var": blocks.gen_reorder_block_iter_var,
    "sample_compute_location": loops.gen_sample_compute_location,
    "split": loops.gen_split,
    "fuse": loops.gen_fuse,
    "reorder": loops.gen_reorder,
    "add_unit_loop": loops.gen_add_unit_loop,
    "compute_at": blocks.gen_compute_at,
    "reverse_compute_at": blocks.gen_reverse_compute_at,
    "compute_inline": blocks.gen_compute_inline,
    "reverse_compute_inline": blocks.gen_reverse_compute_inline,
    "decompose_reduction": blocks.gen_decompose_reduction,
    "parallel": loops._loop_kind("parallel"),
    "vectorize": loops._loop_kind("vectorize"),
    "unroll": loops._loop_kind("unroll"),
    "bind": loops.gen_bind,
    "annotate": loops.gen_annotate,
    "unannotate": loops.gen_unannotate,
    "storage_align": buffers.gen_storage_align,
    "set_scope": buffers.gen_set_scope,
    "unsafe_set_dtype": buffers.gen_unsafe_set_dtype,
    "annotate_buffer_access": buffers.gen_annotate_buffer_access,
    "read_at": buffers.gen_read_at,
    "write_at": buffers.gen_write_at,
    "fuse_reduction_epilogue": blocks.gen_fuse_reduction_epilogue,
    "rolling_buffer": buffers.gen_rolling_buffer,
    "decompose_padding": buffers.gen_decompose_padding,
    "pad_einsum": buffers.gen_pad_einsum,
    "cache_read": buffers.gen_cache_read,
    "cache_write": buffers.gen_cache_write,
    "cache_inplace": buffers.gen_cache_inplace,
    "cache_index": buffers.gen_cache_index,
    "reindex": buffers.gen_reindex,
    "transform_layout": buffers.gen_transform_layout,
    "merge": loops.gen_merge,
    "loop_partition": loops.gen_loop_partition,
    "tensorize": blocks.gen_tensorize,
    "rfactor": blocks.gen_rfactor,
    "blockize": blocks.gen_blockize,
    "transform_block_layout": blocks.gen_transform_block_layout,
    "set_axis_separator": buffers.gen_set_axis_separator,
    "reindex_cache_read": buffers.gen_reindex_cache_read,
    "reindex_cache_write": buffers.gen_reindex_cache_write,
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
