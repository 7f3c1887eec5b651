"""LocalRunner: built candidates measured on this machine, one at a time,
each in a child process of its own with a timeout."""
import os

from ...registry import get_global_func, register_global_func
from .._isolation import deadline_begins, deadline_ends, run_isolated
from ..utils import derived_object
from .config import EvaluatorConfig
from .runner import PyRunner, PyRunnerFuture, RunnerResult

__all__ = ["LocalRunner", "LocalRunnerFuture", "ResultMismatch", "T_ARG_INFO_JSON_OBJ",
           "T_ARG_INFO_JSON_OBJ_LIST", "T_ARGUMENT", "T_ARGUMENT_LIST", "check_results",
           "compute_expected", "default_alloc_argument", "default_run_evaluator",
           "random_arrays"]

# TVM's type names of what the runner's functions take and give.
T_ARG_INFO_JSON_OBJ = list
T_ARG_INFO_JSON_OBJ_LIST = list
T_ARGUMENT = object
T_ARGUMENT_LIST = list

def _tensor_infos(args_info):
    """(dtype, shape) of each argument: ArgInfos, or their JSON (TVM's
    ["TENSOR", dtype, shape])."""
    infos = []
    for info in args_info:
        if isinstance(info, (list, tuple)):
            if len(info) != 3 or info[0] != "TENSOR":
                raise ValueError(f"an argument's info is ['TENSOR', dtype, shape], got {info!r}")
            infos.append((str(info[1]), tuple(int(d) for d in info[2])))
        else:
            infos.append((str(info.dtype), tuple(int(d) for d in info.shape)))
    return infos


def random_arrays(args_info, alloc_repeat):
    """`alloc_repeat` sets of random numpy arrays of the arguments' types
    (what the candidates and the unscheduled program are checked on)."""
    import numpy as np
    rng = np.random.default_rng(0)
    sets = []
    for _ in range(alloc_repeat):
        args = []
        for dtype_name, shape in _tensor_infos(args_info):
            dtype = np.dtype(dtype_name)
            if dtype.kind == "f":
                args.append(rng.uniform(-1, 1, shape).astype(dtype))
            elif dtype.kind == "b":
                args.append(rng.integers(0, 2, shape).astype(dtype))
            else:
                args.append(rng.integers(0, 8, shape).astype(dtype))
        sets.append(args)
    return sets


@register_global_func("meta_schedule.runner.default_alloc_argument", override=True)
def default_alloc_argument(device, args_info, alloc_repeat):
    """TVM's default_alloc_argument: `alloc_repeat` sets of random tensors
    on `device` of the arguments' types (args_info: ArgInfos or their
    JSON)."""
    from ... import runtime
    return [[runtime.tensor(a, device) for a in args]
            for args in random_arrays(args_info, alloc_repeat)]


@register_global_func("meta_schedule.runner.default_run_evaluator", override=True)
def default_run_evaluator(rt_mod, device, evaluator_config, repeated_args):
    """TVM's default_run_evaluator: the run times (seconds) of the
    module's entry function, `repeat` per argument set, as its
    time_evaluator measures them (caches flushed before each repeat with
    enable_cpu_cache_flush)."""
    config = evaluator_config
    evaluator = rt_mod.time_evaluator(
        func_name=rt_mod.entry_name, dev=device, number=config.number,
        repeat=config.repeat, min_repeat_ms=config.min_repeat_ms,
        f_preproc="cache_flush_cpu_non_first_arg" if config.enable_cpu_cache_flush else "")
    run_secs = []
    for args in repeated_args:
        device.sync()
        run_secs.extend(evaluator(*args).results)
    return run_secs


class ResultMismatch(Exception):
    """A candidate computes something else than the unscheduled
    program."""


def compute_expected(reference, args, path):
    """Runs the unscheduled program on `args` and saves the arguments
    before and after (outputs are arguments) to `path` (.npz)."""
    import numpy as np
    before = [np.array(a, copy=True) for a in args]
    after = [np.array(a, copy=True) for a in args]
    reference(*after)
    np.savez(path, **{f"in{i}": a for i, a in enumerate(before)},
             **{f"out{i}": a for i, a in enumerate(after)})


def load_expected(expected_path):
    """The arrays compute_expected saved to `expected_path`, by name."""
    import numpy as np
    with np.load(expected_path) as saved:
        return {name: saved[name] for name in saved.files}


