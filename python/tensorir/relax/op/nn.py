"""relax.op.nn: relu, leakyrelu, gelu, gelu_tanh, silu, softmax, log_softmax,
layer_norm, group_norm, instance_norm, rms_norm, relu6, softplus, prelu, pad,
conv1d / 2d / 3d (and transposed), max_pool2d / 3d, avg_pool2d / 3d,
adaptive_avg_pool2d / 3d (their shapes in _window.py), batch_norm
(inference), attention."""
import numpy as np

from ..expr import Call, Tuple, const
from ..struct_info import SymDim, TensorStructInfo
from . import _window
from ._common import axes_of, binary_shape, tensor_of
from .binary import add, divide, multiply, subtract
from .search import where
from .statistical import max as reduce_max
from .statistical import mean
from .statistical import sum as reduce_sum
from .unary import exp, log, sqrt


def relu(data):
    """max(data, 0) element-wise."""
    info = tensor_of(data, "nn.relu", "data")
    return Call("relax.nn.relu", [data], info)


def _float_unary(name, doc):
    def op(data):
        info = tensor_of(data, f"nn.{name}", "data")
        if not info.dtype.startswith(("float", "bfloat")):
            raise TypeError(f"relax.op.nn.{name}: takes floating-point tensors, not "
                            f"{info.dtype} (R.astype first)")
        return Call(f"relax.nn.{name}", [data], info)
    op.__name__, op.__doc__ = name, doc
    return op


gelu = _float_unary("gelu", "x / 2 * (1 + erf(x / sqrt(2))) element-wise.")
gelu_tanh = _float_unary("gelu_tanh", "GELU's tanh approximation element-wise.")
silu = _float_unary("silu", "x * sigmoid(x) element-wise.")


def leakyrelu(data, alpha=0.01):
    """data where data > 0, else alpha * data."""
    info = tensor_of(data, "nn.leakyrelu", "data")
    if not info.dtype.startswith(("float", "bfloat")):
        raise TypeError(f"relax.op.nn.leakyrelu: takes floating-point tensors, not "
                        f"{info.dtype}")
    return Call("relax.nn.leakyrelu", [data], info, {"alpha": float(alpha)})


def softmax(data, axis=-1):
    """exp(x) / sum(exp(x)) along `axis`."""
    info = tensor_of(data, "nn.softmax", "data")
    rank = len(info.shape)
    if not -rank <= int(axis) < rank:
        raise ValueError(f"relax.op.nn.softmax: axis {axis} is outside {rank} dimensions")
    return Call("relax.nn.softmax", [data], info, {"axis": int(axis) % rank})


def pad(data, pad_width, pad_value=0.0, pad_mode="constant"):
    """data padded with pad_value: pad_width lists (before, after) per axis,
    flat ([b0, a0, b1, a1, ...]) or as pairs."""
    info = tensor_of(data, "nn.pad", "data")
    if pad_mode != "constant":
        raise NotImplementedError("relax.op.nn.pad: only constant padding")
    flat = []
    for p in pad_width:
        flat.extend(p if isinstance(p, (list, tuple)) else [p])
    flat = [int(p) for p in flat]
    if len(flat) != 2 * len(info.shape) or any(p < 0 for p in flat):
        raise ValueError(f"relax.op.nn.pad: pad_width holds a non-negative (before, after) "
                         f"per axis of the {len(info.shape)}-D data")
    shape = tuple(d + flat[2 * k] + flat[2 * k + 1] for k, d in enumerate(info.shape))
    return Call("relax.nn.pad", [data], TensorStructInfo(shape, info.dtype),
                {"pad_width": flat, "pad_value": float(pad_value)})


def conv1d(data, weight, strides=1, padding=0, dilation=1, groups=1, data_layout="NCW",
           kernel_layout="OIW", out_layout=None, out_dtype=None):
    """1-D convolution, NCW data and OIW weight (C / groups input channels
    per output channel)."""
    return _window.convolution(1, data, weight, strides, padding, dilation, groups,
                               data_layout, kernel_layout, out_layout, out_dtype)


