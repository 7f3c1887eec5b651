"""relax.op's unary element-wise operators: math functions (floating-point
tensors), abs / negative / sign / rounding (numbers), bitwise_not
(integers), logical_not (bools), the predicates isinf / isnan / isfinite
(bool results) and clip."""
from ..expr import Call
from ..struct_info import TensorStructInfo
from ._common import tensor_of

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_INTEGERS = ("int8", "int16", "int32", "int64")

_FLOAT_ONLY = ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "erf",
               "exp", "log", "rsqrt", "sigmoid", "sin", "sinh", "sqrt", "tan", "tanh")
_NUMBERS = ("abs", "negative", "square", "sign", "ceil", "floor", "round", "trunc")

__all__ = list(_FLOAT_ONLY + _NUMBERS) + ["bitwise_not", "logical_not", "isinf", "isnan",
                                          "isfinite", "clip"]


def _check(info, name, takes):
    if info.dtype not in takes:
        kinds = {_FLOATS: "floating-point", _FLOATS + _INTEGERS: "floating-point or integer",
                 _INTEGERS + ("bool",): "integer or bool", ("bool",): "bool"}[takes]
        raise TypeError(f"relax.op.{name}: takes {kinds} tensors, not {info.dtype}"
                        + (" (R.astype first)" if "float" in kinds else ""))


def _unary(name, takes, result=None, doc=""):
    def op(x):
        info = tensor_of(x, name, "x")
        _check(info, name, takes)
        out = TensorStructInfo(info.shape, result) if result else info
        return Call(f"relax.{name}", [x], out)
    op.__name__ = name.rsplit(".", 1)[-1]
    op.__doc__ = f"relax.op.{name}: {doc or name + ' element-wise'}."
    return op


for _name in _FLOAT_ONLY:
    globals()[_name] = _unary(_name, _FLOATS)
for _name in _NUMBERS:
    globals()[_name] = _unary(_name, _FLOATS + _INTEGERS)
bitwise_not = _unary("bitwise_not", _INTEGERS + ("bool",), doc="~x element-wise")
logical_not = _unary("logical_not", ("bool",), doc="not x element-wise")
isinf = _unary("isinf", _FLOATS, "bool", "whether each element is infinite")
isnan = _unary("isnan", _FLOATS, "bool", "whether each element is NaN")
isfinite = _unary("isfinite", _FLOATS, "bool", "whether each element is finite")


def _number(value, what):
    """A Python number from an int / float, an IntImm / FloatImm or an
    R.prim_value."""
    value = getattr(value, "value", value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"relax.op.clip: {what} is a number, got {type(value).__name__}")
    return value


def clip(x, min, max):  # noqa: A002 - relax's parameter names
    """x within [min, max] element-wise."""
    info = tensor_of(x, "clip", "x")
    _check(info, "clip", _FLOATS + _INTEGERS)
    low, high = _number(min, "min"), _number(max, "max")
    if low > high:
        raise ValueError(f"relax.op.clip: min {low} is above max {high}")
    return Call("relax.clip", [x], info, {"min": float(low), "max": float(high)})
