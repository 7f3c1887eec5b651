"""The errors a schedule raises: ScheduleError (the extension's, a
TVMError) and the two that are also Python's errors where TVM's are."""
from ..._ext import ext

ScheduleError = ext.ScheduleError


class UnknownRandomVariableError(ScheduleError, IndexError):
    """A random variable the schedule does not know (made by another
    schedule, or removed with remove_rv): TVM raises IndexError."""


class BufferArgumentError(ScheduleError, AssertionError):
    """A buffer argument that names no buffer of the block (a position out
    of range, a name or buffer it does not access): TVM's Python asserts
    on these."""
