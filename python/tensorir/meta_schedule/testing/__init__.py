"""tvm.meta_schedule.testing: workloads for tests and experiments."""
from . import te_workload  # noqa: F401

__all__ = ["te_workload"]
