"""topi's element-wise math (TVM's topi.math): each a te compute `T_<name>`
over the whole tensor, for floating-point tensors."""
import math

from .. import te

__all__ = ["erf", "exp", "fast_gelu", "gelu", "sigmoid", "silu", "sqrt", "tanh"]


def _elementwise(name, body):
    def op(x):
        if not str(x.dtype).startswith("float"):
            raise TypeError(f"topi.{name}: x is {x.dtype}; {name} takes floating-point "
                            "tensors")
        return te.compute(x.shape, lambda *i: body(x(*i)), name=f"T_{name}")
    op.__name__ = name
    op.__doc__ = f"topi.{name}: element-wise."
    return op


def _sigmoid(v):
    return 1.0 / (1.0 + te.exp(-v))


exp = _elementwise("exp", te.exp)
erf = _elementwise("erf", te.erf)
sqrt = _elementwise("sqrt", te.sqrt)
tanh = _elementwise("tanh", te.tanh)
sigmoid = _elementwise("sigmoid", _sigmoid)
silu = _elementwise("silu", lambda v: v * _sigmoid(v))
# GELU with erf (PyTorch's default), and its tanh approximation.
gelu = _elementwise("gelu", lambda v: 0.5 * v * (1.0 + te.erf(v * (1.0 / math.sqrt(2.0)))))
fast_gelu = _elementwise("fast_gelu", lambda v: 0.5 * v * (1.0 + te.tanh(
    math.sqrt(2.0 / math.pi) * (v + 0.044715 * v * v * v))))
