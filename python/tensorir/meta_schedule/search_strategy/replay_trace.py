"""ReplayTrace: design-space traces replayed with fresh decisions."""
from ..._ext import ext
from ..utils import _bind, _wraps_native
from .search_strategy import SearchStrategy

__all__ = ["ReplayTrace"]


@_wraps_native(ext.ReplayTrace)
class ReplayTrace(SearchStrategy):
    """TVM's ReplayTrace(max_fail_count=100)."""

    def __init__(self, max_fail_count=100):
        _bind(self, ext.ReplayTrace(int(max_fail_count)))
