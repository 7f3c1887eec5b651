"""build, runtime modules and timing."""
import json
import os
import re
import statistics
import sys
import time

import numpy as np

import tir_runtime as _rt

from . import _packed
from ._ext import ext
from .error import TVMError
from .ir import IRModule
from .ir.container import Array
from .nd import NDArray

# TVM's name of the array class (tvm.runtime.Tensor).
Tensor = NDArray

# Compiled code calls packed functions through the extension.
_packed.install()


class CallError(ValueError, TVMError):
    """A call a compiled function refuses (a wrong count, shape, dtype or
    size of its arguments): a ValueError, and a TVMError as TVM's virtual
    machine raises it."""


class ShapeTuple(tuple):
    """A shape (TVM's runtime.ShapeTuple): a tuple of ints."""

    def __new__(cls, shape):
        return super().__new__(cls, (int(d) for d in shape))


class DataType(str):
    """A data type by TVM's name ("float32", "int64x4"): a str with its
    parts (TVM's runtime.DataType)."""

    @property
    def lanes(self):
        return int(self.split("x")[1]) if "x" in self else 1

    @property
    def bits(self):
        base = self.split("x")[0]
        if base == "bool":
            return 1
        digits = "".join(c for c in base if c.isdigit())
        return int(digits) if digits else 0

    @property
    def type_code(self):
        return self.split("x")[0].rstrip("0123456789")


class Device(_rt.Device):
    """cpu(0) or cuda(n), as TVM's Device; a GPU's attributes come from its
    driver."""

    def _info(self, key):
        if self.device_type != "cuda":
            raise AttributeError(f"{key} is a GPU attribute; {self} is the CPU")
        return ext.cuda_device_info(self.device_id)[key]

    @property
    def device_name(self):
        return self._info("name") if self.device_type == "cuda" else "cpu"

    @property
    def compute_version(self):
        return self._info("compute_version")

    @property
    def max_threads_per_block(self):
        return self._info("max_threads_per_block")

    @property
    def max_shared_memory_per_block(self):
        return self._info("max_shared_memory_per_block")

    @property
    def multi_processor_count(self):
        return self._info("multi_processor_count")

    @property
    def warp_size(self):
        return self._info("warp_size")

    @property
    def total_global_memory(self):
        return self._info("total_global_memory")


def cpu(index=0):
    return Device("cpu", index)


def cuda(index=0):
    """The GPU `index` (TVM's tvm.cuda); `.exist` says whether it is there."""
    return Device("cuda", index)


def device(kind, index=0):
    """tvm.device("cuda", 0) / tvm.device("cpu")."""
    kind = {"llvm": "cpu", "gpu": "cuda"}.get(kind, kind)
    return Device(kind, index)


_INT64 = (-(1 << 63), (1 << 63) - 1)
# numpy's dtypes of bool, int, uint and float in the machine's byte order:
# an array whose dtype equals one of them passes Function._convert's checks
# of its dtype (Function.__call__ lets a writable one through without them).
_NATIVE_DTYPES = frozenset(np.dtype(code) for code in "?bhilqBHILQefdg")


