"""relax.frontend.nn.op: the operators a module's forward computes with.
Each binds one graph value in the function being exported: the high-level
operator relax.op makes (legalized into prim_funcs when built), or a
prim_func of the caller's (tensor_expr_op, tensor_ir_op). Shapes and dtypes
are checked where the operator is made, the error naming it."""
import numpy as np

from ... import op as _rop
from ...expr import const
from .core import Parameter, Tensor
from .exporter import current_builder

__all__ = ["add", "arange", "astype", "broadcast_to", "chunk", "concat", "conv1d",
           "conv1d_transpose", "conv2d", "conv3d", "cos", "divide", "equal", "exp", "extern",
           "floor", "full", "gelu", "get_timestep_embedding", "greater", "greater_equal",
           "group_norm", "interpolate", "layer_norm", "less", "less_equal", "log", "matmul",
           "max", "maximum", "min", "minimum", "multiply", "negative", "not_equal", "ones",
           "pad", "permute_dims", "prelu", "print_", "relu", "relu6", "repeat", "reshape", "rms_norm",
           "scaled_dot_product_attention", "sigmoid", "silu", "sin", "softmax", "softplus",
           "split", "sqrt", "square", "squeeze", "subtract", "sum", "take", "tanh",
           "tensor_expr_op", "tensor_ir_op", "triu", "unsqueeze", "zeros"]


def _expr(x, op, what="x"):
    if isinstance(x, Parameter):
        x = x._value()
    if not isinstance(x, Tensor):
        raise TypeError(f"nn.op.{op}: {what} is an nn.Tensor, got {type(x).__name__}")
    return x._expr


def _bind(expr, name=""):
    return Tensor(_expr=current_builder("nn.op").emit(expr, name))


def _te(func, name, *args):
    """A prim_func written in te, on the graph values among `args` (the
    others, None and numbers, passed to `func` as they are)."""
    return Tensor(_expr=current_builder(f"nn.op.{name}").emit_te(
        func, *args, primfunc_name_hint=name))


def _binary(name):
    def op(x1, x2, name_hint=""):
        return _bind(getattr(_rop, name)(_expr(x1, name, "x1"), _expr(x2, name, "x2")),
                     name_hint)
    op.__name__ = name
    op.__doc__ = f"nn.op.{name}: element-wise, with numpy broadcasting."
    return op


add = _binary("add")
subtract = _binary("subtract")
multiply = _binary("multiply")
divide = _binary("divide")
maximum = _binary("maximum")
minimum = _binary("minimum")
greater = _binary("greater")
greater_equal = _binary("greater_equal")
less = _binary("less")
less_equal = _binary("less_equal")
equal = _binary("equal")
not_equal = _binary("not_equal")


def matmul(a, b, out_dtype=None, name=""):
    """The matrix product of 2-D tensors, or of 3-D ones batch by batch."""
    return _bind(_rop.matmul(_expr(a, "matmul", "a"), _expr(b, "matmul", "b"), out_dtype),
                 name)


def permute_dims(x, axes=None, name=""):
    """x's dimensions in the order `axes` (None: reversed)."""
    return _bind(_rop.permute_dims(_expr(x, "permute_dims"), axes), name)


def broadcast_to(x, shape, name="broadcast_to"):
    """x broadcast (numpy's rules) to `shape`."""
    return _bind(_rop.broadcast_to(_expr(x, "broadcast_to"), shape), name)


def squeeze(x, axis=-1, name="squeeze"):
    """x without its axes of size 1 in `axis` (None: all of them)."""
    return _bind(_rop.squeeze(_expr(x, "squeeze"), axis), name)


def unsqueeze(x, dim, name="unsqueeze"):
    """x with a new axis of size 1 at `dim`."""
    return _bind(_rop.expand_dims(_expr(x, "unsqueeze"), dim), name)


def concat(x, dim, name="concat"):
    """The tensors of `x` joined along `dim`."""
    return _bind(_rop.concat([_expr(t, "concat", "a tensor") for t in x], axis=dim), name)


def reshape(x, shape, name=""):
    """x with the shape `shape`: one dimension may be -1 (the rest of the
    elements), a 0 keeps x's dimension at that place."""
    x_expr = _expr(x, "reshape")
    dims = list(x_expr.struct_info.shape)
    shape = [dims[k] if isinstance(d, int) and d == 0 and k < len(dims) else d
             for k, d in enumerate(shape)]
    return _bind(_rop.reshape(x_expr, shape), name)


