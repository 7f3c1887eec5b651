"""CostModel: how the search ranks candidates, and PyCostModel, one
written in Python."""
from ..._ext import ext
from ..utils import _bind, _get_default_str, _object_of, _wraps_native

__all__ = ["CostModel", "PyCostModel"]


@_wraps_native(ext.CostModel)
class CostModel:
    """TVM's CostModel: predict(context, candidates) scores them (higher:
    expected faster); update learns from measured results."""

    def load(self, path):
        self._native.load(str(path))

    def save(self, path):
        self._native.save(str(path))

    def update(self, context, candidates, results):
        self._native.update(context._native, [c._native for c in candidates],
                            [r._native for r in results])

    def predict(self, context, candidates):
        import numpy as np
        return np.array(self._native.predict(context._native,
                                             [c._native for c in candidates]),
                        dtype="float64")

    def __str__(self):
        return str(self._native)

    @staticmethod
    def create(kind, *args, **kwargs):
        """TVM's CostModel.create: "random", "xgb", "mlp" or "none"."""
        from .random_model import RandomModel
        if kind == "random":
            return RandomModel(*args, **kwargs)
        if kind == "none":
            return None
        if kind == "xgb":
            from .xgb_model import XGBModel
            return XGBModel(*args, **kwargs)
        if kind == "mlp":
            raise NotImplementedError("the 'mlp' cost model is not available yet")
        raise ValueError(f"Unknown CostModel: {kind}")


@_wraps_native(ext.FunctionCostModel)
class _PyCostModel(CostModel):
    def __init__(self, f_load=None, f_save=None, f_update=None, f_predict=None,
                 f_as_string=None):
        def update(native_context, candidates, results):
            f_update(_object_of(native_context), [_object_of(c) for c in candidates],
                     [_object_of(r) for r in results])

        def predict(native_context, candidates):
            scores = f_predict(_object_of(native_context), [_object_of(c) for c in candidates])
            return [float(s) for s in scores]

        _bind(self, ext.FunctionCostModel(
            f_load, f_save, None if f_update is None else update,
            None if f_predict is None else predict, f_as_string))


class PyCostModel:
    """TVM's PyCostModel: subclass it and decorate with derived_object."""

    _tvm_metadata = {
        "cls": _PyCostModel,
        "methods": ["load", "save", "update", "predict", "__str__"],
    }

    def load(self, path):
        raise NotImplementedError

    def save(self, path):
        raise NotImplementedError

    def update(self, context, candidates, results):
        raise NotImplementedError

    def predict(self, context, candidates):
        raise NotImplementedError

    def __str__(self):
        return _get_default_str(self)
