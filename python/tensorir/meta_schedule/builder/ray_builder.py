"""RayBuilder: candidates built as Ray tasks anywhere in a cluster, the
built libraries coming back through Ray's object store."""
import os
import tempfile

from .._isolation import run_isolated
from .._ray import check_picklable, connect, held_cpus
from ..utils import derived_object
from .builder import BuilderResult, PyBuilder
from .local_builder import _build_one, _function, default_build, default_export

__all__ = ["RayBuilder"]


def _build_task(mlir, target, f_build, f_export, initializer, timeout_sec):
    """What a Ray worker runs for one candidate: the module (MLIR text)
    built and exported in a child process of the worker's (a compiler crash
    or hang ends the child, not the worker), the library's bytes returned.
    Returns ("ok", bytes) or the child's outcome ("error", traceback),
    ("timeout", None), ("crash", exit code)."""
    import shutil

    from ...ir import IRModule
    from ...target import Target

    def run():
        path = _build_one(_function(f_build, default_build), _function(f_export, default_export),
                          IRModule.from_mlir(mlir), Target(target))
        with open(path, "rb") as f:
            data = f.read()
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.basename(folder).startswith("tir-meta-schedule-"):
            shutil.rmtree(folder, ignore_errors=True)
        return data

    (outcome,) = run_isolated([(run, ())], max_workers=1, timeout=timeout_sec,
                              initializer=initializer)
    return outcome.kind, outcome.value


@derived_object
class RayBuilder(PyBuilder):
    """Builds each candidate as a Ray task (num_cpus_per_build CPUs of any
    node; the task runs the build in a child process with timeout_sec, as
    LocalBuilder does). The library comes back through the object store
    and is written to a folder of its own on this machine, so any runner
    can take it. A worker or node that dies during a build has the task run
    again elsewhere (max_retries times, then an error result); a build that
    raises, crashes or runs past its timeout gives an error result, and the
    others go on. `address`: the cluster (None: the one this process
    joined, else a local one on loopback). f_build, f_export and
    initializer are LocalBuilder's (functions are sent to the workers;
    registered functions' names are looked up there, after initializer)."""

    def __init__(self, *, address=None, num_cpus_per_build=1, timeout_sec=30.0,
                 max_retries=3, f_build=None, f_export=None, initializer=None):
        super().__init__()
        if not num_cpus_per_build > 0:
            raise ValueError(f"RayBuilder: num_cpus_per_build is positive, got "
                             f"{num_cpus_per_build!r}")
        self.address = address
        self.num_cpus_per_build = num_cpus_per_build
        self.timeout_sec = timeout_sec
        self.max_retries = max_retries
        self.f_build, self.f_export = f_build, f_export
        self.initializer = initializer
        check_picklable("RayBuilder", f_build=f_build, f_export=f_export,
                        initializer=initializer)

    def _slots(self, ray):
        """How many builds the cluster runs at once: its CPUs less those
        this process's measuring actors hold, over a build's. RuntimeError
        when that leaves none for a build."""
        total = ray.cluster_resources().get("CPU", 0)
        free = total - held_cpus()
        if free < self.num_cpus_per_build:
            held = f", {held_cpus():g} held by measuring actors" if held_cpus() else ""
            raise RuntimeError(
                f"RayBuilder: the cluster has {total:g} CPU(s){held}; a build asks for "
                f"{self.num_cpus_per_build:g}: add nodes, or measure with fewer actors")
        return max(1, int(free // self.num_cpus_per_build))

    def build(self, build_inputs):
        if not build_inputs:
            return []
        ray = connect(self.address)
        task = ray.remote(_build_task).options(num_cpus=self.num_cpus_per_build,
                                               max_retries=self.max_retries)
        slots = self._slots(ray)
        refs = [task.remote(i.mod.mlir(), i.target.export(), self.f_build, self.f_export,
                            self.initializer, self.timeout_sec) for i in build_inputs]
        # Each build is bounded by its child's timeout; this bounds the
        # batch's wait on a cluster that stops running the tasks at all
        # (every build timing out, retried, on the slots there were).
        rounds = -(-len(refs) // slots)
        patience = self.timeout_sec * (self.max_retries + 1) * rounds + 60.0
        ray.wait(refs, num_returns=len(refs), timeout=patience)
        return [self._outcome(ray, ref, patience) for ref in refs]

    def _outcome(self, ray, ref, patience):
        try:
            kind, value = ray.get(ref, timeout=0)
        except ray.exceptions.GetTimeoutError:
            ray.cancel(ref, force=True)
            return BuilderResult(None, f"RayBuilder: no result after {patience:.0f} seconds "
                                       f"(the batch's deadline; the cluster did not run it)")
        except ray.exceptions.RayTaskError as error:  # the task's own, never retried
            kind, value = "error", str(error)
        except ray.exceptions.RayError as error:  # a worker or node that died
            kind, value = "lost", str(error).strip().splitlines()[0]
        return self._result(kind, value)

    def _result(self, kind, value):
        if kind == "ok":
            folder = tempfile.mkdtemp(prefix="tir-meta-schedule-")
            path = os.path.join(folder, "tir_tmp_mod.so")
            with open(path, "wb") as f:
                f.write(value)
            return BuilderResult(path, None)
        if kind == "timeout":
            return BuilderResult(
                None, f"RayBuilder: Timeout, killed after {self.timeout_sec} seconds")
        if kind == "crash":
            return BuilderResult(None, f"RayBuilder: the build process died (exit code {value})")
        if kind == "lost":
            return BuilderResult(None, f"RayBuilder: the build was lost after "
                                       f"{self.max_retries} retries: {value}")
        return BuilderResult(None, "RayBuilder: An exception occurred\n" + value)
