"""relax.frontend.nn's layers, as TVM names them (weights in PyTorch's
layouts, so that a PyTorch model's state_dict loads as it is)."""
from . import op
from .core import Module, Parameter

__all__ = ["Conv1D", "Conv2D", "Conv3D", "ConvTranspose1D", "Embedding", "GELU", "GroupNorm",
           "Identity", "LayerNorm", "Linear", "RMSNorm", "ReLU", "SiLU"]


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
        self.in_features, self.out_features = int(in_features), int(out_features)
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
