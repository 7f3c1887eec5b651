"""XGBModel: TVM's XGBoost cost model, the MetaSchedule library's (C++
over XGBoost's C API), with TVM's settings."""
from typing import NamedTuple, Optional

from ..._ext import ext
from ..utils import _bind, _named_native
from .cost_model import CostModel

__all__ = ["XGBConfig", "XGBModel"]


class XGBConfig(NamedTuple):
    """TVM's XGBConfig: XGBoost's hyper-parameters (nthread None: one
    thread per physical core)."""

    max_depth: int = 10
    gamma: float = 0.001
    min_child_weight: float = 0
    eta: float = 0.2
    seed: int = 43
    nthread: Optional[int] = None
    tree_method: str = "auto"


@_named_native("XGBModel")
class XGBModel(CostModel):
    """TVM's XGBModel: candidates' features (one row per store) scored by
    XGBoost, a candidate's score the sum of its rows' (pack-sum), trained on
    throughput relative to each workload's best; random scores until
    `num_warmup_samples` candidates are measured; retrained when the data
    grew by a fifth (`adaptive_training`)."""

    def __init__(self, *, extractor="per-store-feature", config=XGBConfig(),
                 num_warmup_samples=100, early_stopping_rounds=50, verbose_eval=25,
                 average_peak_n=32, adaptive_training=True, num_tuning_cores=None,
                 tree_method=None):
        from ..feature_extractor import FeatureExtractor
        if isinstance(extractor, str):
            extractor = FeatureExtractor.create(extractor)
        if not isinstance(extractor, FeatureExtractor):
            raise TypeError(f"XGBModel: extractor is a FeatureExtractor or its name, got "
                            f"{type(extractor).__name__}")
        nthread = config.nthread if config.nthread is not None else num_tuning_cores
        self.extractor = extractor
        self.config = config
        _bind(self, ext.cost_model_xgb(
            extractor._native, int(config.max_depth), float(config.gamma),
            float(config.min_child_weight), float(config.eta), int(config.seed),
            int(nthread or 0), int(num_warmup_samples), int(early_stopping_rounds),
            bool(adaptive_training)))
