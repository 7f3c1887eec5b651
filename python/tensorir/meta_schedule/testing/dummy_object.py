"""Objects for tests: a builder and a runner that build and measure
nothing (random run times), and a mutator that drops a trace's
decisions."""
import random

from ...tir.schedule import Trace
from ..builder import BuilderResult, PyBuilder
from ..mutator import PyMutator
from ..runner import PyRunner, PyRunnerFuture, RunnerResult
from ..utils import derived_object

__all__ = ["DummyBuilder", "DummyMutator", "DummyRunner", "DummyRunnerFuture"]


@derived_object
class DummyRunnerFuture(PyRunnerFuture):
    def done(self):
        return True

    def result(self):
        run_secs = [random.uniform(5, 30) for _ in range(random.randint(1, 10))]
        return RunnerResult(run_secs, None)


@derived_object
class DummyBuilder(PyBuilder):
    def build(self, build_inputs):
        return [BuilderResult("test_path", None) for _ in build_inputs]


@derived_object
class DummyRunner(PyRunner):
    def run(self, runner_inputs):
        return [DummyRunnerFuture() for _ in runner_inputs]


@derived_object
class DummyMutator(PyMutator):
    """The trace without its decisions (every sampling step draws anew)."""

    def _initialize_with_tune_context(self, context):
        pass

    def apply(self, trace, _):
        return Trace(trace.insts, {})

    def clone(self):
        return DummyMutator()
