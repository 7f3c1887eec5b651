"""tvm.meta_schedule.search_strategy: how the search picks what to
measure. So far: MeasureCandidate."""
from .search_strategy import MeasureCandidate

__all__ = ["MeasureCandidate"]
