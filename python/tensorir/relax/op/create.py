"""relax.op's tensor makers: full / zeros / ones (and their _like forms) as
a value broadcast to a shape; arange as the constant it is (its bounds are
numbers)."""
import numpy as np

from ..expr import Constant, Expr, const
from ..struct_info import TENSOR_DTYPES
from ._common import integers, number, tensor_of

__all__ = ["arange", "full", "full_like", "hamming_window", "ones", "ones_like", "tril", "triu",
           "zeros", "zeros_like"]


def _dtype(dtype, default, op):
    if dtype in (None, "", "void"):
        return default
    dtype = str(dtype)
    if dtype not in TENSOR_DTYPES:
        raise ValueError(f"relax.op.{op}: unsupported dtype {dtype!r}")
    return dtype


def full(shape, fill_value, dtype=None):
    """A tensor of `shape` holding `fill_value` (a number or a 0-d tensor)."""
    from .datatype import astype
    from .manipulate import broadcast_to
    shape = integers(shape, "full", "shape")
    if isinstance(fill_value, Expr):
        info = tensor_of(fill_value, "full", "fill_value")
        if len(info.shape) != 0:
            raise ValueError(f"relax.op.full: fill_value is a 0-d tensor, got shape "
                             f"{tuple(info.shape)}")
        dtype = _dtype(dtype, info.dtype, "full")
        if isinstance(fill_value, Constant):  # converted now: a constant still
            value = const(fill_value.data.astype(dtype))
        else:
            value = fill_value if info.dtype == dtype else astype(fill_value, dtype)
    else:
        dtype = _dtype(dtype, "float32", "full")
        value = const(np.array(number(fill_value, "full", "fill_value"), dtype))
    return broadcast_to(value, shape)


def full_like(x, fill_value, dtype=None):
    info = tensor_of(x, "full_like", "x")
    return full(list(info.shape), fill_value, _dtype(dtype, info.dtype, "full_like"))


def zeros(shape, dtype="float32"):
    return full(shape, 0, _dtype(dtype, "float32", "zeros"))


def ones(shape, dtype="float32"):
    return full(shape, 1, _dtype(dtype, "float32", "ones"))


def zeros_like(x, dtype=None):
    info = tensor_of(x, "zeros_like", "x")
    return full(list(info.shape), 0, _dtype(dtype, info.dtype, "zeros_like"))


def ones_like(x, dtype=None):
    info = tensor_of(x, "ones_like", "x")
    return full(list(info.shape), 1, _dtype(dtype, info.dtype, "ones_like"))


def arange(start, end=None, step=1, dtype="int64"):
    """numpy.arange(start, end, step) of `dtype`, a constant."""
    start = number(start, "arange", "start")
    if end is None:
        start, end = 0, start
    end, step = number(end, "arange", "end"), number(step, "arange", "step")
    if step == 0:
        raise ValueError("relax.op.arange: step is 0")
    values = np.arange(start, end, step).astype(_dtype(dtype, "int64", "arange"))
    if values.size == 0:
        raise ValueError(f"relax.op.arange: arange({start}, {end}, {step}) is empty")
    return const(values)


def hamming_window(window_size, periodic, alpha, beta, dtype):
    """alpha - beta * cos(2 pi n / N) for n < window_size, N the size
    (periodic) or the size - 1: the constant it is (its arguments are
    numbers)."""
    size = number(window_size, "hamming_window", "window_size")
    periodic = bool(number(periodic, "hamming_window", "periodic"))
    alpha = number(alpha, "hamming_window", "alpha")
    beta = number(beta, "hamming_window", "beta")
    if not isinstance(size, int) or size < 1:
        raise ValueError(f"relax.op.hamming_window: window_size is a positive integer, not "
                         f"{size!r}")
    dtype = _dtype(dtype, "float32", "hamming_window")
    if not dtype.startswith(("float", "bfloat")):
        raise TypeError(f"relax.op.hamming_window: makes floating-point tensors, not {dtype}")
    if size == 1:
        return const(np.ones(1, dtype))
    period = size if periodic else size - 1
    n = np.arange(size, dtype="float64")
    return const((alpha - beta * np.cos(2 * np.pi * n / period)).astype(dtype))


def _triangle(x, k, upper, op):
    """x where column - row >= k (upper) or <= k (lower) in its last two
    axes, else 0: a comparison of two aranges broadcast together."""
    from .binary import greater_equal, less_equal
    from .search import where
    info = tensor_of(x, op, "x")
    if len(info.shape) < 2:
        raise ValueError(f"relax.op.{op}: x has at least 2 dimensions, not "
                         f"{len(info.shape)}")
    k = int(getattr(k, "value", k))
    rows, columns = int(info.shape[-2]), int(info.shape[-1])
    offset = const((np.arange(columns, dtype="int64")[None, :]
                    - np.arange(rows, dtype="int64")[:, None]))
    keep = (greater_equal if upper else less_equal)(offset, const(np.array(k, "int64")))
    return where(keep, x, const(np.array(0, info.dtype)))


def triu(x, k=0):
    """The upper triangle of x's last two axes (column - row >= k), the
    rest 0."""
    return _triangle(x, k, True, "triu")


def tril(x, k=0):
    """The lower triangle of x's last two axes (column - row <= k), the
    rest 0."""
    return _triangle(x, k, False, "tril")
