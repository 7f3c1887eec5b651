"""tvm.meta_schedule.feature_extractor: what a cost model sees of a
candidate."""
from .feature_extractor import FeatureExtractor, PyFeatureExtractor
from .per_store_feature import PerStoreFeature
from .random_feature_extractor import RandomFeatureExtractor

__all__ = ["FeatureExtractor", "PerStoreFeature", "PyFeatureExtractor", "RandomFeatureExtractor"]
