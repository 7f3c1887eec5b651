"""RayBuilder: candidates built as Ray tasks anywhere in a cluster, the
built libraries coming back through Ray's object store."""
import os
import tempfile

from .._isolation import run_isolated
from .._ray import connect
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

    def build(self, build_inputs):
        ray = connect(self.address)
        task = ray.remote(_build_task).options(num_cpus=self.num_cpus_per_build,
                                               max_retries=self.max_retries)
        refs = [task.remote(i.mod.mlir(), i.target.export(), self.f_build, self.f_export,
                            self.initializer, self.timeout_sec) for i in build_inputs]
        # Each build is bounded by its child's timeout; this bounds the
        # wait for a cluster that can no longer run the tasks at all.
        patience = self.timeout_sec * (self.max_retries + 1) + 60.0
        results = []
        for ref in refs:
            try:
                kind, value = ray.get(ref, timeout=patience)
            except ray.exceptions.GetTimeoutError:
                ray.cancel(ref, force=True)
                kind, value = "lost", f"no result after {patience:.0f} seconds"
            except ray.exceptions.RayError as error:
                kind, value = "lost", str(error).strip().splitlines()[0]
            results.append(self._result(kind, value))
        return results

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
