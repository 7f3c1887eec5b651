"""ReplayFunc: the space generator asked again for each candidate."""
from ..._ext import ext
from ..utils import _bind, _wraps_native
from .search_strategy import SearchStrategy

__all__ = ["ReplayFunc"]


@_wraps_native(ext.ReplayFunc)
class ReplayFunc(SearchStrategy):
    """TVM's ReplayFunc()."""

    def __init__(self):
        _bind(self, ext.ReplayFunc())
