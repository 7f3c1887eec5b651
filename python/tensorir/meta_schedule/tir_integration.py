"""tune_tir and compile_tir: a TensorIR module tuned, and compiled with
the best records of a database (TVM's meta_schedule.tir_integration)."""
import logging
import os

from ..ir import IRModule
from ..target import Target
from .logging import get_logger
from .tune import tune_tasks
from .tune_context import TuneContext, _normalize_mod
from .utils import cpu_count

__all__ = ["compile_tir", "tune_tir"]


def _task_logger(work_dir, index, name):
    """A logger of the task writing to work_dir/logs (as TVM's)."""
    logger = get_logger(f"tvm.meta_schedule.task_{index}_{name}")
    if work_dir is None:
        return logger
    path = os.path.abspath(os.path.join(work_dir, "logs",
                                        f"tvm.meta_schedule.logging.task_{index}_{name}.log"))
    # The file of an earlier tuning in this process (another work_dir) is
    # closed; handlers the user gave (or pytest's caplog) are left alone and
    # the file is written beside them.
    ours = [h for h in logger.handlers if getattr(h, "_tir_task_log", False)]
    for handler in ours:
        if handler.baseFilename != path:
            logger.removeHandler(handler)
            handler.close()
    if not any(getattr(h, "_tir_task_log", False) for h in logger.handlers):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        handler = logging.FileHandler(path)
        handler._tir_task_log = True
        handler.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    # The file takes the task's progress (INFO), as TVM configures its task
    # loggers, whatever the root logger's level.
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.INFO)
    return logger


def tune_tir(mod, target, work_dir, max_trials_global, *, max_trials_per_task=None,
             num_trials_per_iter=64, builder="local", runner="local", database="json",
             cost_model="xgb", measure_callbacks="default", task_scheduler="round-robin",
             space="post-order-apply", strategy="evolutionary", num_tuning_cores="physical",
             seed=None, module_equality="structural", special_space=None,
             post_optimization=False, check_results=True):
    """TVM's tune_tir: each function of `mod` tuned as a task for `target`
    (space and strategy as TuneContext takes them; special_space maps a
    function's name to its own space), max_trials_global trials in all;
    every candidate's results are checked against the unscheduled program
    unless check_results is False; returns the database."""
    mod = _normalize_mod(mod)
    if mod is None:
        raise ValueError("tune_tir takes an IRModule or a PrimFunc")
    if not isinstance(target, Target):
        target = Target(target)
    if isinstance(max_trials_global, bool) or not isinstance(max_trials_global, int) \
            or max_trials_global < 1:
        raise ValueError(f"tune_tir: max_trials_global is a positive integer, got "
                         f"{max_trials_global!r}")
    from ..tir.function import PrimFunc
    names = [g for g in mod.function_names() if isinstance(mod[g], PrimFunc)]
    if not names:
        raise ValueError("tune_tir: the module has no function to tune")
    tasks = []
    for index, name in enumerate(names):
        task_space = (special_space or {}).get(name, space)
        task_mod = IRModule({"main": mod[name]})
        tasks.append(TuneContext(
            task_mod, target=target, space_generator=task_space, search_strategy=strategy,
            task_name=name, logger=_task_logger(work_dir, index, name),
            rand_state=-1 if seed is None else seed, num_threads=num_tuning_cores).clone())
    return tune_tasks(tasks=tasks, task_weights=[1.0] * len(tasks), work_dir=work_dir,
                      max_trials_global=max_trials_global,
                      max_trials_per_task=max_trials_per_task,
                      num_trials_per_iter=num_trials_per_iter, builder=builder, runner=runner,
                      database=database, cost_model=cost_model,
                      measure_callbacks=measure_callbacks, task_scheduler=task_scheduler,
                      module_equality=module_equality, post_optimization=post_optimization,
                      check_results=check_results)


def compile_tir(database, mod, target):
    """TVM's compile_tir: the schedule of the database's best record for
    `mod` (None when it has none)."""
    mod = _normalize_mod(mod)
    if not isinstance(target, Target):
        target = Target(target)
    return database.query_schedule(mod, target, workload_name="main")
