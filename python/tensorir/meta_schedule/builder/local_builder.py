"""LocalBuilder: candidates built in parallel on this machine, each in a
child process of its own with a timeout."""
import os
import tempfile

from ...registry import get_global_func, register_global_func
from .._isolation import run_isolated
from ..utils import cpu_count, derived_object
from .builder import BuilderResult, PyBuilder

__all__ = ["LocalBuilder", "default_build", "default_export", "remove_build_dir"]


@register_global_func("meta_schedule.builder.default_build", override=True)
def default_build(mod, target, _params=None):
    """The module compiled for the target (tvm.compile)."""
    from ... import runtime
    return runtime.compile(mod, target)


@register_global_func("meta_schedule.builder.default_export", override=True)
def default_export(mod):
    """The built module written to a shared library in a folder of its
    own; its path."""
    folder = tempfile.mkdtemp(prefix="tir-meta-schedule-")
    path = os.path.join(folder, "tir_tmp_mod.so")
    mod.export_library(path)
    return path


@register_global_func("meta_schedule.remove_build_dir", override=True)
def remove_build_dir(artifact_path):
    """Removes the folder default_export wrote `artifact_path` in (TVM's
    meta_schedule.remove_build_dir): only a folder of tir's own making."""
    import shutil
    folder = os.path.dirname(os.path.abspath(artifact_path))
    if not os.path.basename(folder).startswith("tir-meta-schedule-"):
        raise ValueError(f"remove_build_dir: {artifact_path!r} is not in a folder "
                         f"LocalBuilder made")
    shutil.rmtree(folder, ignore_errors=True)


def _function(f, default):
    if f is None:
        f = default
    if isinstance(f, str):
        f = get_global_func(f)
    if not callable(f):
        raise TypeError(f"LocalBuilder takes a function or a registered function's name, "
                        f"got {f!r}")
    return f


def _build_one(f_build, f_export, mod, target):
    return f_export(f_build(mod, target, None))


@derived_object
class LocalBuilder(PyBuilder):
    """TVM's LocalBuilder: each candidate is built (f_build(mod, target,
    params) -> module) and exported (f_export(module) -> path) in a child
    process, max_workers at once (default: one per core); one that raises,
    crashes or runs past timeout_sec gives an error result, and the others
    go on. f_build and f_export are functions or registered functions'
    names; initializer runs in each child first."""

    def __init__(self, *, max_workers=None, timeout_sec=30.0, f_build=None, f_export=None,
                 initializer=None):
        super().__init__()
        self.max_workers = max_workers or cpu_count(logical=False)
        self.timeout_sec = timeout_sec
        self.f_build, self.f_export = f_build, f_export
        self.initializer = initializer
        self._sanity_check()

    def _sanity_check(self):
        """f_build and f_export resolve in a child (after the initializer
        ran), as TVM checks them; ValueError otherwise."""
        f_build, f_export = self.f_build, self.f_export

        def check():
            _function(f_build, default_build)
            _function(f_export, default_export)

        (outcome,) = run_isolated([(check, ())], max_workers=1, timeout=self.timeout_sec,
                                  initializer=self.initializer)
        if outcome.kind != "ok":
            raise ValueError(f"LocalBuilder: f_build / f_export do not resolve in a worker: "
                             f"{outcome.value}")

    def build(self, build_inputs):
        f_build = self.f_build
        f_export = self.f_export

        def run(mod, target):
            # Looked up in the child, after the initializer registered them.
            return _build_one(_function(f_build, default_build),
                              _function(f_export, default_export), mod, target)

        outcomes = run_isolated([(run, (i.mod, i.target)) for i in build_inputs],
                                max_workers=self.max_workers, timeout=self.timeout_sec,
                                initializer=self.initializer)
        results = []
        for outcome in outcomes:
            if outcome.kind == "ok":
                results.append(BuilderResult(outcome.value, None))
            elif outcome.kind == "timeout":
                results.append(BuilderResult(
                    None, f"LocalBuilder: Timeout, killed after {self.timeout_sec} seconds"))
            elif outcome.kind == "crash":
                results.append(BuilderResult(
                    None, f"LocalBuilder: the build process died (exit code {outcome.value})"))
            else:
                results.append(BuilderResult(
                    None, "LocalBuilder: An exception occurred\n" + outcome.value))
        return results
