"""Graph functions (TVM's relax.Function): a func.func on tensors whose
steps are tir.call_tir ops, constants and high-level operators, built
through the extension's GraphBuilder (TensorIR/Graph/GraphBuilder.h)."""
import numpy as np

from .._ext import ext
from .expr import Call, Constant, GlobalVar, PrimValue, Tuple, TupleGetItem, Var
from .struct_info import (Dim, ObjectStructInfo, PrimStructInfo, ShapeExpr, ShapeStructInfo,
                          SymDim, TensorStructInfo, TupleStructInfo, size_expression_text)


class Function:
    """A graph function of an IRModule: its name and the native module
    holding it (its call_tir callees are in the module it joins).
    BlockBuilder and @R.function make them; built with the module, it runs
    on the VirtualMachine."""

    def __init__(self, name, native, filename="<relax>", ret_struct_info=None):
        self.name, self._native, self.filename = name, native, filename
        # What the function returns, where its maker knew it (a call of the
        # function gives it).
        self.ret_struct_info = ret_struct_info

    @property
    def params(self):
        """The parameters, as relax.Vars of their struct info."""
        from ..tir.buffer import _ELEMENT_DTYPES
        from .struct_info import TensorStructInfo
        return [Var(n, TensorStructInfo(shape, _ELEMENT_DTYPES.get(t, t)))
                for n, shape, t in self._native.graph_parameters(self.name)]

    @property
    def body(self):
        """The bindings and the output (TVM's SeqExpr: one block of
        VarBindings, then the value returned), read back from the
        function's TVMScript: a new view at each use."""
        from ..script.relax_module import function_body
        from .expr import DataflowBlock, SeqExpr, VarBinding
        _, bindings, output, _ = function_body(self)
        return SeqExpr([DataflowBlock(VarBinding(v, e) for v, e in bindings)], output)

    @property
    def attrs(self):
        """The function's attributes (R.func_attr: {"num_input": 1})."""
        return self._native.graph_function_attrs(self.name)

    def with_name(self, name):
        return Function(name, ext.Module.compose([(self._native, self.name, name)]),
                        self.filename, self.ret_struct_info)

    @property
    def mod(self):
        from ..ir import IRModule
        return IRModule({self.name: self})

    def script(self, *args, show_meta=False, **kwargs):
        """The function alone as TVMScript (one @R.function; the functions
        it calls are named, not printed). TVM's other printing options are
        ignored."""
        return self._native.tvmscript(as_module=False, show_meta=bool(show_meta))

    def show(self, *args, **kwargs):
        print(self.script(*args, **kwargs))

    def __repr__(self):
        return f"relax.Function({self.name})"


def _tensor(info, what):
    """(shape, dtype) of a tensor's struct info as the builder takes it: a
    dimension is a size or its shape variable's name."""
    if isinstance(info, TensorStructInfo):
        return [d.name if isinstance(d, SymDim) else int(d) for d in info.shape], info.dtype
    raise TypeError(f"{what} is not a tensor")


def _size_text(d, what):
    """A dimension of a shape value as the builder reads it: a number, or
    the text of a variable or an expression of them."""
    if isinstance(d, SymDim):
        return d.name
    if isinstance(d, (int, Dim)) and not isinstance(d, bool):
        return str(int(d))
    text = size_expression_text(d)
    if text is None:
        raise ValueError(f"{what}: {d!r} is not an integer expression (+, -, *, //, %) of "
                         "shape variables")
    return text


def _attr(value):
    """An operator attribute as the builder takes it: bool, int, float, str,
    or a list of ints as an array of i64 (IntImm-like and NumPy scalars
    unwrapped)."""
    value = getattr(value, "value", value)
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, (list, tuple)):
        items = [_attr(v) for v in value]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in items):
            return ext.Attribute.i64_array(items)
        return items
    return value


def _constant_bytes(data):
    """The little-endian bytes of a constant's data (bools one byte each)."""
    flat = np.ascontiguousarray(data).reshape(-1)
    if flat.dtype == np.bool_:
        flat = flat.astype(np.uint8)
    return flat.astype(flat.dtype.newbyteorder("<")).tobytes()


