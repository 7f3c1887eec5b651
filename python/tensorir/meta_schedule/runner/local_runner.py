"""LocalRunner: built candidates measured on this machine, one at a time,
each in a child process of its own with a timeout."""
from ...registry import get_global_func, register_global_func
from .._isolation import run_isolated
from ..utils import derived_object
from .config import EvaluatorConfig
from .runner import PyRunner, PyRunnerFuture, RunnerResult

__all__ = ["LocalRunner", "LocalRunnerFuture", "ResultMismatch", "check_results",
           "compute_expected", "default_alloc_argument", "default_run_evaluator"]

# The caches of today's CPUs are flushed by touching this many bytes.
_FLUSH_BYTES = 256 << 20


@register_global_func("meta_schedule.runner.default_alloc_argument", override=True)
def default_alloc_argument(args_info, alloc_repeat):
    """`alloc_repeat` sets of random arguments (numpy arrays) of the
    candidate's argument types."""
    import numpy as np
    rng = np.random.default_rng(0)
    sets = []
    for _ in range(alloc_repeat):
        args = []
        for info in args_info:
            dtype = np.dtype(info.dtype)
            if dtype.kind == "f":
                args.append(rng.uniform(-1, 1, info.shape).astype(dtype))
            elif dtype.kind == "b":
                args.append(rng.integers(0, 2, info.shape).astype(dtype))
            else:
                args.append(rng.integers(0, 8, info.shape).astype(dtype))
        sets.append(args)
    return sets


@register_global_func("meta_schedule.runner.default_run_evaluator", override=True)
def default_run_evaluator(module, args_sets, evaluator_config):
    """The run times (seconds) of the module's entry function: `repeat`
    per argument set, as its time_evaluator measures them."""
    import numpy as np
    names = module.functions
    entry = "main" if "main" in names else names[0]
    config = evaluator_config
    run_secs = []
    for args in args_sets:
        if config.enable_cpu_cache_flush:
            flush = np.zeros(_FLUSH_BYTES // 8)
            for _ in range(config.repeat):
                flush += 1  # evicts the arguments and the code's data
                evaluator = module.time_evaluator(entry, number=config.number, repeat=1,
                                                  min_repeat_ms=config.min_repeat_ms)
                run_secs.extend(evaluator(*args).results)
        else:
            evaluator = module.time_evaluator(entry, number=config.number,
                                              repeat=config.repeat,
                                              min_repeat_ms=config.min_repeat_ms)
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


def check_results(module, expected_path):
    """Runs the candidate on the saved inputs and compares every argument
    afterwards with the unscheduled program's: floats within a tolerance
    for reassociated reductions, anything else exactly; ResultMismatch
    names the first that differs."""
    import numpy as np
    saved = np.load(expected_path)
    count = len([k for k in saved.files if k.startswith("in")])
    actual = [np.array(saved[f"in{i}"], copy=True) for i in range(count)]
    module(*actual)
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
    wrong results". f_alloc_argument(args_info, alloc_repeat) and
    f_run_evaluator(module, argument sets, evaluator_config) are functions
    or registered functions' names; initializer runs in each child
    first."""

    def __init__(self, timeout_sec=30.0, evaluator_config=None, cooldown_sec=0.0,
                 alloc_repeat=1, f_alloc_argument=None, f_run_evaluator=None, f_cleanup=None,
                 initializer=None):
        super().__init__()
        self.timeout_sec = timeout_sec
        self.evaluator_config = EvaluatorConfig._normalized(evaluator_config)
        self.cooldown_sec = cooldown_sec
        self.alloc_repeat = alloc_repeat
        self.f_alloc_argument = f_alloc_argument
        self.f_run_evaluator = f_run_evaluator
        self.f_cleanup = f_cleanup
        self.initializer = initializer

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
            f_alloc, args_info = self.f_alloc_argument, runner_input.args_info

            def compute():
                args = _function(f_alloc, default_alloc_argument)(args_info, 1)[0]
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

        def measure(artifact_path, args_info, expected_path):
            try:
                module = runtime.load_module(artifact_path)
                if expected_path is not None:
                    check_results(module, expected_path)
                args_sets = _function(f_alloc, default_alloc_argument)(args_info, alloc_repeat)
                return [float(t) for t in
                        _function(f_run, default_run_evaluator)(module, args_sets, config)]
            finally:
                if f_cleanup is not None:
                    _function(f_cleanup, None)()

        futures = []
        for runner_input in runner_inputs:
            expected = self._expected_outputs(runner_input)
            (outcome,) = run_isolated(
                [(measure, (runner_input.artifact_path, runner_input.args_info, expected))],
                max_workers=1, timeout=self.timeout_sec, initializer=self.initializer)
            if outcome.kind == "ok":
                result = RunnerResult(outcome.value, None)
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