class Function:
    """A compiled function; call it with numpy arrays, tvm.nd arrays, ints
    and floats. Arguments are checked against the signature first: a wrong
    count, shape, element type, a scalar out of its type's range, an array
    smaller than the sizes the scalars give, or a read-only array the
    function writes raises ValueError (TypeError for a value of the wrong
    kind) naming the argument; nothing runs then."""

    def __init__(self, module, name):
        self._module, self.name = module, name
        (self._params, self._results, self._tuple, self._one,
         interface) = module._parameters(name)
        # A graph function taking shapes (their dimensions as scalars) or
        # returning shapes and integers: how its values convert.
        self._param_nesting = interface.get("params")
        self._result_kinds = interface.get("results")
        self._notes = interface.get("notes") or {}
        # The call site of a packed function whose result (of no shape
        # known when compiled) the function returns.
        self._returned = interface.get("returned")
        # Results that are arguments (given back as the very arrays).
        self._aliases = isinstance(self._tuple, list) and _has_alias(self._tuple)
        self._native_call = module._native.call

    def _where(self, i):
        if i < len(self._params):
            return f"argument {i} ('{self._params[i].name}') of '{self.name}'"
        return f"argument {i} of '{self.name}'"

    def _convert(self, i, a):
        if isinstance(a, NDArray):
            a = a._data
        if isinstance(a, _rt.DeviceArray):
            return a
        if isinstance(a, np.generic) and not isinstance(a, np.ndarray):
            if isinstance(a, np.bool_):
                a = bool(a)
            elif isinstance(a, np.integer):
                a = int(a)
            elif isinstance(a, np.floating):
                a = float(a)
        if isinstance(a, bool):
            return a
        if isinstance(a, int):
            if not _INT64[0] <= a <= _INT64[1]:
                raise ValueError(f"{self._where(i)}: {a} does not fit a 64-bit integer")
            return a
        if isinstance(a, float):
            return a
        if isinstance(a, np.ndarray):
            if _rt.type_code(a.dtype) is None:
                raise TypeError(f"{self._where(i)}: arrays of dtype {a.dtype} cannot be "
                                "passed; tir functions take bool, int, uint and float arrays "
                                "(and ml_dtypes' bfloat16, float8_e4m3fn, float8_e5m2)")
            if a.dtype.byteorder == (">" if sys.byteorder == "little" else "<"):
                order = "big" if a.dtype.byteorder == ">" else "little"
                raise ValueError(f"{self._where(i)} is {order}-endian ({a.dtype.str}); tir "
                                 "functions take arrays in the machine's byte order "
                                 "(numpy: a.astype(a.dtype.newbyteorder('=')))")
            if not a.flags.writeable:
                written = i < len(self._params) and self._params[i].written
                if written:
                    raise ValueError(f"{self._where(i)} is a read-only array, but the "
                                     "function writes it; pass a writable array "
                                     "(numpy: array.copy())")
                # The native call takes writable arrays; the function only
                # reads this one, so a copy is the same to it.
                a = a.copy()
            return a
        raise TypeError(f"{self._where(i)} is a {type(a).__name__}; tir functions take "
                        "numpy arrays, tvm.nd arrays, ints and floats")

    def __call__(self, *args):
        """Calls the function. A graph function's results (its parameters
        marked "(result)") may be left out: they are allocated and returned
        (one array, or a tuple of them; a tuple of one when the function
        returns an R.Tuple of one tensor)."""
        if self._param_nesting is not None:
            args = self._relax_arguments(args)
        elif any(type(a) in (tuple, list) for a in args):
            args = _flattened(args)  # a tuple parameter's arrays, in order
        # Results live where the function runs: a GPU function's on the GPU
        # of its arrays.
        gpu = None
        if self._module.target == "cuda":
            gpu = next((a.device for a in args if isinstance(a, _rt.DeviceArray)),
                       _rt.cuda(0))
        args, outputs = self._with_results(args, gpu)
        # The common case inline (a call of a small kernel takes a few
        # microseconds; the checks were a third of them): a writable numpy
        # array of a native numeric dtype, or a tvm.nd array holding one.
        converted = []
        for i, a in enumerate(args):
            if type(a) is NDArray:
                a = a._data
            if not (type(a) is np.ndarray and a.dtype in _NATIVE_DTYPES
                    and a.flags.writeable):
                a = self._convert(i, a)
            converted.append(a)
        try:
            if self._returned:
                with _packed.keep_results() as kept:
                    self._native_call(self.name, *converted)
                return _as_result(kept.get(self._returned))
            self._native_call(self.name, *converted)
        except ValueError as error:
            # A packed function's own exception, where one failed.
            failure = _packed.take_failure()
            if failure is not None:
                raise failure from error
            message = str(error)
            if self._notes:
                # What an argument's checks come from (an R.match_cast).
                index = re.match(r"argument (\d+) ", message)
                note = self._notes.get(index.group(1)) if index else None
                if note:
                    message += f" ({note})"
            raise CallError(message) from None
        if self._result_kinds:
            outputs = [_relax_result(kind, a) for kind, a in zip(self._result_kinds, outputs)]
        if outputs or self._aliases:
            if isinstance(self._tuple, list):  # as they nest, arguments too
                value = _nested(self._tuple, outputs, args)
                return value[0] if self._one else value
            if len(outputs) == 1 and not self._tuple:
                return outputs[0]
            return Array(outputs)
        return None

    def _with_results(self, args, gpu):
        """`args` with the results a graph function's call left out
        allocated and put in their places (on `gpu`, or on the host where it
        is None), and those results; `args` as they are where none was left
        out."""
        results = self._results
        if not results or len(args) != len(self._params) - len(results):
            return args, []
        args, inputs, outputs = list(args), list(args), []
        for i in results:
            dtype, shape = self._params[i].dtype, self._result_shape(i, inputs)
            outputs.append(_rt.empty(shape, dtype, gpu) if gpu is not None
                           else NDArray(np.empty(shape, dtype=_rt.numpy_dtype(dtype))))
            args.insert(i, outputs[-1])
        return args, outputs

    def _relax_arguments(self, args):
        """The arguments of a graph function taking shapes, one per
        parameter as written, as the scalars and arrays it takes: a shape
        (ShapeTuple, tuple or list of ints) gives its dimensions, a tuple of
        arrays its arrays."""
        nesting = self._param_nesting
        if len(args) != len(nesting) and not (
                self._results and len(args) == len(nesting) + len(self._results)):
            raise CallError(f"'{self.name}' takes {len(nesting)} arguments, got {len(args)}")
        out = []
        for k, (entry, a) in enumerate(zip(nesting, args)):
            if isinstance(entry, dict) and "shape" in entry:
                if isinstance(a, (bool, int, float, np.generic)) or not isinstance(
                        a, (tuple, list)) or not all(
                            isinstance(d, (int, np.integer)) and not isinstance(d, bool)
                            for d in a):
                    raise TypeError(f"argument {k} ('{entry['name']}') of '{self.name}' is "
                                    f"a shape (a ShapeTuple or a tuple of ints), got "
                                    f"{type(a).__name__}")
                if len(a) != len(entry["shape"]):
                    raise CallError(f"argument {k} ('{entry['name']}') of '{self.name}' is "
                                    f"a shape of {len(entry['shape'])} dimensions, got "
                                    f"{len(a)}: {tuple(int(d) for d in a)}")
                out.extend(int(d) for d in a)
            elif isinstance(entry, dict):
                out.extend(_flattened([a]) if _array_tuple(a) else [a])
            else:
                if isinstance(a, ShapeTuple):
                    raise TypeError(f"argument {k} of '{self.name}' is no shape, got "
                                    f"{a!r}")
                out.append(a)
        return out + list(args[len(nesting):])

    def _result_shape(self, i, inputs):
        """The shape of result parameter `i` for a call on `inputs` (the
        arguments without the results): a dynamic dimension from the sizes
        of the arguments its shape variable sizes."""
        param = self._params[i]
        if None not in param.shape:
            return param.shape
        # Argument index (results counted) -> the value given.
        given, k = {}, 0
        for j, p in enumerate(self._params):
            if not p.result:
                given[j], k = (inputs[k] if k < len(inputs) else None), k + 1
        shape = []
        for d, size in enumerate(param.shape):
            if size is None:
                constant, terms = (param.sizes or {}).get(d, (None, ()))
                if constant is None:
                    raise ValueError(f"'{self.name}': result '{param.name}' has a dynamic "
                                     f"dimension {d} no argument sizes; pass the result")
                size = constant
                for coeff, j, dim in terms:
                    value = given.get(j)
                    if dim >= 0:
                        value = getattr(value, "shape", None)
                        if value is None or dim >= len(value):
                            raise ValueError(f"{self._where(j)} is not an array of the "
                                             f"rank the function takes")
                        value = value[dim]
                    size += coeff * int(value)
            shape.append(int(size))
        return tuple(shape)

    @property
    def signature(self):
        return self._module._native.signature(self.name)


