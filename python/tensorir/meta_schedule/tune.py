"""tune_tasks: tasks tuned together by a task scheduler (TVM's
meta_schedule.tune_tasks)."""
from .builder import Builder
from .cost_model import CostModel
from .database import Database
from .measure_callback import MeasureCallback
from .runner import Runner
from .task_scheduler import TaskScheduler

__all__ = ["tune_tasks"]


def tune_tasks(*, tasks, task_weights, work_dir, max_trials_global, max_trials_per_task=None,
               num_trials_per_iter=64, builder="local", runner="local", database="json",
               cost_model="xgb", measure_callbacks="default", task_scheduler="gradient",
               module_equality="structural", post_optimization=False, check_results=True):
    """TVM's tune_tasks: the tasks (TuneContexts) share max_trials_global
    trials, each at most max_trials_per_task; every measured candidate goes
    to the database (by default TVM's JSON files in work_dir), which is
    returned. Strings name the components as TVM's create() does. With
    check_results (beyond TVM), each task's unscheduled module is built
    first and a candidate whose results differ from its on random inputs
    is recorded as failed."""
    if len(tasks) != len(task_weights):
        raise ValueError(f"the length of tasks ({len(tasks)}) and task_weights "
                         f"({len(task_weights)}) differ")
    if post_optimization:
        raise NotImplementedError("tune_tasks: post_optimization is not available yet")
    if max_trials_per_task is None:
        max_trials_per_task = max_trials_global
    if not isinstance(builder, Builder):
        builder = Builder.create(builder)
    if not isinstance(runner, Runner):
        options = {}
        if runner == "ray":
            # The candidates run on the threads their target was tuned for.
            from .runner.ray_runner import target_threads
            options["num_threads"] = target_threads(*(t.target for t in tasks))
        runner = Runner.create(runner, **options)
    if database == "json":
        database = Database.create(database, work_dir=work_dir,
                                   module_equality=module_equality)
    elif not isinstance(database, Database):
        database = Database.create(database, module_equality=module_equality)
    if cost_model is not None and not isinstance(cost_model, CostModel):
        cost_model = CostModel.create(cost_model)
    if isinstance(measure_callbacks, MeasureCallback):
        measure_callbacks = [measure_callbacks]
    elif measure_callbacks == "default":
        measure_callbacks = MeasureCallback.create(measure_callbacks)
    if not isinstance(task_scheduler, TaskScheduler):
        task_scheduler = TaskScheduler.create(task_scheduler)
    task_scheduler._native.check_results = bool(check_results)
    task_scheduler.tune(tasks=tasks, task_weights=task_weights,
                        max_trials_global=max_trials_global,
                        max_trials_per_task=max_trials_per_task,
                        num_trials_per_iter=num_trials_per_iter, builder=builder,
                        runner=runner, measure_callbacks=measure_callbacks,
                        database=database, cost_model=cost_model)
    return database
