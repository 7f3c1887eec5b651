"""Graph functions (TVM's relax.Function) and their MLIR text: a func.func
on tensors whose steps are tir.call_tir ops and constants."""
import re

import numpy as np

from .expr import Call, Constant, Tuple, TupleGetItem, Var
from .struct_info import TensorStructInfo, TupleStructInfo


class Function:
    """A graph function of an IRModule: its name and its MLIR text (a
    func.func on tensors). BlockBuilder and @R.function make them; built
    with the module, it runs on the VirtualMachine."""

    def __init__(self, name, text, filename="<relax>", resources=None):
        self.name, self.text, self.filename = name, text, filename
        # {name: "0x..."}: the blobs of its dense_resource constants.
        self.resources = dict(resources or {})

    def with_name(self, name):
        text = re.sub(r"^(func\.func (?:private )?)@" + re.escape(self.name) + r"\(",
                      lambda m: f"{m.group(1)}@{name}(", self.text, count=1)
        return Function(name, text, self.filename, self.resources)

    @property
    def mod(self):
        from ..ir import IRModule
        return IRModule({self.name: self})

    def script(self, *args, **kwargs):
        return self.mod.script(*args, **kwargs)

    def show(self, *args, **kwargs):
        print(self.script(*args, **kwargs))

    def __repr__(self):
        return f"relax.Function({self.name})"


def _dense(data):
    """A dense attribute for a constant: a splat for one repeated number,
    else the raw little-endian bytes in hex (exact, and compact)."""
    flat = data.reshape(-1)
    if flat.size and data.dtype.kind == "f" and np.all(flat == flat[0]) \
            and np.isfinite(flat[0]) and not (flat[0] == 0 and np.signbit(flat[0])):
        from .op._mlir import mlir_float
        return f"dense<{mlir_float(flat[0])}>"
    if flat.size and data.dtype.kind in "iu" and np.all(flat == flat[0]):
        return f"dense<{int(flat[0])}>"
    if data.dtype == np.bool_:
        flat = flat.astype(np.uint8)
    return f'dense<"0x{flat.astype(flat.dtype.newbyteorder("<")).tobytes().hex().upper()}">'


def _type(info):
    if isinstance(info, TensorStructInfo):
        return info.mlir()
    raise TypeError(f"{info!r} is not a tensor")


class FunctionWriter:
    """Writes one graph function as MLIR text from its parameters, bindings
    ((var, expr) in order) and output."""

    def __init__(self, name, params, private=False):
        self.name, self.params, self.private = name, list(params), private
        self.lines, self.values, self.used = [], {}, set()
        self.tuples = {}            # id(var) -> the Tuple it names
        self.resources = {}         # dense_resource blobs the function uses
        self.header = []
        for p in self.params:
            if not isinstance(p, Var) or not isinstance(p.struct_info, TensorStructInfo):
                raise TypeError(f"function '{name}': parameter {p!r} is not a tensor Var "
                                "(relax.Var(name, relax.TensorStructInfo(shape, dtype)))")
            if id(p) in self.values:
                raise ValueError(f"function '{name}': parameter '{p.name_hint}' is given twice")
            ssa = self._fresh(p.name_hint)
            self.values[id(p)] = ssa
            self.header.append(f'{ssa}: {p.struct_info.mlir()} {{tir.name = "{p.name_hint}"}}')

    def _fresh(self, hint):
        base = re.sub(r"[^A-Za-z0-9_]", "_", hint) or "v"
        name, k = base, 0
        while name in self.used:
            k += 1
            name = f"{base}_{k}"
        self.used.add(name)
        return f"%{name}"

    def value(self, expr):
        """The SSA value of `expr` (a bound Var, a parameter, a constant or
        a tuple item), writing a constant where it is first used."""
        if id(expr) in self.values:
            return self.values[id(expr)]
        if isinstance(expr, Constant):
            ssa = self._fresh("cst")
            # Weights are dense attributes (hex), not resource blobs: the
            # package shares one MLIRContext, in which a blob parsed again
            # (every rebuilt module) is added under a new name.
            self.lines.append(f"    {ssa} = arith.constant {_dense(expr.data)} : "
                              f"{expr.struct_info.mlir()}")
            self.values[id(expr)] = ssa
            return ssa
        if isinstance(expr, TupleGetItem):
            base = self.value(expr.tuple_value)
            return f"{base}#{expr.index}"
        if isinstance(expr, Call) and expr.op != "relax.call_tir":
            # A nested operator (the parser's): computed where it is used.
            ssa = self._fresh("t")
            self.values[id(expr)] = ssa
            self._write_call(expr, ssa)
            return ssa
        if isinstance(expr, Var):
            raise ValueError(f"function '{self.name}': '{expr.name_hint}' is used but "
                             "neither a parameter nor bound before its use")
        raise ValueError(f"function '{self.name}': {expr!r} must be bound (bb.emit) "
                         "before it is used")

    def bind(self, var, expr):
        if (isinstance(expr, Call) and expr.op == "relax.reshape"
                and expr.struct_info == expr.args[0].struct_info):
            self.values[id(var)] = self.value(expr.args[0])  # the same tensor
        elif isinstance(expr, Call):
            ssa = self._fresh(var.name_hint)
            self.values[id(var)] = ssa
            self._write_call(expr, ssa)
        elif isinstance(expr, Var) and id(expr) in self.tuples:
            self.tuples[id(var)] = self.tuples[id(expr)]
        elif isinstance(expr, (Var, Constant, TupleGetItem)):
            self.values[id(var)] = self.value(expr)
        elif isinstance(expr, Tuple):
            for field in expr.fields:
                self.value(field)  # bound before
            self.tuples[id(var)] = expr
        else:
            raise TypeError(f"function '{self.name}': cannot bind {type(expr).__name__} "
                            f"to '{var.name_hint}'")

    def _write_call(self, call, ssa):
        """Appends the ops computing `call` into `ssa`: a tir.call_tir, or
        an operator's linalg ops (relax.op._mlir)."""
        if call.op != "relax.call_tir":
            from .op import _mlir  # relax.op imports this module
            _mlir.write(self, call, ssa)
            return
        callee, inputs = call.args[0], call.args[1:]
        values = [self.value(a) for a in inputs]
        types = [_type(a.struct_info) for a in inputs]
        info = call.struct_info
        results = info.fields if isinstance(info, TupleStructInfo) else [info]
        count = f":{len(results)}" if len(results) > 1 else ""
        result_types = ", ".join(_type(r) for r in results)
        if len(results) != 1:
            result_types = f"({result_types})"
        self.lines.append(f"    {ssa}{count} = tir.call_tir @{callee.name_hint}("
                          f"{', '.join(values)}) : ({', '.join(types)}) -> {result_types}")

    def finish(self, output):
        if isinstance(output, Var) and id(output) in self.tuples:
            output = self.tuples[id(output)]
        outputs = output.fields if isinstance(output, Tuple) else [output]
        values = [self.value(o) for o in outputs]
        types = [_type(o.struct_info) for o in outputs]
        result = types[0] if len(types) == 1 else f"({', '.join(types)})"
        visibility = "private " if self.private else ""
        text = [f"func.func {visibility}@{self.name}({', '.join(self.header)}) -> {result} {{"]
        text += self.lines
        text.append(f"    return {', '.join(values)} : {', '.join(types)}")
        text.append("}")
        return "\n".join(text)


__all__ = ["Function", "FunctionWriter"]
