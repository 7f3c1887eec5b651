"""The schedule rules of the MetaSchedule library, as TVM's classes
(tvm.meta_schedule.schedule_rule.AutoInline, ...)."""
import atexit

from ..._ext import ext
from ...registry import get_global_func
from ...tir.schedule import BlockRV, Schedule
from ..utils import _bind, _named_native
from .schedule_rule import ScheduleRule, _natives

__all__ = ["AddRFactor", "ApplyCustomRule", "AutoBind", "AutoInline", "CrossThreadReduction",
           "InlineConstantScalars", "MultiLevelTiling", "MultiLevelTilingTensorCore",
           "MultiLevelTilingWideVector", "MultiLevelTilingWithIntrin", "ParallelizeVectorizeUnroll",
           "RandomComputeLocation", "ReuseType"]


class ReuseType:
    """TVM's ReuseType: reuse of a read or write in MultiLevelTiling, as
    the dictionary the rule takes ({"req": ..., "levels": ..., "scope":
    ...})."""

    def __init__(self, req, levels, scope):
        if req not in ("no", "may", "must"):
            raise ValueError(f"ValueError: Unknown ReuseType: {req}")
        self.req, self.levels, self.scope = req, list(levels), scope

    def as_dict(self):
        return {"req": self.req, "levels": self.levels, "scope": self.scope}


def _reuse(config):
    if config is None or isinstance(config, dict):
        return config
    return config.as_dict()


def _ints(values):
    return None if values is None else [int(getattr(v, "value", v)) for v in values]


@_named_native("AddRFactor")
class AddRFactor(ScheduleRule):
    """TVM's AddRFactor: factors a reduction with little spatial
    parallelism by rfactor (the parallelism cores x max_jobs_per_core)."""

    def __init__(self, max_jobs_per_core=16, max_innermost_factor=None):
        _bind(self, ext.schedule_rule_add_rfactor(
            int(max_jobs_per_core),
            -1 if max_innermost_factor is None
            else int(getattr(max_innermost_factor, "value", max_innermost_factor))))


def _custom_rule(name):
    """The rule registered as global function `name` (TVM's
    "meta_schedule.<target key>.<rule>"), as the library calls it."""
    f = get_global_func(name, allow_missing=True)
    if f is None:
        return None

    def apply(native, handle):
        return _natives(f(Schedule._from_native(native), BlockRV._of(handle)),
                        f"the schedule rule {name}")
    return apply


ext.set_custom_rule_lookup(_custom_rule)
atexit.register(ext.set_custom_rule_lookup, None)


@_named_native("ApplyCustomRule")
class ApplyCustomRule(ScheduleRule):
    """TVM's ApplyCustomRule: a block annotated "schedule_rule" = NAME is
    scheduled by the global function "meta_schedule.<target key>.<NAME>"
    (tvm.register_global_func)."""

    def __init__(self):
        _bind(self, ext.schedule_rule_apply_custom_rule())


@_named_native("AutoBind")
class AutoBind(ScheduleRule):
    """TVM's AutoBind: binds the loops of blocks no thread binds to
    blockIdx.x / threadIdx.x (GPU targets); max_threads_per_block -1 reads
    the target's."""

    def __init__(self, max_threadblocks=256, thread_extents=None, max_threads_per_block=-1):
        _bind(self, ext.schedule_rule_auto_bind(
            int(getattr(max_threadblocks, "value", max_threadblocks)),
            _ints(thread_extents) if thread_extents is not None
            else [32, 64, 128, 256, 512, 1024],
            int(getattr(max_threads_per_block, "value", max_threads_per_block))))


@_named_native("CrossThreadReduction")
class CrossThreadReduction(ScheduleRule):
    """TVM's CrossThreadReduction: reductions with little spatial
    parallelism get an alternative reduced across the threads of a block
    (GPU targets), the thread count sampled from thread_extents."""

    def __init__(self, thread_extents):
        _bind(self, ext.schedule_rule_cross_thread_reduction(_ints(thread_extents)))


@_named_native("AutoInline")
class AutoInline(ScheduleRule):
    """TVM's AutoInline: inlines a block into its consumers (or its one
    producer into it) where the conditions allow."""

    def __init__(self, into_producer, into_consumer, inline_const_tensor,
                 disallow_if_then_else, require_injective, require_ordered,
                 disallow_op=None):
        _bind(self, ext.schedule_rule_auto_inline(
            bool(into_producer), bool(into_consumer), bool(inline_const_tensor),
            bool(disallow_if_then_else), bool(require_injective), bool(require_ordered),
            None if disallow_op is None else [str(o) for o in disallow_op]))


