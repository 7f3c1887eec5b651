"""tvm.meta_schedule.testing.te_workload: the operators MetaSchedule's tests
tune, as te computes with TVM's names and signatures.

Each workload function returns its tensors, inputs first and the output
last; `te.create_prim_func(...)` makes the PrimFunc, whose blocks are named
as the computes ("PadInput", "conv2d_nhwc", ...), their variables as the
compute's axes. `create_te_workload(name, idx)` builds the PrimFunc of
configuration `idx` of a named benchmark ("C1D", "C2D", ..., see CONFIGS),
the shapes TVM's tests use.
"""
from ... import te, topi

__all__ = ["CONFIGS", "batch_matmul_nkkm", "conv1d_nlc", "conv2d_capsule_nhwijc",
           "conv2d_nhwc", "conv2d_nhwc_bn_relu", "conv2d_nhwc_without_layout_rewrite",
           "conv2d_transpose_nhwc", "conv3d_ndhwc", "create_te_workload",
           "depthwise_conv2d_nhwc", "matmul", "matmul_relu", "norm_bmn", "softmax_mn",
           "transpose_batch_matmul"]


def _out_size(size, kernel, stride, padding, dilation=1):
    """The output extent of a window of `kernel` (dilated) sliding by
    `stride` over `size` padded by `padding` on both sides."""
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def matmul(n, m, k, in_dtype="float32", out_dtype="float32"):
    """C[i, j] = sum_k A[i, k] * B[k, j] (block "C"), the products in
    out_dtype."""
    a = te.placeholder((n, k), name="A", dtype=in_dtype)
    b = te.placeholder((k, m), name="B", dtype=in_dtype)
    rk = te.reduce_axis((0, k), name="k")
    c = te.compute((n, m), lambda i, j: te.sum(
        a[i, rk].astype(out_dtype) * b[rk, j].astype(out_dtype), axis=[rk]), name="C")
    return (a, b, c)


def matmul_relu(n, m, k, in_dtype="float32", out_dtype="float32"):
    """matmul, then max(C, 0) (block "compute")."""
    a, b, c = matmul(n, m, k, in_dtype, out_dtype)
    return (a, b, topi.nn.relu(c))


def batch_matmul_nkkm(B, N, M, K, in_dtype="float32", out_dtype="float32"):  # noqa: N803
    """Z[b, i, j] = sum_k X[b, i, k] * Y[b, k, j] (block "Z")."""
    x = te.placeholder((B, N, K), name="X", dtype=in_dtype)
    y = te.placeholder((B, K, M), name="Y", dtype=in_dtype)
    rk = te.reduce_axis((0, K), name="k")
    z = te.compute((B, N, M), lambda b, i, j: te.sum(
        x[b, i, rk].astype(out_dtype) * y[b, rk, j].astype(out_dtype), axis=[rk]), name="Z")
    return (x, y, z)


