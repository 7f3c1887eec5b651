"""tensorir.tir: the schedule."""
from .schedule import Schedule, ScheduleError, BlockRV, LoopRV

__all__ = ["Schedule", "ScheduleError", "BlockRV", "LoopRV"]
