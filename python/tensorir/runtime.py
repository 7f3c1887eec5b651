"""build, runtime modules and timing."""
import statistics
import time

import numpy as np

from ._ext import ext
from .ir import IRModule
from .nd import NDArray


class Device:
    """The CPU (the only device the runtime drives so far)."""

    def __init__(self, kind="cpu", index=0):
        self.device_type, self.device_id = kind, index

    def sync(self):
        pass

    def __repr__(self):
        return f"{self.device_type}({self.device_id})"


def cpu(index=0):
    return Device("cpu", index)


class Function:
    """A compiled function; call it with numpy arrays, tvm.nd arrays, ints
    and floats. Arguments are checked against the signature first: a wrong
    shape, element type or count raises ValueError naming the argument."""

    def __init__(self, module, name):
        self._module, self.name = module, name

    def __call__(self, *args):
        converted = [a._data if isinstance(a, NDArray) else a for a in args]
        for i, a in enumerate(converted):
            if isinstance(a, np.ndarray) and not a.flags.writeable:
                converted[i] = a.copy()
        self._module._native.call(self.name, *converted)

    @property
    def signature(self):
        return self._module._native.signature(self.name)


class TimingResult:
    def __init__(self, results):
        self.results = tuple(results)
        self.mean = statistics.fmean(results)
        self.median = statistics.median(results)
        self.min = min(results)
        self.max = max(results)
        self.std = statistics.pstdev(results)

    def __repr__(self):
        return (f"TimingResult(mean={self.mean:.6g} s, median={self.median:.6g} s, "
                f"min={self.min:.6g} s, runs={len(self.results)})")


class Module:
    """Built code (TVM's runtime.Module): functions by name."""

    def __init__(self, native):
        self._native = native

    @property
    def functions(self):
        return self._native.functions()

    def __getitem__(self, name):
        if name not in self.functions:
            raise KeyError(f"no function named '{name}'; the module has "
                           f"{', '.join(self.functions)}")
        return Function(self, name)

    def __call__(self, *args):
        """Calls the module's entry function: "main", or its only function
        (as TVM's built modules are called directly)."""
        names = self.functions
        if "main" in names:
            return self["main"](*args)
        if len(names) == 1:
            return self[names[0]](*args)
        raise ValueError(f"the module has several functions ({', '.join(names)}) "
                         "and none is 'main'; call mod[name](...)")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def time_evaluator(self, name, dev=None, number=10, repeat=1,
                       min_repeat_ms=0):
        """As TVM's: a callable that runs `number` calls `repeat` times and
        returns the seconds per call of each repeat."""
        func = self[name]

        def evaluate(*args):
            func(*args)  # warm-up
            results = []
            for _ in range(repeat):
                start = time.perf_counter()
                calls = 0
                while True:
                    for _ in range(number):
                        func(*args)
                    calls += number
                    elapsed = time.perf_counter() - start
                    if elapsed * 1000 >= min_repeat_ms:
                        break
                results.append(elapsed / calls)
            return TimingResult(results)

        return evaluate

    def export_library(self, path):
        """Writes the shared library this module was built from."""
        if self._source is None:
            raise ValueError("a loaded library cannot be exported again")
        ext.export_library(self._source._native, path, self._target_cpu)

    _source = None
    _target_cpu = "native"


def _target_cpu(target):
    if target in (None, "llvm", "c"):
        return "native"
    text = str(target)
    if not text.startswith("llvm"):
        raise ValueError(f"target '{text}' is not supported; the runtime "
                         "builds for the CPU ('llvm')")
    for part in text.split()[1:]:
        if part.startswith("-mcpu="):
            return part[len("-mcpu="):]
    return "native"


def build(mod, target="llvm", name=None):
    """Compiles `mod` (an IRModule or a PrimFunc) for the CPU and loads it in this process
    (TVM's tvm.build). target: "llvm" or "llvm -mcpu=<cpu>"."""
    from .script.tir import PrimFunc
    if isinstance(mod, PrimFunc):
        mod = IRModule.from_expr(mod)
    if not isinstance(mod, IRModule):
        raise TypeError(f"build takes an IRModule or a PrimFunc, got {type(mod).__name__}")
    # Functions are built under their global symbols (Schedule(prim_func)
    # schedules it as "main"; the library still has it under its name).
    mod = mod.with_global_symbols()
    cpu_name = _target_cpu(target)
    built = Module(ext.build(mod._native, cpu_name))
    built._source, built._target_cpu = mod, cpu_name
    return built


def compile(mod, target="llvm"):  # noqa: A001 - TVM's name
    """tvm.compile: build() of an IRModule or a PrimFunc; target None is
    "llvm"."""
    return build(mod, "llvm" if target is None else target)


def tensor(data, device=None):
    """tvm.runtime.tensor: an array the built functions read and write
    (tvm.nd.array)."""
    from .nd import array
    return array(data, device)


def load_module(path):
    """Loads a shared library written by Module.export_library."""
    return Module(ext.load_library(path))
