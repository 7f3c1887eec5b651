"""tvm.topi: TVM's operator library, as te computes.

- argmax and argmin, built as TVM's topi builds them: a te.comm_reducer
  over (index, value) pairs into two temporaries `<data>_red_temp_v0` (the
  index) and `_v1` (the value), computed by one block `<data>_red_temp`,
  then the index copied out by a block `<data>_red`;
- element-wise add / subtract / multiply / divide / maximum / minimum /
  left_shift / right_shift with numpy broadcasting (`T_add`, ...), reshape;
- sum over axes (`<data>_red`), matmul (`T_matmul`);
- element-wise math (math.py): exp, erf, sqrt, tanh, sigmoid, silu, gelu,
  fast_gelu; take, squeeze, transpose, concatenate, split, broadcast_to,
  full, cast, trilu (transform.py);
- topi.nn: dense, relu, pad (with get_pad_tuple), softmax, layer_norm,
  conv2d (NCHW), pool2d, upsampling (see nn.py).
"""
from .. import te
from ..tir import expr as E
from . import nn
from .broadcast import (add, divide, left_shift, maximum, minimum, multiply, reshape,
                        right_shift, subtract)
from .math import erf, exp, fast_gelu, gelu, sigmoid, silu, sqrt, tanh
from .transform import (broadcast_to, cast, concatenate, full, split, squeeze, take, transpose,
                        trilu)

__all__ = ["add", "argmax", "argmin", "broadcast_to", "cast", "concatenate", "divide", "erf",
           "exp", "fast_gelu", "full", "gelu", "left_shift", "matmul", "maximum", "minimum",
           "multiply", "nn", "reshape", "right_shift", "sigmoid", "silu", "split", "sqrt",
           "squeeze", "subtract", "sum", "take", "tanh", "transpose", "trilu"]


def sum(data, axis=None, keepdims=False):  # noqa: A001 - TVM's name
    """The sum of `data` over `axis` (an int, a list, or None: all):
    block `<data>_red`."""
    ndim = len(data.shape)
    axes = list(range(ndim)) if axis is None else \
        sorted(int(a) % ndim for a in ([axis] if isinstance(axis, int) else axis))
    rv = [te.reduce_axis((0, data.shape[d]), name=f"k{d}") for d in axes]
    shape = [1 if d in axes else e for d, e in enumerate(data.shape)] if keepdims else \
        [e for d, e in enumerate(data.shape) if d not in axes]

    def element(*i):
        index, k, r = [], 0, 0
        for d in range(ndim):
            if d in axes:
                index.append(rv[r])
                r += 1
                k += 1 if keepdims else 0
            else:
                index.append(i[k])
                k += 1
        return te.sum(data[tuple(index)], axis=rv)

    return te.compute(tuple(shape), element, name=f"{data.name}_red")


def matmul(a, b, transp_a=False, transp_b=False):
    """a @ b of 2-D tensors (either transposed first): block `T_matmul`."""
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise ValueError("topi.matmul takes 2-D tensors")
    n, k = (a.shape[1], a.shape[0]) if transp_a else (a.shape[0], a.shape[1])
    m = b.shape[0] if transp_b else b.shape[1]
    r = te.reduce_axis((0, k), name="k")
    return te.compute(
        (n, m),
        lambda i, j: te.sum((a[r, i] if transp_a else a[i, r])
                            * (b[j, r] if transp_b else b[r, j]), axis=r),
        name="T_matmul")


def _pair_reducer(better, identity, select_last_index, name):
    """The (index, value) reducer: the better value wins; on ties the
    smaller index (the larger with select_last_index)."""
    def fcombine(lhs, rhs):
        lhs_idx, lhs_val = lhs
        rhs_idx, rhs_val = rhs
        is_better = better(lhs_val, rhs_val)
        is_same = lhs_val == rhs_val
        proper = lhs_idx > rhs_idx if select_last_index else lhs_idx < rhs_idx
        pick_lhs = te.any(is_better, te.all(is_same, proper))
        # Selects, as TVM's reducer (both sides are plain values).
        return (E.Select(pick_lhs, lhs_idx, rhs_idx), E.Select(is_better, lhs_val, rhs_val))

    def fidentity(idx_dtype, val_dtype):
        return te.Const(-1, idx_dtype), identity(val_dtype)

    return te.comm_reducer(fcombine, fidentity, name=name)


def _reduce_idx(data, axis, keepdims, reducer):
    ndim = len(data.shape)
    if axis is None:
        axes = list(range(ndim))
    else:
        axes = sorted({a % ndim for a in (axis if isinstance(axis, (list, tuple)) else [axis])})
    reduce_axes = [te.reduce_axis((0, data.shape[a]), name=f"k{a}") for a in axes]
    target_shape = [1 if a in axes else e for a, e in enumerate(data.shape)] if keepdims \
        else [e for a, e in enumerate(data.shape) if a not in axes]

    def compute(*indices):
        eval_range, outer = [], iter(indices)
        for a in range(ndim):
            if a in axes:
                eval_range.append(reduce_axes[axes.index(a)])
                if keepdims:
                    next(outer)
            else:
                eval_range.append(next(outer))
        # The flat index over the reduced dimensions (TVM's RavelIndex).
        idx = reduce_axes[0]
        for k, a in zip(reduce_axes[1:], axes[1:]):
            idx = idx * data.shape[a] + k
        return reducer((idx, data[tuple(eval_range)]), axis=reduce_axes)

    temp_idx, _ = te.compute(target_shape, compute, name=data.name + "_red_temp")
    return te.compute(target_shape, lambda *indices: temp_idx[indices], name=data.name + "_red")


def argmax(data, axis=None, keepdims=False, select_last_index=False):
    """The index of the maximum along `axis` (the first one on ties, the
    last with select_last_index)."""
    reducer = _pair_reducer(lambda a, b: a > b, te.min_value, select_last_index, "argmax")
    return _reduce_idx(data, axis, keepdims, reducer)


def argmin(data, axis=None, keepdims=False, select_last_index=False):
    """The index of the minimum along `axis` (the first one on ties, the
    last with select_last_index)."""
    reducer = _pair_reducer(lambda a, b: a < b, te.max_value, select_last_index, "argmin")
    return _reduce_idx(data, axis, keepdims, reducer)
