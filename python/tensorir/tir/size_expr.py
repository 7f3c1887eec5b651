"""Symbolic sizes: integer expressions over T.vscale() built outside a
function.

`4 * T.vscale()` or `T.ceildiv(n, 4 * T.vscale())` written in Python, outside
any function: TVMScript functions take them from the enclosing scope as an
index, extent or size, and the schedule takes them as split factors. Leaves
are VScale and Python ints, inner nodes BinaryExpr; `index_text` writes one
in tir's index-expression syntax. (The IR's own expressions, tvm.tir.Add and
the rest, are tensorir.tir.expr.)
"""
from . import expr as E
from .expr import IntImm

__all__ = ["SymbolicExpr", "VScale", "BinaryExpr", "binary", "fold", "from_node"]

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
    if isinstance(value, SymbolicExpr):
        return value
    if isinstance(value, IntImm):
        return value.value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TypeError(f"a symbolic integer expression takes integers, got "
                    f"{type(value).__name__}")


class SymbolicExpr(E.PrimExpr):
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

    def to_node(self):
        """The same expression as IR nodes (tvm.tir.Add, ...)."""
        raise NotImplementedError

    def script(self, **_):
        return repr(self)


def _int_text(value):
    return str(value) if value >= 0 else f"(0 - {-value})"


def _text_of(operand, leaf):
    if isinstance(operand, SymbolicExpr):
        return operand.index_text(leaf)
    return _int_text(operand)


class VScale(SymbolicExpr):
    """T.vscale(): the number of 128-bit chunks in a scalable vector
    register (LLVM's vscale), known only when the program runs."""

    def index_text(self, leaf):
        return leaf(self)

    def __repr__(self):
        return "T.vscale()"

    def __eq__(self, other):
        return isinstance(other, VScale)

    def to_node(self):
        return E.Call("int32", "tir.vscale", [])

    def __hash__(self):
        return hash("vscale")


class BinaryExpr(SymbolicExpr):
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

    def to_node(self):
        cls = {"add": E.Add, "sub": E.Sub, "mul": E.Mul, "floordiv": E.FloorDiv,
               "floormod": E.FloorMod, "min": E.Min, "max": E.Max}.get(self.op)
        a, b = E.convert(self.a), E.convert(self.b)
        if cls is None:  # ceildiv
            return E.Call("int32", "tir.ceildiv", [a, b])
        return cls(a, b)

    def walk(self):
        yield self
        for operand in (self.a, self.b):
            if isinstance(operand, SymbolicExpr):
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


_FROM_NODE = {E.Add: "add", E.Sub: "sub", E.Mul: "mul", E.FloorDiv: "floordiv",
              E.FloorMod: "floormod", E.Min: "min", E.Max: "max"}


def from_node(node):
    """The symbolic size of IR nodes over T.vscale() (the inverse of
    to_node): ints for constants."""
    if isinstance(node, E.IntImm):
        return node.value
    if isinstance(node, E.Call) and node.op.name == "tir.vscale":
        return VScale()
    if isinstance(node, E.Call) and node.op.name == "tir.ceildiv":
        return BinaryExpr("ceildiv", from_node(node.args[0]), from_node(node.args[1]))
    op = _FROM_NODE.get(type(node))
    if op is None:
        raise TypeError(f"a symbolic size is over T.vscale() and integers, got a "
                        f"{type(node).__name__}")
    return BinaryExpr(op, from_node(node.a), from_node(node.b))
