"""relax.op.nn's window operators over 1, 2 or 3 spatial axes (NCW, NCHW,
NCDHW data): convolutions and max / average / adaptive average pooling.
Explicit padding is a separate nn.pad before a convolution or a max pooling
(the graph operators take the data padded); average pooling takes its
padding as an attribute (the divisor counts it or not)."""
from ..expr import Call
from ..struct_info import TensorStructInfo, is_symbolic
from ._common import tensor_of

_LAYOUTS = {1: ("NCW", "OIW"), 2: ("NCHW", "OIHW"), 3: ("NCDHW", "OIDHW")}


def _values(value, n, what, op):
    """n ints from an int or a sequence of 1 or n."""
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise ValueError(f"relax.op.nn.{op}: {what} is an int or {n} values, got {value}")
    return value


def _paddings(value, n, op):
    """The padding before each of n axes, then after each (TVM's order),
    from an int, n values (both sides) or 2n."""
    if isinstance(value, int):
        return (value,) * (2 * n)
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * (2 * n)
    if len(value) == n:
        return value + value
    if len(value) != 2 * n:
        raise ValueError(f"relax.op.nn.{op}: padding is an int, {n} or {2 * n} values")
    if any(p < 0 for p in value):
        raise ValueError(f"relax.op.nn.{op}: padding {value} is negative")
    return value


def _window_output(size, pad_lo, pad_hi, window, stride, dilation, op):
    extent = size + pad_lo + pad_hi - dilation * (window - 1) - 1
    if not isinstance(size, int):
        # A size given at run time (h): h - 2 for a 3-wide window; with a
        # stride the size is no affine form, which a graph dimension is.
        if stride != 1:
            raise NotImplementedError(f"relax.op.nn.{op}: a symbolic spatial size "
                                      f"({size}) takes stride 1, got {stride}")
        return extent + 1
    if extent < 0:
        raise ValueError(f"relax.op.nn.{op}: the window ({window}, dilation {dilation}) "
                         f"does not fit the padded input ({size + pad_lo + pad_hi})")
    return extent // stride + 1


