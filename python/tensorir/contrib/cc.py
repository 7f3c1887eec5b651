"""tvm.contrib.cc: the system C compiler driver, to link objects into a
shared library or archive them."""
import os
import shutil
import subprocess


def _compiler(cc):
    cc = cc or os.environ.get("CXX") or os.environ.get("CC")
    for candidate in ([cc] if cc else ["clang++-22", "clang++", "g++", "c++"]):
        if shutil.which(candidate):
            return candidate
    raise RuntimeError("tvm.contrib.cc: no C++ compiler found (set CXX)")


def create_shared(output, objects, options=None, cc=None, cwd=None, ccache_env=None):
    """Links `objects` (a path or a list) into the shared library
    `output`."""
    objects = [objects] if isinstance(objects, str) else list(objects)
    cmd = [_compiler(cc), "-shared", "-fPIC", "-o", output] + objects + list(options or [])
    _run(cmd, cwd)


def create_staticlib(output, inputs, ar=None):
    """Archives the objects `inputs` into the static library `output`."""
    inputs = [inputs] if isinstance(inputs, str) else list(inputs)
    ar = ar or os.environ.get("AR") or shutil.which("llvm-ar-22") or "ar"
    _run([ar, "crs", output] + inputs, None)


def create_executable(output, objects, options=None, cc=None, cwd=None, ccache_env=None):
    """Links `objects` into the executable `output`."""
    objects = [objects] if isinstance(objects, str) else list(objects)
    _run([_compiler(cc), "-o", output] + objects + list(options or []), cwd)


def _run(cmd, cwd):
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"tvm.contrib.cc: {' '.join(cmd)} failed:\n{proc.stdout}"
                           f"{proc.stderr}")


create_shared.output_format = "so"
create_staticlib.output_format = "a"
create_executable.output_format = ""

__all__ = ["create_executable", "create_shared", "create_staticlib"]
