"""MeasureCallback: what follows each measured batch (the MetaSchedule
library's callbacks), and PyMeasureCallback, one written in Python."""
from ..._ext import ext
from ..utils import _bind, _get_default_str, _object_of, _wraps_native

__all__ = ["AddToDatabase", "MeasureCallback", "PyMeasureCallback", "RemoveBuildArtifact",
           "UpdateCostModel"]


@_wraps_native(ext.MeasureCallback)
class MeasureCallback:
    """TVM's MeasureCallback: apply(task_scheduler, task_id,
    measure_candidates, builder_results, runner_results)."""

    def apply(self, task_scheduler, task_id, measure_candidates, builder_results,
              runner_results):
        self._native.apply(task_scheduler._native, int(task_id),
                           [c._native for c in measure_candidates],
                           [r._native for r in builder_results],
                           [r._native for r in runner_results])

    def __str__(self):
        return str(self._native)

    @staticmethod
    def create(kind="default"):
        """TVM's MeasureCallback.create("default"): AddToDatabase,
        RemoveBuildArtifact, UpdateCostModel."""
        if kind == "default":
            return [AddToDatabase(), RemoveBuildArtifact(), UpdateCostModel()]
        raise ValueError(f"Unknown kind of MeasureCallback list: {kind}")


@_wraps_native(ext.AddToDatabase)
class AddToDatabase(MeasureCallback):
    """Records every candidate of the batch in the task scheduler's
    database (one that failed with the stand-in time 1e10)."""

    def __init__(self):
        _bind(self, ext.AddToDatabase())


@_wraps_native(ext.UpdateCostModel)
class UpdateCostModel(MeasureCallback):
    """Trains the task scheduler's cost model on the candidates that ran."""

    def __init__(self):
        _bind(self, ext.UpdateCostModel())


@_wraps_native(ext.RemoveBuildArtifact)
class RemoveBuildArtifact(MeasureCallback):
    """Deletes the built artifacts (and their folders once empty)."""

    def __init__(self):
        _bind(self, ext.RemoveBuildArtifact())


@_wraps_native(ext.FunctionMeasureCallback)
class _PyMeasureCallback(MeasureCallback):
    def __init__(self, f_apply=None, f_as_string=None):
        def apply(native_scheduler, task_id, candidates, built, ran):
            f_apply(_object_of(native_scheduler), task_id,
                    [_object_of(c) for c in candidates], [_object_of(r) for r in built],
                    [_object_of(r) for r in ran])

        _bind(self, ext.FunctionMeasureCallback(None if f_apply is None else apply,
                                                f_as_string))


class PyMeasureCallback:
    """TVM's PyMeasureCallback: subclass it and decorate with
    derived_object."""

    _tvm_metadata = {"cls": _PyMeasureCallback, "methods": ["apply", "__str__"]}

    def apply(self, task_scheduler, task_id, measure_candidates, builder_results,
              runner_results):
        raise NotImplementedError

    def __str__(self):
        return _get_default_str(self)
