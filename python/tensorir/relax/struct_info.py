"""What a graph value is (TVM's relax StructInfo): a tensor of a shape and
dtype, or a tuple of them. A dimension is a size, or a shape variable
(`R.Tensor(("n", 784))`: a batch size given at run time)."""
import re

from ..tir.expr import PrimExpr
from ..tir.expr import Var as _TirVar

# The dtypes a graph function's tensors hold.
TENSOR_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32",
                 "int64", "bool")


class Dim(int):
    """A static dimension: an int that also answers `.value`, as TVM's
    IntImm dimensions do (`[d.value for d in sinfo.shape.values]`)."""

    @property
    def value(self):
        return int(self)

    @property
    def dtype(self):
        return "int64"


class SymDim(_TirVar):
    """A dimension sized by a shape variable (TVM's int64 tir.Var in a
    shape). A graph function's shape variables are named: two dimensions
    with one name are one size, and `==` says so (True or False, not an
    expression), as shape inference needs."""

    def __init__(self, name, origin=None):
        super().__init__(name, "int64")
        # The tir.Var it was given as, if any: te functions (emit_te) that
        # close over it read it.
        self.origin = origin

    def __eq__(self, other):
        return isinstance(other, _TirVar) and other.name == self.name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(("SymDim", self.name))

    def __repr__(self):
        return self.name

    # (A form's text as it is: "n + m".)
    __str__ = __repr__


def _affine_of_text(text):
    """(constant, [(name, coeff)]) of an affine form written as text ("n +
    m", "2 * n - 1"), or None (what ShapeVars.h's parseAffineSize reads:
    no division, no product of variables)."""
    if "/" in text or "%" in text:
        return None
    expr = _size_expression_of_text(text)
    return None if expr is None else _affine_of_expr(expr)


def _scaled(form, k):
    return (form[0] * k, [(n, c * k) for n, c in form[1] if c * k])


def _summed(a, b):
    terms = list(a[1])
    for name, coeff in b[1]:
        for i, (n, c) in enumerate(terms):
            if n == name:
                terms[i] = (n, c + coeff)
                break
        else:
            terms.append((name, coeff))
    return (a[0] + b[0], [(n, c) for n, c in terms if c])


def _affine_of_expr(e):
    """(constant, [(name, coeff)]) of a tir expression of Vars, integers,
    +, - and products by an integer; None for anything else."""
    from ..tir import expr as tir_expr
    if isinstance(e, _TirVar):
        return (0, [(e.name, 1)])
    if isinstance(e, (int, tir_expr.IntImm)) and not isinstance(e, bool):
        return (int(getattr(e, "value", e)), [])
    if isinstance(e, (tir_expr.Add, tir_expr.Sub, tir_expr.Mul)):
        a, b = _affine_of_expr(e.a), _affine_of_expr(e.b)
        if a is None or b is None:
            return None
        if isinstance(e, tir_expr.Mul):
            if a[1] and b[1]:
                return None
            return _scaled(b, a[0]) if not a[1] else _scaled(a, b[0])
        return _summed(a, _scaled(b, -1 if isinstance(e, tir_expr.Sub) else 1))
    return None


def size_expression_text(e, operand=False):
    """The text of an integer expression of shape variables (Vars, integers,
    +, -, *, //, %) as the graph builder reads it and the printer writes it
    ("n * n", "(n + 1) // 2"); None for anything else. `operand`: the
    expression is an operand of a product or division (a sum is then
    parenthesized)."""
    from ..tir import expr as tir_expr
    form = _affine_of_expr(e)
    if form is not None:
        text = affine_text(form)
        constant, terms = form
        compound = len(terms) + (constant != 0) > 1 or (len(terms) == 1 and terms[0][1] != 1)
        negative = not terms and constant < 0
        return f"({text})" if operand and (compound or negative) else text
    symbols = {tir_expr.Add: " + ", tir_expr.Sub: " - ", tir_expr.Mul: " * ",
               tir_expr.FloorDiv: " // ", tir_expr.FloorMod: " % "}
    symbol = symbols.get(type(e))
    if symbol is None:
        return None
    is_sum = isinstance(e, (tir_expr.Add, tir_expr.Sub))
    a = size_expression_text(e.a, not is_sum)
    b = size_expression_text(e.b, not is_sum or isinstance(e, tir_expr.Sub))
    if a is None or b is None:
        return None
    text = a + symbol + b
    return f"({text})" if is_sum and operand else text


