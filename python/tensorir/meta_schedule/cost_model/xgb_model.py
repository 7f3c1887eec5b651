"""XGBModel: TVM's XGBoost cost model, the MetaSchedule library's (C++
over XGBoost's C API), with TVM's settings."""
from typing import NamedTuple, Optional

import numpy as np

from ..._ext import ext
from ..utils import _bind, _named_native
from .cost_model import CostModel

__all__ = ["FeatureGroup", "PackSum", "XGBConfig", "XGBModel"]


class PackSum:
    """TVM's PackSum: the rows of several candidates (one per store each)
    stacked into one matrix, a candidate's score the sum of its rows'
    predictions. `ys` (one label per candidate, or None) is repeated over
    each candidate's rows, as labels and as weights. The numerics need only
    NumPy; `dmatrix` needs the xgboost package."""

    def __init__(self, xs, ys):
        xs = [np.asarray(x) for x in xs]
        if not xs:
            raise ValueError("PackSum: no candidates")
        rows = [x.shape[0] for x in xs]
        self.features = np.concatenate(xs, axis=0)
        self.ids = np.repeat(np.arange(len(xs)), rows)
        self.labels = None if ys is None else np.repeat(np.asarray(ys, dtype="float64"), rows)
        self._dmatrix = None

    @property
    def dmatrix(self):
        """The rows as an xgboost.DMatrix (labels and weights set when
        there are labels)."""
        if self._dmatrix is None:
            import xgboost  # pylint: disable=import-outside-toplevel
            self._dmatrix = xgboost.DMatrix(data=self.features, label=self.labels)
            if self.labels is not None:
                self._dmatrix.set_weight(self.labels)
        return self._dmatrix

    def predict_with_score(self, pred):
        """Each candidate's score: the sum of its rows' predictions."""
        return np.bincount(self.ids, weights=np.asarray(pred, dtype="float64"),
                           minlength=int(self.ids[-1]) + 1)

    def _row_scores(self, ys_pred):
        if self.labels is None:
            raise ValueError("PackSum: the candidates have no labels")
        return self.predict_with_score(ys_pred)[self.ids]

    def obj_square_error(self, ys_pred):
        """The gradient and hessian (per row) of the squared error of the
        candidates' scores, weighted by the labels."""
        diff = self._row_scores(ys_pred) - self.labels
        return diff * self.labels, np.ones_like(diff) * self.labels

    def rmse(self, ys_pred):
        """("p-rmse", root mean squared error of the scores over rows)."""
        diff = self._row_scores(ys_pred) - self.labels
        return "p-rmse", float(np.sqrt(np.mean(np.square(diff))))

    def average_peak_score(self, ys_pred, n):
        """("a-peak@N", mean over the N best-predicted candidates of the
        best label found so far, relative to the best label)."""
        if self.labels is None:
            raise ValueError("PackSum: the candidates have no labels")
        counts = np.bincount(self.ids)
        labels = self.predict_with_score(self.labels) / counts
        chosen = np.argsort(self.predict_with_score(ys_pred))[::-1][:n]
        curve = np.maximum.accumulate(labels[chosen]) / np.max(labels)
        return f"a-peak@{n}", float(np.mean(curve))


