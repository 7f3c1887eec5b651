"""FeatureExtractor: what a cost model sees of each candidate (the
MetaSchedule library's extractors), and PyFeatureExtractor, one written in
Python."""
from ..._ext import ext
from ..utils import _bind, _get_default_str, _object_of, _wraps_native

__all__ = ["FeatureExtractor", "PyFeatureExtractor"]


def _to_tensor(matrix):
    import numpy as np

    from ... import runtime
    rows, cols, data = matrix
    return runtime.tensor(np.asarray(data, dtype="float64").reshape(rows, cols))


def _from_features(features):
    """(rows, cols, data) of each feature matrix (a tvm.runtime.tensor or a
    numpy array of rank 2)."""
    import numpy as np
    out = []
    for feature in features:
        array = np.asarray(feature.numpy() if hasattr(feature, "numpy") else feature,
                           dtype="float64")
        if array.ndim != 2:
            raise ValueError(f"a feature extractor gives matrices (rank 2), got rank "
                             f"{array.ndim}")
        out.append((array.shape[0], array.shape[1], array.reshape(-1).tolist()))
    return out


@_wraps_native(ext.FeatureExtractor)
class FeatureExtractor:
    """TVM's FeatureExtractor: extract_from(context, candidates) gives one
    feature matrix (a tvm.runtime.tensor) per candidate."""

    def extract_from(self, context, candidates):
        natives = self._native.extract_from(context._native, [c._native for c in candidates])
        return [_to_tensor(m) for m in natives]

    def __str__(self):
        return str(self._native)

    @staticmethod
    def create(kind, *args, **kwargs):
        """TVM's FeatureExtractor.create: "per-store-feature"."""
        if kind == "per-store-feature":
            from .per_store_feature import PerStoreFeature
            return PerStoreFeature(*args, **kwargs)
        raise ValueError(f"Unknown FeatureExtractor: {kind}")


@_wraps_native(ext.FunctionFeatureExtractor)
class _PyFeatureExtractor(FeatureExtractor):
    def __init__(self, f_extract_from=None, f_as_string=None):
        def extract(native_context, candidates):
            return _from_features(f_extract_from(_object_of(native_context),
                                                 [_object_of(c) for c in candidates]))

        _bind(self, ext.FunctionFeatureExtractor(
            None if f_extract_from is None else extract, f_as_string))


class PyFeatureExtractor:
    """TVM's PyFeatureExtractor: subclass it and decorate with
    derived_object."""

    _tvm_metadata = {"cls": _PyFeatureExtractor, "methods": ["extract_from", "__str__"]}

    def extract_from(self, context, candidates):
        raise NotImplementedError

    def __str__(self):
        return _get_default_str(self)
