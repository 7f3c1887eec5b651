"""tvm.meta_schedule.testing: workloads for tests and experiments."""
from . import dummy_object, te_workload  # noqa: F401

__all__ = ["dummy_object", "te_workload"]
