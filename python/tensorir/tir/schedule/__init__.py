"""tvm.tir.schedule: the schedule, its trace and the testing helpers."""
from .schedule import BlockRV, ExprRV, LoopRV, Schedule, ScheduleError
from .state import (BlockScope, CachedFlags, DepKind, Dependency, ScheduleDebugMask,
                    ScheduleState, StmtSRef)
from .trace import Instruction, InstructionKind, Trace

__all__ = ["BlockRV", "BlockScope", "CachedFlags", "DepKind", "Dependency", "ExprRV",
           "Instruction", "InstructionKind", "LoopRV", "Schedule", "ScheduleDebugMask",
           "ScheduleError", "ScheduleState", "StmtSRef", "Trace"]