# Names (as ShapeVars.h's readers take them, dots too), integers, operators.
_EXPRESSION_TOKENS = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_.]*|\d+|//|[-+*%()])")


def _size_expression_of_text(text):
    """The tir expression of shape variables `text` writes ("n * n",
    "(n + 1) // 2"), or None when it is of another form."""
    from ..tir import expr as tir_expr
    tokens = _EXPRESSION_TOKENS.findall(text)
    if not tokens or "".join(tokens) != re.sub(r"\s+", "", text):
        return None
    # Each name is evaluated as a placeholder for its variable (a name may
    # hold dots, which Python would read as attributes).
    placeholders = {}
    program = [placeholders.setdefault(t, f"_v{len(placeholders)}")
               if t[0].isalpha() or t[0] == "_" else t for t in tokens]
    variables = {p: tir_expr.Var(name, "int64") for name, p in placeholders.items()}
    try:
        value = eval(" ".join(program), {"__builtins__": {}}, variables)  # noqa: S307
    except Exception:  # noqa: BLE001 - unbalanced parentheses and the like
        return None
    return value if isinstance(value, (int, PrimExpr)) else None


def affine_text(form):
    """The text of an affine form, as ShapeVars.h's AffineSize::str writes
    it ("n + m - 1", "2 * n"); the number alone for a constant."""
    constant, terms = form
    text = ""
    for name, coeff in terms:
        magnitude = -coeff if coeff < 0 and text else coeff
        if text:
            text += " - " if coeff < 0 else " + "
        if magnitude != 1:
            text += f"{magnitude} * "
        text += name
    if not text:
        return str(constant)
    if constant:
        text += f" - {-constant}" if constant < 0 else f" + {constant}"
    return text


def affine_form(d):
    """(constant, [(name, coeff)]) of a dimension named by an affine form of
    shape variables (a SymDim "n + m"), or of a plain variable."""
    return _affine_of_text(d.name) if isinstance(d, SymDim) else None


def is_symbolic(shape):
    """Whether a shape has a shape variable among its dimensions."""
    return any(isinstance(d, SymDim) for d in shape)


def _dim(d, what):
    """A dimension as a Dim or, for a name or an int64 tir.Var, a SymDim."""
    if isinstance(d, SymDim):
        return d
    if isinstance(d, str):
        if d.isidentifier():
            return SymDim(d)
        form = _affine_of_text(d)
        if form is None:
            raise ValueError(f"{what}: the shape variable {d!r} is neither an identifier "
                             "nor an affine form of them (\"n + m\", \"h - 2\")")
        return _affine_dim(form, d, what)
    if isinstance(d, _TirVar):
        if not d.dtype.startswith("int"):
            raise ValueError(f"{what}: the shape variable {d.name} is a {d.dtype}, not an "
                             "integer")
        return SymDim(d.name, d)
    try:
        value = int(d)
    except (TypeError, ValueError):
        if isinstance(d, PrimExpr):
            form = _affine_of_expr(d)
            if form is not None:
                return _affine_dim(form, d.script(), what)
            raise ValueError(f"{what}: dimension {d.script()} is an expression that is not "
                             "affine; a graph function's dimensions are sizes, shape "
                             "variables and their sums and multiples (n + m, 2 * n, "
                             "h - 2)") from None
        raise ValueError(f"{what}: dimension {d!r} is neither a size nor a shape "
                         "variable") from None
    if isinstance(d, bool) or value < 0:
        raise ValueError(f"{what}: dimension {d!r} is not a size")
    return Dim(value)


