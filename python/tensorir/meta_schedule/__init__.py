"""tvm.meta_schedule: TVM's auto-scheduler over the MetaSchedule library
(lib/MetaSchedule): tune contexts, design spaces, search strategies, cost
models and feature extractors, databases, builders and runners, measure
callbacks, task schedulers, and tune_tir / tune_tasks. What is there and
how it behaves: docs/meta_schedule.md."""
from . import (arg_info, builder, cost_model, database, feature_extractor,  # noqa: F401
               measure_callback, mutator, postproc, runner, schedule_rule,
               search_strategy, space_generator, task_scheduler, testing,
               tir_integration, trace_apply, utils)
# The tensor intrinsics the cuda-tensorcore rules tile for (as TVM's
# MetaSchedule imports tvm.tir.tensor_intrin): registered before any rule.
from ..tir import tensor_intrin as _tensor_intrin  # noqa: F401
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
           "arg_info", "builder", "cost_model", "database", "feature_extractor",
           "measure_callback", "derived_object", "mutator", "postproc", "runner", "schedule_rule",
           "search_strategy", "space_generator", "task_scheduler", "testing", "tir_integration",
           "tune_tasks", "tune_tir", "utils"]
