"""tvm.meta_schedule.Profiler: where tuning time goes. While a profiler is
entered (`with ms.Profiler() as p:`), scopes timed with
`ms.Profiler.timeit(name)` add their seconds to it, and "Total" the whole
time it was entered; `p.get()` gives seconds per name, `p.table()` a
table. The profiler is the MetaSchedule library's
(lib/MetaSchedule/Profiler.cpp), which times tuning's own phases."""
from contextlib import contextmanager

from .._ext import ext

__all__ = ["Profiler"]

# The profilers entered and not yet exited: kept alive while the library
# holds them as current.
_entered = []


class Profiler(ext.Profiler):
    """TVM's meta_schedule.Profiler."""

    def __init__(self):
        super().__init__()

    def __enter__(self):
        self.enter()
        _entered.append(self)
        return self

    def __exit__(self, *exc):
        self.exit()
        _entered.remove(self)
        return False

    @staticmethod
    def current():
        """The current profiler of this thread, or None."""
        return ext.Profiler.current()

    @staticmethod
    @contextmanager
    def timeit(name):
        """Times the block on the current profiler (nothing without one)."""
        scope = ext.ProfilerTimedScope(str(name))
        try:
            yield
        finally:
            scope.stop()
