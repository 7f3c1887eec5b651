"""topi.nn: dense, relu, pad (and get_pad_tuple) and softmax as TVM's topi
writes them."""
import math

from .. import te
from ..tir import expr as E


def dense(data, weight, bias=None, out_dtype=None):
    """data @ weight.T (+ bias): one reduction block `T_matmul_NT`, then
    `T_add` for the bias."""
    if len(data.shape) != 2 or len(weight.shape) != 2:
        raise ValueError("topi.nn.dense takes 2-D data and weight")
    batch, in_dim = (int(d) for d in data.shape)
    out_dim, red_dim = (int(d) for d in weight.shape)
    if in_dim != red_dim:
        raise ValueError(f"topi.nn.dense: data has {in_dim} features, weight {red_dim}")
    if out_dtype not in (None, data.dtype):
        raise NotImplementedError("topi.nn.dense: out_dtype other than the data's")
    k = te.reduce_axis((0, in_dim), name="k")
    mat = te.compute((batch, out_dim),
                     lambda i0, i1: te.sum(data[i0, k] * weight[i1, k], axis=k),
                     name="T_matmul_NT")
    if bias is None:
        return mat
    return te.compute((batch, out_dim), lambda i, j: mat[i, j] + bias[j], name="T_add")


def relu(x):
    """max(x, 0) element-wise (block `compute`)."""
    return te.compute(x.shape, lambda *i: te.max(x(*i), te.const(0, x.dtype)), name="compute")


def _is_zero(value):
    return isinstance(value, (int, E.IntImm)) and int(value) == 0


def pad(data, pad_before, pad_after=None, pad_value=0.0, name="PadInput", attrs=None):
    """`data` with `pad_before[d]` / `pad_after[d]` elements of `pad_value`
    around each dimension d (block `name`): a dimension padded on neither
    side reads its index as it is, the others read `i - before` under the
    condition that it falls inside (a tir.if_then_else)."""
    ndim = len(data.shape)
    pad_after = pad_after if pad_after else pad_before
    if len(pad_before) != ndim or len(pad_after) != ndim:
        raise ValueError(f"topi.nn.pad: {ndim}-D data, padding of {len(pad_before)} and "
                         f"{len(pad_after)} dimensions")
    out_shape = tuple(data.shape[d] + pad_before[d] + pad_after[d] for d in range(ndim))
    if not isinstance(pad_value, te.Expr):
        pad_value = te.const(pad_value, data.dtype)

    def element(*indices):
        inside, source = [], []
        for d in range(ndim):
            if _is_zero(pad_before[d]) and _is_zero(pad_after[d]):
                source.append(indices[d])
                continue
            source.append(indices[d] - pad_before[d])
            inside.append(indices[d] >= pad_before[d])
            inside.append(indices[d] < data.shape[d] + pad_before[d])
        if not inside:
            return data[tuple(source)]
        return te.if_then_else(te.all(*inside), data[tuple(source)], pad_value)

    return te.compute(out_shape, element, name=name, attrs=attrs)


def get_pad_tuple(padding, kernel):
    """(top, left, bottom, right) padding from an int (each side), a pair
    (height, width: each on both sides), a 4-tuple as it is, or "SAME" /
    "VALID" for a (kernel_h, kernel_w) kernel, as TVM's topi.nn.get_pad_tuple
    (an odd total puts the extra element after)."""
    if isinstance(padding, (tuple, list)):
        if len(padding) == 2:
            pad_h, pad_w = padding[0] * 2, padding[1] * 2
        elif len(padding) == 4:
            return padding[0], padding[1], padding[2], padding[3]
        else:
            raise ValueError("topi.nn.get_pad_tuple: the padding has 2 or 4 entries")
    elif isinstance(padding, int):
        pad_h = pad_w = padding * 2
    elif padding == "VALID":
        pad_h = pad_w = 0
    elif padding == "SAME":
        pad_h, pad_w = kernel[0] - 1, kernel[1] - 1
    else:
        raise ValueError(f"topi.nn.get_pad_tuple: unknown padding {padding!r}")
    pad_top, pad_left = (pad_h + 1) // 2, (pad_w + 1) // 2
    return pad_top, pad_left, pad_h - pad_top, pad_w - pad_left