def conv2d(data, weight, strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
           data_layout="NCHW", kernel_layout="OIHW", out_layout=None, out_dtype=None):
    """2-D convolution, NCHW data and OIHW weight (C / groups input
    channels per output channel; depthwise when groups == C)."""
    return _window.convolution(2, data, weight, strides, padding, dilation, groups,
                               data_layout, kernel_layout, out_layout, out_dtype)


def conv3d(data, weight, strides=(1, 1, 1), padding=(0, 0, 0), dilation=(1, 1, 1), groups=1,
           data_layout="NCDHW", kernel_layout="OIDHW", out_layout=None, out_dtype=None):
    """3-D convolution, NCDHW data and OIDHW weight."""
    return _window.convolution(3, data, weight, strides, padding, dilation, groups,
                               data_layout, kernel_layout, out_layout, out_dtype)


def conv1d_transpose(data, weight, strides=1, padding=0, output_padding=0, dilation=1,
                     groups=1, data_layout="NCW", kernel_layout="IOW", out_layout=None,
                     out_dtype=None):
    """1-D transposed convolution, NCW data and IOW weight."""
    return _window.conv_transpose(1, data, weight, strides, padding, output_padding,
                                  dilation, groups, data_layout, kernel_layout, out_layout,
                                  out_dtype)


def conv2d_transpose(data, weight, strides=(1, 1), padding=(0, 0), output_padding=(0, 0),
                     dilation=(1, 1), groups=1, data_layout="NCHW", kernel_layout="IOHW",
                     out_layout=None, out_dtype=None):
    """2-D transposed convolution, NCHW data and IOHW weight."""
    return _window.conv_transpose(2, data, weight, strides, padding, output_padding,
                                  dilation, groups, data_layout, kernel_layout, out_layout,
                                  out_dtype)


def conv3d_transpose(data, weight, strides=(1, 1, 1), padding=(0, 0, 0),
                     output_padding=(0, 0, 0), dilation=(1, 1, 1), groups=1,
                     data_layout="NCDHW", kernel_layout="IODHW", out_layout=None,
                     out_dtype=None):
    """3-D transposed convolution, NCDHW data and IODHW weight."""
    return _window.conv_transpose(3, data, weight, strides, padding, output_padding,
                                  dilation, groups, data_layout, kernel_layout, out_layout,
                                  out_dtype)


def max_pool2d(data, pool_size=(1, 1), strides=(1, 1), padding=(0, 0), dilation=(1, 1),
               ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout=None):
    """The maximum over each window, NCHW."""
    return _window.max_pool(2, data, pool_size, strides, padding, dilation, ceil_mode, layout)


def max_pool3d(data, pool_size=(1, 1, 1), strides=(1, 1, 1), padding=(0, 0, 0),
               dilation=(1, 1, 1), ceil_mode=False, count_include_pad=False, layout="NCDHW",
               out_layout=None):
    """The maximum over each window, NCDHW."""
    return _window.max_pool(3, data, pool_size, strides, padding, dilation, ceil_mode, layout)


def avg_pool2d(data, pool_size=(1, 1), strides=(1, 1), padding=(0, 0), dilation=(1, 1),
               ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout=None):
    """The mean over each window, NCHW; the padding counts in the divisor
    with count_include_pad (PyTorch's rules, ceil_mode's clipped windows
    too)."""
    return _window.avg_pool(2, data, pool_size, strides, padding, dilation, ceil_mode,
                            count_include_pad, layout, out_layout)


def avg_pool3d(data, pool_size=(1, 1, 1), strides=(1, 1, 1), padding=(0, 0, 0),
               dilation=(1, 1, 1), ceil_mode=False, count_include_pad=False, layout="NCDHW",
               out_layout=None):
    """The mean over each window, NCDHW (avg_pool2d's rules)."""
    return _window.avg_pool(3, data, pool_size, strides, padding, dilation, ceil_mode,
                            count_include_pad, layout, out_layout)


