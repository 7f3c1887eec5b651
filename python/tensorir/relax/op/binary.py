"""relax.op's binary element-wise operators, with NumPy broadcasting:
arithmetic (numbers; add, multiply, maximum and minimum on bools too, as
PyTorch's or / and), comparisons (bool results), bitwise operators and
shifts (integers and bools), logical operators (bools). Both operands hold
one dtype, as Relax requires (R.astype first)."""
from ..expr import Call
from ..struct_info import TensorStructInfo
from ._common import binary_shape, tensor_of

_ARITHMETIC = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "mod",
               "floor_mod", "floor_divide")
_BOOL_ARITHMETIC = ("add", "multiply", "maximum", "minimum")
_COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
_BITWISE = ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift")
_LOGICAL = ("logical_and", "logical_or", "logical_xor")

__all__ = list(_ARITHMETIC + _COMPARISONS + _BITWISE + _LOGICAL)


def _binary(name, takes, result=None):
    def op(x1, x2):
        a, b = tensor_of(x1, name, "x1"), tensor_of(x2, name, "x2")
        if a.dtype != b.dtype:
            raise ValueError(f"relax.op.{name}: the operands' dtypes differ "
                             f"({a.dtype} and {b.dtype}); R.astype one of them first")
        if not takes(a.dtype):
            raise TypeError(f"relax.op.{name}: takes {takes.__doc__} tensors, not {a.dtype}")
        shape = binary_shape(tuple(a.shape), tuple(b.shape), name)
        return Call(f"relax.{name}", [x1, x2], TensorStructInfo(shape, result or a.dtype))
    op.__name__ = name
    op.__doc__ = f"relax.op.{name}: element-wise, with NumPy broadcasting."
    return op


def _numbers(dtype):
    """floating-point or integer"""
    return dtype != "bool"


def _numbers_or_bools(dtype):
    """floating-point, integer or bool"""
    return True


def _integers(dtype):
    """integer or bool"""
    return dtype.startswith("int") or dtype == "bool"


def _bools(dtype):
    """bool"""
    return dtype == "bool"


for _name in _ARITHMETIC:
    globals()[_name] = _binary(_name, _numbers_or_bools if _name in _BOOL_ARITHMETIC
                               else _numbers)
for _name in _COMPARISONS:
    globals()[_name] = _binary(_name, _numbers, "bool")
for _name in _BITWISE:
    globals()[_name] = _binary(_name, _integers)
for _name in _LOGICAL:
    globals()[_name] = _binary(_name, _bools)
