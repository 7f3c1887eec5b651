"""relax.frontend.nn.op: the operators a module's forward computes with.
Each binds one graph value in the function being exported: high-level
operators as relax.op makes them (legalized into prim_funcs when built),
the others as prim_funcs written in te (emit_te). Shapes and dtypes are
checked where the operator is made, the error naming it."""
import numpy as np

from .... import topi
from ... import op as _rop
from ...expr import const
from .core import Parameter, Tensor
from .exporter import current_builder

__all__ = ["add", "conv2d", "divide", "exp", "extern", "full", "gelu", "layer_norm",
           "matmul", "maximum", "minimum", "multiply", "permute_dims", "relu", "reshape",
           "sigmoid", "silu", "softmax", "sqrt", "subtract", "take", "tanh", "tensor_expr_op",
           "tensor_ir_op"]


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


def matmul(a, b, out_dtype=None, name=""):
    """The matrix product of 2-D tensors, or of 3-D ones batch by batch."""
    return _bind(_rop.matmul(_expr(a, "matmul", "a"), _expr(b, "matmul", "b"), out_dtype),
                 name)


def permute_dims(x, axes=None, name=""):
    """x's dimensions in the order `axes` (None: reversed)."""
    return _bind(_rop.permute_dims(_expr(x, "permute_dims"), axes), name)


def reshape(x, shape, name=""):
    """x with the shape `shape` (one dimension may be -1)."""
    return _bind(_rop.reshape(_expr(x, "reshape"), shape), name)


def relu(x, name=""):
    return _bind(_rop.nn.relu(_expr(x, "relu")), name)


def softmax(x, axis=-1, name=""):
    return _bind(_rop.nn.softmax(_expr(x, "softmax"), axis), name)


def full(shape, fill_value, dtype="float32", name=""):
    """A constant tensor of `shape` filled with `fill_value`."""
    return _bind(const(np.full(tuple(shape), fill_value, dtype=dtype)), name)


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
    if bias is not None:
        channels = _expr(bias, "conv2d", "bias").struct_info.shape
        out = add(out, reshape(bias, [1, int(channels[0]), 1, 1]))
    return out


def _unary(name):
    topi_op = getattr(topi, name)

    def op(x, name_hint=""):
        return _te(topi_op, name_hint or name, _expr(x, name))
    op.__name__ = name
    op.__doc__ = f"nn.op.{name}: element-wise (topi.{name})."
    return op


exp = _unary("exp")
sqrt = _unary("sqrt")
tanh = _unary("tanh")
sigmoid = _unary("sigmoid")
silu = _unary("silu")
gelu = _unary("gelu")


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5, name="layer_norm"):
    """Normalizes x over its last len(normalized_shape) dimensions (mean 0,
    variance 1, eps added to the variance), then scales by weight and adds
    bias (of normalized_shape) when given (topi.nn.layer_norm)."""
    x_expr = _expr(x, "layer_norm")
    rank = len(x_expr.struct_info.shape)
    normalized = [normalized_shape] if isinstance(normalized_shape, int) else \
        list(normalized_shape)
    shape = [int(d) for d in x_expr.struct_info.shape]
    if not normalized or shape[rank - len(normalized):] != [int(d) for d in normalized]:
        raise ValueError(f"nn.op.layer_norm: normalized_shape {normalized} is not the last "
                         f"dimensions of x's shape {shape}")
    axes = list(range(rank - len(normalized), rank))
    gamma, beta = (_expr(p, "layer_norm", what) if p is not None else None
                   for p, what in ((weight, "weight"), (bias, "bias")))
    return _te(topi.nn.layer_norm, name, x_expr, gamma, beta, axes, eps)


def take(x, indices, axis=0, name="take"):
    """The slices of x along `axis` at `indices` (integer tensor): the
    result's shape is x's with that dimension replaced by indices' shape
    (an embedding lookup with axis 0; topi.take)."""
    x_expr, idx_expr = _expr(x, "take"), _expr(indices, "take", "indices")
    if not idx_expr.struct_info.dtype.startswith(("int", "uint")):
        raise TypeError(f"nn.op.take: indices are integers, got {idx_expr.struct_info.dtype}")
    return _te(topi.take, name, x_expr, idx_expr, axis)


def _out_infos(out, op):
    """The struct infos of `out` (a Tensor.placeholder, or a list / tuple
    of them) and whether it is one."""
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    for o in outs:
        if not isinstance(o, Tensor):
            raise TypeError(f"nn.{op}: out is an nn.Tensor.placeholder (or a list of them), "
                            f"got {type(o).__name__}")
    return [o._expr.struct_info for o in outs], not isinstance(out, (list, tuple))


def _results(expr, one, count):
    if one:
        return _bind(expr)
    bound = current_builder("nn.op").emit(expr)
    return tuple(Tensor(_expr=bound[k]) for k in range(count))


def extern(name, args, out):
    """A call of the packed function `name` on the tensors `args` writing
    results shaped as `out` (R.call_dps_packed). The module only names it:
    building a module with such a call is refused."""
    infos, one = _out_infos(out, "extern")
    exprs = [_expr(a, "extern", "an argument") for a in args]
    from ...block_builder import call_dps_packed
    return _results(call_dps_packed(name, exprs, infos), one, len(infos))


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
