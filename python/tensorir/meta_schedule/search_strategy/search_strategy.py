"""SearchStrategy: what to measure next (the MetaSchedule library's
strategies), MeasureCandidate, and PySearchStrategy, one written in
Python."""
from ..._ext import ext
from ...tir.schedule import Schedule
from ..arg_info import TensorInfo
from ..utils import _bind, _object_of, _wraps_native

__all__ = ["MeasureCandidate", "PySearchStrategy", "SearchStrategy"]


@_wraps_native(ext.MeasureCandidate)
class MeasureCandidate:
    """TVM's MeasureCandidate(sch, args_info): a schedule to build and
    measure, with the arguments to run it on."""

    def __init__(self, sch, args_info):
        if not isinstance(sch, Schedule):
            raise TypeError(f"MeasureCandidate takes a Schedule, got {type(sch).__name__}")
        infos = [info._native for info in (args_info or [])]
        _bind(self, ext.MeasureCandidate(sch._native, infos))

    @property
    def sch(self):
        return Schedule._from_native(self._native.sch)

    @property
    def args_info(self):
        return [TensorInfo._wrap(i) for i in self._native.args_info]


def _natives(objects):
    return [o._native for o in objects]


def _candidates(natives):
    return None if natives is None else [_object_of(n) for n in natives]


@_wraps_native(ext.SearchStrategy)
class SearchStrategy:
    """TVM's SearchStrategy: pre_tuning, then generate_measure_candidates
    and notify_runner_results until the candidates are None, then
    post_tuning. Abstract: ReplayTrace, ReplayFunc and EvolutionarySearch
    are the strategies."""

    def __new__(cls, *args, **kwargs):
        if cls is SearchStrategy:
            raise TypeError("Cannot instantiate abstract class SearchStrategy; use "
                            "ReplayTrace, ReplayFunc, EvolutionarySearch or a "
                            "PySearchStrategy")
        return super().__new__(cls)

    def _initialize_with_tune_context(self, context):
        self._native.initialize_with_tune_context(context._native)

    def pre_tuning(self, max_trials, num_trials_per_iter, design_spaces, database=None,
                   cost_model=None):
        self._native.pre_tuning(
            int(max_trials), int(num_trials_per_iter), _natives(design_spaces),
            None if database is None else database._native,
            None if cost_model is None else cost_model._native)

    def post_tuning(self):
        self._native.post_tuning()

    def generate_measure_candidates(self):
        return _candidates(self._native.generate_measure_candidates())

    def notify_runner_results(self, measure_candidates, results):
        self._native.notify_runner_results(_natives(measure_candidates), _natives(results))

    def clone(self):
        return _object_of(self._native.clone())

    @staticmethod
    def create(kind="evolutionary", *args, **kwargs):
        """TVM's SearchStrategy.create: "evolutionary", "replay-trace",
        "replay-func"."""
        from .evolutionary_search import EvolutionarySearch
        from .replay_func import ReplayFunc
        from .replay_trace import ReplayTrace
        if kind == "evolutionary":
            return EvolutionarySearch(*args, **kwargs)
        if kind == "replay-trace":
            return ReplayTrace(*args, **kwargs)
        if kind == "replay-func":
            return ReplayFunc(*args, **kwargs)
        raise ValueError(f"Unknown SearchStrategy: {kind}")


@_wraps_native(ext.FunctionSearchStrategy)
class _PySearchStrategy(SearchStrategy):
    def __init__(self, f_initialize_with_tune_context=None, f_pre_tuning=None,
                 f_post_tuning=None, f_generate_measure_candidates=None,
                 f_notify_runner_results=None, f_clone=None):
        def init(native):
            f_initialize_with_tune_context(_object_of(native))

        def pre(max_trials, per_iter, spaces, database, cost_model):
            f_pre_tuning(max_trials, per_iter, [Schedule._from_native(s) for s in spaces],
                         _object_of(database), _object_of(cost_model))

        def generate():
            batch = f_generate_measure_candidates()
            return None if batch is None else _natives(batch)

        def notify(candidates, results):
            f_notify_runner_results([_object_of(c) for c in candidates],
                                    [_object_of(r) for r in results])

        _bind(self, ext.FunctionSearchStrategy(
            None if f_initialize_with_tune_context is None else init,
            None if f_pre_tuning is None else pre,
            f_post_tuning,
            None if f_generate_measure_candidates is None else generate,
            None if f_notify_runner_results is None else notify,
            None if f_clone is None else (lambda: f_clone()._native)))


class PySearchStrategy:
    """TVM's PySearchStrategy: subclass it and decorate with
    derived_object."""

    _tvm_metadata = {
        "cls": _PySearchStrategy,
        "methods": ["_initialize_with_tune_context", "pre_tuning", "post_tuning",
                    "generate_measure_candidates", "notify_runner_results", "clone"],
    }

    def _initialize_with_tune_context(self, context):
        raise NotImplementedError

    def pre_tuning(self, max_trials, num_trials_per_iter, design_spaces, database=None,
                   cost_model=None):
        raise NotImplementedError

    def post_tuning(self):
        raise NotImplementedError

    def generate_measure_candidates(self):
        raise NotImplementedError

    def notify_runner_results(self, measure_candidates, results):
        raise NotImplementedError

    def clone(self):
        raise NotImplementedError
