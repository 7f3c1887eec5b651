"""tvm.meta_schedule: TVM's auto-scheduler over the MetaSchedule library.
So far: the tune context, design spaces (post-order application of
schedule rules, schedule functions, unions), the interfaces of schedule
rules, postprocessors and mutators with their Python forms
(derived_object), the arguments of a tuned function (`arg_info`), the
Profiler, and the testing workloads (`testing.te_workload`)."""
from . import (arg_info, builder, cost_model, database, measure_callback,  # noqa: F401
               mutator, postproc, runner, schedule_rule, search_strategy,
               space_generator, task_scheduler, testing, tir_integration, utils)
from .mutator import Mutator
from .postproc import Postproc
from .profiler import Profiler
from .search_strategy import MeasureCandidate, SearchStrategy
from .schedule_rule import ScheduleRule
from .space_generator import SpaceGenerator
from .tir_integration import tune_tir
from .tune import tune_tasks
from .tune_context import TuneContext
from .utils import derived_object

__all__ = ["MeasureCandidate", "Mutator", "Postproc", "Profiler", "ScheduleRule", "SearchStrategy", "SpaceGenerator", "TuneContext",
           "arg_info", "builder", "cost_model", "database", "measure_callback", "derived_object", "mutator", "postproc", "runner", "schedule_rule",
           "search_strategy", "space_generator", "task_scheduler", "testing", "tir_integration",
           "tune_tasks", "tune_tir", "utils"]
