"""tvm.tir.expr: typed constants, variables and symbolic integer expressions.

IntImm / FloatImm are constants with a dtype, which the schedule takes
where TVM takes them (sch.split factors) and te takes as extents and values.
Var is te's scalar variable (te.var): a named, typed scalar parameter.
PrimExpr is a symbolic integer expression built outside a function
(`4 * T.vscale()`, `T.ceildiv(n, 4 * T.vscale())`): TVMScript functions take
it from the enclosing Python scope as an index, extent or size, and the
schedule takes it as a split factor.
"""
from ..te import Var

__all__ = ["IntImm", "FloatImm", "Var", "const", "Cast", "PrimExpr", "VScale", "BinaryExpr"]

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


def Cast(dtype, value, span=None):  # noqa: N802 - TVM's name
    """tvm.tir.Cast: `value` converted to `dtype`: a constant for a
    constant, and for an expression a TVMScript helper or te builds (see
    tensorir.script.helpers), that expression converted."""
    from ..script.helpers import HelperExpr, cast
    if isinstance(value, HelperExpr):
        return cast(dtype, value)
    if isinstance(value, _Imm):
        value = value.value
    if isinstance(value, (bool, int, float)):
        return const(float(value) if dtype in _FLOAT_DTYPES else int(value), dtype)
    if hasattr(value, "astype"):
        return value.astype(dtype)
    raise TypeError(f"tir.Cast of a {type(value).__name__}")


# ----------------------------------------------------------------- PrimExpr

# op -> (Python spelling for repr, tir index-expression keyword or None)
_BINARY = {
    "add": ("+", "+"), "sub": ("-", "-"), "mul": ("*", "*"),
    "floordiv": ("T.floordiv", "floordiv"), "floormod": ("T.floormod", "mod"),
    "ceildiv": ("T.ceildiv", "ceildiv"), "min": ("T.min", None), "max": ("T.max", None),
}


def _operand(value):
    """An operand of a PrimExpr: a PrimExpr, or a Python int (IntImm and
    ints are kept as ints)."""
    if isinstance(value, PrimExpr):
        return value
    if isinstance(value, IntImm):
        return value.value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TypeError(f"a symbolic integer expression takes integers, got "
                    f"{type(value).__name__}")


class PrimExpr:
    """A symbolic integer expression (TVM's PrimExpr over vscale): leaves
    are `VScale` and Python ints, inner nodes `BinaryExpr`. Python's
    `+ - * // %` build floor division and modulo, as TVM's do."""

    dtype = "int32"

    def _binary(self, op, other, reverse=False):
        other = _operand(other)
        return BinaryExpr(op, other, self) if reverse else BinaryExpr(op, self, other)

    def __add__(self, o): return self._binary("add", o)
    def __radd__(self, o): return self._binary("add", o, True)
    def __sub__(self, o): return self._binary("sub", o)
    def __rsub__(self, o): return self._binary("sub", o, True)
    def __mul__(self, o): return self._binary("mul", o)
    def __rmul__(self, o): return self._binary("mul", o, True)
    def __floordiv__(self, o): return self._binary("floordiv", o)
    def __rfloordiv__(self, o): return self._binary("floordiv", o, True)
    def __mod__(self, o): return self._binary("floormod", o)
    def __rmod__(self, o): return self._binary("floormod", o, True)
    def __neg__(self): return BinaryExpr("sub", 0, self)

    def __bool__(self):
        raise ValueError(f"the truth of symbolic expression {self} is not known")

    def same_as(self, other):
        return self is other

    def index_text(self, leaf):
        """This expression in tir's index-expression syntax (`+ - *
        floordiv ceildiv mod`, fully parenthesized); `leaf(node)` gives the
        text of a leaf such as VScale. Raises ValueError for T.min /
        T.max, which index expressions cannot hold."""
        raise NotImplementedError

    def walk(self):
        """The nodes of the expression, parents before children."""
        yield self


def _int_text(value):
    return str(value) if value >= 0 else f"(0 - {-value})"


def _text_of(operand, leaf):
    if isinstance(operand, PrimExpr):
        return operand.index_text(leaf)
    return _int_text(operand)


class VScale(PrimExpr):
    """T.vscale(): the number of 128-bit chunks in a scalable vector
    register (LLVM's vscale), known only when the program runs."""

    def index_text(self, leaf):
        return leaf(self)

    def __repr__(self):
        return "T.vscale()"

    def __eq__(self, other):
        return isinstance(other, VScale)

    def __hash__(self):
        return hash("vscale")


class BinaryExpr(PrimExpr):
    """`a op b` with op one of add, sub, mul, floordiv, floormod, ceildiv,
    min, max."""

    def __init__(self, op, a, b):
        if op not in _BINARY:
            raise ValueError(f"unknown operation {op!r}")
        self.op, self.a, self.b = op, _operand(a), _operand(b)

    def index_text(self, leaf):
        keyword = _BINARY[self.op][1]
        if keyword is None:
            raise ValueError(f"T.{self.op} is not an index expression")
        return f"({_text_of(self.a, leaf)} {keyword} {_text_of(self.b, leaf)})"

    def walk(self):
        yield self
        for operand in (self.a, self.b):
            if isinstance(operand, PrimExpr):
                yield from operand.walk()

    def __repr__(self):
        spelling = _BINARY[self.op][0]
        if spelling.startswith("T."):
            return f"{spelling}({self.a!r}, {self.b!r})"
        return f"({self.a!r} {spelling} {self.b!r})"

    def __eq__(self, other):
        """Structural equality (TVM's == builds a comparison; here there is
        no symbolic boolean, so == compares the trees)."""
        return (isinstance(other, BinaryExpr) and self.op == other.op
                and self.a == other.a and self.b == other.b)

    def __hash__(self):
        return hash((self.op, self.a, self.b))


def fold(op, a, b):
    """`a op b` for two Python ints (floor semantics)."""
    if op in ("floordiv", "floormod", "ceildiv") and b == 0:
        raise ZeroDivisionError(f"{op} by zero")
    return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
            "floordiv": lambda: a // b, "floormod": lambda: a % b,
            "ceildiv": lambda: -(-a // b), "min": lambda: min(a, b),
            "max": lambda: max(a, b)}[op]()


def binary(op, a, b):
    """T.floordiv / T.floormod / T.ceildiv / T.min / T.max (and + - * //
    %) outside a function: an IntImm when both operands are integers, else
    a PrimExpr."""
    a, b = _operand(a), _operand(b)
    if isinstance(a, int) and isinstance(b, int):
        return IntImm("int32", fold(op, a, b))
    return BinaryExpr(op, a, b)
