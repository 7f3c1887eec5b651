"""Graph-level expressions (TVM's relax.Expr): variables, constants, calls
of prim_funcs, tuples and their items."""
import numpy as np

from .struct_info import (TENSOR_DTYPES, StructInfo, TensorStructInfo, TupleStructInfo,
                          _TypeHint)


class Expr:
    """A graph value; `struct_info` says what it is."""
    struct_info = None

    @property
    def shape(self):
        info = self.struct_info
        if not isinstance(info, TensorStructInfo):
            raise ValueError(f"{self!r} is not a tensor; it has no shape")
        return info.shape

    @property
    def dtype(self):
        return self.struct_info.dtype

    # Python's operators, as relax's Expr has them (relax.op.add, ...).
    def _binary(self, name, other, reverse=False):
        from . import op
        if not isinstance(other, Expr):
            return NotImplemented
        a, b = (other, self) if reverse else (self, other)
        return getattr(op, name)(a, b)

    def __add__(self, other): return self._binary("add", other)
    def __radd__(self, other): return self._binary("add", other, True)
    def __sub__(self, other): return self._binary("subtract", other)
    def __rsub__(self, other): return self._binary("subtract", other, True)
    def __mul__(self, other): return self._binary("multiply", other)
    def __rmul__(self, other): return self._binary("multiply", other, True)
    def __truediv__(self, other): return self._binary("divide", other)
    def __rtruediv__(self, other): return self._binary("divide", other, True)
    def __floordiv__(self, other): return self._binary("floor_divide", other)
    def __rfloordiv__(self, other): return self._binary("floor_divide", other, True)
    def __mod__(self, other): return self._binary("floor_mod", other)
    def __rmod__(self, other): return self._binary("floor_mod", other, True)

    # (Defining operators leaves == as identity, which dictionaries of
    # expressions rely on.)
    __hash__ = object.__hash__

    def __getitem__(self, index):
        if not isinstance(self.struct_info, TupleStructInfo):
            raise TypeError(f"{self!r} is a tensor; only tuples are indexed")
        if isinstance(self, Tuple):  # a field of a tuple written out is the field
            return self.fields[TupleGetItem(self, index).index]
        return TupleGetItem(self, index)


class Var(Expr):
    """A graph variable (TVM's relax.Var): a function parameter, or the
    value a binding gives a name."""

    def __init__(self, name_hint, struct_info=None):
        if not isinstance(name_hint, str) or not name_hint.isidentifier():
            raise ValueError(f"relax.Var: the name {name_hint!r} is not an identifier")
        if struct_info is not None and not isinstance(struct_info, StructInfo):
            raise TypeError(f"relax.Var '{name_hint}': struct_info is a StructInfo "
                            f"(relax.TensorStructInfo), got {type(struct_info).__name__}")
        self.name_hint = name_hint
        self.struct_info = struct_info

    def __repr__(self):
        return self.name_hint


class DataflowVar(Var):
    """A variable bound inside a dataflow block (TVM's relax.DataflowVar)."""


class PrimValue(Expr):
    """An integer as a graph value (TVM's relax.PrimValue, R.prim_value):
    a number, or an expression of shape variables (n * n) the function
    computes."""

    def __init__(self, value):
        from ..tir.expr import IntImm
        from .struct_info import PrimStructInfo
        if isinstance(value, IntImm):
            value = int(value.value)
        if isinstance(value, bool):
            raise TypeError("relax.PrimValue holds an integer, got a bool")
        self.value = value
        self.struct_info = PrimStructInfo("int64", value)

    def __repr__(self):
        return f"R.prim_value({self.value})"


class Constant(Expr):
    """A tensor constant (TVM's relax.Constant): model weights."""

    def __init__(self, data):
        self.data = data
        self.struct_info = TensorStructInfo(data.shape, str(data.dtype))

    def __repr__(self):
        return f"relax.const({self.struct_info.script()})"


