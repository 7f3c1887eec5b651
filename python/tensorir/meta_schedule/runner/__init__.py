"""tvm.meta_schedule.runner: measuring built candidates."""
from .runner import RunnerResult

__all__ = ["RunnerResult"]
