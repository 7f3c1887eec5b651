"""tvm.nd: arrays the built functions read and write."""
import numpy as np

# The alignment of the arrays array() and empty() allocate, in bytes: a
# cache line, as TVM allocates NDArrays (numpy's 16 bytes would let a
# vectorized kernel's 64-byte loads and stores straddle two lines: a batch
# matmul ran 74 or 88 GFLOP/s depending on where its output landed).
ALIGNMENT = 64


def _aligned_empty(shape, dtype):
    """An uninitialized C-contiguous array whose data starts on an
    ALIGNMENT-byte boundary."""
    from tir_runtime import numpy_dtype
    dtype = numpy_dtype(dtype)
    shape = tuple(int(d) for d in shape) if np.ndim(shape) else (int(shape),)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + ALIGNMENT, np.uint8)
    offset = -raw.ctypes.data % ALIGNMENT
    return raw[offset:offset + nbytes].view(dtype).reshape(shape)


class NDArray:
    """An array in host memory (a C-contiguous numpy array that the built
    function reads and writes in place)."""

    def __init__(self, data):
        data = np.asarray(data)
        # (np.ascontiguousarray makes a 0-d array 1-d.)
        self._data = data if data.flags.c_contiguous else np.ascontiguousarray(data)
        if not self._data.flags.writeable:
            self._data = self._data.copy()

    @property
    def shape(self):
        return self._data.shape

    @property
    def dtype(self):
        return str(self._data.dtype)

    @property
    def device(self):
        from .runtime import cpu
        return cpu(0)

    def numpy(self):
        """A copy of the contents as a numpy array."""
        return self._data.copy()

    asnumpy = numpy

    def copyfrom(self, source):
        source = source.numpy() if isinstance(source, NDArray) else source
        np.copyto(self._data, np.asarray(source, dtype=self._data.dtype))
        return self

    def __setitem__(self, index, value):
        """arr[:] = value: copies value in (TVM's arrays take whole-array
        assignment only)."""
        if not (isinstance(index, slice) and index == slice(None)):
            raise ValueError("an NDArray is assigned whole: arr[:] = value")
        self.copyfrom(value)

    def __str__(self):
        return str(self._data)

    def __repr__(self):
        return f"<tensorir.nd.NDArray shape={self.shape} dtype={self.dtype}>\n{self._data}"


def _on_gpu(device):
    """Whether `device` is a GPU (None and cpu(0) are the host)."""
    import tir_runtime
    if device is None:
        return False
    if not isinstance(device, tir_runtime.Device):
        raise TypeError(f"device is a {type(device).__name__}; give tvm.cpu(0) or "
                        "tvm.cuda(n)")
    return device.device_type == "cuda"


def array(data, device=None):
    """Copies `data` (a numpy array or anything numpy takes) into an NDArray,
    in the memory of `device` (the host by default; tvm.cuda(n): a GPU's,
    where `.numpy()` copies it back)."""
    if isinstance(data, NDArray) or hasattr(data, "_tir_buffer"):
        data = data.numpy()
    if _on_gpu(device):
        import tir_runtime
        return tir_runtime.array(np.asarray(data), device)
    data = np.asarray(data)
    out = _aligned_empty(data.shape, data.dtype)
    np.copyto(out, data)
    return NDArray(out)


def empty(shape, dtype="float32", device=None):
    if _on_gpu(device):
        import tir_runtime
        return tir_runtime.empty(shape, dtype, device)
    return NDArray(_aligned_empty(shape, dtype))