def relu(x, name=""):
    return _bind(_rop.nn.relu(_expr(x, "relu")), name)


def softmax(x, axis=-1, name=""):
    return _bind(_rop.nn.softmax(_expr(x, "softmax"), axis), name)


def full(shape, fill_value, dtype="float32", name="full"):
    """A tensor of `shape` filled with `fill_value`: a number (an int, a
    float, a tir FloatImm / IntImm) or a 0-d nn.Tensor."""
    if isinstance(fill_value, (Tensor, Parameter)):
        fill_value = _expr(fill_value, "full", "fill_value")
    return _bind(_rop.full(shape, fill_value, dtype), name)


def zeros(shape, dtype="float32", name="zeros"):
    """A tensor of `shape` holding 0."""
    return _bind(_rop.zeros(shape, dtype), name)


def ones(shape, dtype="float32", name="ones"):
    """A tensor of `shape` holding 1."""
    return _bind(_rop.ones(shape, dtype), name)


def arange(start, end=None, step=1, dtype="float32", name="arange"):
    """numpy.arange(start, end, step) as a tensor of `dtype`."""
    return _bind(_rop.arange(start, end, step, dtype), name)


def _results_of(expr, name):
    """The parts of the tuple `expr` bound, as a tuple of Tensors."""
    bound = current_builder(f"nn.op.{name}").emit(expr, name)
    count = len(bound.struct_info.fields)
    return tuple(Tensor(_expr=current_builder("nn.op").emit(bound[k], f"{name}_{k}"))
                 for k in range(count))


def split(ary, indices_or_sections, axis=0, name="split"):
    """The parts of `ary` along `axis`: `indices_or_sections` equal parts,
    or the parts between the given indices; a tuple of Tensors."""
    return _results_of(_rop.split(_expr(ary, "split", "ary"), indices_or_sections, axis), name)


def chunk(x, chunks, dim=0, name="chunk"):
    """x cut into `chunks` equal parts along `dim`; a tuple of Tensors."""
    return _results_of(_rop.split(_expr(x, "chunk"), chunks, dim), name)


def pad(x, pad, mode="constant", value=0.0, name="pad"):
    """x padded with `value`: `pad` holds (before, after) per axis, from the
    first axis ([b0, a0, b1, a1, ...], as relax.op.nn.pad takes them)."""
    if mode != "constant":
        raise NotImplementedError(f"nn.op.pad: mode {mode!r} (constant is supported)")
    return _bind(_rop.nn.pad(_expr(x, "pad"), pad, value), name)


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=None, data_layout="NCHW",
                name="interpolate"):
    """x's spatial dimensions (NCHW) resized to `size`, or scaled by
    `scale_factor`: mode "nearest" picks the source pixel below the
    destination's position (PyTorch's nearest), "bilinear" / "linear"
    interpolates (align_corners: the corner pixels' centers align)."""
    if recompute_scale_factor is not None or antialias:
        raise NotImplementedError("nn.op.interpolate: recompute_scale_factor and antialias")
    x_expr = _expr(x, "interpolate")
    if size is None:
        if scale_factor is None:
            raise ValueError("nn.op.interpolate: give size or scale_factor")
        spatial = [d for d, c in zip(x_expr.struct_info.shape, data_layout) if c not in "NC"]
        factors = scale_factor if isinstance(scale_factor, (list, tuple)) else \
            [scale_factor] * len(spatial)
        size = [int(int(d) * f) for d, f in zip(spatial, factors)]
    if mode.startswith("nearest"):
        method, transform, rounding = "nearest_neighbor", "asymmetric", "floor"
    elif mode in ("linear", "bilinear"):
        method, rounding = "linear", ""
        transform = "align_corners" if align_corners else "half_pixel"
    else:
        raise NotImplementedError(f"nn.op.interpolate: mode {mode!r} (nearest, bilinear)")
    return _bind(_rop.image.resize2d(x_expr, size, layout=data_layout, method=method,
                                     coordinate_transformation_mode=transform,
                                     rounding_method=rounding), name)


def scaled_dot_product_attention(query, key, value, attn_mask=None, is_causal=False,
                                 scale=None, name="scaled_dot_product_attention"):
    """softmax(query key^T * scale) value per batch and head, of (batch,
    sequence, heads, features) tensors (relax.op.nn.attention); is_causal:
    a query sees the keys up to its own position."""
    if attn_mask is not None:
        raise NotImplementedError("nn.op.scaled_dot_product_attention: attn_mask")
    return _bind(_rop.nn.attention(_expr(query, "scaled_dot_product_attention", "query"),
                                   _expr(key, "scaled_dot_product_attention", "key"),
                                   _expr(value, "scaled_dot_product_attention", "value"),
                                   scale=scale, causal_mask="TopLeft" if is_causal else None),
                 name)