def const(value, dtype=None):
    """relax.const: a constant tensor from a numpy array, a number or a
    nested list. `dtype` is a dtype name, or older TVM's
    relax.DynTensorType(ndim, dtype) which the data must match."""
    ndim = None
    if isinstance(dtype, _TypeHint):
        ndim, dtype = dtype.ndim, dtype.dtype
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        value = value.numpy()  # tvm.nd arrays, torch tensors
    data = np.array(value, dtype=dtype) if dtype is not None else np.array(value)
    if dtype is None and data.dtype == np.float64 and not isinstance(value, np.ndarray):
        data = data.astype("float32")  # Python floats: TVM's default float32
    if dtype is None and data.dtype == np.int64 and not isinstance(value, np.ndarray):
        data = data.astype("int32")
    if str(data.dtype) not in TENSOR_DTYPES:
        raise ValueError(f"relax.const: unsupported dtype {data.dtype}; constants hold "
                         f"{', '.join(TENSOR_DTYPES)}")
    if ndim is not None and ndim >= 0 and data.ndim != ndim:
        raise ValueError(f"relax.const: the data has {data.ndim} dimensions, the type "
                         f"{ndim}")
    # (np.ascontiguousarray would make a 0-d array 1-d.)
    return Constant(data if data.flags.c_contiguous else np.ascontiguousarray(data))


class GlobalVar(Expr):
    """A function of the module, by name (TVM's GlobalVar)."""

    def __init__(self, name_hint):
        self.name_hint = name_hint

    def __repr__(self):
        return f'I.GlobalVar("{self.name_hint}")'

    # A module's function is named once: TVM's module holds one GlobalVar
    # per name, so two for the same name are the same.
    def __eq__(self, other):
        return isinstance(other, GlobalVar) and self.name_hint == other.name_hint

    def __hash__(self):
        return hash(("GlobalVar", self.name_hint))


class ExternFunc(Expr):
    """A packed function by name (TVM's relax.ExternFunc), which
    R.call_dps_packed calls."""

    def __init__(self, global_symbol):
        self.global_symbol = str(global_symbol)

    def __repr__(self):
        return f'R.ExternFunc("{self.global_symbol}")'


def extern(name, struct_info=None, span=None):
    """relax.extern: the packed function `name` (an ExternFunc)."""
    return ExternFunc(name)


class Op(str):
    """An operator by its name ("relax.nn.relu"): TVM's tvm.ir.Op, whose
    `.name` a pass compares; it is the name, as a string, too."""

    @property
    def name(self):
        return str(self)


class Call(Expr):
    """A call: `op` is "relax.call_tir" (args: the callee's GlobalVar, the
    inputs), "relax.call_dps_packed" (an ExternFunc, the inputs), another
    operator's name (an Op), or the GlobalVar of a graph function of the
    module (Relax's cls.f(x); its struct info is the callee's result, which
    BlockBuilder.emit fills in when not given)."""

    def __init__(self, op, args, struct_info=None, attrs=None):
        self.op = op if isinstance(op, GlobalVar) else Op(op)
        self.args, self.struct_info = list(args), struct_info
        self.attrs = dict(attrs or {})

    def __repr__(self):
        return f"{self.op}({', '.join(map(repr, self.args))})"


class Tuple(Expr):
    """A tuple of values (TVM's relax.Tuple), as a function's output."""

    def __init__(self, fields):
        self.fields = list(fields)
        for f in self.fields:
            if not isinstance(f, Expr):
                raise TypeError(f"relax.Tuple holds graph values, got {type(f).__name__}")
        self.struct_info = TupleStructInfo([f.struct_info for f in self.fields])

    def __repr__(self):
        return f"({', '.join(map(repr, self.fields))})"


class TupleGetItem(Expr):
    """Field `index` of a tuple value."""

    def __init__(self, tuple_value, index):
        info = tuple_value.struct_info
        if not isinstance(info, TupleStructInfo):
            raise TypeError(f"{tuple_value!r} is not a tuple")
        if not isinstance(index, int) or not -len(info.fields) <= index < len(info.fields):
            raise IndexError(f"{tuple_value!r} has {len(info.fields)} fields; no field {index}")
        self.tuple_value, self.index = tuple_value, index % len(info.fields)
        self.struct_info = info.fields[self.index]

    def __repr__(self):
        return f"{self.tuple_value!r}[{self.index}]"


class VarBinding:
    """`var = value`, one binding of a function's body (TVM's
    relax.VarBinding)."""

    def __init__(self, var, value):
        self.var, self.value = var, value

    def __repr__(self):
        return f"VarBinding({self.var!r}, {self.value!r})"


class BindingBlock:
    """The bindings of a block, in order (TVM's relax.BindingBlock)."""

    def __init__(self, bindings):
        self.bindings = list(bindings)


class DataflowBlock(BindingBlock):
    """A dataflow block's bindings (TVM's relax.DataflowBlock)."""


class SeqExpr:
    """A function's body (TVM's relax.SeqExpr): its blocks, then the value
    it returns."""

    def __init__(self, blocks, body):
        self.blocks, self.body = list(blocks), body

