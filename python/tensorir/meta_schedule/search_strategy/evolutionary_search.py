"""EvolutionarySearch: TVM's genetic search, ranked by a cost model."""
from ..._ext import ext
from ..utils import _bind, _wraps_native
from .search_strategy import SearchStrategy

__all__ = ["EvolutionarySearch"]


@_wraps_native(ext.EvolutionarySearch)
class EvolutionarySearch(SearchStrategy):
    """TVM's EvolutionarySearch, with TVM's defaults: a population of 512,
    a fifth of it from the database's best records, 4 rounds of mutation
    with probability 0.85, 5% of each batch fresh samples. Beyond TVM,
    measure_unscheduled=True has the first batch measure the program as it
    is too, so that tuning never returns a program slower than no tuning
    (off by default: TVM's batches)."""

    def __init__(self, *, population_size=512, init_measured_ratio=0.2,
                 init_min_unmeasured=50, max_fail_count=5, genetic_num_iters=4,
                 genetic_mutate_prob=0.85, genetic_max_fail_count=10, eps_greedy=0.05,
                 measure_unscheduled=False):
        _bind(self, ext.EvolutionarySearch(
            int(population_size), float(init_measured_ratio), int(init_min_unmeasured),
            int(max_fail_count), int(genetic_num_iters), float(genetic_mutate_prob),
            int(genetic_max_fail_count), float(eps_greedy), bool(measure_unscheduled)))

    def __getattr__(self, name):
        if name in ("population_size", "init_measured_ratio", "init_min_unmeasured",
                    "max_fail_count", "genetic_num_iters", "genetic_mutate_prob",
                    "genetic_max_fail_count", "eps_greedy", "measure_unscheduled"):
            return getattr(self._native, name)
        raise AttributeError(name)