def get_timestep_embedding(x, embedding_dim, flip_sin_to_cos=False, downscale_freq_shift=1,
                           scale=1, max_period=10000, name="get_timestep_embedding"):
    """The sinusoidal embedding of the timesteps x (N,) in embedding_dim
    channels (N, embedding_dim), as denoising diffusion models take it:
    sin and cos of x times max_period^(-k / (half - downscale_freq_shift)),
    k < half = embedding_dim // 2, computed in float32; cos first when
    flip_sin_to_cos, a zero channel last when embedding_dim is odd."""
    import math
    x_expr = _expr(x, "get_timestep_embedding")
    if len(x_expr.struct_info.shape) != 1:
        raise ValueError("nn.op.get_timestep_embedding: x holds one timestep per batch "
                         f"element (1-D), got shape {x.shape}")
    half = embedding_dim // 2
    f32 = "float32"
    exponent = _rop.multiply(const(np.array(-math.log(max_period), f32)),
                             _rop.arange(0, half, 1, f32))
    exponent = _rop.divide(exponent, const(np.array(half - downscale_freq_shift, f32)))
    emb = _rop.multiply(_rop.expand_dims(_rop.astype(x_expr, f32), 1),
                        _rop.expand_dims(_rop.exp(exponent), 0))
    if scale != 1:
        emb = _rop.multiply(const(np.array(scale, f32)), emb)
    parts = [_rop.cos(emb), _rop.sin(emb)] if flip_sin_to_cos else \
        [_rop.sin(emb), _rop.cos(emb)]
    emb = _rop.concat(parts, axis=-1)
    if embedding_dim % 2:
        emb = _rop.nn.pad(emb, [0, 0, 0, 1])  # the zero channel, on the last axis
    from .core import get_default_dtype
    return _bind(_rop.astype(emb, get_default_dtype()), name)


def _with_bias(out, bias, op):
    """out plus `bias` (one value per channel, out's axis 1), or out itself
    without a bias."""
    if bias is None:
        return out
    channels = int(_expr(bias, op, "bias").struct_info.shape[0])
    rank = len(out._expr.struct_info.shape)
    return add(out, reshape(bias, [1, channels] + [1] * (rank - 2)))


def _or_constant(param, op, what, shape, dtype, fill):
    """The graph value of weight or bias `param`, or a constant `fill` of
    `shape` when it is None."""
    if param is not None:
        return _expr(param, op, what)
    return const(np.full(shape, fill, dtype))


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           data_layout="NCHW", name=""):
    """2-D convolution of NCHW data with OIHW weights, plus the bias (one per
    output channel) when given."""
    if data_layout != "NCHW":
        raise NotImplementedError(f"nn.op.conv2d: data_layout {data_layout!r} (NCHW is "
                                  "supported)")
    out = _bind(_rop.nn.conv2d(_expr(x, "conv2d"), _expr(weight, "conv2d", "weight"),
                               strides=stride, padding=padding, dilation=dilation,
                               groups=groups), name)
    return _with_bias(out, bias, "conv2d")


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, name=""):
    """1-D convolution of NCW data with OIW weights, plus the bias (one per
    output channel) when given."""
    out = _bind(_rop.nn.conv1d(_expr(x, "conv1d"), _expr(weight, "conv1d", "weight"),
                               strides=stride, padding=padding, dilation=dilation,
                               groups=groups), name)
    return _with_bias(out, bias, "conv1d")


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, name=""):
    """3-D convolution of NCDHW data with OIDHW weights, plus the bias (one
    per output channel) when given."""
    out = _bind(_rop.nn.conv3d(_expr(x, "conv3d"), _expr(weight, "conv3d", "weight"),
                               strides=stride, padding=padding, dilation=dilation,
                               groups=groups), name)
    return _with_bias(out, bias, "conv3d")


def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0,
                     dilation=1, groups=1, name=""):
    """1-D transposed convolution of NCW data with IOW weights, plus the
    bias (one per output channel) when given."""
    out = _bind(_rop.nn.conv1d_transpose(_expr(x, "conv1d_transpose"),
                                         _expr(weight, "conv1d_transpose", "weight"),
                                         strides=stride, padding=padding,
                                         output_padding=output_padding, dilation=dilation,
                                         groups=groups), name)
    return _with_bias(out, bias, "conv1d_transpose")


