"""ScheduleFnDatabase: a database whose queries schedule with a
function."""
from ...tir.schedule import Schedule
from ..arg_info import ArgInfo
from ..utils import derived_object
from .database import PyDatabase, TuningRecord

__all__ = ["ScheduleFnDatabase"]


def _schedule_fn_database(schedule_fn, module_equality):
    @derived_object
    class ScheduleFnDatabase(PyDatabase):
        """TVM's ScheduleFnDatabase: query_schedule schedules the module
        with schedule_fn(sch) -> bool (False: no schedule); records and
        workloads are not kept."""

        def __init__(self):
            self.schedule_fn = schedule_fn

        def query_schedule(self, mod, target, workload_name=None):
            sch = Schedule(mod)
            return sch if self.schedule_fn(sch) else None

        def query_tuning_record(self, mod, target, workload_name=None):
            from .memory_database import MemoryDatabase
            sch = self.query_schedule(mod, target, workload_name)
            if sch is None:
                return None
            workload = MemoryDatabase().commit_workload(mod)
            return TuningRecord(sch.trace, workload, [0.0], target,
                                ArgInfo.from_entry_func(mod))

        def query_ir_module(self, mod, target, workload_name=None):
            sch = self.query_schedule(mod, target, workload_name)
            return None if sch is None else sch.mod

    return ScheduleFnDatabase()


def ScheduleFnDatabase(schedule_fn, module_equality="structural"):  # noqa: N802
    """TVM's ScheduleFnDatabase(schedule_fn)."""
    if not callable(schedule_fn):
        raise TypeError("ScheduleFnDatabase takes a function of a schedule")
    return _schedule_fn_database(schedule_fn, module_equality)