def _nested(nesting, outputs, args=()):
    """The results `outputs` as `nesting` (a list of their indices and of
    such lists, one per tuple) nests them; an index -1 - j is argument j
    (a result that is the argument itself)."""
    return Array([_nested(n, outputs, args) if isinstance(n, list)
                  else outputs[n] if n >= 0 else _as_result(args[-1 - n]) for n in nesting])


def _relax_result(kind, array):
    """A graph function's result as the Relax value it is: a shape
    (ShapeTuple) or an integer from the array holding it."""
    if kind == "shape":
        return ShapeTuple(np.asarray(array.numpy() if hasattr(array, "numpy") else array))
    if kind == "prim":
        return int(np.asarray(array.numpy() if hasattr(array, "numpy") else array))
    return array


def _as_result(arg):
    """An argument given back as a result: the array itself (a numpy array
    as the tvm.nd array viewing it)."""
    return NDArray(arg) if isinstance(arg, np.ndarray) else arg


def _has_alias(nesting):
    return any(_has_alias(n) if isinstance(n, list) else n < 0 for n in nesting)


def _array_tuple(a):
    """Whether `a` is a tuple or list of arrays (or of such tuples): what a
    graph function's tuple parameter takes."""
    return type(a) in (tuple, list) and len(a) > 0 and all(
        isinstance(x, (np.ndarray, NDArray, _rt.DeviceArray)) or _array_tuple(x) for x in a)


