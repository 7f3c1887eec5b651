"""relax.frontend.nn's layers, as TVM names them (weights in PyTorch's
layouts, so that a PyTorch model's state_dict loads as it is)."""
from . import op
from .core import Module, ModuleList, Parameter

__all__ = ["Conv1D", "Conv2D", "Conv3D", "ConvTranspose1D", "Embedding", "GELU", "GroupNorm",
           "Identity", "LayerNorm", "Linear", "RMSNorm", "ReLU", "SiLU", "TimestepEmbedding",
           "Timesteps", "Attention"]


def _check_groups(layer, in_channels, out_channels, groups):
    """That `groups` divides a convolution's input and output channels."""
    if in_channels % groups or out_channels % groups:
        raise ValueError(f"nn.{layer}: {groups} groups do not divide {in_channels} input and "
                         f"{out_channels} output channels")


class Linear(Module):
    """y = x @ weight^T + bias; weight (out_features, in_features)."""

    def __init__(self, in_features, out_features, bias=True, dtype=None, out_dtype=None):
        if out_dtype not in (None, dtype):
            raise NotImplementedError("nn.Linear: out_dtype other than the weight's dtype")
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter((out_features, in_features), dtype)
        self.bias = Parameter((out_features,), dtype) if bias else None

    def forward(self, x):
        y = op.matmul(x, op.permute_dims(self.weight))
        return y if self.bias is None else op.add(y, self.bias)


class ReLU(Module):
    def forward(self, x):
        return op.relu(x)


class SiLU(Module):
    def forward(self, x):
        return op.silu(x)


class GELU(Module):
    def forward(self, x):
        return op.gelu(x)


class Identity(Module):
    def forward(self, x):
        return x