def check_results(module, expected, rerun_above=None, arrays=None):
    """Runs the candidate on the saved inputs (`expected`: the .npz
    compute_expected saved, or load_expected's arrays of it) and compares
    every argument afterwards with the unscheduled program's: floats
    within a tolerance for reassociated reductions, anything else exactly;
    ResultMismatch names the first that differs. Returns the seconds the
    run took; when that is above `rerun_above`, the least of it and a
    second run's (the first call of a library runs on cold caches and
    pages: several times a warm call's on a kernel of microseconds). The
    arguments the candidate ran on are appended to `arrays` when given."""
    import time

    import numpy as np
    from ..._ext import ext
    saved = load_expected(expected) if isinstance(expected, (str, os.PathLike)) else expected
    count = len([k for k in saved if k.startswith("in")])
    actual = [np.array(saved[f"in{i}"], copy=True) for i in range(count)]
    # The OpenMP runtime and its threads start before the timed run: their
    # start (a millisecond) made a 70 us candidate look 10-25x slower on
    # two threads, and the runner reject it as slow.
    ext.start_threads()
    # The run is what a deadline of the runner's (run_isolated) bounds.
    deadline_begins()
    start = time.perf_counter()
    module(*actual)
    seconds = time.perf_counter() - start
    if rerun_above is not None and seconds > rerun_above:
        again = [np.array(a, copy=True) for a in actual]
        start = time.perf_counter()
        module(*again)
        seconds = min(seconds, time.perf_counter() - start)
    deadline_ends()
    for index, got in enumerate(actual):
        want = saved[f"out{index}"]
        if want.dtype.kind == "f":
            tolerance = {2: 1e-2, 4: 1e-3}.get(want.dtype.itemsize, 1e-6)
            scale = max(1.0, float(np.max(np.abs(want))) if want.size else 1.0)
            close = np.allclose(got, want, rtol=tolerance, atol=tolerance * scale,
                                equal_nan=True)
        else:
            close = np.array_equal(got, want)
        if not close:
            diff = np.abs(got.astype("float64") - want.astype("float64"))
            raise ResultMismatch(
                f"argument {index} differs from the unscheduled program's on random "
                f"inputs (max abs difference {float(np.nanmax(diff)):.6g})")
    if arrays is not None:
        arrays.extend(actual)
    return seconds


# The least time a checking run (two calls at most) is given before it is
# stopped: below it, stopping saves little, and a kernel of microseconds
# cold may take ten times its warm time.
_MIN_DEADLINE = 0.01

# The least run time that can reject a candidate: a run of a millisecond or
# less costs the evaluator little, and at that scale a descheduled thread
# or a cold cache makes a good kernel of microseconds look ten times slower.
_MIN_REJECTION = 0.001


def _function(f, default):
    if f is None:
        f = default
    if isinstance(f, str):
        f = get_global_func(f)
    return f


@derived_object
class LocalRunnerFuture(PyRunnerFuture):
    """A measurement already made (the local runner measures as it is
    asked)."""

    def __init__(self, result):
        super().__init__()
        self.value = result

    def done(self):
        return True

    def result(self):
        return self.value


