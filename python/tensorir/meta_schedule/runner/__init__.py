"""tvm.meta_schedule.runner: measuring built candidates."""
from .config import EvaluatorConfig
from .local_runner import LocalRunner, LocalRunnerFuture
from .ray_runner import RayRunner, RayRunnerFuture
from .rpc_runner import RPCConfig, RPCRunner
from .runner import (PyRunner, PyRunnerFuture, Runner, RunnerFuture, RunnerInput,
                     RunnerResult)

__all__ = ["EvaluatorConfig", "LocalRunner", "LocalRunnerFuture", "PyRunner", "PyRunnerFuture",
           "RPCConfig", "RPCRunner", "RayRunner", "RayRunnerFuture", "Runner", "RunnerFuture",
           "RunnerInput", "RunnerResult"]
