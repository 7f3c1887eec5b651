"""tvm.meta_schedule.schedule_rule: how each block of a design space is
scheduled."""
from .schedule_rule import PyScheduleRule, ScheduleRule

__all__ = ["PyScheduleRule", "ScheduleRule"]
