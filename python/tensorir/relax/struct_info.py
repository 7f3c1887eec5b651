"""What a graph value is (TVM's relax StructInfo): a tensor of a static
shape and dtype, or a tuple of them."""

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


def _static_shape(shape, what):
    """A shape as a tuple of ints (TVM's ShapeExpr of IntImms; T.int64 and
    tir IntImms are taken)."""
    if isinstance(shape, ShapeExpr):
        return shape.values
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"{what}: a shape is a tuple of ints, got {type(shape).__name__}")
    dims = []
    for d in shape:
        try:
            value = int(d)
        except (TypeError, ValueError):
            raise ValueError(f"{what}: dimension {d!r} is not a constant; graph functions "
                             "have static shapes (symbolic shapes are not supported)") from None
        if isinstance(d, bool) or value < 0:
            raise ValueError(f"{what}: dimension {d!r} is not a size")
        dims.append(Dim(value))
    return tuple(dims)


class ShapeExpr:
    """A static shape (TVM's relax.ShapeExpr)."""

    def __init__(self, values):
        self.values = _static_shape(values, "ShapeExpr")

    def __iter__(self):
        return iter(self.values)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i]

    def __eq__(self, other):
        other = other.values if isinstance(other, ShapeExpr) else other
        return isinstance(other, (tuple, list)) and tuple(other) == self.values

    def __hash__(self):
        return hash(self.values)

    def __repr__(self):
        return f"R.shape({list(self.values)})"


class StructInfo:
    pass


class TensorStructInfo(StructInfo):
    """A tensor of a static shape and dtype (TVM's relax.TensorStructInfo)."""

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

    def script(self):
        dims = ", ".join(str(d) for d in self.shape)
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


class TupleStructInfo(StructInfo):
    """A tuple of tensors (several results of one call)."""

    def __init__(self, fields):
        self.fields = list(fields)
        for f in self.fields:
            if not isinstance(f, TensorStructInfo):
                raise TypeError("TupleStructInfo holds TensorStructInfos, got "
                                f"{type(f).__name__}")

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
