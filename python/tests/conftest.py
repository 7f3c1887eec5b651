"""Shared by the tests: where the repository and the build folder are.

The build folder is $TIR_BUILD_DIR (relative to the repository root unless
absolute), else <repo>/build; the tests take its tools (bin/tir-opt,
bin/tir-run, bin/tir-translate) and its C API library (lib/libTIRCAPI.so)
from there, never from a path of their own. scripts/sanitize.sh sets it to
build-san. The Python extension itself comes from PYTHONPATH: point both at
the same build (pytest's header shows the two)."""
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _build_dir():
    path = os.environ.get("TIR_BUILD_DIR") or "build"
    return os.path.normpath(os.path.join(ROOT, path))  # an absolute path stays as it is


BUILD_DIR = _build_dir()
BIN_DIR = os.path.join(BUILD_DIR, "bin")
LIB_DIR = os.path.join(BUILD_DIR, "lib")


def tool(name):
    """The path of tool `name` (tir-opt, tir-run, ...) in the build folder,
    whether or not it has been built."""
    return os.path.join(BIN_DIR, name)


def built_tool(name):
    """tool(name) when it is built (an executable file), else None."""
    path = tool(name)
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


# tensorir.tir.schedule.testing (verify_trace_roundtrip) replays transform
# scripts with $TIR_OPT, else the tir-opt beside the extension: the tests
# use the build folder's, unless TIR_OPT names one.
if built_tool("tir-opt") and not os.environ.get("TIR_OPT"):
    os.environ["TIR_OPT"] = tool("tir-opt")


def pytest_report_header(config):
    try:
        import _tensorir
        extension = os.path.abspath(_tensorir.__file__)
    except ImportError as e:
        extension = f"not importable ({e})"
    return [f"tir build folder (TIR_BUILD_DIR): {BUILD_DIR}",
            f"tir extension (PYTHONPATH): {extension}"]


@pytest.fixture
def example():
    """Reads examples/<name>.mlir as an IRModule."""
    import tensorir as tvm

    def load(name):
        return tvm.IRModule.load(os.path.join(ROOT, "examples", name + ".mlir"))

    return load
