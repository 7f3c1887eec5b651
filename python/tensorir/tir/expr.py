"""tvm.tir.expr: the IR's expressions as Python objects.

Constants (IntImm, FloatImm, StringImm), variables (Var, SizeVar), the
arithmetic, comparison and logical nodes, Select, Cast, BufferLoad, Call
(with a tvm.ir.Op), Let, and the vector nodes Ramp and Broadcast. Python's
operators on them build nodes as TVM's do (`+ - * / // %`, comparisons;
`//` and `%` are floor division and modulo), folding constants; `==` and
`!=` build EQ / NE, which are true in a Python condition only for the same
object (TVM's rule), so `op in loops` finds a node by identity.

te's expressions are these nodes (a te axis is a Var).
"""
from ..ir.node import Node, Op

__all__ = ["PrimExpr", "Var", "SizeVar", "IntImm", "FloatImm", "StringImm", "Cast", "Add",
           "Sub", "Mul", "Div", "Mod", "FloorDiv", "FloorMod", "Min", "Max", "EQ", "NE",
           "LT", "LE", "GT", "GE", "And", "Or", "Not", "Select", "BufferLoad", "Call", "Let",
           "Ramp", "Broadcast", "const", "convert"]

INT_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64"}
FLOAT_DTYPES = {"float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2"}


def _is_float(dtype):
    return dtype.split("x")[0] in FLOAT_DTYPES


class PrimExpr(Node):
    """An expression with a `dtype`."""

    dtype = "int32"

    def _binary(self, cls, other, reverse=False):
        a, b = (other, self) if reverse else (self, other)
        if not isinstance(other, (PrimExpr, int, float)):
            return NotImplemented
        return make_binary(cls, a, b)

    def __add__(self, o): return self._binary(Add, o)
    def __radd__(self, o): return self._binary(Add, o, True)
    def __sub__(self, o): return self._binary(Sub, o)
    def __rsub__(self, o): return self._binary(Sub, o, True)
    def __mul__(self, o): return self._binary(Mul, o)
    def __rmul__(self, o): return self._binary(Mul, o, True)
    def __truediv__(self, o): return self._binary(Div, o)
    def __rtruediv__(self, o): return self._binary(Div, o, True)
    def __floordiv__(self, o): return self._binary(FloorDiv, o)
    def __rfloordiv__(self, o): return self._binary(FloorDiv, o, True)
    def __mod__(self, o): return self._binary(FloorMod, o)
    def __rmod__(self, o): return self._binary(FloorMod, o, True)
    def __rshift__(self, o): return _bitwise("shift_right", self, o)
    def __rrshift__(self, o): return _bitwise("shift_right", o, self)
    def __lshift__(self, o): return _bitwise("shift_left", self, o)
    def __rlshift__(self, o): return _bitwise("shift_left", o, self)
    def __and__(self, o): return _bitwise("bitwise_and", self, o)
    def __rand__(self, o): return _bitwise("bitwise_and", o, self)
    def __or__(self, o): return _bitwise("bitwise_or", self, o)
    def __ror__(self, o): return _bitwise("bitwise_or", o, self)
    def __xor__(self, o): return _bitwise("bitwise_xor", self, o)
    def __rxor__(self, o): return _bitwise("bitwise_xor", o, self)
    def __lt__(self, o): return self._binary(LT, o)
    def __le__(self, o): return self._binary(LE, o)
    def __gt__(self, o): return self._binary(GT, o)
    def __ge__(self, o): return self._binary(GE, o)
    def __eq__(self, o): return self._compare(EQ, o)
    def __ne__(self, o): return self._compare(NE, o)

    def _compare(self, cls, other):
        # `in` on lists and dicts compares with ==: a comparison that cannot
        # be built (other dtypes, other kinds of object) is not equal.
        try:
            return self._binary(cls, other)
        except TypeError:
            return NotImplemented

    def __neg__(self):
        if isinstance(self, (IntImm, FloatImm)):
            return type(self)(self.dtype, -self.value)
        return make_binary(Sub, const(0, self.dtype), self)

    __hash__ = Node.__hash__

    def __bool__(self):
        raise ValueError(f"the expression {self.script()} has no truth value in Python; "
                         "use tvm.tir.all / any or compare with same_as")

    def astype(self, dtype):
        """The value as `dtype` (itself when it has that dtype, as TVM)."""
        return self if dtype == self.dtype else Cast(dtype, self)

    def equal(self, other):
        """self == other as an expression (TVM's PrimExpr.equal)."""
        return make_binary(EQ, self, other)


