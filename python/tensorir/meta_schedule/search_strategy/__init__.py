"""tvm.meta_schedule.search_strategy: what to measure next."""
from .evolutionary_search import EvolutionarySearch
from .replay_func import ReplayFunc
from .replay_trace import ReplayTrace
from .search_strategy import MeasureCandidate, PySearchStrategy, SearchStrategy

__all__ = ["EvolutionarySearch", "MeasureCandidate", "PySearchStrategy", "ReplayFunc",
           "ReplayTrace", "SearchStrategy"]
