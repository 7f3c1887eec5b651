"""tvm.meta_schedule.schedule_rule: how each block of a design space is
scheduled."""
from .builtin import (AddRFactor, ApplyCustomRule, AutoBind, AutoInline, CrossThreadReduction,
                      InlineConstantScalars, MultiLevelTiling, MultiLevelTilingTensorCore,
                      MultiLevelTilingWideVector, MultiLevelTilingWithIntrin,
                      ParallelizeVectorizeUnroll,
                      RandomComputeLocation, ReuseType)
from .schedule_rule import PyScheduleRule, ScheduleRule

__all__ = ["AddRFactor", "ApplyCustomRule", "AutoBind", "AutoInline", "CrossThreadReduction",
           "InlineConstantScalars", "MultiLevelTiling", "MultiLevelTilingTensorCore",
           "MultiLevelTilingWideVector", "MultiLevelTilingWithIntrin",
           "ParallelizeVectorizeUnroll",
           "PyScheduleRule", "RandomComputeLocation", "ReuseType", "ScheduleRule"]