def adaptive_avg_pool2d(data, output_size=None, layout="NCHW", out_layout=None):
    """The mean over equal windows giving `output_size` (the input's sizes
    divisible by it), NCHW."""
    return _window.adaptive_avg_pool(2, data, output_size, layout)


def adaptive_avg_pool3d(data, output_size=None, layout="NCDHW", out_layout=None):
    """The mean over equal windows giving `output_size`, NCDHW."""
    return _window.adaptive_avg_pool(3, data, output_size, layout)


def batch_norm(data, gamma, beta, moving_mean, moving_var, axis=1, epsilon=1e-5,
               center=True, scale=True, momentum=0.1, training=False):
    """Batch normalization in inference: (x - mean) / sqrt(var + eps) *
    gamma + beta along `axis`. As Relax's, a tuple (normalized tensor,
    moving_mean, moving_var): the statistics do not change in inference."""
    x = tensor_of(data, "nn.batch_norm", "data")
    rank = len(x.shape)
    axis = int(axis) % rank
    for what, v in (("gamma", gamma), ("beta", beta), ("moving_mean", moving_mean),
                    ("moving_var", moving_var)):
        info = tensor_of(v, "nn.batch_norm", what)
        if tuple(info.shape) != (x.shape[axis],):
            raise ValueError(f"relax.op.nn.batch_norm: {what} has shape {tuple(info.shape)}; "
                             f"it is ({x.shape[axis]},), the size of axis {axis}")
    if training:
        raise NotImplementedError("relax.op.nn.batch_norm: inference only")
    out = Call("relax.nn.batch_norm", [data, gamma, beta, moving_mean, moving_var], x,
               {"axis": axis, "epsilon": float(epsilon)})
    return Tuple([out, moving_mean, moving_var])


def log_softmax(data, axis=-1):
    """x - log(sum(exp(x))) along `axis`, computed from x - max(x)."""
    info = tensor_of(data, "nn.log_softmax", "data")
    if not info.dtype.startswith(("float", "bfloat")):
        raise TypeError(f"relax.op.nn.log_softmax: takes floating-point tensors, not "
                        f"{info.dtype}")
    shifted = subtract(data, reduce_max(data, axis, keepdims=True))
    return subtract(shifted, log(reduce_sum(exp(shifted), axis, keepdims=True)))


def _standardized(data, axes, epsilon, dtype):
    """(data - mean) / sqrt(variance + epsilon) over `axes` (the
    normalization layer_norm and group_norm share)."""
    centered = subtract(data, mean(data, axes, keepdims=True))
    variance = mean(multiply(centered, centered), axes, keepdims=True)
    return divide(centered, sqrt(add(variance, const(np.array(epsilon, dtype)))))


def layer_norm(data, gamma, beta, axes, epsilon=1e-5, center=True, scale=True):
    """(x - mean) / sqrt(variance + epsilon) * gamma + beta over the trailing
    `axes`, gamma and beta of their shape."""
    info = tensor_of(data, "nn.layer_norm", "data", symbolic=True)  # mean and element-wise
    rank = len(info.shape)
    axes = axes_of(axes, rank, "nn.layer_norm")
    if axes != list(range(rank - len(axes), rank)):
        raise NotImplementedError(f"relax.op.nn.layer_norm: normalizes the trailing axes, "
                                  f"not {axes}")
    for what, t in (("gamma", gamma), ("beta", beta)):
        ti = tensor_of(t, "nn.layer_norm", what)
        if tuple(ti.shape) != tuple(info.shape[a] for a in axes):
            raise ValueError(f"relax.op.nn.layer_norm: {what} has shape {tuple(ti.shape)}, "
                             f"the normalized axes {tuple(info.shape[a] for a in axes)}")
    out = _standardized(data, axes, epsilon, info.dtype)
    if scale:
        out = multiply(out, gamma)
    return add(out, beta) if center else out


