"""tvm.meta_schedule.task_scheduler: trials shared among tasks."""
from .task_scheduler import (GradientBased, PyTaskScheduler, RoundRobin, TaskRecord,
                             TaskScheduler)

__all__ = ["GradientBased", "PyTaskScheduler", "RoundRobin", "TaskRecord", "TaskScheduler"]