def _pooled_size(size, pad_lo, pad_hi, window, stride, dilation, ceil_mode, op):
    """The number of windows along an axis (PyTorch's rule: with ceil_mode
    a last partial window counts when it starts inside the data or its
    leading padding)."""
    span = dilation * (window - 1) + 1
    extent = size + pad_lo + pad_hi - span
    if extent < 0:
        raise ValueError(f"relax.op.nn.{op}: the window ({window}, dilation {dilation}) "
                         f"does not fit the padded input ({size + pad_lo + pad_hi})")
    count = (-(-extent // stride) if ceil_mode else extent // stride) + 1
    if ceil_mode and (count - 1) * stride >= size + pad_lo:
        count -= 1
    return count


def _padded(data, padding, value):
    """data with `padding` (before each spatial axis, then after each) of
    `value` around its spatial axes."""
    from .nn import pad
    n = len(padding) // 2
    if not any(padding):
        return data
    width = [0, 0, 0, 0]
    for k in range(n):
        width += [padding[k], padding[n + k]]
    return pad(data, width, value)


def _data(data, n, op, layout):
    x = tensor_of(data, f"nn.{op}", "data")
    if layout != _LAYOUTS[n][0]:
        raise NotImplementedError(f"relax.op.nn.{op}: {_LAYOUTS[n][0]} data only, not "
                                  f"{layout}")
    if len(x.shape) != 2 + n:
        raise ValueError(f"relax.op.nn.{op}: data is {2 + n}-D ({_LAYOUTS[n][0]}), got "
                         f"shape {tuple(x.shape)}")
    return x


def convolution(n, data, weight, strides, padding, dilation, groups, data_layout,
                kernel_layout, out_layout, out_dtype):
    """An n-D convolution (nn.conv1d / 2d / 3d); 1-D is a 2-D convolution
    of height 1 between reshapes."""
    op = f"conv{n}d"
    x = _data(data, n, op, data_layout)
    w = tensor_of(weight, f"nn.{op}", "weight")
    if kernel_layout != _LAYOUTS[n][1] or out_layout not in (None, "", _LAYOUTS[n][0]):
        raise NotImplementedError(f"relax.op.nn.{op}: {_LAYOUTS[n][0]} data and "
                                  f"{_LAYOUTS[n][1]} weights only")
    if len(w.shape) != 2 + n:
        raise ValueError(f"relax.op.nn.{op}: weight is {2 + n}-D ({_LAYOUTS[n][1]})")
    if out_dtype not in (None, "", "void", x.dtype):
        raise NotImplementedError(f"relax.op.nn.{op}: out_dtype other than the data's")
    groups = int(groups)
    if groups < 1:
        raise ValueError(f"relax.op.nn.{op}: groups is at least 1, not {groups}")
    channels, out_channels = x.shape[1], w.shape[0]
    # Symbolic channels are taken to match, as Relax takes them (the
    # runtime then checks each against its argument).
    symbolic = is_symbolic((channels, w.shape[1], out_channels))
    if symbolic and groups != 1:
        raise NotImplementedError(f"relax.op.nn.{op}: symbolic channels in one group only, "
                                  f"got {groups} groups")
    if not symbolic and (channels != w.shape[1] * groups or out_channels % groups):
        raise ValueError(f"relax.op.nn.{op}: data of {channels} channels and weight "
                         f"{tuple(w.shape)} do not form {groups} group(s) (weight: O, "
                         "C / groups, then the window)")
    strides = _values(strides, n, "strides", op)
    dilation = _values(dilation, n, "dilation", op)
    padding = _paddings(padding, n, op)
    if n == 1:
        from . import reshape
        y = convolution(2, reshape(data, [x.shape[0], channels, 1, x.shape[2]]),
                        reshape(weight, [out_channels, w.shape[1], 1, w.shape[2]]),
                        (1, strides[0]), (0, padding[0], 0, padding[1]), (1, dilation[0]),
                        groups, "NCHW", "OIHW", None, out_dtype)
        return reshape(y, [x.shape[0], out_channels, y.struct_info.shape[3]])
    sizes = [_window_output(x.shape[2 + k], padding[k], padding[n + k], w.shape[2 + k],
                            strides[k], dilation[k], op) for k in range(n)]
    attrs = {"strides": list(strides), "dilation": list(dilation)}
    if groups > 1:
        attrs["groups"] = groups
    return Call(f"relax.nn.{op}", [_padded(data, padding, 0.0), weight],
                TensorStructInfo((x.shape[0], out_channels, *sizes), x.dtype), attrs)


def _pool_window(n, pool_size, strides, dilation, padding, op):
    """A pooling's window: its size, strides and dilation (n values each)
    and padding (before each axis, then after each)."""
    return (_values(pool_size, n, "pool_size", op), _values(strides, n, "strides", op),
            _values(dilation, n, "dilation", op), _paddings(padding, n, op))


def max_pool(n, data, pool_size, strides, padding, dilation, ceil_mode, layout):
    """The maximum over each window (nn.max_pool2d / 3d), floor mode."""
    op = f"max_pool{n}d"
    x = _data(data, n, op, layout)
    if ceil_mode:
        raise NotImplementedError(f"relax.op.nn.{op}: floor mode only")
    size, strides, dilation, padding = _pool_window(n, pool_size, strides, dilation, padding,
                                                    op)
    sizes = [_window_output(x.shape[2 + k], padding[k], padding[n + k], size[k], strides[k],
                            dilation[k], op) for k in range(n)]
    return Call(f"relax.nn.{op}", [_padded(data, padding, float("-inf"))],
                TensorStructInfo((x.shape[0], x.shape[1], *sizes), x.dtype),
                {"pool_size": list(size), "strides": list(strides),
                 "dilation": list(dilation)})


def avg_pool(n, data, pool_size, strides, padding, dilation, ceil_mode, count_include_pad,
             layout, out_layout):
    """The mean over each window (nn.avg_pool2d / 3d); the padding counts in
    the divisor with count_include_pad (PyTorch's rules, ceil_mode's
    clipped windows too)."""
    op = f"avg_pool{n}d"
    x = _data(data, n, op, layout)
    if out_layout not in (None, "", layout):
        raise NotImplementedError(f"relax.op.nn.{op}: the output's layout is the data's")
    if not x.dtype.startswith(("float", "bfloat")):
        raise TypeError(f"relax.op.nn.{op}: takes floating-point tensors, not {x.dtype}")
    size, strides, dilation, padding = _pool_window(n, pool_size, strides, dilation, padding,
                                                    op)
    sizes = [_pooled_size(x.shape[2 + k], padding[k], padding[n + k], size[k], strides[k],
                          dilation[k], ceil_mode, op) for k in range(n)]
    return Call(f"relax.nn.{op}", [data],
                TensorStructInfo((x.shape[0], x.shape[1], *sizes), x.dtype),
                {"pool_size": list(size), "strides": list(strides), "dilation": list(dilation),
                 "padding": list(padding), "ceil_mode": bool(ceil_mode),
                 "count_include_pad": bool(count_include_pad)})


def adaptive_avg_pool(n, data, output_size, layout):
    """The mean over equal windows giving `output_size` (the input's sizes
    divisible by it; None keeps a size)."""
    op = f"adaptive_avg_pool{n}d"
    x = _data(data, n, op, layout)
    spatial = tuple(x.shape[2:])
    if output_size is None:
        sizes = spatial
    else:
        sizes = output_size if isinstance(output_size, (list, tuple)) else [output_size]
        sizes = [spatial[k] if s is None else int(s) for k, s in
                 enumerate(list(sizes) * n if len(sizes) == 1 else sizes)]
        if len(sizes) != n:
            raise ValueError(f"relax.op.nn.{op}: output_size is {n} values")
    if any(s < 1 or d % s for d, s in zip(spatial, sizes)):
        raise NotImplementedError(f"relax.op.nn.{op}: an input of {spatial} into "
                                  f"{tuple(sizes)} (sizes must divide)")
    return Call(f"relax.nn.{op}", [data],
                TensorStructInfo((x.shape[0], x.shape[1], *sizes), x.dtype),
                {"output_size": list(sizes)})


_TRANSPOSED_LAYOUTS = {1: ("NCW", "IOW"), 2: ("NCHW", "IOHW"), 3: ("NCDHW", "IODHW")}


def conv_transpose(n, data, weight, strides, padding, output_padding, dilation, groups,
                   data_layout, kernel_layout, out_layout, out_dtype):
    """An n-D transposed convolution (nn.conv1d_transpose / 2d): output
    position i * stride + t * dilation - padding receives data[i] *
    weight[t] (weight: I, O / groups, then the window). Built as PyTorch
    defines it, a convolution of the data with strides' zeros between its
    elements, padded by dilation * (window - 1) - padding (output_padding
    more after), with the window flipped and the weight's channels
    swapped."""
    from . import permute_dims, reshape
    from .manipulate import flip, strided_slice
    from .nn import pad
    op = f"conv{n}d_transpose"
    x = _data(data, n, op, data_layout)
    w = tensor_of(weight, f"nn.{op}", "weight")
    if kernel_layout != _TRANSPOSED_LAYOUTS[n][1] or out_layout not in (None, "", data_layout):
        raise NotImplementedError(f"relax.op.nn.{op}: {_TRANSPOSED_LAYOUTS[n][0]} data and "
                                  f"{_TRANSPOSED_LAYOUTS[n][1]} weights only")
    if len(w.shape) != 2 + n:
        raise ValueError(f"relax.op.nn.{op}: weight is {2 + n}-D "
                         f"({_TRANSPOSED_LAYOUTS[n][1]})")
    if out_dtype not in (None, "", "void", x.dtype):
        raise NotImplementedError(f"relax.op.nn.{op}: out_dtype other than the data's")
    groups = int(groups)
    channels, per_group_out = int(x.shape[1]), int(w.shape[1])
    if groups < 1 or channels != int(w.shape[0]) or channels % groups:
        raise ValueError(f"relax.op.nn.{op}: data of {channels} channels and weight "
                         f"{tuple(w.shape)} do not form {groups} group(s) (weight: I, "
                         "O / groups, then the window)")
    strides = _values(strides, n, "strides", op)
    dilation = _values(dilation, n, "dilation", op)
    output_padding = _values(output_padding, n, "output_padding", op)
    padding = _paddings(padding, n, op)
    for k in range(n):
        if not 0 <= output_padding[k] < max(strides[k], dilation[k]):
            raise ValueError(f"relax.op.nn.{op}: output_padding {output_padding[k]} is not "
                             "below the stride or the dilation")
    if n == 1:
        y = conv_transpose(2, reshape(data, [x.shape[0], channels, 1, x.shape[2]]),
                           reshape(weight, [channels, per_group_out, 1, w.shape[2]]),
                           (1, strides[0]), (0, padding[0], 0, padding[1]),
                           (0, output_padding[0]), (1, dilation[0]), groups, "NCHW", "IOHW",
                           None, out_dtype)
        return reshape(y, [x.shape[0], y.struct_info.shape[1], y.struct_info.shape[3]])
    spatial = [int(d) for d in x.shape[2:]]
    window = [int(d) for d in w.shape[2:]]
    lead = [int(x.shape[0]), channels]
    source = data
    if any(s > 1 for s in strides):
        # stride - 1 zeros after each element: a unit axis after each
        # spatial one, padded to the stride, folded in, the tail cut.
        source = reshape(source, lead + [v for d in spatial for v in (d, 1)])
        width = [0, 0, 0, 0]
        for s in strides:
            width += [0, 0, 0, s - 1]
        source = pad(source, width)
        source = reshape(source, lead + [d * s for d, s in zip(spatial, strides)])
        source = strided_slice(source, list(range(2, 2 + n)), [0] * n,
                               [(d - 1) * s + 1 for d, s in zip(spatial, strides)])
    sizes = [(d - 1) * s + 1 for d, s in zip(spatial, strides)]
    width, crop = [0, 0, 0, 0], False
    begin, end = [], []
    for k in range(n):
        reach = dilation[k] * (window[k] - 1)
        low, high = reach - padding[k], reach - padding[n + k] + output_padding[k]
        width += [max(low, 0), max(high, 0)]
        begin.append(max(-low, 0))
        end.append(sizes[k] + max(low, 0) + max(high, 0) - max(-high, 0))
        crop = crop or low < 0 or high < 0
    if any(width):
        source = pad(source, width)
    if crop:
        source = strided_slice(source, list(range(2, 2 + n)), begin, end)
    kernel = flip(weight, 2) if window[0] > 1 else weight
    for k in range(1, n):
        if window[k] > 1:
            kernel = flip(kernel, 2 + k)
    per_group_in = channels // groups
    kernel = reshape(kernel, [groups, per_group_in, per_group_out] + window)
    kernel = permute_dims(kernel, [0, 2, 1] + list(range(3, 3 + n)))
    kernel = reshape(kernel, [groups * per_group_out, per_group_in] + window)
    return convolution(n, source, kernel, 1, 0, dilation, groups, data_layout,
                       _LAYOUTS[n][1], None, out_dtype)
