"""TuneContext: one task of tuning (the MetaSchedule library's
TuneContext)."""
from .._ext import ext
from ..ir import IRModule
from ..target import Target
from .logging import get_logger
from .search_strategy import SearchStrategy
from .space_generator import SpaceGenerator
from .utils import _bind, _object_of, _wraps_native, cpu_count

__all__ = ["TuneContext"]


def _normalize_mod(mod):
    from ..tir.function import PrimFunc
    if mod is None or isinstance(mod, IRModule):
        return mod
    if isinstance(mod, PrimFunc):
        return IRModule({"main": mod})
    raise TypeError(f"TuneContext takes an IRModule or a PrimFunc, got {type(mod).__name__}")


@_wraps_native(ext.TuneContext)
class TuneContext:
    """TVM's TuneContext: the module, target and space generator of one
    task, its name, its threads ("physical" or "logical" cores, or a count)
    and its random state (-1: a random seed). Building it hands it to the
    space generator, which takes the target's default rules,
    postprocessors and mutators where none were given."""

    def __init__(self, mod=None, *, target=None, space_generator=None, search_strategy=None,
                 task_name="main", rand_state=-1, num_threads="physical", logger=None):
        mod = _normalize_mod(mod)
        if target is not None and not isinstance(target, Target):
            target = Target(target)
        if space_generator is not None and not isinstance(space_generator, SpaceGenerator):
            space_generator = SpaceGenerator.create(space_generator)
        if search_strategy is not None and not isinstance(search_strategy, SearchStrategy):
            search_strategy = SearchStrategy.create(search_strategy)
        if isinstance(num_threads, str):
            if num_threads not in ("physical", "logical"):
                raise ValueError(f"num_threads is an int, \"physical\" or \"logical\", got "
                                 f"{num_threads!r}")
            num_threads = cpu_count(logical=num_threads == "logical")
        if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 1:
            raise ValueError(f"num_threads is a positive int, got {num_threads!r}")
        if not isinstance(task_name, str):
            raise TypeError(f"task_name is a str, got {type(task_name).__name__}")
        if logger is None:
            logger = get_logger(__name__)
        native = ext.TuneContext()
        native.mod = None if mod is None else mod._native
        native.target = None if target is None else target.export()
        native.space_generator = None if space_generator is None else space_generator._native
        native.search_strategy = None if search_strategy is None else search_strategy._native
        native.task_name = task_name
        native.num_threads = num_threads
        native.rand_state = rand_state
        native.logger = lambda level, message: logger.log(level, message)
        _bind(self, native)
        self._mod = mod
        self._target = target
        self._space_generator = space_generator
        self._search_strategy = search_strategy
        self.logger = logger
        native.initialize()

    @property
    def mod(self):
        if getattr(self, "_mod", None) is None and self._native.mod is not None:
            self._mod = IRModule(self._native.mod)
        return getattr(self, "_mod", None)

    @property
    def target(self):
        if getattr(self, "_target", None) is None and self._native.target is not None:
            self._target = Target(self._native.target)
        return getattr(self, "_target", None)

    @property
    def space_generator(self):
        return _object_of(self._native.space_generator)

    @property
    def search_strategy(self):
        return _object_of(self._native.search_strategy)

    @property
    def task_name(self):
        return self._native.task_name

    @property
    def num_threads(self):
        return self._native.num_threads

    @property
    def rand_state(self):
        return self._native.rand_state

    def generate_design_space(self):
        """The design space of the module (TVM's generate_design_space)."""
        from ..tir.schedule import Schedule
        return [Schedule._from_native(n) for n in self._native.generate_design_space()]

    def pre_tuning(self, max_trials, num_trials_per_iter=64, design_spaces=None,
                   database=None, cost_model=None):
        """The search strategy's pre_tuning, over the context's design
        space unless design_spaces are given."""
        if design_spaces is None:
            design_spaces = self.generate_design_space()
        self._strategy().pre_tuning(max_trials, num_trials_per_iter, design_spaces,
                                    database, cost_model)

    def post_tuning(self):
        self._strategy().post_tuning()

    def generate_measure_candidates(self):
        return self._strategy().generate_measure_candidates()

    def notify_runner_results(self, measure_candidates, results):
        self._strategy().notify_runner_results(measure_candidates, results)

    def _strategy(self):
        strategy = self.search_strategy
        if strategy is None:
            raise ValueError("the tune context has no search strategy")
        return strategy

    def clone(self):
        """TVM's TuneContext.clone: a context with clones of the
        components, its random state forked from this one's."""
        clone = _object_of(self._native.clone())
        clone.logger = self.logger
        return clone
