"""tir_runtime: load and run libraries exported by tir, with nothing but the
runtime library (libTIRRuntime.so) and numpy -- no compiler, no LLVM or
MLIR, any Python 3. It speaks the runtime's C API (TensorIR-c/Runtime.h)
through ctypes, so it runs where the compiler does not (a GPU machine):

    import tir_runtime as rt
    lib = rt.load_module("vadd.so")
    dev = rt.cuda(0)
    a = rt.array(np.random.rand(1000).astype("float32"), dev)
    c = rt.empty((1000,), "float32", dev)
    lib["vadd"](a, b, c)
    c.numpy()
    lib.time_evaluator("vadd", dev, number=100)(a, b, c).mean

The library is found through TIR_RUNTIME_LIBRARY, then already loaded in
this process (by tensorir's extension), then next to this package in a
build tree (build/lib), then by the loader's own search.
"""
import collections
import ctypes
import math
import os
import statistics
import sys

import numpy as np

__all__ = ["Device", "DeviceArray", "Module", "array", "cpu", "cuda", "empty",
           "load_module", "Param", "TIRError"]

_CPU, _CUDA = 1, 2
_BUFFER, _INT, _FLOAT = 0, 1, 2
_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}
# Element types numpy lacks, as the ml_dtypes package names them (JAX's and
# TVM's): (DLPack type code, bits).
_EXTENDED = {"bfloat16": (4, 16), "float8_e4m3fn": (10, 8), "float8_e5m2": (12, 8)}


def numpy_dtype(dtype):
    """numpy's dtype for `dtype` (a name or a dtype); bfloat16 and the
    float8 types come from the ml_dtypes package."""
    if isinstance(dtype, str) and dtype in _EXTENDED:
        try:
            import ml_dtypes
        except ImportError:
            raise TypeError(f"arrays of {dtype} need the ml_dtypes package (numpy has no "
                            f"{dtype}): pip install ml_dtypes") from None
        return np.dtype(getattr(ml_dtypes, dtype))
    return np.dtype(dtype)


def type_code(dtype):
    """(DLPack type code, bits) of a numpy dtype; None for one a tir
    function cannot take."""
    kind = dtype.kind
    # ml_dtypes' types are of kind 'V' (or 'f' with one byte, which no numpy
    # float has); numpy computes a dtype's name in Python: only for those.
    if kind == "V" or (kind == "f" and dtype.itemsize == 1):
        return _EXTENDED.get(dtype.name)
    if kind not in _CODES or dtype.hasobject:
        return None
    return _CODES[kind], 1 if kind == "b" else dtype.itemsize * 8


class TIRError(RuntimeError):
    """A failure the runtime reported (its message names the cause)."""


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("ndim", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("deviceType", ctypes.c_int32), ("deviceId", ctypes.c_int32)]


class _Param(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("ndim", ctypes.c_int32), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("written", ctypes.c_int32), ("result", ctypes.c_int32)]


# A function's parameter: its name, its (element) type as numpy names it
# ("float32", "bool"), a buffer's shape (None where a size is given at run
# time; None for a scalar), whether the function writes it and whether it
# is a graph function's result (an output the caller may leave out).
# `sizes`: a result's dynamic dimensions, {dim: (constant, [(coeff, argument,
# its dimension or -1 for a scalar)])}: the size is constant plus the terms.
Param = collections.namedtuple("Param", "name dtype shape written result sizes",
                               defaults=(None,))
_DTYPE_NAMES = {0: "int", 1: "uint", 2: "float", 4: "bfloat", 6: "bool"}
_CODE_NAMES = {code: name for name, (code, _) in _EXTENDED.items() if code >= 10}


def make_param(name, dtype, shape, written, result, sizes=None):
    """A Param from the runtime's answer (sizes given at run time are -1)."""
    if shape is not None:
        shape = tuple(None if d < 0 else d for d in shape)
    return Param(name, dtype, shape, bool(written), bool(result), sizes or None)


class _Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("buffer", _Buffer),
                ("intValue", ctypes.c_int64), ("floatValue", ctypes.c_double)]


def _candidates():
    env = os.environ.get("TIR_RUNTIME_LIBRARY")
    if env:
        yield env
        return
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                if line.rstrip().endswith("/libTIRRuntime.so"):
                    yield line.split()[-1]
                    break
    except OSError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    # The build tree (python/ beside build/lib), beside the package, and an
    # installed tree (lib/python3/dist-packages/tir_runtime under lib/).
    for folder in (os.path.join(here, "..", "..", "build", "lib"), here,
                   os.path.join(here, "..", "lib"), os.path.join(here, "..", "..", "..")):
        path = os.path.normpath(os.path.join(folder, "libTIRRuntime.so"))
        if os.path.exists(path):
            yield path
    yield "libTIRRuntime.so"