def _flattened(args):
    """The arguments with tuples and lists of arrays spliced in,
    recursively (a list of numbers stays, and is refused as one)."""
    out = []
    for a in args:
        if _array_tuple(a):
            out.extend(_flattened(a))
        else:
            out.append(a)
    return out


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


def _cache_flusher():
    """A function that evicts the CPU caches: it sweeps a buffer twice the
    size of the last-level cache (64 MiB where sysfs does not say)."""
    size = 32 << 20
    try:
        import glob
        sizes = []
        for path in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*/size"):
            with open(path) as f:
                text = f.read().strip()
            scale = {"K": 1 << 10, "M": 1 << 20}.get(text[-1:], 1)
            sizes.append(int(text.rstrip("KM")) * scale)
        if sizes:
            size = max(sizes)
    except (OSError, ValueError):
        pass
    sweep = np.zeros(2 * size // 8)

    def flush():
        np.add(sweep, 1.0, out=sweep)

    return flush


class Module:
    """Built code (TVM's runtime.Module): functions by name."""

    def __init__(self, native):
        self._native = native
        self._known = {}  # name -> (parameters, indices of results)

    @property
    def functions(self):
        return self._native.functions()

    @property
    def compile_times(self):
        """Seconds each phase of build() took: "lower" (tir to the llvm
        dialect), "translate" (to an LLVM module), "optimize" (LLVM's
        pipeline), "codegen" (machine code); empty for a loaded library."""
        return dict(self._native.compile_times)

    def __getitem__(self, name):
        if name == "stats" and "stats" not in self.functions:
            return self.stats
        return Function(self, name)

    def stats(self):
        """What the library holds (TVM's executable "stats", also as
        mod["stats"]()): its functions, each with its signature."""
        lines = [f"tir library: {len(self.functions)} function(s)"]
        for name in self.functions:
            lines.append(f"  {self._native.signature(name)}")
        return "\n".join(lines)

    def _parameters(self, name):
        """`name`'s parameters (tir_runtime.Param), the indices of its
        results and whether they form a tuple, asked of the runtime once
        per name: looking a function up
        again (mod["f"](...) in a loop) does not ask again. (The module
        keeps no Function: a Function keeps its module alive, and a cycle
        would keep a built module's code until the garbage collector
        ran.)"""
        parsed = self._known.get(name)
        if parsed is None:
            if name not in self.functions:
                raise KeyError(f"no function named '{name}'; the module has "
                               f"{', '.join(self.functions)}")
            params = [_rt.make_param(*p) for p in self._native.params(name)]
            nesting = self._native.result_nesting(name)
            returns_tuple = self._native.returns_tuple(name)
            tuple_result = json.loads(nesting) if nesting else returns_tuple
            # One result, nested only to say that it is an argument.
            one = bool(nesting) and not returns_tuple
            interface = self._native.interface(name)
            parsed = self._known[name] = (params, [i for i, p in enumerate(params) if p.result],
                                          tuple_result, one,
                                          json.loads(interface) if interface else {})
        return parsed

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

    @property
    def entry_name(self):
        """The entry function's name (TVM's Module.entry_name): "main", or
        the only function."""
        names = self.functions
        if "main" in names or len(names) != 1:
            return "main"
        return names[0]

    def time_evaluator(self, name=None, dev=None, number=10, repeat=1,
                       min_repeat_ms=0, f_preproc="", *, func_name=None):
        """As TVM's: a callable that runs `number` calls `repeat` times and
        returns the seconds per call of each repeat. f_preproc
        "cache_flush_cpu_non_first_arg" evicts the caches before each
        repeat (by sweeping a buffer twice the last-level cache: TVM
        flushes the arguments' lines, which Python cannot)."""
        if name is None:
            name = func_name
        if name is None:
            raise TypeError("time_evaluator: give the function's name")
        if f_preproc not in ("", None, "cache_flush_cpu_non_first_arg"):
            raise ValueError(f"time_evaluator: f_preproc is '' or "
                             f"'cache_flush_cpu_non_first_arg', got {f_preproc!r}")
        flush = _cache_flusher() if f_preproc else None
        func = self._timed_function(name)
        for what, value in (("number", number), ("repeat", repeat)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"time_evaluator: {what} is a positive integer, got {value!r}")
        if not isinstance(min_repeat_ms, (int, float)) or min_repeat_ms < 0:
            raise ValueError(f"time_evaluator: min_repeat_ms is a non-negative number, "
                             f"got {min_repeat_ms!r}")
        if isinstance(dev, _rt.Device) and dev.device_type == "cuda":
            return self._time_on_gpu(func, dev, number, repeat)

        def evaluate(*args):
            func(*args)  # warm-up
            results = []
            for _ in range(repeat):
                if flush is not None:
                    flush()
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

    def _timed_function(self, name):
        """What time_evaluator(name) calls (a VirtualMachine's closures
        too)."""
        return self[name]

    def _time_on_gpu(self, func, dev, number, repeat):
        """Device events around `number` calls, `repeat` times."""

        def evaluate(*args):
            # A graph function's results left out: allocated once, on the
            # GPU timed, and written by every call.
            args, _ = func._with_results(args, dev)
            converted = [func._convert(i, a) for i, a in enumerate(args)]
            func(*args)  # warm-up: loads the kernels (and compiles PTX)
            dev.sync()
            return TimingResult([
                self._native.time_call(func.name, dev.device_id, number, *converted)
                for _ in range(repeat)])

        return evaluate

    @property
    def target(self):
        """Where the functions run: "cpu" or "cuda"."""
        return self._native.target

    def export_library(self, path, *, fcompile=None, workspace_dir=None, **options):
        """Writes the shared library this module was built from (for a GPU
        build: the host code, with the kernels embedded, linked against the
        runtime library libTIRRuntime.so). A CPU build links the machine
        code build() made; a GPU build is compiled again from its source.
        TVM's workspace_dir (where its intermediate files go) is taken:
        tir writes none there, the object file being linked from memory;
        fcompile and other options (another compiler) are refused."""
        if fcompile is not None or options:
            raise NotImplementedError(
                "export_library: fcompile and compiler options are not supported (tir links "
                "its object file itself)" + (f"; got {sorted(options)}" if options else ""))
        if workspace_dir is not None and not os.path.isdir(workspace_dir):
            raise ValueError(f"export_library: workspace_dir {workspace_dir!r} is not a "
                             "folder")
        if self._source is None:
            raise ValueError("a loaded library cannot be exported again")
        if self._native.has_object:
            self._native.export_object(path)
            return
        ext.export_library(self._source._native, path, self._target_cpu,
                           **self._device_options)

    def get_source(self, fmt="ll"):
        """The host code this module was built from, as text (TVM's
        get_source): "ll" (or "") the LLVM IR as LLVM optimized it, "asm"
        (or "s") the target's assembly. Compiled again for the asking: the
        same pipeline, stopped before the machine code is loaded. For a
        CUDA build this is the host code (the kernels are in it as PTX or
        a cubin)."""
        kinds = {"": "ll", "ll": "ll", "asm": "asm", "s": "asm"}
        if fmt not in kinds:
            raise ValueError(f"get_source: unknown format '{fmt}' (expected 'll' or 'asm')")
        if self._source is None:
            raise ValueError("get_source: a loaded library has no source to show")
        return ext.get_source(self._source._native, kinds[fmt], self._target_cpu,
                              **self._device_options)

    _source = None
    _target_cpu = "native"
    _device_options = {}


def _target_cpu(target):
    """The CPU to build for, from "llvm", "llvm -mcpu=<cpu>" or a Target.
    Options the build would otherwise ignore silently are refused: target
    features (-mattr) and another machine's triple (-mtriple)."""
    if target in (None, "llvm", "c"):
        return "native"
    from .target import Target
    text = str(target)
    if not text.startswith("llvm"):
        raise ValueError(f"target '{text}' is not supported; the runtime "
                         "builds for the CPU ('llvm') and NVIDIA GPUs ('cuda')")
    options = Target(text).attrs
    if options.get("mattr"):
        raise ValueError(f"target '{text}': -mattr is not supported by build; the code "
                         "uses the CPU's features (give the CPU with -mcpu)")
    triple = options.get("mtriple")
    if triple:
        import platform
        machine = platform.machine()
        if not str(triple).startswith(machine):
            raise ValueError(f"target '{text}': -mtriple={triple} is another machine; "
                             f"build compiles for this one ({machine})")
    cpu = options.get("mcpu")
    if cpu is True or cpu == "":
        raise ValueError(f"target '{text}': -mcpu needs a CPU name (-mcpu=native, "
                         "-mcpu=skylake, ...)")
    return cpu or "native"


def _cpu_options(target):
    """The CPU build's options beyond the CPU: TVM's -fast-math and
    -fast-math-reassoc let LLVM reorder the terms of float reductions
    (--tir-reassociate-reductions), which it then vectorizes."""
    if target in (None, "llvm", "c"):
        return {}
    from .target import Target
    options = Target(str(target)).attrs
    if any(options.get(key) in (True, "true", "1", 1) for key in ("fast-math", "fast-math-reassoc")):
        return {"reassociate_reductions": True}
    return {}


def _cuda_options(target):
    """The options of a CUDA build from "cuda", "cuda -arch=sm_90" or a
    Target: the chip (the GPU's own when there is one, else sm_80, whose
    PTX newer GPUs also run) and what the kernels are embedded as (PTX;
    -format=bin for a cubin through ptxas)."""
    from .target import Target
    text = str(target)
    options = Target(text).attrs
    # The GPU's description (what a tag gives) informs scheduling, not
    # the build.
    described = {"keys", "max_num_threads", "thread_warp_size", "max_threads_per_block",
                 "max_shared_memory_per_block", "registers_per_block", "l2_cache_size_bytes"}
    unknown = set(options) - {"arch", "format"} - described
    if unknown:
        raise ValueError(f"target '{text}': option -{sorted(unknown)[0]} is not supported "
                         "for cuda (supported: -arch=sm_XY, -format=isa|bin)")
    chip = options.get("arch")
    if chip is True or (chip is not None and not str(chip).startswith("sm_")):
        raise ValueError(f"target '{text}': -arch names a GPU as sm_XY (sm_80, sm_90)")
    if chip is None:
        chip = "sm_80"
        if _rt.cuda(0).exist:
            chip = "sm_" + ext.cuda_device_info(0)["compute_version"].replace(".", "")
            # The build is for this GPU: on Hopper, its architecture-specific
            # instructions (wgmma) too.
            if chip == "sm_90":
                chip = "sm_90a"
    fmt = options.get("format", "isa")
    if fmt not in ("isa", "bin"):
        raise ValueError(f"target '{text}': -format is isa (PTX) or bin (a cubin)")
    return {"device": "cuda", "chip": str(chip), "format": fmt}


def _is_cuda(target):
    return target is not None and not isinstance(target, (list, tuple)) and \
        str(target).split()[0] in ("cuda", "nvptx")


def build(mod, target="llvm", name=None, args=None):
    """Compiles `mod` (an IRModule or a PrimFunc, or a te schedule with its
    arguments: build(sch, [a, b, c])) for the CPU and loads it in this
    process (TVM's tvm.build). target: "llvm" or "llvm -mcpu=<cpu>" for the
    CPU (-fast-math or -fast-math-reassoc: float reductions may be
    reordered, and vectorized); "cuda" (or "cuda -arch=sm_90") for NVIDIA
    GPUs, where loops bound to blockIdx / threadIdx become kernels and the
    functions take arrays
    in the GPU's memory (tvm.nd.array(x, tvm.cuda(0))). When
    the current PassContext adds lowering passes (tir.add_lower_pass) or
    sets tir.disable_vectorize, the program goes through tvm.lower first."""
    from . import _default_schedules
    from .driver import lower
    from .ir.transform import PassContext
    from .script.tir import PrimFunc
    from .te import Schedule as TESchedule
    if isinstance(target, (list, tuple)):  # TVM's build(inputs, args, target)
        args, target = target, (name if isinstance(name, str) else "llvm")
        name = None
    config = PassContext.current().config
    if isinstance(mod, TESchedule) or config.get("tir.add_lower_pass") \
            or config.get("tir.disable_vectorize"):
        mod = lower(mod, args, name)
    if isinstance(mod, PrimFunc):
        mod = IRModule.from_expr(mod)
    if not isinstance(mod, IRModule):
        raise TypeError(f"build takes an IRModule or a PrimFunc, got {type(mod).__name__}")
    if not _is_cuda(target) and config.get("relax.default_cpu_schedule", True):
        mod = _default_schedules.with_default_cpu_schedules(mod)
    elif _is_cuda(target):
        mod = _default_schedules.with_default_gpu_schedules(mod, target)
    # Functions are built under their global symbols (Schedule(prim_func)
    # schedules it as "main"; the library still has it under its name).
    mod = mod.with_global_symbols()
    if _is_cuda(target):
        cpu_name, device_options = "native", _cuda_options(target)
    else:
        cpu_name, device_options = _target_cpu(target), _cpu_options(target)
    built = Module(ext.build(mod._native, cpu_name, **device_options))
    built._source, built._target_cpu = mod, cpu_name
    built._device_options = device_options
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


def empty(shape, dtype="float32", device=None, mem_scope=None):
    """tvm.runtime.empty: an uninitialized array (tvm.nd.empty)."""
    from .nd import empty as _empty
    return _empty(shape, dtype, device)


def load_module(path):
    """Loads a shared library written by Module.export_library."""
    return Module(ext.load_library(path))