def group_norm(x, num_groups, weight, bias, eps=1e-5, channel_axis=1, axes=None,
               name="group_norm"):
    """Normalization over each group of num_groups channels and the axes
    `axes` (by default every axis after the channels), then weight and bias
    per channel (ones and zeros when not given)."""
    x_expr = _expr(x, "group_norm")
    rank = len(x_expr.struct_info.shape)
    channels = int(x_expr.struct_info.shape[channel_axis])
    dtype = x_expr.struct_info.dtype
    gamma = _or_constant(weight, "group_norm", "weight", channels, dtype, 1)
    beta = _or_constant(bias, "group_norm", "bias", channels, dtype, 0)
    if axes is None:
        axes = list(range(channel_axis % rank + 1, rank))
    return _bind(_rop.nn.group_norm(x_expr, gamma, beta, num_groups, channel_axis, axes, eps),
                 name)


def _unary(name, relax_op):
    def op(x, name_hint=""):
        return _bind(relax_op(_expr(x, name)), name_hint or name)
    op.__name__ = name
    op.__doc__ = f"nn.op.{name}: element-wise."
    return op


exp = _unary("exp", _rop.exp)
sqrt = _unary("sqrt", _rop.sqrt)
square = _unary("square", _rop.square)
tanh = _unary("tanh", _rop.tanh)
sigmoid = _unary("sigmoid", _rop.sigmoid)
silu = _unary("silu", _rop.nn.silu)
log = _unary("log", _rop.log)
floor = _unary("floor", _rop.floor)
sin = _unary("sin", _rop.sin)
cos = _unary("cos", _rop.cos)
negative = _unary("negative", _rop.negative)


def softplus(x, beta=1.0, threshold=20.0, name="softplus"):
    """log(1 + exp(beta * x)) / beta (x itself where beta * x > threshold)."""
    return _bind(_rop.nn.softplus(_expr(x, "softplus"), beta, threshold), name)


def prelu(x, alpha, axis=1, name="prelu"):
    """x where x >= 0, else alpha * x (alpha per element of `axis`)."""
    return _bind(_rop.nn.prelu(_expr(x, "prelu"), _expr(alpha, "prelu", "alpha"), axis), name)


def gelu(x, approximate=None, name="gelu"):
    """GELU: x * Phi(x) (approximate="tanh": its tanh form)."""
    if approximate not in (None, "none", "tanh"):
        raise ValueError(f"nn.op.gelu: approximate is None or 'tanh', not {approximate!r}")
    relax_op = _rop.nn.gelu_tanh if approximate == "tanh" else _rop.nn.gelu
    return _bind(relax_op(_expr(x, "gelu")), name)


def astype(x, dtype, name="astype"):
    """x's elements converted to `dtype`."""
    return _bind(_rop.astype(_expr(x, "astype"), dtype), name)


def _reduction(name, relax_op):
    def op(x, axis=None, keepdims=False, name_hint=""):
        return _bind(relax_op(_expr(x, name), axis, keepdims=keepdims), name_hint or name)
    op.__name__ = name
    op.__doc__ = f"nn.op.{name}: a reduction over `axis` (None: every axis)."
    return op


sum = _reduction("sum", _rop.sum)  # noqa: A001 - TVM's name
max = _reduction("max", _rop.max)  # noqa: A001 - TVM's name
min = _reduction("min", _rop.min)  # noqa: A001 - TVM's name


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5, name="layer_norm"):
    """Normalizes x over its last len(normalized_shape) dimensions (mean 0,
    variance 1, eps added to the variance), then scales by weight and adds
    bias (of normalized_shape; ones and zeros when not given)."""
    x_expr = _expr(x, "layer_norm")
    rank = len(x_expr.struct_info.shape)
    normalized = [normalized_shape] if isinstance(normalized_shape, int) else \
        list(normalized_shape)
    shape = [int(d) for d in x_expr.struct_info.shape]
    if not normalized or shape[rank - len(normalized):] != [int(d) for d in normalized]:
        raise ValueError(f"nn.op.layer_norm: normalized_shape {normalized} is not the last "
                         f"dimensions of x's shape {shape}")
    axes = list(range(rank - len(normalized), rank))
    dtype = x_expr.struct_info.dtype
    sizes = [int(d) for d in normalized]
    gamma = _or_constant(weight, "layer_norm", "weight", sizes, dtype, 1)
    beta = _or_constant(bias, "layer_norm", "bias", sizes, dtype, 0)
    return _bind(_rop.nn.layer_norm(x_expr, gamma, beta, axes, eps), name)