_lib = None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as error:
            errors.append(str(error))
    else:
        raise TIRError("cannot load the tir runtime library (libTIRRuntime.so): "
                       + "; ".join(errors) + " (set TIR_RUNTIME_LIBRARY to its path)")
    p, i32, size = ctypes.c_void_p, ctypes.c_int32, ctypes.c_size_t
    sigs = {
        "tirModuleLoad": (p, [ctypes.c_char_p]),
        "tirModuleDestroy": (None, [p]),
        "tirModuleNumFunctions": (i32, [p]),
        "tirModuleFunctionSignature": (ctypes.c_char_p, [p, i32]),
        "tirModuleFunctionName": (ctypes.c_char_p, [p, i32]),
        "tirModuleFunctionNumParams": (i32, [p, i32]),
        "tirModuleFunctionReturnsTuple": (i32, [p, i32]),
        "tirModuleFunctionResultNesting": (ctypes.c_char_p, [p, i32]),
        "tirModuleFunctionInterface": (ctypes.c_char_p, [p, i32]),
        "tirModuleFunctionParam": (ctypes.c_int, [p, i32, i32, ctypes.POINTER(_Param)]),
        "tirModuleTarget": (i32, [p]),
        "tirModuleCall": (ctypes.c_int, [p, ctypes.c_char_p, ctypes.POINTER(_Arg), i32]),
        "tirModuleTimeCall": (ctypes.c_int, [p, ctypes.c_char_p, ctypes.POINTER(_Arg), i32,
                                             i32, i32, ctypes.POINTER(ctypes.c_double)]),
        "tirCudaDeviceCount": (i32, []),
        "tirCudaAlloc": (p, [i32, size]),
        "tirCudaFree": (ctypes.c_int, [i32, p]),
        "tirCopy": (ctypes.c_int, [p, i32, i32, p, i32, i32, size]),
        "tirCudaSynchronize": (ctypes.c_int, [i32]),
        "tirCudaStreamCreate": (p, [i32]),
        "tirCudaStreamDestroy": (ctypes.c_int, [i32, p]),
        "tirCudaSetStream": (None, [i32, p]),
        "tirCudaStreamSynchronize": (ctypes.c_int, [i32, p]),
        "tirGetLastError": (ctypes.c_char_p, []),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    _lib = lib
    return lib


def _error():
    return TIRError(_library().tirGetLastError().decode())


class Device:
    """cpu(0) or cuda(n), as TVM's Device."""

    def __init__(self, kind="cpu", index=0):
        if kind not in ("cpu", "cuda"):
            raise ValueError(f"unknown device kind {kind!r}; the runtime knows 'cpu' and 'cuda'")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise ValueError(f"a device index is a non-negative integer, got {index!r}")
        self.device_type, self.device_id = kind, index

    @property
    def _type(self):
        return _CUDA if self.device_type == "cuda" else _CPU

    @property
    def exist(self):
        """Whether the device is there (a CUDA driver and that GPU)."""
        if self.device_type == "cpu":
            return self.device_id == 0
        count = _library().tirCudaDeviceCount()
        return 0 <= self.device_id < count

    def sync(self, stream=None):
        """Waits for the work launched on the device (on `stream` only, when
        given); raises if it failed."""
        if self.device_type != "cuda":
            return
        lib = _library()
        failed = lib.tirCudaStreamSynchronize(self.device_id, stream) if stream \
            else lib.tirCudaSynchronize(self.device_id)
        if failed:
            raise _error()

    def _gpu(self, what):
        if self.device_type != "cuda":
            raise ValueError(f"{what}: {self} has no streams; they are a GPU's")

    def create_raw_stream(self):
        """A new stream on the GPU (TVM's Device.create_raw_stream): a handle
        for set_raw_stream, free_raw_stream and sync."""
        self._gpu("create_raw_stream")
        stream = _library().tirCudaStreamCreate(self.device_id)
        if not stream:
            raise _error()
        return stream

    def set_raw_stream(self, stream):
        """Launches and timings on this GPU from this thread go to `stream`
        (None: the GPU's default stream)."""
        self._gpu("set_raw_stream")
        _library().tirCudaSetStream(self.device_id, stream)

    def free_raw_stream(self, stream):
        self._gpu("free_raw_stream")
        if _library().tirCudaStreamDestroy(self.device_id, stream):
            raise _error()

    def __eq__(self, other):
        return isinstance(other, Device) and (other.device_type, other.device_id) == \
            (self.device_type, self.device_id)

    def __hash__(self):
        return hash((self.device_type, self.device_id))

    def __repr__(self):
        return f"{self.device_type}({self.device_id})"


def cpu(index=0):
    return Device("cpu", index)


def cuda(index=0):
    return Device("cuda", index)


def cuda_device_count():
    """The number of GPUs; raises TIRError when there is no CUDA driver."""
    count = _library().tirCudaDeviceCount()
    if count < 0:
        raise _error()
    return count


class DeviceArray:
    """An array in a GPU's memory (C-contiguous). `numpy()` copies it back."""

    def __init__(self, shape, dtype, device):
        self.shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in self.shape):
            raise ValueError(f"an array's dimensions are not negative, got {self.shape}")
        self._dtype = numpy_dtype(dtype)
        if type_code(self._dtype) is None:
            raise TypeError(f"arrays of dtype {self._dtype} cannot live on the GPU; "
                            "tir functions take bool, int, uint and float arrays (and "
                            "ml_dtypes' bfloat16, float8_e4m3fn, float8_e5m2)")
        self.device = device
        self.nbytes = math.prod(self.shape) * self._dtype.itemsize
        lib = _library()
        self._ptr = lib.tirCudaAlloc(device.device_id, self.nbytes)
        if not self._ptr:
            raise _error()

    @property
    def dtype(self):
        return str(self._dtype)

    def copyfrom(self, source):
        data = np.ascontiguousarray(source, dtype=self._dtype)
        if data.shape != self.shape:
            raise ValueError(f"copyfrom: the source has shape {data.shape}, the array "
                             f"{self.shape}")
        if _library().tirCopy(self._ptr, _CUDA, self.device.device_id,
                              data.ctypes.data, _CPU, 0, self.nbytes):
            raise _error()
        return self

    def numpy(self):
        out = np.empty(self.shape, dtype=self._dtype)
        if _library().tirCopy(out.ctypes.data, _CPU, 0, self._ptr, _CUDA,
                              self.device.device_id, self.nbytes):
            raise _error()
        return out

    asnumpy = numpy

    def _tir_buffer(self):
        """(pointer, dtype, shape, device type, device id) for a call."""
        return (self._ptr, self._dtype, self.shape, _CUDA, self.device.device_id)

    def __del__(self):
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr and _lib is not None:
            _lib.tirCudaFree(self.device.device_id, ptr)

    def __repr__(self):
        return f"<DeviceArray shape={self.shape} dtype={self.dtype} on {self.device}>"