def _affine_dim(form, written, what):
    """The dimension an affine form is: a size, a variable, or a SymDim
    named by the form's text."""
    constant, terms = form
    if not terms:
        if constant < 0:
            raise ValueError(f"{what}: dimension {written} is negative")
        return Dim(constant)
    if constant == 0 and len(terms) == 1 and terms[0][1] == 1:
        return SymDim(terms[0][0])
    return SymDim(affine_text(form))


def _static_shape(shape, what):
    """A shape as a tuple of Dims and SymDims (TVM's ShapeExpr; T.int64,
    tir IntImms, names and int64 tir.Vars are taken)."""
    if isinstance(shape, ShapeExpr):
        return shape.values
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"{what}: a shape is a tuple of ints, got {type(shape).__name__}")
    return tuple(_dim(d, what) for d in shape)


class ShapeExpr:
    """A shape (TVM's relax.ShapeExpr): sizes and shape variables."""

    def __init__(self, values):
        if isinstance(values, ShapeExpr):
            values = values.values
        if not isinstance(values, (tuple, list)):
            raise TypeError(f"ShapeExpr: a shape is a tuple of dimensions, got "
                            f"{type(values).__name__}")
        self.values = tuple(_shape_value_dim(d, "R.shape") for d in values)

    def __iter__(self):
        return iter(self.values)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i]

    def __eq__(self, other):
        other = other.values if isinstance(other, ShapeExpr) else other
        return (isinstance(other, (tuple, list)) and len(other) == len(self.values)
                and all(a == b for a, b in zip(self.values, other)))

    def __hash__(self):
        return hash(self.values)

    @property
    def struct_info(self):
        """What the shape is as a graph value (R.shape([n, 2]) returned or
        bound): a ShapeStructInfo of its dimensions."""
        return ShapeStructInfo(self.values)

    def __repr__(self):
        return f"R.shape({list(self.values)})"


class StructInfo:
    pass


def _shape_value_dim(d, what):
    """A dimension of a shape value (R.shape([n * n, m + 1])): a size, a
    variable, an affine form, or a SymDim named by the text of another
    expression of shape variables."""
    if isinstance(d, str) and _affine_of_text(d) is None and not d.isidentifier():
        parsed = _size_expression_of_text(d)
        if parsed is None:
            raise ValueError(f"{what}: {d!r} is not an integer expression (+, -, *, //, %) "
                             "of shape variables")
        d = parsed
    if isinstance(d, PrimExpr) and not isinstance(d, _TirVar) and \
            _affine_of_expr(d) is None:
        text = size_expression_text(d)
        if text is None:
            raise ValueError(f"{what}: {d.script()} is not an integer expression (+, -, *, "
                             "//, %) of shape variables")
        return SymDim(text)
    return _dim(d, what)


class ShapeStructInfo(StructInfo):
    """A shape (Relax's R.Shape): its dimensions when known (sizes, shape
    variables, expressions of them), else its rank `ndim` (-1: any)."""

    def __init__(self, values=None, ndim=-1):
        if values is not None:
            if not isinstance(values, (tuple, list, ShapeExpr)):
                raise TypeError(f"R.Shape: the dimensions are a list, got {values!r}")
            values = tuple(_shape_value_dim(d, "R.Shape") for d in values)
            ndim = len(values)
        self.values, self.ndim = values, ndim

    def script(self):
        if self.values is None:
            return "R.Shape" if self.ndim == -1 else f"R.Shape(ndim={self.ndim})"
        return "R.Shape([" + ", ".join(f'"{d}"' if isinstance(d, SymDim) else str(d)
                                        for d in self.values) + "])"

    def matches(self, info):
        """Whether `info` is a shape this one (without dimensions) takes."""
        return isinstance(info, ShapeStructInfo) and self.ndim in (-1, info.ndim)

    def __eq__(self, other):
        return isinstance(other, ShapeStructInfo) and other.values == self.values and \
            other.ndim == self.ndim

    def __hash__(self):
        return hash(("R.Shape", self.values, self.ndim))

    def __repr__(self):
        return self.script()


