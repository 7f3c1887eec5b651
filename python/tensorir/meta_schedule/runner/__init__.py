"""tvm.meta_schedule.runner: measuring built candidates."""
from .config import EvaluatorConfig
from .local_runner import LocalRunner, LocalRunnerFuture
from .runner import (PyRunner, PyRunnerFuture, Runner, RunnerFuture, RunnerInput,
                     RunnerResult)

__all__ = ["EvaluatorConfig", "LocalRunner", "LocalRunnerFuture", "PyRunner", "PyRunnerFuture", "Runner", "RunnerFuture", "RunnerInput",
           "RunnerResult"]
