"""TVM's meta_schedule.trace_apply: a trace tuned for one workload applied
to a module holding the same anchor block among others (an operator fused
with its producers and epilogue): the trace's steps on the blocks the
module has are replayed, the blocks it does not name are inlined, and the
one left unscheduled is inlined into its producer or parallelized (CPU) /
bound to threads (GPU). The MetaSchedule library does it
(lib/MetaSchedule/TraceApply)."""
from .._ext import ext
from ..target import Target

__all__ = ["schedule_using_anchor_trace"]


def schedule_using_anchor_trace(sch, anchor_trace, target):
    """Applies `anchor_trace` (a tir.schedule.Trace of another module's
    schedule) to `sch` (a tir.Schedule), in place, for `target` (a Target
    or its description). Raises ScheduleError when a step of the trace is
    refused or more than one block is left unscheduled."""
    if not isinstance(target, Target):
        target = Target(target)
    ext.schedule_using_anchor_trace(sch._native, anchor_trace._native, target.export())
