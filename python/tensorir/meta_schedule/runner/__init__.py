"""tvm.meta_schedule.runner: measuring built candidates."""
from .runner import (PyRunner, PyRunnerFuture, Runner, RunnerFuture, RunnerInput,
                     RunnerResult)

__all__ = ["PyRunner", "PyRunnerFuture", "Runner", "RunnerFuture", "RunnerInput",
           "RunnerResult"]