class TensorStructInfo(StructInfo):
    """A tensor of a shape and dtype (TVM's relax.TensorStructInfo)."""

    def __init__(self, shape=None, dtype="float32", vdevice=None, ndim=-1):
        if shape is None:
            raise ValueError("TensorStructInfo: graph functions have tensors of known "
                             "shapes; give the shape")
        self.shape = ShapeExpr(_static_shape(shape, "TensorStructInfo"))
        if dtype not in TENSOR_DTYPES:
            raise ValueError(f"TensorStructInfo: unsupported dtype {dtype!r}; tensors hold "
                             f"{', '.join(TENSOR_DTYPES)}")
        self.dtype = dtype
        self.ndim = len(self.shape)

    def script(self, quoted=False):
        """R.Tensor((n, 784), dtype=...); shape variables quoted, as a
        signature writes them, when `quoted`."""
        dims = ", ".join(f'"{d.name}"' if quoted and isinstance(d, SymDim) else str(d)
                         if not isinstance(d, SymDim) else d.name for d in self.shape)
        if len(self.shape) == 1:
            dims += ","
        return f'R.Tensor(({dims}), dtype="{self.dtype}")'

    def __eq__(self, other):
        return (isinstance(other, TensorStructInfo) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape.values, self.dtype))

    def __repr__(self):
        return self.script()


class ObjectStructInfo(StructInfo):
    """An opaque value a graph function takes and gives back unchanged
    (Relax's R.Object: the effect handle of an nn.Module exported with
    debug=True)."""

    def script(self):
        return "R.Object"

    def __call__(self):
        """R.Object(): the same as R.Object, as TVMScript also writes it."""
        return self

    def __eq__(self, other):
        return isinstance(other, ObjectStructInfo)

    def __hash__(self):
        return hash("R.Object")

    def __repr__(self):
        return self.script()


class PrimStructInfo(StructInfo):
    """A scalar (Relax's R.Prim): an int64 a graph function takes, whose
    value is the shape variable `value` (R.Prim(value="n")) sizing the
    dimensions named so."""

    def __init__(self, dtype="int64", value=None):
        if dtype != "int64":
            raise NotImplementedError(f"R.Prim({dtype!r}): graph functions take int64 "
                                      "scalars only")
        self.dtype = dtype
        self.value = None if value is None else _shape_value_dim(value, "R.Prim")

    def script(self):
        if self.value is None:
            return f'R.Prim("{self.dtype}")'
        if not isinstance(self.value, SymDim):
            return f"R.Prim(value={int(self.value)})"
        return f'R.Prim(value="{self.value.name}")'

    def __eq__(self, other):
        return isinstance(other, PrimStructInfo) and other.dtype == self.dtype and \
            other.value == self.value

    def __hash__(self):
        return hash(("R.Prim", self.dtype, getattr(self.value, "name", None)))

    def __repr__(self):
        return self.script()


class TupleStructInfo(StructInfo):
    """A tuple of tensors (several results of one call), objects and
    tuples of them (a function's nested results)."""

    def __init__(self, fields):
        self.fields = list(fields)
        for f in self.fields:
            if not isinstance(f, (TensorStructInfo, ObjectStructInfo, TupleStructInfo)):
                raise TypeError("TupleStructInfo holds TensorStructInfos, ObjectStructInfos "
                                f"and TupleStructInfos, got {type(f).__name__}")

    def script(self):
        return f"R.Tuple({', '.join(f.script() for f in self.fields)})"

    def __eq__(self, other):
        return isinstance(other, TupleStructInfo) and self.fields == other.fields

    def __repr__(self):
        return self.script()


def DynTensorType(ndim=-1, dtype="float32"):  # noqa: N802 - TVM's name
    """relax.DynTensorType(ndim, dtype), the type older TVM gave
    relax.const: the rank and dtype a constant must have (its shape is the
    data's)."""
    return _TypeHint(ndim, dtype)


class _TypeHint:
    def __init__(self, ndim, dtype):
        self.ndim, self.dtype = ndim, dtype
