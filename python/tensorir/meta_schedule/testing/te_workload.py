"""tvm.meta_schedule.testing.te_workload: common operators as te
computations (TVM's names and signatures). Each returns its input tensors
and its output; `te.create_prim_func(...)` makes the PrimFunc, whose
blocks are named as the tensors (a reduction's spatial variables first).
"""
from ... import te
from ...topi import nn


def _cast(value, dtype):
    return value if value.dtype == dtype else value.astype(dtype)


def matmul(n, m, k, in_dtype="float32", out_dtype="float32"):
    """C[i, j] = sum_k A[i, k] * B[k, j] (block "C"), products in
    out_dtype."""
    a = te.placeholder((n, k), name="A", dtype=in_dtype)
    b = te.placeholder((k, m), name="B", dtype=in_dtype)
    rk = te.reduce_axis((0, k), name="k")
    c = te.compute((n, m), lambda i, j: te.sum(
        _cast(a[i, rk], out_dtype) * _cast(b[rk, j], out_dtype), axis=rk), name="C")
    return (a, b, c)


def matmul_relu(n, m, k, in_dtype="float32", out_dtype="float32"):
    """matmul, then max(C, 0) (block "compute")."""
    a, b, c = matmul(n, m, k, in_dtype, out_dtype)
    return (a, b, nn.relu(c))


def batch_matmul_nkkm(batch, n, m, k, in_dtype="float32", out_dtype="float32"):
    """Z[b, i, j] = sum_k X[b, i, k] * Y[b, k, j] (block "Z")."""
    x = te.placeholder((batch, n, k), name="X", dtype=in_dtype)
    y = te.placeholder((batch, k, m), name="Y", dtype=in_dtype)
    rk = te.reduce_axis((0, k), name="k")
    z = te.compute((batch, n, m), lambda b, i, j: te.sum(
        _cast(x[b, i, rk], out_dtype) * _cast(y[b, rk, j], out_dtype), axis=rk), name="Z")
    return (x, y, z)


def _pad_hw(data, padding):
    """`data` (N, H, W, C) with `padding` zeros above and below H and W
    (block "PadInput")."""
    n, h, w, c = data.shape
    if padding == 0:
        return data
    zero = te.const(0, data.dtype)

    def value(bn, yy, xx, cc):
        inside = te.all(yy >= padding, yy < h + padding, xx >= padding, xx < w + padding)
        return te.if_then_else(inside, data[bn, yy - padding, xx - padding, cc], zero)
    return te.compute((n, h + 2 * padding, w + 2 * padding, c), value, name="PadInput")


def conv2d_nhwc(n, h, w, ci, co, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                in_dtype="float32", out_dtype="float32"):
    """A 2-d convolution in NHWC (block "conv2d_nhwc"): inputs (n, h, w,
    ci), weight (kernel, kernel, ci / groups, co), the input padded by
    `padding` on each side (block "PadInput")."""
    inputs = te.placeholder((n, h, w, ci), name="inputs", dtype=in_dtype)
    weight = te.placeholder((kernel_size, kernel_size, ci // groups, co), name="weight",
                            dtype=in_dtype)
    padded = _pad_hw(inputs, padding)
    out_h = (h + 2 * padding - dilation * (kernel_size - 1) - 1) // stride + 1
    out_w = (w + 2 * padding - dilation * (kernel_size - 1) - 1) // stride + 1
    rh = te.reduce_axis((0, kernel_size), name="rh")
    rw = te.reduce_axis((0, kernel_size), name="rw")
    rc = te.reduce_axis((0, ci // groups), name="rc")
    co_per_group = co // groups
    ci_per_group = ci // groups

    def value(bn, y, x, c):
        channel = c // co_per_group * ci_per_group + rc
        return te.sum(
            _cast(padded[bn, y * stride + rh * dilation, x * stride + rw * dilation, channel],
                  out_dtype) * _cast(weight[rh, rw, rc, c], out_dtype),
            axis=[rh, rw, rc])
    out = te.compute((n, out_h, out_w, co), value, name="conv2d_nhwc")
    return (inputs, weight, out)


__all__ = ["batch_matmul_nkkm", "conv2d_nhwc", "matmul", "matmul_relu"]
