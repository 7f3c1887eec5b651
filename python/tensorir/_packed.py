"""Packed functions that compiled graph functions call by name (relax's
R.call_dps_packed, R.call_pure_packed): the runtime hands each call to
`dispatch`, which runs the function registered under that name with
tvm.register_global_func on the call's buffers, as tvm.nd arrays viewing
them (no copy: what the function writes into an output, or into an
input, is written into the graph's buffer)."""
import ctypes
import threading

import numpy as np

from ._ext import ext
from .nd import NDArray
from .registry import get_global_func, register_global_func

# DLPack's (type code, bits) -> numpy dtype.
_DTYPES = {(0, 8): "int8", (0, 16): "int16", (0, 32): "int32", (0, 64): "int64",
           (1, 8): "uint8", (1, 16): "uint16", (1, 32): "uint32", (1, 64): "uint64",
           (2, 16): "float16", (2, 32): "float32", (2, 64): "float64", (6, 8): "bool"}

_failure = threading.local()
# The results graph functions return from packed calls, by call site, for
# the call of the graph function running on this thread.
_kept = threading.local()


class keep_results:
    """Keeps what packed calls of no known result shape return, by call
    site ("f@main.0"), while a graph function runs (`with keep_results() as
    kept: ...; kept["f@main.0"]`); nested uses keep their own."""

    def __enter__(self):
        self.outer = getattr(_kept, "values", None)
        _kept.values = {}
        return _kept.values

    def __exit__(self, *exc):
        _kept.values = self.outer
        return False


def _view(words, k):
    """The NDArray viewing the buffer described at words[k:] (a ctypes
    pointer), and the index after its description."""
    code, bits, rank, address = (int(w) for w in words[k:k + 4])
    sizes = tuple(int(w) for w in words[k + 4:k + 4 + rank])
    strides = tuple(int(w) for w in words[k + 4 + rank:k + 4 + 2 * rank])
    dtype = _DTYPES.get((code, bits))
    if dtype is None:
        raise TypeError(f"a buffer of DLPack type ({code}, {bits}), which packed "
                        "functions do not take")
    dtype = np.dtype(dtype)
    count = int(np.prod(sizes, dtype=np.int64))
    if count == 0:
        return NDArray(np.empty(sizes, dtype)), k + 4 + 2 * rank
    extent = 1 + sum((s - 1) * abs(st) for s, st in zip(sizes, strides))
    raw = (ctypes.c_uint8 * (extent * dtype.itemsize)).from_address(address)
    flat = np.frombuffer(raw, dtype=dtype)
    view = np.lib.stride_tricks.as_strided(
        flat, shape=sizes, strides=tuple(st * dtype.itemsize for st in strides))
    return NDArray(view), k + 4 + 2 * rank


def dispatch(name, returns, num_inputs, num_outputs, slots):
    """Runs packed function `name` on the buffers `slots` (an address)
    describes; see runtime::PackedDispatcher. Raises (the runtime reports
    the message when the graph function returns; take_failure gives the
    exception back)."""
    try:
        name = name.decode() if isinstance(name, bytes) else name
        # "f@main.0": the call site of f whose result the graph function
        # returns (kept for the caller).
        key = name if "@" in name else None
        name = name.split("@", 1)[0]
        func = get_global_func(name, allow_missing=True)
        if func is None:
            raise LookupError(f"no packed function named '{name}' is registered "
                              "(tvm.register_global_func)")
        words = ctypes.cast(slots, ctypes.POINTER(ctypes.c_int64))
        arrays, k = [], 0
        for _ in range(num_inputs + num_outputs):
            array, k = _view(words, k)
            arrays.append(array)
        inputs, outputs = arrays[:num_inputs], arrays[num_inputs:]
        if not returns:
            func(*inputs, *outputs)
            return 0
        result = func(*inputs)
        if outputs:
            _store(name, result, outputs[0])
        elif key is not None and getattr(_kept, "values", None) is not None:
            _kept.values[key] = result
        return 0
    except BaseException as error:  # noqa: BLE001 - given back by take_failure
        if getattr(_failure, "error", None) is None:
            _failure.error = error
        raise


def _store(name, result, output):
    """Copies what packed function `name` returned into its result's buffer."""
    if result is None:
        raise ValueError(f"packed function '{name}' returned None; its call "
                         f"(R.call_pure_packed) takes a tensor of shape {output.shape}")
    value = result.numpy() if hasattr(result, "numpy") else np.asarray(result)
    if tuple(value.shape) != tuple(output.shape) or str(value.dtype) != output.dtype:
        raise ValueError(f"packed function '{name}' returned a {value.dtype} tensor of "
                         f"shape {tuple(value.shape)}; its call (R.call_pure_packed) "
                         f"declares {output.dtype} of shape {tuple(output.shape)}")
    np.copyto(output._data, value)


def take_failure():
    """The exception a packed function raised during the last call on this
    thread, once; None when there was none."""
    error = getattr(_failure, "error", None)
    _failure.error = None
    return error


def _print(tensor):
    """"tensorir.nn.print" (relax.frontend.nn.op.print_): prints the tensor."""
    print(tensor.numpy())


def install():
    register_global_func("tensorir.nn.print", _print, override=True)
    ext.set_packed_dispatcher(dispatch)
