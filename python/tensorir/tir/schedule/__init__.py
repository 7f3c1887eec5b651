"""tvm.tir.schedule: the schedule, its trace and the testing helpers."""
from .schedule import BlockRV, LoopRV, Schedule, ScheduleError
from .state import ScheduleDebugMask
from .trace import Trace

__all__ = ["BlockRV", "LoopRV", "Schedule", "ScheduleError", "ScheduleDebugMask",
           "Trace"]
