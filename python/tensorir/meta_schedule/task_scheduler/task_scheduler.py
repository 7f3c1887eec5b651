"""TaskScheduler: trials shared among tasks (the MetaSchedule library's
schedulers), and PyTaskScheduler, one written in Python."""
from ..._ext import ext
from ..logging import get_logger
from ..utils import _bind, _object_of, _wraps_native

__all__ = ["GradientBased", "PyTaskScheduler", "RoundRobin", "TaskRecord", "TaskScheduler"]


@_wraps_native(ext.TaskRecord)
class TaskRecord:
    """TVM's TaskRecord: a task and where its tuning stands."""

    @property
    def ctx(self):
        return _object_of(self._native.ctx)

    def __getattr__(self, name):
        if name in ("task_weight", "flop", "is_terminated", "build_error_count",
                    "run_error_count", "latency_ms"):
            return getattr(self._native, name)
        if name == "measure_candidates":
            natives = self._native.measure_candidates
            return None if natives is None else [_object_of(n) for n in natives]
        if name == "builder_results":
            natives = self._native.builder_results
            return None if natives is None else [_object_of(n) for n in natives]
        if name == "runner_futures":
            natives = self._native.runner_futures
            return None if natives is None else [_object_of(n) for n in natives]
        raise AttributeError(name)


def _set_logger(native, logger):
    logger = logger if logger is not None else get_logger(__name__)
    native.logger = lambda level, message: logger.log(level, message)
    return logger


def _native_or_none(obj):
    return None if obj is None else obj._native


@_wraps_native(ext.TaskScheduler)
class TaskScheduler:
    """TVM's TaskScheduler: tune(tasks, task_weights, max_trials_global,
    max_trials_per_task, num_trials_per_iter, builder, runner,
    measure_callbacks, database, cost_model)."""

    @property
    def check_results(self):
        """Whether candidates are checked against each task's unscheduled
        program (beyond TVM; on by default)."""
        return self._native.check_results

    @check_results.setter
    def check_results(self, value):
        self._native.check_results = bool(value)

    @property
    def tasks_(self):
        return [_object_of(t) for t in self._native.tasks]

    def tune(self, tasks, task_weights, max_trials_global, max_trials_per_task,
             num_trials_per_iter, builder, runner, measure_callbacks, database, cost_model):
        self._native.tune([t._native for t in tasks], [float(w) for w in task_weights],
                          int(max_trials_global), int(max_trials_per_task),
                          int(num_trials_per_iter), builder._native, runner._native,
                          [c._native for c in measure_callbacks], _native_or_none(database),
                          _native_or_none(cost_model))

    def next_task_id(self):
        return self._native.next_task_id()

    def join_running_task(self, task_id):
        return [_object_of(r) for r in self._native.join_running_task(int(task_id))]

    def touch_task(self, task_id):
        self._native.touch_task(int(task_id))

    def terminate_task(self, task_id):
        self._native.terminate_task(int(task_id))

    def print_tuning_statistics(self):
        self._native.print_tuning_statistics()

    def tuning_statistics(self):
        """The statistics table as text."""
        return self._native.tuning_statistics()

    @staticmethod
    def create(kind="gradient", *args, **kwargs):
        """TVM's TaskScheduler.create: "round-robin" or "gradient"."""
        if kind == "round-robin":
            return RoundRobin(*args, **kwargs)
        if kind == "gradient":
            return GradientBased(*args, **kwargs)
        raise ValueError(f"Unknown TaskScheduler name: {kind}")


@_wraps_native(ext.RoundRobin)
class RoundRobin(TaskScheduler):
    """TVM's RoundRobin: the tasks in turn."""

    def __init__(self, logger=None):
        native = ext.RoundRobin()
        self.logger = _set_logger(native, logger)
        _bind(self, native)


@_wraps_native(ext.GradientBased)
class GradientBased(TaskScheduler):
    """TVM's GradientBased(alpha=0.2, window_size=3, seed=-1)."""

    def __init__(self, *, alpha=0.2, window_size=3, seed=-1, logger=None):
        native = ext.GradientBased(float(alpha), int(window_size), int(seed))
        self.logger = _set_logger(native, logger)
        _bind(self, native)


@_wraps_native(ext.FunctionTaskScheduler)
class _PyTaskScheduler(TaskScheduler):
    def __init__(self, f_tune=None, f_next_task_id=None, f_join_running_task=None):
        def tune(tasks, weights, global_trials, per_task, per_iter, builder, runner,
                 callbacks, database, cost_model):
            f_tune([_object_of(t) for t in tasks], weights, global_trials, per_task, per_iter,
                   _object_of(builder), _object_of(runner),
                   [_object_of(c) for c in callbacks], _object_of(database),
                   _object_of(cost_model))

        def join(task_id):
            return [r._native for r in f_join_running_task(task_id)]

        native = ext.FunctionTaskScheduler(None if f_tune is None else tune, f_next_task_id,
                                           None if f_join_running_task is None else join)
        self.logger = _set_logger(native, None)
        _bind(self, native)
        object.__setattr__(self, "_has_next_task_id", f_next_task_id is not None)

    def next_task_id(self):
        if not self._has_next_task_id:
            raise ValueError("next_task_id is not defined")
        return self._native.next_task_id()


class PyTaskScheduler:
    """TVM's PyTaskScheduler: subclass it, override next_task_id (and
    tune / join_running_task if need be), decorate with derived_object."""

    _tvm_metadata = {"cls": _PyTaskScheduler,
                     "methods": ["tune", "next_task_id", "join_running_task"]}

    def tune(self, tasks, task_weights, max_trials_global, max_trials_per_task,
             num_trials_per_iter, builder, runner, measure_callbacks, database, cost_model):
        TaskScheduler.tune(self._outer(), tasks, task_weights, max_trials_global,
                           max_trials_per_task, num_trials_per_iter, builder, runner,
                           measure_callbacks, database, cost_model)

    def next_task_id(self):
        raise NotImplementedError

    def join_running_task(self, task_id):
        outer = self._outer()
        return [_object_of(r) for r in outer._native.join_running_task_default(int(task_id))]
