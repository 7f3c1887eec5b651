"""tvm.tir.schedule: the schedule, its trace and the testing helpers."""
from .schedule import BlockRV, ExprRV, LoopRV, Schedule, ScheduleError
from .state import ScheduleDebugMask
from .trace import Instruction, InstructionKind, Trace

__all__ = ["BlockRV", "ExprRV", "Instruction", "InstructionKind", "LoopRV", "Schedule",
           "ScheduleError", "ScheduleDebugMask", "Trace"]