class Conv1D(Module):
    """1-D convolution of NCW data; weight (out_channels, in_channels /
    groups, kernel), bias (out_channels,)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, dtype=None):
        _check_groups("Conv1D", in_channels, out_channels, groups)
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, \
            groups
        self.weight = Parameter((out_channels, in_channels // groups, kernel_size), dtype)
        self.bias = Parameter((out_channels,), dtype) if bias else None

    def forward(self, x):
        return op.conv1d(x, self.weight, self.bias, self.stride, self.padding, self.dilation,
                         self.groups)


class ConvTranspose1D(Module):
    """1-D transposed convolution of NCW data; weight (in_channels,
    out_channels / groups, kernel), bias (out_channels,)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, bias=True, dtype=None):
        _check_groups("ConvTranspose1D", in_channels, out_channels, groups)
        self.stride, self.padding, self.output_padding = stride, padding, output_padding
        self.dilation, self.groups = dilation, groups
        self.weight = Parameter((in_channels, out_channels // groups, kernel_size), dtype)
        self.bias = Parameter((out_channels,), dtype) if bias else None

    def forward(self, x):
        return op.conv1d_transpose(x, self.weight, self.bias, self.stride, self.padding,
                                   self.output_padding, self.dilation, self.groups)


class Conv3D(Module):
    """3-D convolution of NCDHW data; weight (out_channels, in_channels /
    groups, kernel, kernel, kernel), bias (out_channels,)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, dtype=None):
        _check_groups("Conv3D", in_channels, out_channels, groups)
        kernel = (kernel_size,) * 3 if isinstance(kernel_size, int) else tuple(kernel_size)
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, \
            groups
        self.weight = Parameter((out_channels, in_channels // groups) + kernel, dtype)
        self.bias = Parameter((out_channels,), dtype) if bias else None

    def forward(self, x):
        return op.conv3d(x, self.weight, self.bias, self.stride, self.padding, self.dilation,
                         self.groups)


class GroupNorm(Module):
    """Group normalization of num_channels channels in num_groups groups,
    with a weight and a bias per channel when affine."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, dtype=None):
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        self.weight = Parameter((num_channels,), dtype) if affine else None
        self.bias = Parameter((num_channels,), dtype) if affine else None

    def forward(self, x, channel_axis=1, axes=None):
        return op.group_norm(x, self.num_groups, self.weight, self.bias, self.eps,
                             channel_axis, axes)


class RMSNorm(Module):
    """RMS normalization over `axes` (the trailing ones, of hidden_size
    elements), scaled by a weight, plus a bias when given one."""

    def __init__(self, hidden_size, axes, epsilon=1e-5, bias=True, dtype=None):
        self.epsilon = epsilon
        self.axes = [axes] if isinstance(axes, int) else list(axes)
        self.weight = Parameter((hidden_size,), dtype)
        self.bias = Parameter((hidden_size,), dtype) if bias else None

    def forward(self, x):
        out = op.rms_norm(x, self.weight, self.axes, self.epsilon)
        return out if self.bias is None else op.add(out, self.bias)


class Conv2D(Module):
    """2-D convolution of NCHW data; weight (out_channels, in_channels /
    groups, kernel, kernel), bias (out_channels,)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, dtype=None, data_layout="NCHW"):
        _check_groups("Conv2D", in_channels, out_channels, groups)
        kernel = (kernel_size, kernel_size) if isinstance(kernel_size, int) else \
            tuple(kernel_size)
        self.stride, self.padding, self.dilation = stride, padding, dilation
        self.groups, self.data_layout = groups, data_layout
        self.weight = Parameter((out_channels, in_channels // groups) + kernel, dtype)
        self.bias = Parameter((out_channels,), dtype) if bias else None

    def forward(self, x):
        return op.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation,
                         self.groups, self.data_layout)


class LayerNorm(Module):
    """Layer normalization over the last dimension of size
    normalized_shape, with a weight and a bias when elementwise_affine."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, dtype=None):
        self.normalized_shape, self.eps = int(normalized_shape), eps
        self.weight = Parameter((normalized_shape,), dtype) if elementwise_affine else None
        self.bias = Parameter((normalized_shape,), dtype) if elementwise_affine else None

    def forward(self, x):
        return op.layer_norm(x, [self.normalized_shape], self.weight, self.bias, self.eps)


class Embedding(Module):
    """Rows of weight (num, dim) at integer indices."""

    def __init__(self, num, dim, dtype=None):
        self.num, self.dim = int(num), int(dim)
        self.weight = Parameter((num, dim), dtype)

    def forward(self, x):
        # Indices of several dimensions are looked up flattened, and the
        # rows take their shape.
        shape = [int(d) for d in x._expr.struct_info.shape]
        if len(shape) == 1:
            return op.take(self.weight, x, axis=0)
        rows = op.take(self.weight, op.reshape(x, [-1]), axis=0)
        return op.reshape(rows, shape + [self.dim])


class Timesteps(Module):
    """The sinusoidal embedding of diffusion timesteps in num_channels
    channels (op.get_timestep_embedding)."""

    def __init__(self, num_channels, flip_sin_to_cos=False, downscale_freq_shift=1):
        self.num_channels = num_channels
        self.flip_sin_to_cos = flip_sin_to_cos
        self.downscale_freq_shift = downscale_freq_shift

    def forward(self, x):
        return op.get_timestep_embedding(x, self.num_channels,
                                         flip_sin_to_cos=self.flip_sin_to_cos,
                                         downscale_freq_shift=self.downscale_freq_shift)


class TimestepEmbedding(Module):
    """Diffusion models' timestep MLP: linear_1, SiLU, linear_2 (and SiLU
    after when post_act_fn is "silu"); with cond_proj_dim, a condition is
    projected (no bias) and added to the sample first."""

    def __init__(self, in_channels, time_embed_dim, act_fn="silu", out_dim=None,
                 post_act_fn=None, cond_proj_dim=None):
        for what, fn in (("act_fn", act_fn), ("post_act_fn", post_act_fn)):
            if fn not in (None, "silu") or (what == "act_fn" and fn is None):
                raise NotImplementedError(f"nn.TimestepEmbedding: {what} {fn!r} ('silu' is "
                                          "supported)")
        self.linear_1 = Linear(in_channels, time_embed_dim)
        self.cond_proj = Linear(cond_proj_dim, in_channels, bias=False) \
            if cond_proj_dim is not None else None
        self.act = SiLU()
        self.linear_2 = Linear(time_embed_dim, out_dim if out_dim is not None
                               else time_embed_dim)
        self.post_act = SiLU() if post_act_fn is not None else None

    def forward(self, sample, condition=None):
        if condition is not None:
            if self.cond_proj is None:
                raise ValueError("nn.TimestepEmbedding: a condition is given but the layer "
                                 "has no cond_proj_dim")
            sample = sample + self.cond_proj(condition)
        sample = self.act(self.linear_1(sample))
        sample = self.linear_2(sample)
        return self.post_act(sample) if self.post_act is not None else sample


class Attention(Module):
    """Multi-head (cross) attention of diffusion models: queries from the
    hidden states (group-normalized first with norm_num_groups), keys and
    values from encoder_hidden_states (the hidden states when None), heads
    of dim_head channels, then the output projection to_out[0]. scale_qk:
    scores scaled by 1 / sqrt(dim_head), else not scaled."""

    def __init__(self, query_dim, cross_attention_dim=None, heads=8, dim_head=64, bias=False,
                 norm_num_groups=None, out_bias=True, scale_qk=True):
        self.query_dim = query_dim
        self.cross_attention_dim = cross_attention_dim or query_dim
        self.heads, self.dim_head = heads, dim_head
        self.scale_qk = scale_qk
        self.inner_dim = dim_head * heads
        self.to_q = Linear(query_dim, self.inner_dim, bias=bias)
        self.to_k = Linear(self.cross_attention_dim, self.inner_dim, bias=bias)
        self.to_v = Linear(self.cross_attention_dim, self.inner_dim, bias=bias)
        self.group_norm = GroupNorm(norm_num_groups, query_dim) \
            if norm_num_groups is not None else None
        self.to_out = ModuleList([Linear(self.inner_dim, query_dim, bias=out_bias)])

    def forward(self, hidden_states, encoder_hidden_states=None, attention_mask=None):
        if attention_mask is not None:
            raise NotImplementedError("nn.Attention: attention_mask")
        if self.group_norm is not None:
            hidden_states = self.group_norm(hidden_states, channel_axis=2, axes=[1])
        context = hidden_states if encoder_hidden_states is None else encoder_hidden_states
        heads = [op.reshape(proj(source), [0, -1, self.heads, self.dim_head])
                 for proj, source in ((self.to_q, hidden_states), (self.to_k, context),
                                      (self.to_v, context))]
        out = op.scaled_dot_product_attention(*heads, scale=None if self.scale_qk else 1.0)
        return self.to_out[0](op.reshape(out, [0, -1, self.inner_dim]))
