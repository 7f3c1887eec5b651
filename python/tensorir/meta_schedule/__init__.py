"""tvm.meta_schedule: TVM's auto-scheduler. So far: the arguments of a
tuned function (`arg_info`: ArgInfo, TensorInfo), the Profiler that times
tuning's phases (both from the MetaSchedule library), and the testing
workloads (`testing.te_workload`), which the schedule analyses' tests and
users' experiments build programs from."""
from . import arg_info, testing  # noqa: F401
from .profiler import Profiler

__all__ = ["Profiler", "arg_info", "testing"]
