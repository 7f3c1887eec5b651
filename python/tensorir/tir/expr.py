"""tvm.tir.expr: typed constants and variables.

IntImm / FloatImm are constants with a dtype, which the schedule takes
where TVM takes them (sch.split factors) and te takes as extents and values.
Var is te's scalar variable (te.var): a named, typed scalar parameter.
"""
from ..te import Var

__all__ = ["IntImm", "FloatImm", "Var", "const"]

_INT_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
_FLOAT_DTYPES = {"float16", "bfloat16", "float32", "float64"}


class _Imm:
    __slots__ = ("dtype", "value", "span")

    def __repr__(self):
        return f"{type(self).__name__}({self.dtype!r}, {self.value!r})"

    def __str__(self):
        return str(self.value)

    def __eq__(self, other):
        if isinstance(other, _Imm):
            return self.dtype == other.dtype and self.value == other.value
        if isinstance(other, (int, float)) and not isinstance(other, bool):
            return self.value == other
        return NotImplemented

    def __hash__(self):
        return hash(self.value)

    def __bool__(self):
        return bool(self.value)

    def same_as(self, other):
        return self is other


class IntImm(_Imm):
    """An integer constant of type `dtype` (int8 ... int64, uint*, bool)."""

    def __init__(self, dtype, value, span=None):
        if dtype not in _INT_DTYPES:
            raise ValueError(f"IntImm takes an integer dtype, got {dtype!r}")
        if isinstance(value, _Imm):
            value = value.value
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"IntImm({dtype!r}, {value!r}): not an integer")
        self.dtype, self.value, self.span = dtype, int(value), span
        if dtype == "bool":
            self.value = int(bool(value))

    def __int__(self):
        return self.value

    __index__ = __int__

    def __float__(self):
        return float(self.value)


class FloatImm(_Imm):
    """A floating-point constant of type `dtype` (float16/32/64, bfloat16)."""

    def __init__(self, dtype, value, span=None):
        if dtype not in _FLOAT_DTYPES:
            raise ValueError(f"FloatImm takes a floating-point dtype, got {dtype!r}")
        if isinstance(value, _Imm):
            value = value.value
        self.dtype, self.value, self.span = dtype, float(value), span

    def __float__(self):
        return self.value


def const(value, dtype=None, span=None):
    """tvm.tir.const: an IntImm or FloatImm; the dtype defaults to int32
    for integers (bool for booleans) and float32 for floats."""
    if dtype is None:
        dtype = "bool" if isinstance(value, bool) else (
            "int32" if isinstance(value, int) else "float32")
    if dtype in _FLOAT_DTYPES:
        return FloatImm(dtype, value, span)
    return IntImm(dtype, value, span)
