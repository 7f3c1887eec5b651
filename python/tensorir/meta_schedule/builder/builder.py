"""BuilderResult: what building a candidate gave."""
from ..._ext import ext
from ..utils import _bind, _wraps_native

__all__ = ["BuilderResult"]


@_wraps_native(ext.BuilderResult)
class BuilderResult:
    """TVM's BuilderResult(artifact_path, error_msg)."""

    def __init__(self, artifact_path, error_msg):
        _bind(self, ext.BuilderResult(artifact_path, error_msg))

    @property
    def artifact_path(self):
        return self._native.artifact_path

    @property
    def error_msg(self):
        return self._native.error_msg
