"""tvm.meta_schedule: TVM's auto-scheduler. So far: the arguments of a
tuned function (`arg_info`: ArgInfo, TensorInfo, from the MetaSchedule
library) and the testing workloads (`testing.te_workload`), which the
schedule analyses' tests and users' experiments build programs from."""
from . import arg_info, testing  # noqa: F401

__all__ = ["arg_info", "testing"]