def softmax(x, axis=-1):
    """exp(x - max) / sum(exp(x - max)) along `axis`, in TVM's four blocks:
    `T_softmax_maxelem` and `T_softmax_expsum` reduce over an axis named
    "k", `T_softmax_exp`, then `T_softmax_norm` (annotated with the axis)."""
    shape = x.shape
    axis = axis + len(shape) if axis < 0 else axis
    if not 0 <= axis < len(shape):
        raise ValueError(f"topi.nn.softmax: axis {axis} of a {len(shape)}-D tensor")
    k_max = te.reduce_axis((0, shape[axis]), name="k")
    k_sum = te.reduce_axis((0, shape[axis]), name="k")

    def with_reduced(indices, k):
        return indices[:axis] + (k,) + indices[axis:]

    def without_axis(indices):
        return tuple(v for d, v in enumerate(indices) if d != axis)

    reduced_shape = tuple(e for d, e in enumerate(shape) if d != axis)
    max_elem = te.compute(reduced_shape,
                          lambda *i: te.max(x[with_reduced(i, k_max)], axis=k_max),
                          name="T_softmax_maxelem")
    exp = te.compute(shape, lambda *i: te.exp(x[i] - max_elem[without_axis(i)]),
                     name="T_softmax_exp")
    expsum = te.compute(reduced_shape, lambda *i: te.sum(exp[with_reduced(i, k_sum)], axis=k_sum),
                        name="T_softmax_expsum")
    return te.compute(shape, lambda *i: exp[i] / expsum[without_axis(i)],
                      name="T_softmax_norm", attrs={"axis": axis})


def layer_norm(data, gamma, beta, axis, epsilon=1e-5):
    """(data - mean) / sqrt(var + epsilon) * gamma + beta, mean and variance
    over the axes `axis` (the last ones); gamma and beta have those axes'
    shape, or are None."""
    shape = [int(d) for d in data.shape]
    rank = len(shape)
    axes = sorted(int(a) % rank for a in ([axis] if isinstance(axis, int) else axis))
    lead = rank - len(axes)
    if not axes or axes != list(range(lead, rank)):
        raise ValueError(f"topi.nn.layer_norm: axes {axes} are not the last of a {rank}-D "
                         "tensor")
    normalized = shape[lead:]
    for what, p in (("gamma", gamma), ("beta", beta)):
        if p is not None and [int(d) for d in p.shape] != normalized:
            raise ValueError(f"topi.nn.layer_norm: {what} has shape {list(p.shape)}; the "
                             f"normalized axes have {normalized}")
    count = float(math.prod(normalized))

    def over():
        return [te.reduce_axis((0, n), name=f"k{i}") for i, n in enumerate(normalized)]

    # The sums first (a reduction is a compute's whole body); mean and
    # variance where they are used.
    r1 = over()
    total = te.compute(shape[:lead], lambda *i: te.sum(data(*i, *r1), axis=r1),
                       name="T_layer_norm_sum")
    r2 = over()

    def centered(i, r):
        return data(*i, *r) - total(*i) / count

    squares = te.compute(shape[:lead], lambda *i: te.sum(centered(i, r2) * centered(i, r2),
                                                        axis=r2),
                         name="T_layer_norm_squares")

    def element(*i):
        v = (data(*i) - total(*i[:lead]) / count) * te.rsqrt(squares(*i[:lead]) / count
                                                              + epsilon)
        if gamma is not None:
            v = v * gamma(*i[lead:])
        if beta is not None:
            v = v + beta(*i[lead:])
        return v

    return te.compute(shape, element, name="T_layer_norm")


def _pair(value, what):
    if isinstance(value, int):
        return value, value
    value = tuple(int(v) for v in value)
    if len(value) != 2:
        raise ValueError(f"topi.nn.{what}: expected an int or a pair, got {value}")
    return value


def conv2d(input, filter, strides, padding, dilation, data_layout="NCHW", kernel_layout="",
           out_dtype=None):
    """2-D convolution of NCHW data with an OIHW filter: the data padded
    (block `pad_temp`), then `conv2d_nchw` reducing over the input channels
    and the window (rc, ry, rx)."""
    if data_layout != "NCHW" or kernel_layout not in ("", "OIHW"):
        raise NotImplementedError(f"topi.nn.conv2d: {data_layout} data with a "
                                  f"{kernel_layout or 'OIHW'} filter (NCHW / OIHW only)")
    batch, in_channel, in_h, in_w = input.shape
    num_filter, channel, kernel_h, kernel_w = filter.shape
    if int(channel) != int(in_channel):
        raise ValueError(f"topi.nn.conv2d: {in_channel} input channels, a filter of {channel}")
    stride_h, stride_w = _pair(strides, "conv2d")
    dilation_h, dilation_w = _pair(dilation, "conv2d")
    dilated_h = (int(kernel_h) - 1) * dilation_h + 1
    dilated_w = (int(kernel_w) - 1) * dilation_w + 1
    top, left, bottom, right = get_pad_tuple(padding, (dilated_h, dilated_w))
    out_h = (int(in_h) - dilated_h + top + bottom) // stride_h + 1
    out_w = (int(in_w) - dilated_w + left + right) // stride_w + 1
    out_dtype = out_dtype or input.dtype
    data = pad(input, [0, 0, top, left], [0, 0, bottom, right], name="pad_temp")
    rc = te.reduce_axis((0, int(in_channel)), name="rc")
    ry = te.reduce_axis((0, int(kernel_h)), name="ry")
    rx = te.reduce_axis((0, int(kernel_w)), name="rx")
    return te.compute(
        (batch, num_filter, out_h, out_w),
        lambda nn, ff, yy, xx: te.sum(
            data[nn, rc, yy * stride_h + ry * dilation_h,
                 xx * stride_w + rx * dilation_w].astype(out_dtype)
            * filter[ff, rc, ry, rx].astype(out_dtype),
            axis=[rc, ry, rx]),
        name="conv2d_nchw")