def rms_norm(x, weight, axes, epsilon=1e-5, name="rms_norm"):
    """x / sqrt(mean(x^2 over `axes`) + epsilon) * weight."""
    return _bind(_rop.nn.rms_norm(_expr(x, "rms_norm"), _expr(weight, "rms_norm", "weight"),
                                  axes, epsilon), name)


def relu6(x, name="relu6"):
    return _bind(_rop.nn.relu6(_expr(x, "relu6")), name)


def repeat(x, repeats, axis=None, name="repeat"):
    """Each element `repeats` times along `axis` (numpy.repeat)."""
    return _bind(_rop.repeat(_expr(x, "repeat"), repeats, axis), name)


def triu(x, diagonal=0, name="triu"):
    """The upper triangle of x's last two axes (from `diagonal`), the rest 0."""
    return _bind(_rop.triu(_expr(x, "triu"), diagonal), name)


def take(x, indices, axis=0, name="take"):
    """The slices of x along `axis` at `indices` (integer tensor): the
    result's shape is x's with that dimension replaced by indices' shape
    (an embedding lookup with axis 0)."""
    x_expr, idx_expr = _expr(x, "take"), _expr(indices, "take", "indices")
    if not idx_expr.struct_info.dtype.startswith(("int", "uint")):
        raise TypeError(f"nn.op.take: indices are integers, got {idx_expr.struct_info.dtype}")
    return _bind(_rop.take(x_expr, idx_expr, axis), name)


def _out_infos(out, op):
    """The struct infos of `out` (a Tensor.placeholder, or a list / tuple
    of them) and whether the call gives one tensor."""
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    for o in outs:
        if not isinstance(o, Tensor):
            raise TypeError(f"nn.{op}: out is an nn.Tensor.placeholder (or a list of them), "
                            f"got {type(o).__name__}")
    # A list of one placeholder gives a tensor too, as Relax's call_tir
    # with one result does.
    return [o._expr.struct_info for o in outs], len(outs) == 1


def _results(expr, one, count):
    if one:
        return _bind(expr)
    bound = current_builder("nn.op").emit(expr)
    return tuple(Tensor(_expr=bound[k]) for k in range(count))


def extern(name, args, out):
    """A call of the packed function `name` on the tensors `args` writing
    results shaped as `out` (R.call_dps_packed): the built module runs the
    function registered under that name (tvm.register_global_func)."""
    infos, one = _out_infos(out, "extern")
    exprs = [_expr(a, "extern", "an argument") for a in args]
    from ...block_builder import call_dps_packed
    return _results(call_dps_packed(name, exprs, infos), one, len(infos))


def print_(tensor):
    """Prints `tensor` when the function runs (a call of the packed
    function "tensorir.nn.print", which the package registers)."""
    from ...block_builder import call_pure_packed
    from ...struct_info import ObjectStructInfo
    current_builder("nn.print_").emit(call_pure_packed(
        "tensorir.nn.print", _expr(tensor, "print_", "the tensor"),
        sinfo_args=ObjectStructInfo()))


def tensor_expr_op(tensor_expr_func, name_hint, args, attrs=None):
    """The te function `tensor_expr_func` (topi.nn.relu, ...) on `args` (its
    tensors as te placeholders, the other values as they are): a prim_func
    named `name_hint` and its call."""
    if attrs:
        raise NotImplementedError("nn.tensor_expr_op: attrs of the prim_func are not "
                                  "supported")
    values = [_expr(a, "tensor_expr_op", "an argument")
              if isinstance(a, (Tensor, Parameter)) else a for a in args]
    return _te(tensor_expr_func, name_hint, *values)


def tensor_ir_op(func, name_hint, args, out):
    """The prim_func `func` (a @T.prim_func) added to the module as
    `name_hint` and called on the tensors `args`, writing results shaped
    as `out` (R.call_tir)."""
    from ...block_builder import call_tir
    infos, one = _out_infos(out, "tensor_ir_op")
    bb = current_builder("nn.tensor_ir_op")
    gvar = bb.add_func(func, name_hint)
    exprs = [_expr(a, "tensor_ir_op", "an argument") for a in args]
    return _results(call_tir(gvar, exprs, infos), one, len(infos))
