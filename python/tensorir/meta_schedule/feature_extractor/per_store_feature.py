"""PerStoreFeature: TVM's per-store features (164 per store with the
defaults), computed by the MetaSchedule library."""
from ..._ext import ext
from ..utils import _bind, _named_native
from .feature_extractor import FeatureExtractor

__all__ = ["PerStoreFeature"]


@_named_native("PerStoreFeature")
class PerStoreFeature(FeatureExtractor):
    """TVM's PerStoreFeature: one row per store of a candidate's program:
    its arithmetic, its loops' kinds, the buffers it accesses (up to
    `buffers_per_store`), the arithmetic intensity curve, allocations and
    the outer scope; with `extract_workload`, the workload's embedding."""

    def __init__(self, buffers_per_store=5, arith_intensity_curve_num_samples=10,
                 cache_line_bytes=64, extract_workload=False):
        _bind(self, ext.feature_extractor_per_store_feature(
            int(buffers_per_store), int(arith_intensity_curve_num_samples),
            int(cache_line_bytes), bool(extract_workload)))
