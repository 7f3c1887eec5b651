"""RunnerResult: what measuring a candidate gave."""
from ..._ext import ext
from ..utils import _bind, _wraps_native

__all__ = ["RunnerResult"]


@_wraps_native(ext.RunnerResult)
class RunnerResult:
    """TVM's RunnerResult(run_secs, error_msg): the run times in seconds,
    or why there are none."""

    def __init__(self, run_secs=None, error_msg=None):
        secs = None if run_secs is None else [float(getattr(t, "value", t)) for t in run_secs]
        _bind(self, ext.RunnerResult(secs, error_msg))

    @property
    def run_secs(self):
        from ..database.database import _float_imm
        secs = self._native.run_secs
        return None if secs is None else [_float_imm(t) for t in secs]

    @property
    def error_msg(self):
        return self._native.error_msg
