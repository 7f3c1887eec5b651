"""tvm.error: TVM's error classes (TVMError, raised by the C++ libraries,
and ScheduleError below it)."""
from ._ext import ext

TVMError = ext.TVMError
InternalError = TVMError

__all__ = ["InternalError", "TVMError"]