def group_norm(data, gamma, beta, num_groups, channel_axis=1, axes=None, epsilon=1e-5,
               center=True, scale=True):
    """Normalization over each group of num_groups channels (channel_axis)
    and the axes `axes`, then gamma and beta per channel."""
    from . import reshape
    info = tensor_of(data, "nn.group_norm", "data")
    shape, rank = list(info.shape), len(info.shape)
    channel_axis = axes_of(channel_axis, rank, "nn.group_norm")[0]
    axes = axes_of(axes if axes is not None else
                   [a for a in range(rank) if a not in (0, channel_axis)], rank,
                   "nn.group_norm")
    channels = shape[channel_axis]
    if num_groups < 1 or channels % num_groups:
        raise ValueError(f"relax.op.nn.group_norm: {channels} channels do not form "
                         f"{num_groups} groups")
    for what, t in (("gamma", gamma), ("beta", beta)):
        if tuple(tensor_of(t, "nn.group_norm", what).shape) != (channels,):
            raise ValueError(f"relax.op.nn.group_norm: {what} has one value per channel "
                             f"({channels})")
    # The channels split into (groups, channels per group): statistics over
    # the group's channels and the axes.
    grouped_shape = shape[:channel_axis] + [num_groups, channels // num_groups] + \
        shape[channel_axis + 1:]
    grouped = reshape(data, grouped_shape)
    over = [channel_axis + 1] + [a + 1 if a > channel_axis else a for a in axes]
    out = reshape(_standardized(grouped, over, epsilon, info.dtype), shape)
    per_channel = [channels if a == channel_axis else 1 for a in range(rank)]
    if scale:
        out = multiply(out, reshape(gamma, per_channel))
    return add(out, reshape(beta, per_channel)) if center else out


def rms_norm(data, weight, axes=-1, epsilon=1e-5):
    """data / sqrt(mean(data^2 over `axes`) + epsilon) * weight (weight of
    the normalized axes' shape)."""
    info = tensor_of(data, "nn.rms_norm", "data")
    rank = len(info.shape)
    axes = axes_of(axes, rank, "nn.rms_norm")
    w = tensor_of(weight, "nn.rms_norm", "weight")
    if tuple(w.shape) != tuple(info.shape[a] for a in axes):
        raise ValueError(f"relax.op.nn.rms_norm: weight has shape {tuple(w.shape)}, the "
                         f"normalized axes {tuple(info.shape[a] for a in axes)}")
    if axes != list(range(rank - len(axes), rank)):
        raise NotImplementedError(f"relax.op.nn.rms_norm: normalizes trailing axes, not "
                                  f"{axes}")
    square_mean = mean(multiply(data, data), axes, keepdims=True)
    scale = sqrt(add(square_mean, const(np.array(epsilon, info.dtype))))
    return multiply(divide(data, scale), weight)


def softplus(data, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta, or x where beta * x > threshold (as
    PyTorch's, which keeps the large values exact)."""
    from .binary import greater
    from .search import where
    info = tensor_of(data, "nn.softplus", "data")
    if not info.dtype.startswith(("float", "bfloat")):
        raise TypeError(f"relax.op.nn.softplus: takes floating-point tensors, not {info.dtype}")
    scaled = multiply(data, const(np.array(beta, info.dtype)))
    smooth = divide(log(add(exp(scaled), const(np.array(1, info.dtype)))),
                    const(np.array(beta, info.dtype)))
    return where(greater(scaled, const(np.array(threshold, info.dtype))), data, smooth)


def prelu(data, alpha, axis=1):
    """x where x >= 0, else alpha * x, alpha one value per element of
    `axis` (the channels)."""
    from . import reshape
    from .binary import greater_equal
    from .search import where
    info = tensor_of(data, "nn.prelu", "data")
    slope = tensor_of(alpha, "nn.prelu", "alpha")
    rank = len(info.shape)
    axis = axes_of(axis, rank, "nn.prelu")[0]
    if tuple(slope.shape) != (info.shape[axis],):
        raise ValueError(f"relax.op.nn.prelu: alpha has shape {tuple(slope.shape)}, one value "
                         f"per element of axis {axis} ({info.shape[axis]})")
    per_axis = reshape(alpha, [int(info.shape[axis]) if a == axis else 1 for a in range(rank)])
    return where(greater_equal(data, const(np.array(0, info.dtype))), data,
                 multiply(data, per_axis))


def relu6(data):
    """min(max(data, 0), 6) element-wise."""
    from .unary import clip
    tensor_of(data, "nn.relu6", "data")
    return clip(data, 0.0, 6.0)


def instance_norm(data, gamma, beta, channel_axis=1, axes=None, epsilon=1e-5, center=True,
                  scale=True):
    """Normalization over `axes` (by default every axis but the batch and
    the channels) for each instance and channel, then gamma and beta per
    channel. Axes of size 1 normalize nothing and are left out."""
    from . import reshape
    info = tensor_of(data, "nn.instance_norm", "data")
    shape, rank = [int(d) for d in info.shape], len(info.shape)
    channel_axis = axes_of(channel_axis, rank, "nn.instance_norm")[0]
    axes = axes_of(axes if axes is not None else
                   [a for a in range(rank) if a not in (0, channel_axis)], rank,
                   "nn.instance_norm")
    if channel_axis in axes:
        raise ValueError(f"relax.op.nn.instance_norm: the channel axis {channel_axis} is "
                         f"among the normalized axes {axes}")
    channels = shape[channel_axis]
    for what, t in (("gamma", gamma), ("beta", beta)):
        if tuple(tensor_of(t, "nn.instance_norm", what).shape) != (channels,):
            raise ValueError(f"relax.op.nn.instance_norm: {what} has one value per channel "
                             f"({channels})")
    axes = [a for a in axes if shape[a] != 1]
    out = _standardized(data, axes, epsilon, info.dtype) if axes else \
        subtract(data, data)  # each value its own mean
    per_channel = [channels if a == channel_axis else 1 for a in range(rank)]
    if scale:
        out = multiply(out, reshape(gamma, per_channel))
    return add(out, reshape(beta, per_channel)) if center else out


def attention(query, key, value, bias=None, scale=None, causal_mask=None, window_size=None):
    """softmax(q k^T * scale + bias) v per batch and head: query (B, S, H, D),
    key (B, T, H, D), value (B, T, H, Dv) give (B, S, H, Dv); scale
    1 / sqrt(D) when None; causal_mask "TopLeft" (query i sees keys <= i)
    or "BottomRight" (keys <= i + T - S). One operator of the graph
    (nn.attention, with bias nn.attention_bias) until legalized, which
    replaces it by its parts (attention_parts): reshapes, matmuls and a
    softmax, so the sequence lengths may be shape variables."""
    q = tensor_of(query, "nn.attention", "query", symbolic=True)
    k = tensor_of(key, "nn.attention", "key", symbolic=True)
    v = tensor_of(value, "nn.attention", "value", symbolic=True)
    if window_size is not None:
        raise NotImplementedError("relax.op.nn.attention: window_size")
    if not (len(q.shape) == len(k.shape) == len(v.shape) == 4):
        raise ValueError("relax.op.nn.attention: query, key and value are 4-D (batch, "
                         "sequence, heads, features)")
    b, s, h, d = q.shape
    t, dv = k.shape[1], v.shape[3]
    if tuple(k.shape) != (b, t, h, d) or tuple(v.shape[:3]) != (b, t, h):
        raise ValueError(f"relax.op.nn.attention: query {tuple(q.shape)}, key "
                         f"{tuple(k.shape)} and value {tuple(v.shape)} do not fit")
    if q.dtype != k.dtype or q.dtype != v.dtype:
        raise ValueError("relax.op.nn.attention: query, key and value hold different dtypes")
    if any(isinstance(x, SymDim) for x in (b, h, d, dv)) or \
            (causal_mask is not None and any(isinstance(x, SymDim) for x in (s, t))):
        raise NotImplementedError("relax.op.nn.attention: shape variables size the "
                                  "sequences only (and without a causal mask)")
    if causal_mask is not None and causal_mask not in ("TopLeft", "BottomRight"):
        raise ValueError(f"relax.op.nn.attention: causal_mask {causal_mask!r} is not "
                         "'TopLeft' or 'BottomRight'")
    args = [query, key, value]
    if bias is not None:
        bias_info = tensor_of(bias, "nn.attention", "bias", symbolic=True)
        if not bias_fits(bias_info.shape, b, h, s, t):
            raise ValueError(f"relax.op.nn.attention: bias {tuple(bias_info.shape)} is "
                             f"neither (B, H, S, T) = {(b, h, s, t)} nor broadcasts "
                             f"to the scores {(b * h, s, t)}")
        args.append(bias)
    attrs = {"scale": None if scale is None else float(getattr(scale, "value", scale)),
             "causal_mask": causal_mask}
    name = "relax.nn.attention" if bias is None else "relax.nn.attention_bias"
    return Call(name, args, TensorStructInfo((b, s, h, dv), q.dtype), attrs)


def bias_fits(shape, batch, heads, queries, keys):
    """Whether an attention bias of `shape` is (batch, heads, queries,
    keys) or broadcasts to the (batch * heads, queries, keys) scores."""
    shape, scores = tuple(shape), (batch * heads, queries, keys)
    if shape == (batch, heads, queries, keys):
        return True
    try:
        return tuple(binary_shape(shape, scores, "nn.attention")) == scores
    except ValueError:
        return False


def attention_parts(call, query, key, value, bias=None):
    """What nn.attention `call` computes, from the stand-ins of its inputs:
    heads first, the scores' matmul, scaled (and biased, masked), their
    softmax and its matmul with the values, heads back."""
    from . import matmul, permute_dims, reshape
    b, s, h, d = query.struct_info.shape
    t, dv = key.struct_info.shape[1], value.struct_info.shape[3]
    dtype = query.struct_info.dtype
    scale, causal_mask = call.attrs.get("scale"), call.attrs.get("causal_mask")

    def heads_first(x, length, features):
        return reshape(permute_dims(x, [0, 2, 1, 3]), [b * h, length, features])

    scores = matmul(heads_first(query, s, d), permute_dims(heads_first(key, t, d), [0, 2, 1]))
    factor = float(scale) if scale is not None else 1.0 / float(np.sqrt(d))
    scores = multiply(scores, const(np.array(factor, dtype)))
    if bias is not None:
        scores = add(scores, reshape(bias, [b * h, s, t])
                     if tuple(bias.struct_info.shape) == (b, h, s, t) else bias)
    if causal_mask is not None:
        offset = 0 if causal_mask == "TopLeft" else t - s
        visible = np.arange(t)[None, :] <= np.arange(s)[:, None] + offset
        scores = where(const(visible), scores, const(np.array(-np.inf, dtype)))
    out = matmul(softmax(scores, axis=-1), heads_first(value, t, dv))
    return permute_dims(reshape(out, [b, h, s, dv]), [0, 2, 1, 3])


# The operators kept whole in the graph (tir.composite), with what builds
# their parts.
COMPOSITES = {"relax.nn.attention": attention_parts,
              "relax.nn.attention_bias": attention_parts}


def attention_bias(query, key, value, bias, scale=None, causal_mask=None, window_size=None):
    """nn.attention with `bias` added to the scores ((B, H, S, T) or
    broadcasting to (B * H, S, T))."""
    return attention(query, key, value, bias, scale, causal_mask, window_size)
