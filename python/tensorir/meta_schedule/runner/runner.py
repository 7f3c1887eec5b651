"""Runner: built candidates measured (the MetaSchedule library's runners),
and PyRunner / PyRunnerFuture, written in Python."""
from ..._ext import ext
from ..arg_info import TensorInfo
from ..utils import _bind, _object_of, _wraps_native

__all__ = ["PyRunner", "PyRunnerFuture", "Runner", "RunnerFuture", "RunnerInput",
           "RunnerResult"]


@_wraps_native(ext.RunnerInput)
class RunnerInput:
    """TVM's RunnerInput(artifact_path, device_type, args_info), and the
    reference to check the results against."""

    def __init__(self, artifact_path, device_type, args_info, reference_path=None):
        _bind(self, ext.RunnerInput(str(artifact_path), str(device_type),
                                    [info._native for info in args_info], reference_path))

    @property
    def reference_path(self):
        """The unscheduled program, built, that the candidate's results are
        checked against (None: not checked)."""
        return self._native.reference_path

    @property
    def artifact_path(self):
        return self._native.artifact_path

    @property
    def device_type(self):
        return self._native.device_type

    @property
    def args_info(self):
        return [TensorInfo._wrap(i) for i in self._native.args_info]


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


@_wraps_native(ext.RunnerFuture)
class RunnerFuture:
    """TVM's RunnerFuture: done() without waiting, result() waiting."""

    def done(self):
        return self._native.done()

    def result(self):
        return _object_of(self._native.result())


@_wraps_native(ext.FunctionRunnerFuture)
class _PyRunnerFuture(RunnerFuture):
    def __init__(self, f_done=None, f_result=None):
        _bind(self, ext.FunctionRunnerFuture(
            f_done, None if f_result is None else (lambda: f_result()._native)))


class PyRunnerFuture:
    """TVM's PyRunnerFuture: subclass it and decorate with derived_object."""

    _tvm_metadata = {"cls": _PyRunnerFuture, "methods": ["done", "result"]}

    def done(self):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError


@_wraps_native(ext.Runner)
class Runner:
    """TVM's Runner: run(inputs) gives one RunnerFuture per input."""

    def run(self, runner_inputs):
        return [_object_of(f) for f in self._native.run([i._native for i in runner_inputs])]

    @staticmethod
    def create(kind="local", *args, **kwargs):
        """TVM's Runner.create: "local", or "ray" (RayRunner)."""
        if kind == "local":
            from .local_runner import LocalRunner
            return LocalRunner(*args, **kwargs)
        if kind == "ray":
            from .ray_runner import RayRunner
            return RayRunner(*args, **kwargs)
        raise ValueError(f"Unknown Runner: {kind}")


@_wraps_native(ext.FunctionRunner)
class _PyRunner(Runner):
    def __init__(self, f_run=None):
        def run(natives):
            futures = f_run([_object_of(n) for n in natives])
            return [f._native for f in futures]

        _bind(self, ext.FunctionRunner(None if f_run is None else run))


class PyRunner:
    """TVM's PyRunner: subclass it and decorate with derived_object."""

    _tvm_metadata = {"cls": _PyRunner, "methods": ["run"]}

    def run(self, runner_inputs):
        raise NotImplementedError
