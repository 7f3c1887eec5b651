"""tvm.dlight: default GPU schedules for kernels nobody scheduled or tuned.

ApplyDefaultSchedule(rule, ...) is a module pass: under a GPU target
(`with tvm.target.Target("cuda"):`), each prim_func of the module that no
schedule has touched gets the schedule of the first rule that takes it:

    with tvm.target.Target("cuda"):
        mod = dl.ApplyDefaultSchedule(dl.gpu.Matmul(), dl.gpu.GEMV(),
                                      dl.gpu.Reduction(), dl.gpu.GeneralReduction(),
                                      dl.gpu.Fallback())(mod)

The rules are tir.Schedule programs (dlight/gpu.py); a rule that does not
fit a function passes it on.
"""
from . import gpu
from .base import ApplyDefaultSchedule, ScheduleRule

__all__ = ["ApplyDefaultSchedule", "ScheduleRule", "gpu"]