@_named_native("InlineConstantScalars")
class InlineConstantScalars(ScheduleRule):
    """TVM's InlineConstantScalars: inlines blocks that compute a constant
    scalar."""

    def __init__(self):
        _bind(self, ext.schedule_rule_inline_constant_scalars())


@_named_native("MultiLevelTiling")
class MultiLevelTiling(ScheduleRule):
    """TVM's MultiLevelTiling: tiles compute-heavy blocks as `structure`
    says ("SSRSRS" on CPUs), with optional read and write caches;
    filter_fn(sch, block) -> bool chooses other blocks to tile too."""

    def __init__(self, structure, tile_binds=None, max_innermost_factor=None,
                 vector_load_lens=None, reuse_read=None, reuse_write=None,
                 filter_fn=None):
        def choose(native, handle):
            return bool(filter_fn(Schedule._from_native(native), BlockRV._of(handle)))

        _bind(self, ext.schedule_rule_multi_level_tiling(
            str(structure), None if tile_binds is None else [str(t) for t in tile_binds],
            None if max_innermost_factor is None
            else int(getattr(max_innermost_factor, "value", max_innermost_factor)),
            _ints(vector_load_lens), _reuse(reuse_read), _reuse(reuse_write),
            None if filter_fn is None else choose))


def _factor(value):
    return None if value is None else int(getattr(value, "value", value))


@_named_native("MultiLevelTilingWithIntrin")
class MultiLevelTilingWithIntrin(ScheduleRule):
    """TVM's MultiLevelTilingWithIntrin: MultiLevelTiling of the blocks the
    tensor intrinsic `intrin_name` matches, their inner loops tiled to its
    shape and blockized, annotated for RewriteTensorize."""

    def __init__(self, intrin_name, structure, tile_binds=None, max_innermost_factor=None,
                 vector_load_lens=None, reuse_read=None, reuse_write=None):
        _bind(self, ext.schedule_rule_multi_level_tiling_with_intrin(
            str(intrin_name), str(structure),
            None if tile_binds is None else [str(t) for t in tile_binds],
            _factor(max_innermost_factor), _ints(vector_load_lens), _reuse(reuse_read),
            _reuse(reuse_write)))


@_named_native("MultiLevelTilingTensorCore")
class MultiLevelTilingTensorCore(ScheduleRule):
    """TVM's MultiLevelTilingTensorCore: MultiLevelTiling onto tensor cores
    for the blocks one of `intrin_groups` (get_wmma_intrin_group's
    dictionaries) matches."""

    def __init__(self, intrin_groups, structure, tile_binds=None, max_innermost_factor=None,
                 vector_load_lens=None, reuse_read=None, reuse_write=None,
                 use_software_pipeline=False):
        _bind(self, ext.schedule_rule_multi_level_tiling_tensor_core(
            [{str(k): str(v) for k, v in dict(group).items()} for group in intrin_groups],
            str(structure), None if tile_binds is None else [str(t) for t in tile_binds],
            _factor(max_innermost_factor), _ints(vector_load_lens), _reuse(reuse_read),
            _reuse(reuse_write), bool(use_software_pipeline)))


@_named_native("MultiLevelTilingWideVector")
class MultiLevelTilingWideVector(ScheduleRule):
    """TVM's MultiLevelTilingWideVector: MultiLevelTiling whose loop over the
    output's innermost dimension always ends in one whole vector of
    vector_length_in_bits."""

    def __init__(self, structure, vector_length_in_bits, max_innermost_factor=None,
                 reuse_read=None, reuse_write=None):
        _bind(self, ext.schedule_rule_multi_level_tiling_wide_vector(
            str(structure), int(getattr(vector_length_in_bits, "value", vector_length_in_bits)),
            _factor(max_innermost_factor), _reuse(reuse_read), _reuse(reuse_write)))


@_named_native("ParallelizeVectorizeUnroll")
class ParallelizeVectorizeUnroll(ScheduleRule):
    """TVM's ParallelizeVectorizeUnroll: annotates the root block with the
    parallel extent, the vectorization limit and a sampled unroll depth."""

    def __init__(self, max_jobs_per_core=16, max_vectorize_extent=16,
                 unroll_max_steps=None, unroll_explicit=True):
        _bind(self, ext.schedule_rule_parallelize_vectorize_unroll(
            int(max_jobs_per_core), int(max_vectorize_extent),
            _ints(unroll_max_steps) or [], bool(unroll_explicit)))


@_named_native("RandomComputeLocation")
class RandomComputeLocation(ScheduleRule):
    """TVM's RandomComputeLocation: computes a block at a sampled
    location."""

    def __init__(self):
        _bind(self, ext.schedule_rule_random_compute_location())
