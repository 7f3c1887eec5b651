"""tvm.meta_schedule: TVM's auto-scheduler. So far its testing workloads
(`meta_schedule.testing.te_workload`), which the schedule analyses' tests
and users' experiments build programs from."""
from . import testing  # noqa: F401

__all__ = ["testing"]