def _check_device(device):
    if device is None:
        return cpu(0)
    if not isinstance(device, Device):
        raise TypeError(f"device is a {type(device).__name__}; give cpu(0) or cuda(n)")
    return device


def array(data, device=None):
    """A copy of `data` on `device` (a numpy array for the CPU)."""
    device = _check_device(device)
    data = np.ascontiguousarray(data)
    if device.device_type == "cpu":
        return data.copy()
    return DeviceArray(data.shape, data.dtype, device).copyfrom(data)


def empty(shape, dtype="float32", device=None):
    device = _check_device(device)
    if device.device_type == "cpu":
        return np.empty(shape, dtype=numpy_dtype(dtype))
    return DeviceArray(shape, dtype, device)


def _pack(args, written=()):
    """The C arguments for `args` (`written`: the positions the function
    writes), and what keeps their memory alive."""
    packed = (_Arg * max(len(args), 1))()
    keep = []
    for i, a in enumerate(args):
        slot = packed[i]
        if isinstance(a, (bool, np.bool_)):
            slot.kind, slot.intValue = _INT, int(a)
        elif isinstance(a, (int, np.integer)):
            slot.kind, slot.intValue = _INT, int(a)
        elif isinstance(a, (float, np.floating)):
            slot.kind, slot.floatValue = _FLOAT, float(a)
        else:
            if hasattr(a, "_tir_buffer"):
                ptr, dtype, shape, device_type, device_id = a._tir_buffer()
                strides = None
            elif isinstance(a, np.ndarray):
                if not a.flags.writeable:
                    if i in written:
                        raise TIRError(f"argument {i} is a read-only array, but the function "
                                       "writes it; pass a writable array")
                    a = a.copy()  # read only by the function: a copy is the same to it
                if a.dtype.byteorder == (">" if sys.byteorder == "little" else "<"):
                    raise TIRError(f"argument {i} is not in the machine's byte order "
                                   f"({a.dtype.str})")
                if any(s % a.itemsize for s in a.strides):
                    raise TIRError(f"argument {i}: its strides are not a multiple of its "
                                   "element size")
                ptr, dtype, shape = a.ctypes.data, a.dtype, a.shape
                device_type, device_id = _CPU, 0
                strides = [s // a.itemsize for s in a.strides]
            else:
                raise TypeError(f"argument {i} is a {type(a).__name__}; functions take "
                                "numpy arrays, device arrays, ints and floats")
            code = type_code(dtype)
            if code is None:
                raise TypeError(f"argument {i}: arrays of dtype {dtype} cannot be passed")
            shape_c = (ctypes.c_int64 * max(len(shape), 1))(*shape)
            keep += [a, shape_c]
            slot.kind = _BUFFER
            b = slot.buffer
            b.data, b.ndim, b.shape = ptr, len(shape), shape_c
            if strides is not None:
                strides_c = (ctypes.c_int64 * max(len(strides), 1))(*strides)
                keep.append(strides_c)
                b.strides = strides_c
            b.code, b.bits = code
            b.deviceType, b.deviceId = device_type, device_id
    return packed, keep


class Module:
    """A library exported by tir, loaded through the runtime."""

    def __init__(self, path):
        lib = _library()
        self._handle = lib.tirModuleLoad(os.fsencode(path))
        if not self._handle:
            raise _error()
        self.path = path

    @property
    def target(self):
        """"cuda" or "cpu": where the functions run."""
        return "cuda" if _library().tirModuleTarget(self._handle) == _CUDA else "cpu"

    @property
    def functions(self):
        lib = _library()
        return [lib.tirModuleFunctionName(self._handle, i).decode()
                for i in range(lib.tirModuleNumFunctions(self._handle))]

    def _index(self, name):
        try:
            return self.functions.index(name)
        except ValueError:
            raise KeyError(f"no function named '{name}'; the module has "
                           f"{', '.join(self.functions)}") from None

    def signature(self, name):
        """"f(A: float32[8], B: float32[8] (written))", for people."""
        return _library().tirModuleFunctionSignature(self._handle, self._index(name)).decode()

    def returns_tuple(self, name):
        """Whether function `name`'s results form a tuple (a graph function
        returning R.Tuple), even of one."""
        answer = _library().tirModuleFunctionReturnsTuple(self._handle, self._index(name))
        if answer < 0:
            raise _error()
        return bool(answer)

    def result_nesting(self, name):
        """How function `name`'s results nest ("[0,[1,2]]"; "" when they do
        not)."""
        answer = _library().tirModuleFunctionResultNesting(self._handle, self._index(name))
        if answer is None:
            raise _error()
        return answer.decode()

    def interface(self, name):
        """How function `name`'s arguments and results are Relax values
        (JSON; "" when all are tensors)."""
        answer = _library().tirModuleFunctionInterface(self._handle, self._index(name))
        if answer is None:
            raise _error()
        return answer.decode()

    def params(self, name):
        """The parameters of function `name`, as Params."""
        lib, index = _library(), self._index(name)
        params = []
        for j in range(lib.tirModuleFunctionNumParams(self._handle, index)):
            p = _Param()
            if lib.tirModuleFunctionParam(self._handle, index, j, ctypes.byref(p)):
                raise _error()
            dtype = "bool" if p.code == 6 else _CODE_NAMES.get(
                p.code, f"{_DTYPE_NAMES.get(p.code)}{p.bits}")
            shape = tuple(p.shape[d] for d in range(p.ndim)) if p.kind == _BUFFER else None
            params.append(make_param(p.name.decode(), dtype, shape, p.written, p.result))
        return params

    def __getitem__(self, name):
        written = {i for i, p in enumerate(self.params(name)) if p.written}

        def call(*args):
            packed, keep = _pack(args, written)
            if _library().tirModuleCall(self._handle, name.encode(), packed, len(args)):
                raise _error()
            del keep

        return call

    def time_evaluator(self, name, dev, number=10, repeat=1):
        """Seconds per call, from device events around `number` calls (on a
        GPU) or the host clock (on the CPU), `repeat` times, after one
        warm-up call."""
        import time
        dev = _check_device(dev)
        func = self[name]

        def evaluate(*args):
            func(*args)
            dev.sync()
            results = []
            for _ in range(repeat):
                if dev.device_type == "cuda":
                    packed, keep = _pack(args)
                    seconds = ctypes.c_double()
                    if _library().tirModuleTimeCall(self._handle, name.encode(), packed,
                                                    len(args), dev.device_id, number,
                                                    ctypes.byref(seconds)):
                        raise _error()
                    del keep
                    results.append(seconds.value)
                else:
                    start = time.perf_counter()
                    for _ in range(number):
                        func(*args)
                    results.append((time.perf_counter() - start) / number)
            return _Timing(results)

        return evaluate

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle and _lib is not None:
            _lib.tirModuleDestroy(handle)


class _Timing:
    def __init__(self, results):
        self.results = tuple(results)
        self.mean = statistics.fmean(results)
        self.median = statistics.median(results)
        self.min, self.max = min(results), max(results)

    def __repr__(self):
        return f"Timing(mean={self.mean:.6g} s, median={self.median:.6g} s, runs={len(self.results)})"


def load_module(path):
    """Loads a library written by tir's export_library."""
    return Module(path)