def _get_custom_call_back(early_stopping_rounds, verbose_eval, fevals, evals,
                          focused_metric="tr-p-rmse", cvfolds=None):
    """TVM's training callback for xgboost.train: evaluates `fevals` (each
    f(ys_pred, dmatrix) -> (name, value)) on `evals` every round, logs them
    every `verbose_eval` rounds, and stops when `focused_metric` has not
    improved for `early_stopping_rounds` rounds (keeping the best
    iteration). Needs the xgboost package."""
    import xgboost  # pylint: disable=import-outside-toplevel
    from .. import logging as ms_logging  # pylint: disable=import-outside-toplevel
    if cvfolds is not None:
        raise NotImplementedError("_get_custom_call_back: cross-validation folds are not "
                                  "supported")
    logger = ms_logging.get_logger(__name__)

    class _EarlyStopping(xgboost.callback.TrainingCallback):
        def __init__(self):
            super().__init__()
            self.best_score = None
            self.best_iteration = 0

        def after_iteration(self, model, epoch, evals_log):
            scores = {}
            for dmatrix, name in evals:
                pred = model.predict(dmatrix, output_margin=False)
                for feval in fevals:
                    metric, value = feval(pred, dmatrix)
                    scores[f"{name}-{metric}"] = value
            if verbose_eval and epoch % verbose_eval == 0:
                logger.debug("XGB iter %3d: %s", epoch, "\t".join(
                    f"{k}: {v:.6f}" for k, v in sorted(scores.items())))
            score = scores.get(focused_metric)
            if score is None:
                raise ValueError(f"_get_custom_call_back: no metric {focused_metric!r} among "
                                 f"{sorted(scores)}")
            if self.best_score is None or score < self.best_score:
                self.best_score, self.best_iteration = score, epoch
                model.set_attr(best_score=str(score), best_iteration=str(epoch))
                return False
            return epoch - self.best_iteration >= early_stopping_rounds

    return _EarlyStopping()


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

    def to_dict(self):
        """The parameters as xgboost.train takes them."""
        return {"max_depth": self.max_depth, "gamma": self.gamma,
                "min_child_weight": self.min_child_weight, "eta": self.eta,
                "seed": self.seed, "nthread": self.nthread, "tree_method": self.tree_method,
                "disable_default_eval_metric": 1}


class FeatureGroup:
    """TVM's FeatureGroup: what the model holds of one workload: its
    structural hash, the features of each measured candidate (one row per
    store) and their costs (mean run seconds)."""

    def __init__(self, group_hash, features, costs):
        import numpy as np
        self.group_hash = group_hash
        self.features = features
        self.costs = np.array(costs, dtype="float64")
        # The workload's best cost, which its labels are relative to.
        self.min_cost = float(np.min(self.costs)) if self.costs.size else float("inf")


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
        self.num_warmup_samples = int(num_warmup_samples)
        self.early_stopping_rounds = int(early_stopping_rounds)
        self.verbose_eval = int(verbose_eval)
        self.average_peak_n = int(average_peak_n)
        self.adaptive_training = bool(adaptive_training)
        _bind(self, ext.cost_model_xgb(
            extractor._native, int(config.max_depth), float(config.gamma),
            float(config.min_child_weight), float(config.eta), int(config.seed),
            int(nthread or 0), int(num_warmup_samples), int(early_stopping_rounds),
            bool(adaptive_training)))

    @property
    def data(self):
        """{workload hash: FeatureGroup} the model trained on (TVM's
        XGBModel.data), in the hashes' order."""
        import numpy as np
        groups, _ = ext.xgb_model_data(self._native)
        return {group_hash: FeatureGroup(
            group_hash,
            [np.array(values, dtype="float32").reshape(rows, cols)
             for rows, cols, values in features],
            costs) for group_hash, features, costs in groups}

    @property
    def booster(self):
        """The trained model as an xgboost.Booster (TVM's
        XGBModel.booster; a copy: training it further leaves this model
        alone), None before the first training. Needs the xgboost
        package."""
        import json
        import os
        import tempfile

        import xgboost  # pylint: disable=import-outside-toplevel
        with tempfile.TemporaryDirectory(prefix="tir-xgb-") as folder:
            path = os.path.join(folder, "model.json")
            self.save(path)
            with open(path, encoding="utf-8") as f:
                saved = json.load(f).get("booster")
        if saved is None:
            return None
        booster = xgboost.Booster()
        booster.load_model(bytearray(saved.encode("utf-8")))
        return booster

    @property
    def data_size(self):
        """How many measured candidates the model holds."""
        return ext.xgb_model_data(self._native)[1]