def conv1d_nlc(N, L, CI, CO, kernel_size, stride=1, padding=0, dilation=1,  # noqa: N803
               groups=1, in_dtype="float32", out_dtype="float32"):
    """A 1-d convolution in NLC (block "conv1d_nlc") over the input padded
    along L (block "PadInput"); weight (kernel, CI / groups, CO)."""
    inputs = te.placeholder((N, L, CI), name="inputs", dtype=in_dtype)
    weight = te.placeholder((kernel_size, CI // groups, CO), name="weight", dtype=in_dtype)
    ci_per_group, co_per_group = CI // groups, CO // groups
    out_len = _out_size(L, kernel_size, stride, padding, dilation)
    rc = te.reduce_axis((0, ci_per_group), name="rc")
    rl = te.reduce_axis((0, kernel_size), name="rl")
    padded = topi.nn.pad(inputs, [0, padding, 0])

    def value(n, l, co):  # noqa: E741 - TVM's axis name
        channel = co // co_per_group * ci_per_group + rc
        return te.sum(padded[n, l * stride + rl * dilation, channel].astype(out_dtype)
                      * weight[rl, rc, co].astype(out_dtype), axis=[rl, rc])
    return (inputs, weight, te.compute((N, out_len, CO), value, name="conv1d_nlc"))


def conv2d_nhwc(N, H, W, CI, CO, kernel_size, stride=1, padding=0, dilation=1,  # noqa: N803
                groups=1, in_dtype="float32", out_dtype="float32"):
    """A 2-d convolution in NHWC (block "conv2d_nhwc") over the input padded
    along H and W (block "PadInput"); weight (kh, kw, CI / groups, CO)."""
    inputs = te.placeholder((N, H, W, CI), name="inputs", dtype=in_dtype)
    weight = te.placeholder((kernel_size, kernel_size, CI // groups, CO), name="weight",
                            dtype=in_dtype)
    ci_per_group, co_per_group = CI // groups, CO // groups
    out_h = _out_size(H, kernel_size, stride, padding, dilation)
    out_w = _out_size(W, kernel_size, stride, padding, dilation)
    rh = te.reduce_axis((0, kernel_size), name="rh")
    rw = te.reduce_axis((0, kernel_size), name="rw")
    rc = te.reduce_axis((0, ci_per_group), name="rc")
    padded = topi.nn.pad(inputs, [0, padding, padding, 0])

    def value(n, h, w, co):
        channel = co // co_per_group * ci_per_group + rc
        return te.sum(padded[n, h * stride + rh * dilation, w * stride + rw * dilation,
                             channel].astype(out_dtype)
                      * weight[rh, rw, rc, co].astype(out_dtype), axis=[rh, rw, rc])
    return (inputs, weight, te.compute((N, out_h, out_w, CO), value, name="conv2d_nhwc"))


def conv3d_ndhwc(N, D, H, W, CI, CO, kernel_size, stride=1, padding=0,  # noqa: N803
                 dilation=1, groups=1, in_dtype="float32", out_dtype="float32"):
    """A 3-d convolution in NDHWC (block "conv3d_ndhwc") over the input
    padded along D, H and W (block "PadInput")."""
    inputs = te.placeholder((N, D, H, W, CI), name="inputs", dtype=in_dtype)
    weight = te.placeholder((kernel_size, kernel_size, kernel_size, CI // groups, CO),
                            name="weight", dtype=in_dtype)
    ci_per_group, co_per_group = CI // groups, CO // groups
    out_d, out_h, out_w = (_out_size(s, kernel_size, stride, padding, dilation)
                           for s in (D, H, W))
    rd = te.reduce_axis((0, kernel_size), name="rd")
    rh = te.reduce_axis((0, kernel_size), name="rh")
    rw = te.reduce_axis((0, kernel_size), name="rw")
    rc = te.reduce_axis((0, ci_per_group), name="rc")
    padded = topi.nn.pad(inputs, [0, padding, padding, padding, 0])

    def value(n, d, h, w, co):
        channel = co // co_per_group * ci_per_group + rc
        return te.sum(padded[n, d * stride + rd * dilation, h * stride + rh * dilation,
                             w * stride + rw * dilation, channel].astype(out_dtype)
                      * weight[rd, rh, rw, rc, co].astype(out_dtype), axis=[rd, rh, rw, rc])
    return (inputs, weight,
            te.compute((N, out_d, out_h, out_w, CO), value, name="conv3d_ndhwc"))


def depthwise_conv2d_nhwc(N, H, W, C, kernel_size, stride=1, padding=0,  # noqa: N803
                          dilation=1, factor=1, in_dtype="float32", out_dtype="float32"):
    """A depthwise convolution (block "depth_conv2d_nhwc"): each channel
    with its own (kh, kw) filter; the placeholders keep te's default name.
    Only a channel multiplier (factor) of 1, as TVM."""
    inputs = te.placeholder((N, H, W, C), dtype=in_dtype)
    weight = te.placeholder((factor, kernel_size, kernel_size, C), dtype=in_dtype)
    if factor != 1:
        raise ValueError("depthwise_conv2d_nhwc: only a channel multiplier of 1")
    out_h = _out_size(H, kernel_size, stride, padding, dilation)
    out_w = _out_size(W, kernel_size, stride, padding, dilation)
    rh = te.reduce_axis((0, kernel_size), name="rh")
    rw = te.reduce_axis((0, kernel_size), name="rw")
    padded = topi.nn.pad(inputs, [0, padding, padding, 0])

    def value(n, h, w, c):
        return te.sum(padded[n, h * stride + rh * dilation, w * stride + rw * dilation,
                             c // factor].astype(out_dtype)
                      * weight[c % factor, rh, rw, c // factor].astype(out_dtype),
                      axis=[rh, rw])
    return (inputs, weight,
            te.compute((N, out_h, out_w, C * factor), value, name="depth_conv2d_nhwc"))


def conv2d_transpose_nhwc(N, H, W, CI, CO, kernel_size, stride=1, padding=0,  # noqa: N803
                          in_dtype="float32", out_dtype="float32"):
    """A transposed 2-d convolution (block "conv2d_transpose_nhwc"): the
    input padded (block "PadInput") and read with the stride's holes in
    the compute itself (zero where the position is not a multiple of the
    stride), against the flipped kernel."""
    inputs = te.placeholder((N, H, W, CI), name="inputs", dtype=in_dtype)
    weight = te.placeholder((kernel_size, kernel_size, CI, CO), name="weight", dtype=in_dtype)
    kh = kw = kernel_size
    top, left, bottom, right = topi.nn.get_pad_tuple(padding, (kh, kw))
    # The padding of the dilated input, then in input elements (rounded up).
    back_top, back_left = kh - 1 - top, kw - 1 - left
    back_bottom, back_right = kh - 1 - bottom, kw - 1 - right
    padded = topi.nn.pad(
        inputs,
        [0, (back_top + stride - 1) // stride, (back_left + stride - 1) // stride, 0],
        [0, (back_bottom + stride - 1) // stride, (back_right + stride - 1) // stride, 0])
    # The dilated positions the rounding up added before the first element.
    border_h = (stride - back_top % stride) % stride
    border_w = (stride - back_left % stride) % stride

    def dilated(n, y, x, c):
        """The dilated padded input at (n, y, x, c): zero between strides."""
        if stride == 1:
            return padded[n, y, x, c]
        on_grid = te.all(te.indexmod(y, stride).equal(0), te.indexmod(x, stride).equal(0))
        element = padded[n, te.indexdiv(y, stride), te.indexdiv(x, stride), c]
        return te.if_then_else(on_grid, element, te.const(0.0, padded.dtype))

    out_h = (H - 1) * stride - top - bottom + kh
    out_w = (W - 1) * stride - left - right + kw
    rc = te.reduce_axis((0, CI), name="rc")
    rh = te.reduce_axis((0, kh), name="rh")
    rw = te.reduce_axis((0, kw), name="rw")

    def value(n, h, w, co):
        return te.sum(dilated(n, h + rh + border_h, w + rw + border_w, rc).astype(out_dtype)
                      * weight[kh - 1 - rh, kw - 1 - rw, rc, co].astype(out_dtype),
                      axis=[rh, rw, rc])
    return (inputs, weight,
            te.compute((N, out_h, out_w, CO), value, name="conv2d_transpose_nhwc"))


def conv2d_capsule_nhwijc(N, H, W, CI, CO, kernel_size, stride=1, padding=0,  # noqa: N803
                          capsule_size=4, in_dtype="float32", out_dtype="float32"):
    """A capsule convolution (block "conv2d_capsule_nhwijc"): each position
    holds a capsule_size x capsule_size matrix per channel, multiplied as
    matrices and summed over the window and the channels."""
    inputs = te.placeholder((N, H, W, capsule_size, capsule_size, CI), name="inputs",
                            dtype=in_dtype)
    weight = te.placeholder((kernel_size, kernel_size, capsule_size, capsule_size, CI, CO),
                            name="weight", dtype=in_dtype)
    out_h = (H + 2 * padding - kernel_size) // stride + 1
    out_w = (W + 2 * padding - kernel_size) // stride + 1
    rh = te.reduce_axis((0, kernel_size), name="rh")
    rw = te.reduce_axis((0, kernel_size), name="rw")
    cap_k = te.reduce_axis((0, capsule_size), name="cap_k")
    rc = te.reduce_axis((0, CI), name="rc")
    padded = topi.nn.pad(inputs, [0, padding, padding, 0, 0, 0])

    def value(n, h, w, cap_i, cap_j, co):
        return te.sum(padded[n, h * stride + rh, w * stride + rw, cap_i, cap_k,
                             rc].astype(out_dtype)
                      * weight[rh, rw, cap_k, cap_j, rc, co].astype(out_dtype),
                      axis=[rh, rw, cap_k, rc])
    return (inputs, weight,
            te.compute((N, out_h, out_w, capsule_size, capsule_size, CO), value,
                       name="conv2d_capsule_nhwijc"))


def norm_bmn(B, M, N):  # noqa: N803
    """D[b] = sqrt(sum_ij A[b, i, j]^2) (blocks "C", the sum, and "D")."""
    a = te.placeholder((B, M, N), name="A")
    i = te.reduce_axis((0, M), name="i")
    j = te.reduce_axis((0, N), name="j")
    c = te.compute((B,), lambda b: te.sum(a[b, i, j] * a[b, i, j], axis=[i, j]), name="C")
    d = te.compute((B,), lambda b: te.sqrt(c[b]), name="D")
    return (a, d)


def conv2d_nhwc_without_layout_rewrite(Input, Filter, stride, padding, dilation,  # noqa: N803
                                       out_dtype="float32"):
    """topi's conv2d_nhwc without its layout-free attribute: the input
    padded (block "PaddedInput"), then "Conv2dOutput" over (ry, rx, rc).
    stride and dilation: an int or an (h, w) pair."""
    stride_h, stride_w = (stride, stride) if isinstance(stride, int) else stride
    dilation_h, dilation_w = (dilation, dilation) if isinstance(dilation, int) else dilation
    batch, in_h, in_w, in_channel = Input.shape
    kernel_h, kernel_w, _, num_filter = Filter.shape
    dilated_h = (kernel_h - 1) * dilation_h + 1
    dilated_w = (kernel_w - 1) * dilation_w + 1
    top, left, down, right = topi.nn.get_pad_tuple(padding, (dilated_h, dilated_w))
    out_h = (in_h - dilated_h + top + down) // stride_h + 1
    out_w = (in_w - dilated_w + left + right) // stride_w + 1
    padded = topi.nn.pad(Input, [0, top, left, 0], [0, down, right, 0], name="PaddedInput")
    rc = te.reduce_axis((0, in_channel), name="rc")
    ry = te.reduce_axis((0, kernel_h), name="ry")
    rx = te.reduce_axis((0, kernel_w), name="rx")

    def value(nn, yy, xx, ff):
        return te.sum(padded[nn, yy * stride_h + ry * dilation_h, xx * stride_w + rx * dilation_w,
                             rc].astype(out_dtype)
                      * Filter[ry, rx, rc, ff].astype(out_dtype), axis=[ry, rx, rc])
    return te.compute((batch, out_h, out_w, num_filter), value, name="Conv2dOutput",
                      tag="conv2d_nhwc")


def conv2d_nhwc_bn_relu(N, H, W, CI, CO, kernel_size, strides, padding,  # noqa: N803
                        dilation=1, in_dtype="float32", out_dtype="float32"):
    """conv2d_nhwc_without_layout_rewrite, + bias ("bias_add"), * scale
    ("bn_mul"), + offset ("bn_add"), then relu ("compute"). The tensors:
    data, kernel, bias, bn_offset, bn_scale and the output."""
    data = te.placeholder((N, H, W, CI), name="data", dtype=in_dtype)
    kernel = te.placeholder((kernel_size, kernel_size, CI, CO), name="kernel", dtype=in_dtype)
    bias = te.placeholder((CO,), name="bias")
    bn_scale = te.placeholder((CO,), name="bn_scale")
    bn_offset = te.placeholder((CO,), name="bn_offset")
    out_h = _out_size(H, kernel_size, strides, padding, dilation)
    out_w = _out_size(W, kernel_size, strides, padding, dilation)
    shape = (N, out_h, out_w, CO)
    conv = conv2d_nhwc_without_layout_rewrite(data, kernel, strides, padding, dilation,
                                              out_dtype)
    conv = te.compute(shape, lambda i, j, k, l: conv[i, j, k, l] + bias[l], name="bias_add")
    conv = te.compute(shape, lambda i, j, k, l: conv[i, j, k, l] * bn_scale[l], name="bn_mul")
    conv = te.compute(shape, lambda i, j, k, l: conv[i, j, k, l] + bn_offset[l], name="bn_add")
    return (data, kernel, bias, bn_offset, bn_scale, topi.nn.relu(conv))


def transpose_batch_matmul(batch, seq_len, n_head, n_dim, in_dtype="float32",
                           out_dtype="float32"):
    """Attention's query x value^T: both (batch, seq, head, dim) transposed
    to head-major ("query_T", "value_T"), then C[b, h, i, j] = sum_k
    query_T[b, h, i, k] * value_T[b, h, k, j] (block "C")."""
    query = te.placeholder((batch, seq_len, n_head, n_dim), name="query", dtype=in_dtype)
    value = te.placeholder((batch, seq_len, n_head, n_dim), name="value", dtype=in_dtype)
    query_t = te.compute((batch, n_head, seq_len, n_dim),
                         lambda b, h, l, d: query[b, l, h, d], name="query_T")
    value_t = te.compute((batch, n_head, n_dim, seq_len),
                         lambda b, h, d, l: value[b, l, h, d], name="value_T")
    k = te.reduce_axis((0, n_dim), name="k")
    out = te.compute((batch, n_head, seq_len, seq_len), lambda b, h, i, j: te.sum(
        query_t[b, h, i, k].astype(out_dtype) * value_t[b, h, k, j].astype(out_dtype),
        axis=[k]), name="C")
    return (query, value, out)


def softmax_mn(m, n):
    """topi.nn.softmax of an (m, n) matrix along its rows."""
    a = te.placeholder((m, n), name="A")
    return (a, topi.nn.softmax(a, axis=1))


def create_te_workload(name, idx):
    """The PrimFunc of configuration `idx` of benchmark `name` (a key of
    CONFIGS), as te.create_prim_func makes it."""
    if name not in CONFIGS:
        raise KeyError(f"create_te_workload: unknown workload {name!r} "
                       f"(known: {', '.join(CONFIGS)})")
    workload, params = CONFIGS[name]
    return te.create_prim_func(workload(*params[idx]))


# name -> (workload function, its positional arguments per configuration):
# TVM's benchmark shapes (convolutions from ResNet-18, MobileNet, DCGAN and
# matrix capsules; C3D, GRP, DIL derived from the 2-d ones).
CONFIGS = {
    "C1D": (conv1d_nlc, [
        (1, 256, 64, 128, 3, 2, 1),
        (1, 128, 128, 256, 1, 2, 0),
        (1, 64, 256, 256, 5, 1, 2),
        (1, 32, 512, 512, 3, 1, 1),
    ]),
    "C2D": (conv2d_nhwc, [
        (1, 224, 224, 3, 64, 7, 2, 3),
        (1, 56, 56, 64, 64, 1, 1, 0),
        (1, 14, 14, 256, 256, 3, 1, 1),
        (1, 7, 7, 512, 512, 3, 1, 1),
    ]),
    "C3D": (conv3d_ndhwc, [
        (1, 16, 224, 224, 3, 64, 7, 2, 3),
        (1, 16, 56, 56, 64, 64, 1, 1, 0),
        (1, 16, 14, 14, 256, 256, 3, 1, 1),
        (1, 16, 7, 7, 512, 512, 3, 1, 1),
    ]),
    "GMM": (batch_matmul_nkkm, [
        (1, 128, 128, 128),
        (1, 512, 32, 512),
        (1, 512, 512, 512),
        (1, 1024, 1024, 1024),
    ]),
    "GRP": (conv2d_nhwc, [  # 4 groups
        (1, 56, 56, 64, 128, 3, 2, 1, 1, 4),
        (1, 56, 56, 64, 64, 1, 1, 0, 1, 4),
        (1, 14, 14, 256, 256, 3, 1, 1, 1, 4),
        (1, 7, 7, 512, 512, 3, 1, 1, 1, 4),
    ]),
    "DIL": (conv2d_nhwc, [  # dilation 2
        (1, 224, 224, 3, 64, 7, 2, 3, 2),
        (1, 56, 56, 64, 64, 1, 1, 0, 2),
        (1, 14, 14, 256, 256, 3, 1, 1, 2),
        (1, 7, 7, 512, 512, 3, 1, 1, 2),
    ]),
    "DEP": (depthwise_conv2d_nhwc, [
        (1, 112, 112, 32, 3, 1, 1),
        (1, 112, 112, 64, 3, 2, 1),
        (1, 14, 14, 512, 3, 2, 1),
        (1, 7, 7, 1024, 3, 1, 1),
    ]),
    "T2D": (conv2d_transpose_nhwc, [
        (1, 4, 4, 512, 256, 4, 2, 1),
        (1, 8, 8, 256, 128, 4, 2, 1),
        (1, 16, 16, 128, 64, 4, 2, 1),
        (1, 32, 32, 64, 3, 4, 2, 1),
    ]),
    "CAP": (conv2d_capsule_nhwijc, [
        (1, 16, 16, 32, 32, 3, 2, 1),
        (1, 8, 8, 32, 32, 3, 1, 1),
        (1, 16, 16, 8, 16, 3, 2, 1),
        (1, 8, 8, 16, 16, 3, 1, 1),
    ]),
    "NRM": (norm_bmn, [
        (1, 256, 256),
        (1, 512, 512),
        (1, 1024, 1024),
        (1, 4096, 1024),
    ]),
    "SFM": (softmax_mn, [
        (256, 256),
        (512, 512),
        (1024, 1024),
        (2048, 2048),
    ]),
    "CBR": (conv2d_nhwc_bn_relu, [
        (1, 224, 224, 3, 64, 7, 2, 3),
        (1, 56, 56, 64, 128, 3, 2, 1),
        (1, 28, 28, 128, 256, 1, 2, 0),
        (1, 7, 7, 512, 512, 3, 1, 1),
    ]),
    "TBG": (transpose_batch_matmul, [
        (1, 128, 12, 64),
        (1, 128, 16, 64),
        (1, 64, 12, 128),
        (1, 128, 12, 128),
    ]),
}