class Var(PrimExpr):
    """A variable (TVM's tir.Var): a loop or block variable, a scalar
    parameter, or a let-bound value. `name` is its hint (`name_hint`)."""

    _fields = ("name", "dtype")

    def __init__(self, name="v", dtype="int32", span=None):
        self.name, self.dtype, self.span = str(name), str(dtype), span

    @property
    def name_hint(self):
        return self.name


class SizeVar(Var):
    """A variable known to be non-negative (a shape's size)."""


class _Imm(PrimExpr):
    _fields = ("dtype", "value")

    def __eq__(self, other):
        if isinstance(other, _Imm):
            return self.dtype == other.dtype and self.value == other.value
        if isinstance(other, (int, float)) and not isinstance(other, bool):
            return self.value == other
        return PrimExpr.__eq__(self, other)

    def __ne__(self, other):
        result = self.__eq__(other)
        return (not result) if isinstance(result, bool) else PrimExpr.__ne__(self, other)

    def __hash__(self):
        return hash(self.value)

    def __bool__(self):
        return bool(self.value)


class IntImm(_Imm):
    """An integer constant of type `dtype` (int8 ... int64, uint*, bool)."""

    def __init__(self, dtype, value, span=None):
        if dtype not in INT_DTYPES:
            raise ValueError(f"IntImm takes an integer dtype, got {dtype!r}")
        if isinstance(value, _Imm):
            value = value.value
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"IntImm({dtype!r}, {value!r}): not an integer")
        self.dtype, self.value, self.span = dtype, int(value), span
        if dtype == "bool":
            self.value = int(bool(value))
        else:
            bits = int(dtype.lstrip("uint"))
            lo, hi = (0, 2 ** bits - 1) if dtype.startswith("u") else \
                (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
            if not lo <= self.value <= hi:
                raise ValueError(f"IntImm({dtype!r}, {self.value}): the value is outside "
                                 f"{dtype}'s range [{lo}, {hi}]")

    def __int__(self):
        return self.value

    __index__ = __int__

    def __float__(self):
        return float(self.value)


class FloatImm(_Imm):
    """A floating-point constant of type `dtype` (float16/32/64, bfloat16)."""

    def __init__(self, dtype, value, span=None):
        if dtype not in FLOAT_DTYPES:
            raise ValueError(f"FloatImm takes a floating-point dtype, got {dtype!r}")
        if isinstance(value, _Imm):
            value = value.value
        self.dtype, self.value, self.span = dtype, float(value), span

    def __float__(self):
        return self.value


class StringImm(PrimExpr):
    """A string constant (an argument of T.call_extern, say)."""

    _fields = ("value",)
    dtype = "handle"

    def __init__(self, value, span=None):
        self.value, self.span = str(value), span


def const(value, dtype=None, span=None):
    """tvm.tir.const: an IntImm or FloatImm; the dtype defaults to int32
    for integers (bool for booleans) and float32 for floats."""
    if dtype is None:
        dtype = "bool" if isinstance(value, bool) else (
            "int32" if isinstance(value, int) else "float32")
    if dtype in FLOAT_DTYPES:
        return FloatImm(dtype, value, span)
    return IntImm(dtype, value, span)


class Cast(PrimExpr):
    """`value` converted to `dtype` (a constant is converted at once)."""

    _fields = ("dtype", "value")

    def __new__(cls, dtype, value=None, span=None):
        if isinstance(value, (bool, int, float, _Imm)):
            number = value.value if isinstance(value, _Imm) else value
            return const(float(number) if dtype in FLOAT_DTYPES else int(number), dtype)
        return super().__new__(cls)

    def __init__(self, dtype, value=None, span=None):
        self.dtype, self.value, self.span = str(dtype), convert(value), span


class BinaryOpExpr(PrimExpr):
    _fields = ("a", "b")

    def __init__(self, a, b, span=None):
        a, b = _unify(convert(a), convert(b), type(self).__name__)
        self.a, self.b, self.span = a, b, span

    @property
    def dtype(self):
        return self.a.dtype


class Add(BinaryOpExpr): """a + b"""
class Sub(BinaryOpExpr): """a - b"""
class Mul(BinaryOpExpr): """a * b"""
class Div(BinaryOpExpr): """a / b (truncating for integers)"""
class Mod(BinaryOpExpr): """truncated remainder"""
class FloorDiv(BinaryOpExpr): """a // b"""
class FloorMod(BinaryOpExpr): """a % b"""
class Min(BinaryOpExpr): """T.min(a, b)"""
class Max(BinaryOpExpr): """T.max(a, b)"""


class CmpExpr(BinaryOpExpr):
    @property
    def dtype(self):
        return "bool"


class EQ(CmpExpr):
    """a == b; in a Python condition: whether a and b are the same object."""

    def __bool__(self):
        return self.a.same_as(self.b)


class NE(CmpExpr):
    """a != b; in a Python condition: whether a and b are different objects."""

    def __bool__(self):
        return not self.a.same_as(self.b)


class LT(CmpExpr): """a < b"""
class LE(CmpExpr): """a <= b"""
class GT(CmpExpr): """a > b"""
class GE(CmpExpr): """a >= b"""


def _check_bool(value, what):
    if value.dtype != "bool":
        raise TypeError(f"{what} takes a boolean, got a {value.dtype} ({value.script()}); "
                        "compare it first (x != 0)")
    return value


class And(BinaryOpExpr):
    """a and b (booleans)"""
    dtype = "bool"

    def __init__(self, a, b, span=None):
        super().__init__(_check_bool(convert(a), "tir.And"), _check_bool(convert(b), "tir.And"),
                         span)


class Or(BinaryOpExpr):
    """a or b (booleans)"""
    dtype = "bool"

    def __init__(self, a, b, span=None):
        super().__init__(_check_bool(convert(a), "tir.Or"), _check_bool(convert(b), "tir.Or"),
                         span)


class Not(PrimExpr):
    _fields = ("a",)
    dtype = "bool"

    def __init__(self, a, span=None):
        self.a, self.span = _check_bool(convert(a), "tir.Not"), span


class Select(PrimExpr):
    """condition ? true_value : false_value, both evaluated."""

    _fields = ("condition", "true_value", "false_value")

    def __init__(self, condition, true_value, false_value, span=None):
        self.condition = _check_bool(convert(condition), "tir.Select's condition")
        self.true_value, self.false_value = _unify(convert(true_value), convert(false_value),
                                                   "Select")
        self.span = span

    @property
    def dtype(self):
        return self.true_value.dtype


class BufferLoad(PrimExpr):
    """`buffer[indices]`."""

    _fields = ("buffer", "indices")

    def __init__(self, buffer, indices, span=None):
        from .buffer import Buffer
        if not isinstance(buffer, Buffer):
            raise TypeError(f"BufferLoad takes a tir.Buffer, got {type(buffer).__name__}")
        self.buffer, self.span = buffer, span
        self.indices = [convert(i) for i in (indices if isinstance(indices, (list, tuple))
                                             else [indices])]
        if len(self.indices) != len(buffer.shape):
            raise ValueError(f"BufferLoad of {buffer.name}: {len(self.indices)} indices for "
                             f"{len(buffer.shape)} dimensions")

    @property
    def dtype(self):
        return self.buffer.dtype


class Call(PrimExpr):
    """A call of an operator (`op`, a tvm.ir.Op or its name, "tir.exp" or
    "exp") with `args`; `dtype` is the result's."""

    _fields = ("dtype", "op", "args")

    def __init__(self, dtype, op, args, span=None):
        if isinstance(op, str):
            op = Op.get(op if op.startswith("tir.") else "tir." + op)
        if not isinstance(op, Op):
            raise TypeError(f"Call takes a tvm.ir.Op or its name, got {type(op).__name__}")
        self.dtype, self.op, self.span = str(dtype), op, span
        self.args = [a if isinstance(a, Node) else
                     (StringImm(a) if isinstance(a, str) else convert(a)) for a in args]


class Let(PrimExpr):
    """`body` with `var` bound to `value`."""

    _fields = ("var", "value", "body")

    def __init__(self, var, value, body, span=None):
        self.var, self.value, self.body, self.span = var, convert(value), convert(body), span

    @property
    def dtype(self):
        return self.body.dtype


class Ramp(PrimExpr):
    """The vector base, base + stride, ..., of `lanes` lanes."""

    _fields = ("base", "stride", "lanes")

    def __init__(self, base, stride, lanes, span=None):
        self.base, self.stride = _unify(convert(base), convert(stride), "Ramp")
        self.lanes, self.span = int(lanes), span

    @property
    def dtype(self):
        return f"{self.base.dtype}x{self.lanes}"


class Broadcast(PrimExpr):
    """`value` in each of `lanes` lanes."""

    _fields = ("value", "lanes")

    def __init__(self, value, lanes, span=None):
        self.value, self.lanes, self.span = convert(value), int(lanes), span

    @property
    def dtype(self):
        return f"{self.value.dtype}x{self.lanes}"


# --------------------------------------------------------------- conversion

def convert(value, dtype=None):
    """`value` as a PrimExpr: nodes as they are; Python numbers as
    constants (of `dtype` when given)."""
    if isinstance(value, PrimExpr):
        return value
    if isinstance(value, bool):
        return IntImm("bool", value)
    if isinstance(value, int):
        return const(value, dtype if dtype and not _is_float(dtype) else
                     (dtype if dtype else "int32"))
    if isinstance(value, float):
        return FloatImm(dtype if dtype in FLOAT_DTYPES else "float32", value)
    raise TypeError(f"cannot use a {type(value).__name__} ({value!r}) as a tir expression")


def _unify(a, b, what):
    """Two operands of one dtype for a node's constructor: a constant takes
    the other side's dtype; other operands must agree (TVM's constructors
    check, its operators convert: unify_dtypes)."""
    if a.dtype == b.dtype:
        return a, b
    if isinstance(b, _Imm) and not isinstance(a, _Imm):
        return a, const(b.value, a.dtype)
    if isinstance(a, _Imm) and not isinstance(b, _Imm):
        return const(a.value, b.dtype), b
    if isinstance(a, _Imm) and isinstance(b, _Imm) and "bool" in (a.dtype, b.dtype):
        return a, b
    raise TypeError(f"tir.{what}: operands of different dtypes, {a.dtype} and {b.dtype} "
                    "(convert one with tvm.tir.Cast)")


def unify_dtypes(a, b, what="operation"):
    """`a` and `b` (PrimExprs) converted to one dtype as TVM's operators
    convert them: a constant takes the other side's dtype; integers of two
    widths meet in the wider, of one width and two signednesses in the
    unsigned one; an integer meeting a float becomes the float. TypeError
    when they have none."""
    ints = {f"{u}int{w}": w for u in ("", "u") for w in (8, 16, 32, 64)}
    # (A constant beside a non-constant takes its dtype: _unify.)
    if a.dtype != b.dtype and isinstance(a, _Imm) == isinstance(b, _Imm):
        if a.dtype in ints and b.dtype in ints:
            wa, wb = ints[a.dtype], ints[b.dtype]
            target = (a.dtype if a.dtype.startswith("u") else b.dtype) if wa == wb else \
                (a.dtype if wa > wb else b.dtype)
            return _cast(target, a), _cast(target, b)
        if a.dtype in FLOAT_DTYPES and b.dtype in ints:
            return a, Cast(a.dtype, b)
        if b.dtype in FLOAT_DTYPES and a.dtype in ints:
            return Cast(b.dtype, a), b
    return _unify(a, b, what)


def _cast(dtype, value):
    return value if value.dtype == dtype else Cast(dtype, value)


def ceildiv(a, b):
    """T.ceildiv(a, b): an IntImm for two constants, else a call."""
    a, b = unify_dtypes(convert(a), convert(b), "ceildiv")
    if isinstance(a, IntImm) and isinstance(b, IntImm) and b.value:
        return IntImm(a.dtype, -(-a.value // b.value))
    return Call(a.dtype, "tir.ceildiv", [a, b])


_FOLD = {Add: lambda a, b: a + b, Sub: lambda a, b: a - b, Mul: lambda a, b: a * b,
         Min: min, Max: max}
_COMPARE = {LT: lambda a, b: a < b, LE: lambda a, b: a <= b, GT: lambda a, b: a > b,
            GE: lambda a, b: a >= b}


def floordiv(a, b, span=None):
    """TVM's tir.floordiv: a // b rounding toward minus infinity."""
    return make_binary(FloorDiv, a, b)


def floormod(a, b, span=None):
    """TVM's tir.floormod: the remainder of floordiv (the divisor's sign)."""
    return make_binary(FloorMod, a, b)


def make_binary(cls, a, b):
    """`cls(a, b)`, with constants folded as TVM's operators fold them."""
    a, b = convert(a, getattr(b, "dtype", None)), convert(b, getattr(a, "dtype", None))
    a, b = unify_dtypes(a, b, cls.__name__)
    if isinstance(a, _Imm) and isinstance(b, _Imm) and a.dtype == b.dtype:
        if cls in _FOLD:
            return const(_FOLD[cls](a.value, b.value), a.dtype)
        if cls in (FloorDiv, FloorMod) and isinstance(a, IntImm) and b.value != 0:
            return const(a.value // b.value if cls is FloorDiv else a.value % b.value, a.dtype)
        if cls is Div and b.value != 0:
            if isinstance(a, FloatImm):
                return const(a.value / b.value, a.dtype)
            quotient = abs(a.value) // abs(b.value)  # C's division, toward zero
            return const(quotient if (a.value < 0) == (b.value < 0) else -quotient, a.dtype)
        if cls in _COMPARE:
            return const(_COMPARE[cls](a.value, b.value), "bool")
    if cls in (Add, Sub) and isinstance(b, _Imm) and b.value == 0:
        return a
    if cls is Add and isinstance(a, _Imm) and a.value == 0:
        return b
    if cls is Mul and isinstance(b, _Imm) and b.value == 1:
        return a
    if cls is Mul and isinstance(a, _Imm) and a.value == 1:
        return b
    if cls in (Div, FloorDiv) and isinstance(b, _Imm) and b.value == 1:
        return a
    if cls in (Mod, FloorMod) and isinstance(b, IntImm) and b.value == 1:
        return const(0, a.dtype)
    return cls(a, b)


def _bitwise(name, a, b):
    """T.<name>(a, b) of integers (`>>`, `<<`, `&`, `|`, `^`)."""
    a, b = convert(a, getattr(b, "dtype", None)), convert(b, getattr(a, "dtype", None))
    a, b = unify_dtypes(a, b, name)
    if a.dtype.split("x")[0] not in INT_DTYPES:
        raise TypeError(f"tir.{name} takes integers, got {a.dtype}")
    return Call(a.dtype, "tir." + name, [a, b])


def simplify_sub(a, b):
    """a - b, folded (Range's extent)."""
    return make_binary(Sub, a, b)
