"""The `R` namespace of TVMScript: @R.function graph functions.

    @R.function
    def main(x: R.Tensor((1, 784), dtype="float32")) -> R.Tensor((1, 10), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.dense, (x, metadata["relax.expr.Constant"][0]),
                            out_sinfo=R.Tensor((1, 10), dtype="float32"))
            gv: R.Tensor((1, 10), dtype="float32") = lv
            R.output(gv)
        return gv

As for @T.prim_func, nothing in the body runs: the parser reads the
function's source (relax_module.py, relax_parser.py) and writes its MLIR
(tir.call_tir on tensors). Tensor constants come from `metadata` (what
mod.script(show_meta=True) prints after the module).
"""
from ..relax.struct_info import (ObjectStructInfo, PrimStructInfo, ShapeStructInfo, StructInfo,
                                 TensorStructInfo, TupleStructInfo)
from .values import ScriptError

# R.Object in annotations: an opaque value passed along (an effect handle).
Object = ObjectStructInfo()


def Prim(dtype="int64", value=None):  # noqa: N802 - TVMScript's name
    """R.Prim(value="n") in a parameter's annotation: an int64 whose value
    is the shape variable n."""
    return PrimStructInfo(dtype, value)


def Shape(values=None, ndim=-1):  # noqa: N802 - TVMScript's name
    """R.Shape(["m", "n"]) in annotations: a shape, whose dimensions a
    parameter takes as integers (defining the shape variables it names);
    R.Shape alone or R.Shape(ndim=2) says a shape of any dimensions."""
    return ShapeStructInfo(values, ndim)


class TensorPattern(StructInfo):
    """What an annotation without a shape says of a tensor (R.Tensor,
    R.Tensor(ndim=2, dtype="float32")): a binding's or a result's
    annotation it matches any tensor of that rank and dtype; a parameter
    needs a shape."""

    def __init__(self, ndim=-1, dtype=None):
        self.ndim, self.dtype = ndim, dtype

    def matches(self, info):
        if isinstance(info, TensorPattern):  # what no more is known of
            return self.ndim in (-1, info.ndim) and self.dtype in (None, "", "void",
                                                                   info.dtype)
        return isinstance(info, TensorStructInfo) and self.ndim in (-1, len(info.shape)) \
            and self.dtype in (None, "", "void", info.dtype)

    def script(self):
        parts = ([] if self.ndim == -1 else [f"ndim={self.ndim}"]) + \
            ([] if self.dtype in (None, "", "void") else [f'dtype="{self.dtype}"'])
        return f"R.Tensor({', '.join(parts)})"

    def __repr__(self):
        return self.script()


def Tensor(shape=None, dtype=None, ndim=-1, **kwargs):  # noqa: N802 - TVMScript's name
    """R.Tensor((m, n), dtype="float32") in annotations. Without a dtype
    the tensor is float32 where it is declared (a parameter), and a
    binding's annotation leaves the dtype unsaid (it matches any); without
    a shape it is a TensorPattern."""
    if shape is None:
        return TensorPattern(ndim, dtype)
    info = TensorStructInfo(shape, dtype or "float32")
    info.dtype_unsaid = dtype is None
    return info


def Tuple(*fields):  # noqa: N802 - TVMScript's name
    """R.Tuple(R.Tensor(...), ...) in annotations (or R.Tuple([...]))."""
    if len(fields) == 1 and isinstance(fields[0], (list, tuple)):
        fields = fields[0]
    return TupleStructInfo(fields)


def function(fn=None, *, private=False, pure=True, check_well_formed=True):
    """@R.function: parses the decorated Python function as a graph
    function (a relax.Function)."""
    from .relax_module import parse_decorated
    def parse(f):
        return parse_decorated(f, private)
    return parse if fn is None else parse(fn)


def _only_in_function(name):
    def call(*args, **kwargs):
        raise ScriptError(f"R.{name}(...) is only meaningful inside an @R.function")
    call.__name__ = name
    return call


def prim_value(value):
    """R.prim_value(v): an integer as a graph value (relax.PrimValue)."""
    from ..relax.expr import PrimValue
    return PrimValue(value)


def shape(values):
    """R.shape([d, ...]): a shape as a graph value (relax.ShapeExpr)."""
    from ..relax.struct_info import ShapeExpr
    return ShapeExpr(values)


call_tir = _only_in_function("call_tir")
output = _only_in_function("output")
dataflow = _only_in_function("dataflow")
const = _only_in_function("const")


def __getattr__(name):
    """R.<operator> and R.nn.<operator>: relax.op's functions, which an
    @R.function calls by these names (or through a variable holding one)."""
    from ..relax import op as relax_op
    if not name.startswith("_") and name in relax_op.__all__ and name != "call_tir":
        return getattr(relax_op, name)
    raise AttributeError(f"module 'tvm.script.relax' has no attribute {name!r}")