def pool2d(data, kernel, stride, dilation, padding, pool_type, ceil_mode=False,
           layout="NCHW", count_include_pad=True):
    """Max or average pooling over the last two dimensions of NCHW data:
    padded (block `pad_temp`, with the lowest value for max) when padding,
    then `pool_max` / `pool_sum` (and `pool_avg`) over the window."""
    if layout != "NCHW":
        raise NotImplementedError(f"topi.nn.pool2d: {layout} data (NCHW only)")
    if pool_type not in ("max", "avg"):
        raise ValueError(f"topi.nn.pool2d: pool_type is 'max' or 'avg', got {pool_type!r}")
    if ceil_mode:
        raise NotImplementedError("topi.nn.pool2d: ceil_mode")
    kh, kw = _pair(kernel, "pool2d")
    sh, sw = _pair(stride, "pool2d")
    dh, dw = _pair(dilation, "pool2d")
    top, left, bottom, right = (tuple(int(p) for p in padding) if len(padding) == 4
                                else get_pad_tuple(tuple(padding), (kh, kw)))
    n, c, h, w = data.shape
    out_h = (int(h) + top + bottom - ((kh - 1) * dh + 1)) // sh + 1
    out_w = (int(w) + left + right - ((kw - 1) * dw + 1)) // sw + 1
    padded = any((top, left, bottom, right))
    if padded:
        value = te.min_value(data.dtype) if pool_type == "max" else 0.0
        source = pad(data, [0, 0, top, left], [0, 0, bottom, right], pad_value=value,
                     name="pad_temp")
    else:
        source = data
    ry = te.reduce_axis((0, kh), name="rv0")
    rx = te.reduce_axis((0, kw), name="rv1")

    def window(i, j, k, m):
        return source[i, j, k * sh + ry * dh, m * sw + rx * dw]

    if pool_type == "max":
        return te.compute((n, c, out_h, out_w),
                          lambda i, j, k, m: te.max(window(i, j, k, m), axis=[ry, rx]),
                          name="pool_max")
    total = te.compute((n, c, out_h, out_w),
                       lambda i, j, k, m: te.sum(window(i, j, k, m), axis=[ry, rx]),
                       name="pool_sum")
    if count_include_pad or not padded:
        return te.compute(total.shape, lambda *i: total[i] / float(kh * kw), name="pool_avg")
    raise NotImplementedError("topi.nn.pool2d: average pooling without the padding counted")


def upsampling(data, scale_h, scale_w, layout="NCHW", method="nearest_neighbor",
               align_corners=False, output_shape=None):
    """Nearest-neighbor upsampling of NCHW data by (scale_h, scale_w):
    block `resize`, each output element reading floor(index / scale)."""
    if layout != "NCHW" or method != "nearest_neighbor":
        raise NotImplementedError(f"topi.nn.upsampling: {method} on {layout} data "
                                  "(nearest_neighbor on NCHW only)")
    n, c, h, w = data.shape
    out_h, out_w = int(round(int(h) * scale_h)), int(round(int(w) * scale_w))

    def source(index, extent, out_extent):
        if out_extent % extent == 0:
            return index // (out_extent // extent)  # An integer scale.
        scaled = (index.astype("float32") * (float(extent) / out_extent)).astype("int32")
        return te.min(scaled, extent - 1)

    return te.compute((n, c, out_h, out_w),
                      lambda i, j, k, m: data[i, j, source(k, int(h), out_h),
                                              source(m, int(w), out_w)],
                      name="resize")
