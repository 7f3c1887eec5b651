"""RayRunner: built candidates measured by Ray actors, each holding a
device of a cluster's node and measuring one candidate at a time."""
import os
import tempfile
import weakref

from .._ray import check_picklable, connect, hold_cpus
from ..utils import derived_object
from .local_runner import LocalRunner
from .runner import PyRunner, PyRunnerFuture, RunnerInput, RunnerResult

__all__ = ["RayRunner", "RayRunnerFuture"]

# How long the measuring actors may take to be placed and started.
_ACTOR_START_SEC = 120.0


def target_threads(*targets):
    """The threads candidates tuned for `targets` run on: the most
    -num-cores among them (1 where none says)."""
    from ...target import Target
    return max([int((t if isinstance(t, Target) else Target(t)).attrs.get("num-cores", 1) or 1)
                for t in targets if t] or [1])


class _Measurer:
    """A Ray actor's state: a LocalRunner on its node (each candidate timed
    in a child process with a timeout, checked against the unscheduled
    program first) and a folder for the libraries it is sent."""

    def __init__(self, runner_options):
        self.runner = LocalRunner(**runner_options)
        self._folder = tempfile.TemporaryDirectory(prefix="tir-meta-schedule-ray-")
        self.references = {}
        self.count = 0

    def _write(self, name, data):
        path = os.path.join(self._folder.name, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def measure(self, library, device_type, args_info, reference_key, reference):
        """The candidate's (run_secs, error_msg): `library` the built
        candidate's bytes, `args_info` its arguments' JSON, `reference` a
        list holding the object-store reference of the unscheduled
        program's bytes (empty: not checked), fetched and written once per
        `reference_key`."""
        import ray

        from ..arg_info import ArgInfo
        reference_path = None
        if reference:
            if reference_key not in self.references:
                self.references[reference_key] = self._write(
                    f"reference{len(self.references)}.so", ray.get(reference[0]))
            reference_path = self.references[reference_key]
        self.count += 1
        path = self._write(f"candidate{self.count}.so", library)
        try:
            runner_input = RunnerInput(path, device_type,
                                       [ArgInfo.from_json(a) for a in args_info],
                                       reference_path)
            result = self.runner.run([runner_input])[0].result()
            return result.run_secs, result.error_msg
        finally:
            os.remove(path)


@derived_object
class RayRunnerFuture(PyRunnerFuture):
    """A measurement a Ray actor makes: done() without waiting, result()
    waiting (an actor that died past its restarts gives an error
    result)."""

    def __init__(self, ref, actor, patience):
        super().__init__()
        self.ref, self.actor, self.patience = ref, actor, patience

    def done(self):
        ray = connect()
        ready, _ = ray.wait([self.ref], timeout=0)
        return bool(ready)

    def result(self):
        ray = connect()
        try:
            secs, error = ray.get(self.ref, timeout=self.patience)
        except ray.exceptions.GetTimeoutError:
            # An actor's running task cannot be cancelled: the actor is
            # ended, and Ray starts it again for the measurements after.
            ray.kill(self.actor, no_restart=False)
            return RunnerResult(None, f"RayRunner: no result after {self.patience:.0f} seconds")
        except ray.exceptions.RayError as error:
            return RunnerResult(None, "RayRunner: the measurement was lost: "
                                      + str(error).strip().splitlines()[0])
        if error is not None:
            error = error.replace("LocalRunner:", "RayRunner:", 1)
        return RunnerResult(None if secs is None else [float(s) for s in secs], error)


@derived_object
class RayRunner(PyRunner):
    """Measures built candidates on `num_actors` Ray actors, each holding
    `num_cpus_per_actor` CPUs, `num_gpus_per_actor` GPUs (default: one for a
    cuda input, none otherwise) and `resources` (say {"measure": 1}, a
    resource only the measuring nodes have) of a node, spread over the
    nodes as Ray can; an actor measures one candidate at a time, so timings
    stay clean. A candidate runs on `num_threads` threads (OMP_NUM_THREADS
    in the actor; default num_cpus_per_actor, which Ray would set). Candidates
    go to the actors in turn, their libraries (and once per actor the
    unscheduled program they are checked against) through the object store;
    each actor measures as LocalRunner does (the other arguments are
    LocalRunner's, functions sent to the actors). An actor that dies is
    started again and its measurement made again (max_retries times, then
    an error result). `address`: the cluster (None: the one this process
    joined, else a local one on loopback)."""

    def __init__(self, *, address=None, num_actors=1, num_cpus_per_actor=1, num_threads=None,
                 num_gpus_per_actor=None, resources=None, max_retries=3, timeout_sec=30.0,
                 evaluator_config=None, alloc_repeat=1, f_alloc_argument=None,
                 f_run_evaluator=None, f_cleanup=None, initializer=None,
                 reject_slower_than=4.0):
        super().__init__()
        if not (isinstance(num_actors, int) and num_actors > 0):
            raise ValueError(f"RayRunner: num_actors is a positive integer, got {num_actors!r}")
        if num_threads is not None and not (isinstance(num_threads, int) and num_threads > 0):
            raise ValueError(f"RayRunner: num_threads is a positive integer or None, got "
                             f"{num_threads!r}")
        self.address = address
        self.num_actors = num_actors
        self.num_cpus_per_actor = num_cpus_per_actor
        self.num_threads = num_threads or max(1, int(num_cpus_per_actor))
        self.num_gpus_per_actor = num_gpus_per_actor
        self.resources = dict(resources or {})
        self.max_retries = max_retries
        self.timeout_sec = timeout_sec
        # Checked here, as LocalRunner checks them, not first on an actor.
        self.runner_options = dict(
            timeout_sec=timeout_sec, evaluator_config=evaluator_config,
            alloc_repeat=alloc_repeat, f_alloc_argument=f_alloc_argument,
            f_run_evaluator=f_run_evaluator, f_cleanup=f_cleanup, initializer=initializer,
            reject_slower_than=reject_slower_than)
        LocalRunner(**self.runner_options)
        check_picklable("RayRunner", initializer=initializer,
                        f_alloc_argument=f_alloc_argument, f_run_evaluator=f_run_evaluator,
                        f_cleanup=f_cleanup)
        self._actors = {}
        self._references = {}
        self._next = 0

    def _actors_for(self, device_type):
        """The actors measuring on `device_type`, started on first use."""
        if device_type not in self._actors:
            ray = connect(self.address)
            gpus = self.num_gpus_per_actor
            if gpus is None:
                gpus = 1 if device_type == "cuda" else 0
            actor = ray.remote(_Measurer).options(
                num_cpus=self.num_cpus_per_actor, num_gpus=gpus, resources=self.resources,
                max_restarts=self.max_retries, max_task_retries=self.max_retries,
                scheduling_strategy="SPREAD",
                runtime_env={"env_vars": {"OMP_NUM_THREADS": str(self.num_threads)}})
            actors = [actor.remote(self.runner_options) for _ in range(self.num_actors)]
            ready, _ = ray.wait([a.__ray_ready__.remote() for a in actors],
                                num_returns=len(actors), timeout=_ACTOR_START_SEC)
            if len(ready) < len(actors):
                for a in actors:
                    ray.kill(a, no_restart=True)
                raise RuntimeError(
                    f"RayRunner: the cluster placed {len(ready)} of {len(actors)} measuring "
                    f"actor(s) in {_ACTOR_START_SEC:g} s, each asking for "
                    f"{self.num_cpus_per_actor:g} CPU(s), {gpus:g} GPU(s) and resources "
                    f"{self.resources} (cluster: {ray.cluster_resources()})")
            self._actors[device_type] = actors
            hold_cpus(self.num_cpus_per_actor * len(actors))
            weakref.finalize(self, hold_cpus, -self.num_cpus_per_actor * len(actors))
        return self._actors[device_type]

    def _reference(self, path):
        """The object-store copy of the unscheduled program at `path`
        (made once), and the key the actors know it by."""
        if path is None:
            return None, []
        if path not in self._references:
            ray = connect(self.address)
            with open(path, "rb") as f:
                self._references[path] = ray.put(f.read())
        # In a list: the actor fetches it only when it has not yet.
        return path, [self._references[path]]

    def run(self, runner_inputs):
        # A measurement waits behind the others its actor was given.
        patience = self.timeout_sec * (self.max_retries + 1) * (len(runner_inputs) + 1) + 60.0
        futures = []
        for runner_input in runner_inputs:
            actors = self._actors_for(str(runner_input.device_type))
            actor = actors[self._next % len(actors)]
            self._next += 1
            with open(runner_input.artifact_path, "rb") as f:
                library = f.read()
            key, reference = self._reference(runner_input.reference_path)
            args_info = [info.as_json() for info in runner_input.args_info]
            ref = actor.measure.remote(library, str(runner_input.device_type), args_info, key,
                                       reference)
            futures.append(RayRunnerFuture(ref, actor, patience))
        return futures