class _NoValue:
    """What a binding names when its call gives nothing the function can
    use (R.call_pure_packed with a result of unknown shape): using it is
    the error `reason`."""

    def __init__(self, reason):
        self.reason = reason


def kept_result_info(info, key):
    """A copy of `info` (what a function returning a packed call's result
    says it returns) that names the call site the runtime keeps the value
    under (`packed_key`), which the function's callers read."""
    import copy
    kept = copy.copy(info)
    kept.packed_key = key
    return kept


class _PackedResult(_NoValue):
    """What R.call_pure_packed of a result of no known shape gives: the
    function may return it (the runtime keeps what the call returned under
    `key`); any other use is the error of `refusal`."""

    def __init__(self, key, info, refusal):
        super().__init__(refusal.reason)
        self.key, self.info = key, info


class FunctionWriter:
    """Builds one graph function from its parameters, bindings ((var, expr)
    in order) and output, one GraphBuilder call per step. A value is a
    builder handle; a call with several results is a list of them."""

    def __init__(self, name, params, private=False, filename="<relax>", line=1, notes=None):
        self.name, self.params = name, list(params)
        # Per parameter (as written), what its checks come from.
        self.notes = dict(notes or {})
        self.packed_sites = 0  # R.call_pure_packed of results of no known shape
        # What the function returns when it returns a packed call's result
        # (kept_result_info), for its callers.
        self.kept_result = None
        self.values = {}            # id(expr) -> handle, or [handle] of a tuple call
        self.tuples = {}            # id(var) -> the Tuple it names
        self.keep = []              # the exprs whose ids are keys
        signature = []
        # Per parameter as written: its argument's index, or for a tuple
        # ({"name", "fields"}) its tensors' indices, nested as it nests.
        self.param_nesting = []

        def flatten(var, info, name):
            """The argument(s) of a parameter part `var` of `info`: a
            tensor or an object is one, a tuple its fields' (a Tuple of
            Vars standing for them)."""
            if isinstance(info, TupleStructInfo):
                parts = [Var(f"{name}_{k}", f) for k, f in enumerate(info.fields)]
                indices = [flatten(part, part.struct_info, part.name_hint) for part in parts]
                self.tuples[id(var)] = Tuple(parts)
                self.keep.append(var)
                return indices
            if isinstance(info, ShapeStructInfo):
                return shape_param(var, info, name)
            if not isinstance(info, (TensorStructInfo, ObjectStructInfo, PrimStructInfo)):
                raise TypeError(f"function '{self.name}': parameter {var!r} is not a tensor Var "
                                "(relax.Var(name, relax.TensorStructInfo(shape, dtype))), an "
                                "R.Object, an R.Prim(value=...), an R.Shape([...]) or a tuple "
                                "of them")
            self.values[id(var)] = len(signature)
            self.keep.append(var)
            if isinstance(info, PrimStructInfo):
                if not isinstance(info.value, SymDim) or not info.value.name.isidentifier():
                    raise ValueError(f"function '{self.name}': parameter {var!r}: a scalar "
                                     "parameter names its shape variable (R.Prim(value=\"n\"))")
                signature.append((name, [info.value.name], "<scalar>"))
            elif isinstance(info, ObjectStructInfo):
                signature.append((name, [], "object"))
            else:
                signature.append((name, *_tensor(info, repr(var))))
            return len(signature) - 1

        def shape_param(var, info, name):
            """The scalars a shape parameter's dimensions are, one by one:
            each defines the variable it names, or is checked against the
            size or expression it is."""
            if info.values is None:
                raise ValueError(f"function '{self.name}': parameter '{name}': a shape "
                                 "parameter names its dimensions (R.Shape([\"m\", \"n\"]))")
            indices = []
            for d in info.values:
                text = d.name if isinstance(d, SymDim) else str(int(d))
                signature.append((text, [text], "<scalar>"))
                indices.append(len(signature) - 1)
            self.values[id(var)] = _NoValue(
                f"parameter '{name}' ({info!r}): a shape parameter gives its shape "
                "variables; use them (R.shape([...]))")
            self.keep.append(var)
            return {"name": name, "shape": indices}

        for p in self.params:
            if not isinstance(p, Var):
                raise TypeError(f"function '{name}': parameter {p!r} is not a relax.Var")
            if id(p) in self.values or id(p) in self.tuples:
                raise ValueError(f"function '{name}': parameter '{p.name_hint}' is given twice")
            index = flatten(p, p.struct_info, p.name_hint)
            self.param_nesting.append(index if isinstance(index, (int, dict))
                                      else {"name": p.name_hint, "fields": index})
        self.builder = ext.GraphBuilder(name, signature, bool(private), filename, int(line))
        self.place = None           # (line, column) of the binding being built

    def _define(self, expr, value):
        self.values[id(expr)] = value
        self.keep.append(expr)
        return value

    def value(self, expr):
        """The handle of `expr` (a bound Var, a parameter, a constant, a
        tuple item or a nested operator), building a constant or an
        operator where it is first used."""
        value = self._value(expr)
        if isinstance(value, _NoValue):
            raise ValueError(f"function '{self.name}': {value.reason}")
        if isinstance(value, list):
            raise TypeError(f"function '{self.name}': {expr!r} has several results; "
                            "use its items (relax.TupleGetItem)")
        return value

    def _value(self, expr):
        if id(expr) in self.values:
            return self.values[id(expr)]
        if isinstance(expr, (ShapeExpr, PrimValue)):
            scalar = isinstance(expr, PrimValue)
            dims = [_size_text(d, repr(expr)) for d in ([expr.value] if scalar else expr.values)]
            return self._define(expr, self.builder.shape_value(dims, scalar, self.place))
        if isinstance(expr, Constant):
            shape, dtype = _tensor(expr.struct_info, repr(expr))
            return self._define(expr, self.builder.constant(_constant_bytes(expr.data),
                                                            shape, dtype, self.place))
        if isinstance(expr, TupleGetItem):
            tup = self._tuple_of(expr.tuple_value)
            if tup is not None:  # a field of a bound tuple
                return self._value(tup.fields[expr.index])
            base = self._value(expr.tuple_value)
            if not isinstance(base, list):
                raise TypeError(f"function '{self.name}': item {expr.index} of a value "
                                "with one result")
            return base[expr.index]
        if isinstance(expr, Call):
            # A nested call (the parser's: an operator, or a call returned
            # without a binding): computed where it is used.
            return self._define(expr, self._call(expr))
        if isinstance(expr, Var):
            raise ValueError(f"function '{self.name}': '{expr.name_hint}' is used but "
                             "neither a parameter nor bound before its use")
        raise ValueError(f"function '{self.name}': {expr!r} must be bound (bb.emit) "
                         "before it is used")

    def _tuple_of(self, expr):
        """The Tuple `expr` stands for (a Var bound to one, a tuple
        parameter, a field of one that is a tuple), or None."""
        if isinstance(expr, Tuple):
            return expr
        if isinstance(expr, Var):
            return self.tuples.get(id(expr))
        if isinstance(expr, TupleGetItem):
            outer = self._tuple_of(expr.tuple_value)
            if outer is not None:
                return self._tuple_of(outer.fields[expr.index])
        return None

    def bind(self, var, expr, place=None):
        """Binds `var` to `expr`; the ops it builds are located at `place`
        ((line, column) in the function's file) when given."""
        self.place = place
        if isinstance(expr, Call):
            self._define(var, self._call(expr))
        elif isinstance(expr, (Var, TupleGetItem)) and self._tuple_of(expr) is not None:
            # Another name of a tuple (or of a field that is a tuple).
            self.tuples[id(var)] = self._tuple_of(expr)
            self.keep.append(var)
        elif isinstance(expr, (Var, Constant, TupleGetItem, ShapeExpr, PrimValue)):
            self._define(var, self._value(expr))
        elif isinstance(expr, Tuple):
            def check(tup):
                for field in tup.fields:
                    if isinstance(field, Tuple):
                        check(field)  # a tuple of tuples
                    elif not (isinstance(field, Var) and id(field) in self.tuples):
                        self.value(field)  # bound before
            check(expr)
            self.tuples[id(var)] = expr
            self.keep.append(var)
        else:
            raise TypeError(f"function '{self.name}': cannot bind {type(expr).__name__} "
                            f"to '{var.name_hint}'")

    def _call(self, call):
        """The handle(s) of `call`: a tir.call_tir, or an operator's linalg
        ops (TensorIR/Graph/GraphBuilder.h)."""
        info = call.struct_info
        if isinstance(call.op, GlobalVar):
            return self._call_function(call)
        if call.op == "relax.null_value":
            return self.builder.null_value(self.place)
        from .op.nn import COMPOSITES
        if call.op in COMPOSITES:
            return self._composite(call, COMPOSITES[call.op])
        if call.op not in ("relax.call_tir", "relax.call_dps_packed",
                           "relax.call_pure_packed", "relax.call_tir_inplace"):
            shape, dtype = _tensor(info, f"the result of {call.op}")
            args = [self.value(a) for a in call.args]
            attrs = {k: _attr(v) for k, v in (call.attrs or {}).items() if v is not None}
            return self.builder.call_operator(call.op[len("relax."):], args, shape, dtype,
                                              attrs, self.place)
        callee, inputs = call.args[0], call.args[1:]
        values = [self.value(a) for a in inputs]
        fields = info.fields if isinstance(info, TupleStructInfo) else [info]
        if call.op == "relax.call_pure_packed":
            # The function returns its result, which the runtime copies into
            # the buffer of the result's shape; a result of no known shape is
            # no value (the call runs for what it does).
            if isinstance(info, TensorStructInfo):
                results = [_tensor(info, f'a result of call_pure_packed("{callee.global_symbol}")')]
            else:
                results = []
            name = callee.global_symbol
            if not results:
                # The site's own declaration (name@function.k): the runtime
                # keeps what it returns, which the function may return.
                name = f"{name}@{self.name}.{self.packed_sites}"
                self.packed_sites += 1
            handles = self.builder.call_external(name, values, results, self.place,
                                                 returns=True)
            if not handles:
                return _PackedResult(name, info, _NoValue(
                    f'the result of R.call_pure_packed("{callee.global_symbol}") ({info!r}): '
                    "a packed function's result of no known shape is returned by the "
                    "function only; give sinfo_args its shape and dtype to use it"))
            return handles[0]
        if call.op == "relax.call_dps_packed":
            what = f'call_dps_packed("{callee.global_symbol}")'
            results = [_tensor(r, f"a result of {what}") for r in fields]
            handles = self.builder.call_external(callee.global_symbol, values, results,
                                                 self.place)
        else:
            results = [_tensor(r, f"a result of call_tir @{callee.name_hint}") for r in fields]
            inplace = (call.attrs or {}).get("inplace_indices") or []
            handles = self.builder.call_tir(callee.name_hint, values, results, self.place,
                                            inplace=list(inplace))
        return handles if isinstance(info, TupleStructInfo) else handles[0]

    def _composite(self, call, parts):
        """The handle of an operator kept whole (a tir.composite): its
        parts, built inside it on stand-ins of its inputs."""
        shape, dtype = _tensor(call.struct_info, f"the result of {call.op}")
        args = [self.value(a) for a in call.args]
        attrs = {k: _attr(v) for k, v in (call.attrs or {}).items() if v is not None}
        name = call.op[len("relax."):]
        inner = self.builder.begin_composite(name, args, [(shape, dtype)], attrs, self.place)
        stand_ins = [Var(f"input{k}", a.struct_info) for k, a in enumerate(call.args)]
        for var, handle in zip(stand_ins, inner):
            self._define(var, handle)
        result = self.value(parts(call, *stand_ins))
        return self.builder.end_composite([result], self.place)[0]

    def _flat_values(self, expr):
        """The handles of `expr`, a tuple's fields' in order (a tuple
        parameter of the callee takes them one by one)."""
        tup = self._tuple_of(expr)
        if tup is None:
            return [self.value(expr)]
        out = []
        for field in tup.fields:
            out.extend(self._flat_values(field))
        return out

    def _call_function(self, call):
        """The handle(s) of a call of graph function `call.op`: a func.call
        (a tuple result gives its fields' handles)."""
        name, info = call.op.name_hint, call.struct_info
        if info is None:
            raise ValueError(f"function '{self.name}': the call of '{name}' has no struct "
                             "info (emit it with a BlockBuilder that has the function, or "
                             "annotate the binding)")
        if getattr(info, "packed_key", None) is not None:
            # The callee returns what a packed call of it returned: kept by
            # the runtime under that call's site, which this function may
            # return in turn.
            values = []
            for arg in call.args:
                values.extend(self._flat_values(arg))
            self.builder.call_function(name, values, [], self.place)
            return _PackedResult(info.packed_key, info, _NoValue(
                f"the result of '{name}' ({info!r}), a packed function's result of no "
                "known shape: returned by the function only"))
        fields = info.fields if isinstance(info, TupleStructInfo) else [info]
        results = []
        for field in fields:
            if isinstance(field, ObjectStructInfo):
                results.append(([], "object"))
            elif isinstance(field, TensorStructInfo):
                results.append(_tensor(field, f"a result of '{name}'"))
            elif isinstance(field, TupleStructInfo):
                raise NotImplementedError(f"function '{self.name}': '{name}' returns a tuple "
                                          "of tuples; a call takes its tensors and objects")
            else:
                raise NotImplementedError(f"function '{self.name}': '{name}' returns "
                                          f"{field!r}; a call takes results of known shapes, "
                                          "objects and tuples of them")
        values = []
        for arg in call.args:
            values.extend(self._flat_values(arg))
        handles = self.builder.call_function(name, values, results, self.place)
        return handles if isinstance(info, TupleStructInfo) else handles[0]

    def finish(self, output, attrs=None):
        """The native module holding the function, returning `output`, its
        attributes `attrs` (R.func_attr's dictionary)."""
        handles, kinds = [], []
        returned = self._value(self.tuples.get(id(output), output)) \
            if not isinstance(self.tuples.get(id(output), output), Tuple) else None
        if isinstance(returned, _PackedResult):
            # The packed call's own result, which the runtime kept.
            info = returned.info
            sinfo = info.script() if hasattr(info, "script") else repr(info)
            self.kept_result = kept_result_info(info, returned.key)
            return self.builder.finish([], attrs=dict(attrs or {}),
                                       packed_result=(returned.key, sinfo))

        def kind(value):
            info = getattr(value, "struct_info", None)
            return "shape" if isinstance(info, ShapeStructInfo) else \
                "prim" if isinstance(info, PrimStructInfo) else "tensor"

        def leaves(value):
            """The results' indices of `value`: a nested list for a tuple
            (a Tuple, or a Var naming one); a call of several results gives
            a Python tuple of them, spliced into the tuple holding it."""
            if isinstance(value, Var) and id(value) in self.tuples:
                value = self.tuples[id(value)]
            if isinstance(value, Tuple):
                fields = []
                for f in value.fields:
                    r = leaves(f)
                    if isinstance(r, tuple):
                        fields.extend(r)
                    else:
                        fields.append(r)
                return fields
            handle = self._value(value)
            if isinstance(handle, _NoValue):
                raise ValueError(f"function '{self.name}' returns {handle.reason}")
            if isinstance(handle, list):  # a call of several results
                handles.extend(handle)
                kinds.extend(["tensor"] * len(handle))
                return tuple(range(len(handles) - len(handle), len(handles)))
            handles.append(handle)
            kinds.append(kind(value))
            return len(handles) - 1

        structure = leaves(output)
        structure = list(structure) if isinstance(structure, tuple) else structure
        is_tuple = isinstance(structure, list)
        nested = is_tuple and any(isinstance(f, list) for f in structure)
        # A tuple stays one, even of one tensor (R.Tuple): printed so, and
        # given back so by the runtime; a tuple of tuples says how they nest.
        extra = {}
        if any(isinstance(p, dict) for p in self.param_nesting):
            extra["param_nesting"] = self.param_nesting
        notes = {str(self.param_nesting[k]): note for k, note in self.notes.items()
                 if isinstance(self.param_nesting[k], int)}
        if notes:
            extra["param_notes"] = notes
        return self.builder.finish(handles, tuple=is_tuple, attrs=dict(attrs or {}),
                                   nesting=structure if nested else None,
                                   result_kinds=kinds, **extra)


__all__ = ["Function", "FunctionWriter"]