@derived_object
class LocalRunner(PyRunner):
    """TVM's LocalRunner: each built candidate is loaded and timed in a
    child process, one at a time (so that timings stay clean); one that
    raises, crashes or runs past timeout_sec gives an error result, and
    the others go on. Beyond TVM: when the input names the unscheduled
    program (reference_path, which the task scheduler gives unless told
    otherwise), its results on random inputs are computed once (with a
    budget of their own), each candidate runs on the same inputs before it
    is timed, and one whose results differ gives the error "LocalRunner:
    wrong results". f_alloc_argument(device, args_info JSON,
    alloc_repeat) and f_run_evaluator(rt_mod, device, evaluator_config,
    repeated_args) are TVM's, functions or registered functions' names;
    initializer runs in each child first. Beyond TVM too: a candidate
    whose checking run takes `reject_slower_than` times the best mean run
    time measured so far for its program (and over a millisecond) is not
    timed further: the
    seconds its run took, or had taken when it was stopped there, are its
    measurement (a lower bound then; a candidate that slow cannot be the
    best, and the evaluator's calls on such candidates would take most of
    the tuning's time; None times every candidate as TVM does)."""

    def __init__(self, timeout_sec=30.0, evaluator_config=None, cooldown_sec=0.0,
                 alloc_repeat=1, f_alloc_argument=None, f_run_evaluator=None, f_cleanup=None,
                 initializer=None, reject_slower_than=4.0):
        super().__init__()
        self.timeout_sec = timeout_sec
        self.evaluator_config = EvaluatorConfig._normalized(evaluator_config)
        self.cooldown_sec = cooldown_sec
        self.alloc_repeat = alloc_repeat
        self.f_alloc_argument = f_alloc_argument
        self.f_run_evaluator = f_run_evaluator
        self.f_cleanup = f_cleanup
        self.initializer = initializer
        if reject_slower_than is not None and not reject_slower_than > 1:
            raise ValueError(f"LocalRunner: reject_slower_than is a ratio above 1 or None, got "
                             f"{reject_slower_than!r}")
        self.reject_slower_than = reject_slower_than

    def _expected_outputs(self, runner_input):
        """The .npz of the unscheduled program's arguments before and
        after a run on random inputs, computed once per reference (in a
        child, with a budget of its own: ten candidates' timeouts); None
        when there is no reference or it did not run."""
        import os
        import tempfile
        import weakref

        from ... import runtime
        reference = runner_input.reference_path
        if reference is None:
            return None
        cache = self.__dict__.setdefault("_expected", {})
        if reference not in cache:
            if "_folder" not in self.__dict__:
                self._folder = tempfile.TemporaryDirectory(prefix="tir-meta-schedule-expected-")
                weakref.finalize(self, self._folder.cleanup)
            path = os.path.join(self._folder.name, f"expected{len(cache)}.npz")
            args_info = runner_input.args_info

            def compute():
                # The reference runs on numpy arrays of the same random
                # values the default allocation gives.
                args = random_arrays(args_info, 1)[0]
                compute_expected(runtime.load_module(reference), args, path)

            (outcome,) = run_isolated([(compute, ())], max_workers=1,
                                      timeout=self.timeout_sec * 10,
                                      initializer=self.initializer)
            if outcome.kind != "ok":
                import logging
                logging.getLogger(__name__).warning(
                    "LocalRunner: the unscheduled program did not run (%s), so candidates "
                    "are not checked against it", outcome.kind)
            cache[reference] = path if outcome.kind == "ok" else None
        return cache[reference]

    def run(self, runner_inputs):
        import time

        from ... import runtime
        f_alloc, f_run, f_cleanup = self.f_alloc_argument, self.f_run_evaluator, self.f_cleanup
        config, alloc_repeat = self.evaluator_config, self.alloc_repeat

        def measure(artifact_path, args_info, expected, reject_above):
            try:
                module = runtime.load_module(artifact_path)
                checked = []
                if expected is not None:
                    seconds = check_results(module, expected, rerun_above=reject_above,
                                            arrays=checked)
                    if reject_above is not None and seconds > reject_above:
                        return [seconds]
                device = runtime.cpu(0)
                if checked and f_alloc is None and alloc_repeat == 1:
                    # The default allocation's random values are those the
                    # check ran on (random_arrays): its arrays are timed.
                    repeated_args = [[runtime.tensor(a, device) for a in checked]]
                else:
                    # As TVM's: the functions take the arguments' JSON.
                    infos = [info.as_json() if hasattr(info, "as_json") else info
                             for info in args_info]
                    repeated_args = _function(f_alloc, default_alloc_argument)(
                        device, infos, alloc_repeat)
                return [float(getattr(t, "value", t)) for t in
                        _function(f_run, default_run_evaluator)(module, device, config,
                                                                repeated_args)]
            finally:
                if f_cleanup is not None:
                    _function(f_cleanup, None)()

        futures = []
        # The best mean run time so far of each program (its reference).
        best = self.__dict__.setdefault("_best_seconds", {})
        # The expected arrays are read here once per program; the forked
        # children share them.
        loaded = self.__dict__.setdefault("_expected_arrays", {})
        for runner_input in runner_inputs:
            expected = self._expected_outputs(runner_input)
            if expected is not None:
                if expected not in loaded:
                    loaded[expected] = load_expected(expected)
                expected = loaded[expected]
            known = best.get(runner_input.reference_path)
            reject_above = (None if self.reject_slower_than is None or known is None
                            else max(known * self.reject_slower_than, _MIN_REJECTION))
            (outcome,) = run_isolated(
                [(measure, (runner_input.artifact_path, runner_input.args_info, expected,
                            reject_above))],
                max_workers=1, timeout=self.timeout_sec, initializer=self.initializer,
                deadline=(max(2 * reject_above, _MIN_DEADLINE)
                          if expected is not None and reject_above is not None else None))
            if outcome.kind == "late":
                result = RunnerResult([outcome.value], None)
            elif outcome.kind == "ok":
                result = RunnerResult(outcome.value, None)
                if expected is not None and outcome.value:
                    mean = sum(outcome.value) / len(outcome.value)
                    best[runner_input.reference_path] = min(known or mean, mean)
            elif outcome.kind == "timeout":
                result = RunnerResult(
                    None, f"LocalRunner: Timeout, killed after {self.timeout_sec} seconds\n")
            elif outcome.kind == "error" and "ResultMismatch" in outcome.value:
                message = outcome.value.strip().splitlines()[-1].split(": ", 1)[-1]
                result = RunnerResult(None, "LocalRunner: wrong results: " + message)
            elif outcome.kind == "crash":
                result = RunnerResult(
                    None, f"LocalRunner: the measuring process died (exit code "
                          f"{outcome.value})")
            else:
                result = RunnerResult(None, "LocalRunner: An exception occurred\n" +
                                      outcome.value)
            futures.append(LocalRunnerFuture(result))
            if self.cooldown_sec:
                time.sleep(self.cooldown_sec)
        return futures
