"""tensorir.tir: functions, expressions and the schedule."""
from . import expr, schedule
from .expr import Cast, FloatImm, IntImm, PrimExpr, Var, const
from .buffer import Buffer, BufferLoad, BufferRegion, decl_buffer
from .function import PrimFunc, TensorIntrin
from .index_map import IndexMap
from .schedule import BlockRV, LoopRV, Schedule, ScheduleError

__all__ = ["BlockRV", "Cast", "Buffer", "BufferLoad", "BufferRegion", "decl_buffer", "FloatImm", "IndexMap", "IntImm", "LoopRV", "PrimExpr", "PrimFunc", "Schedule",
           "ScheduleError", "TensorIntrin", "Var", "const", "expr", "schedule"]
