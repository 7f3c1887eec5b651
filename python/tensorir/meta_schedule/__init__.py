"""tvm.meta_schedule: TVM's auto-scheduler over the MetaSchedule library.
So far: the tune context, design spaces (post-order application of
schedule rules, schedule functions, unions), the interfaces of schedule
rules, postprocessors and mutators with their Python forms
(derived_object), the arguments of a tuned function (`arg_info`), the
Profiler, and the testing workloads (`testing.te_workload`)."""
from . import arg_info, mutator, postproc, schedule_rule, space_generator, testing, utils  # noqa: F401
from .mutator import Mutator
from .postproc import Postproc
from .profiler import Profiler
from .schedule_rule import ScheduleRule
from .space_generator import SpaceGenerator
from .tune_context import TuneContext
from .utils import derived_object

__all__ = ["Mutator", "Postproc", "Profiler", "ScheduleRule", "SpaceGenerator", "TuneContext",
           "arg_info", "derived_object", "mutator", "postproc", "schedule_rule",
           "space_generator", "testing", "utils"]
