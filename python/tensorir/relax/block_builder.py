"""relax.BlockBuilder: builds an IRModule of graph functions and the
prim_funcs they call, as TVM's does (function / dataflow scopes, emit,
emit_te, emit_output, emit_func_output, get)."""
import string

from .. import te, tir
from ..ir import IRModule
from .expr import Call, DataflowVar, Expr, ExternFunc, GlobalVar, Tuple, Var
from .function import Function, FunctionWriter
from .struct_info import affine_form
from .struct_info import (ObjectStructInfo, PrimStructInfo, SymDim, TensorStructInfo,
                          TupleStructInfo)


class _FunctionScope:
    def __init__(self, name, params, private, attrs=None):
        self.name, self.params, self.private = name, params, private
        self.attrs = dict(attrs or {})  # the function's attributes
        self.bindings = []          # (var, expr)
        self.bound_calls = {}       # id(nested call) -> (call, its var)
        self.output_emitted = False


class _Scope:
    """A `with` scope that runs `enter` and `exit` (exit gets whether the
    body raised)."""

    def __init__(self, enter, exit_):
        self._enter, self._exit = enter, exit_

    def __enter__(self):
        self._enter()
        return self

    def __exit__(self, kind, value, traceback):
        self._exit(kind is not None)
        return False


class BlockBuilder:
    """Builds graph functions binding by binding. Prim_funcs made by emit_te
    (or added with add_func) are kept once each: a prim_func structurally
    equal to one already in the module is reused."""

    def __init__(self, mod=None):
        self._funcs = {}            # name -> PrimFunc / Function, in order
        self._func_scope = None
        self._in_dataflow = False
        self._counters = {"lv": 0, "gv": 0}
        if mod is not None:
            for name, func in mod.functions.items():
                self._funcs[name] = func

    # ------------------------------------------------------------- scopes
    def function(self, name, params=None, attrs=None, pure=True, private=False):
        """`with bb.function("main", params=[x, ...]):` opens a graph
        function; params may instead be given to emit_func_output; `attrs`
        are its attributes (R.func_attr: {"num_input": 1}, ...)."""
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"BlockBuilder.function: the name {name!r} is not an identifier")
        if params is not None:
            params = self._check_params(name, params)

        def enter():
            if self._func_scope is not None:
                raise RuntimeError(f"BlockBuilder.function('{name}'): already inside "
                                   f"function '{self._func_scope.name}'; functions do "
                                   "not nest")
            if name in self._funcs:
                raise ValueError(f"BlockBuilder.function: the module already has a "
                                 f"function named '{name}'")
            self._func_scope = _FunctionScope(name, params, private, attrs)

        def exit_(raised):
            scope, self._func_scope = self._func_scope, None
            if not raised and not scope.output_emitted:
                raise RuntimeError(f"function '{name}' ended without emit_func_output")

        return _Scope(enter, exit_)

    def dataflow(self):
        """`with bb.dataflow():` a dataflow block: its bindings are
        DataflowVars, visible outside only through emit_output."""
        def enter():
            self._require_function("dataflow")
            if self._in_dataflow:
                raise RuntimeError("BlockBuilder.dataflow: already inside a dataflow block")
            self._in_dataflow = True

        def exit_(raised):
            self._in_dataflow = False

        return _Scope(enter, exit_)

    def _require_function(self, what):
        if self._func_scope is None:
            raise RuntimeError(f"BlockBuilder.{what} is called inside "
                               "`with bb.function(...)`")
        if self._func_scope.output_emitted:
            raise RuntimeError(f"BlockBuilder.{what}: function "
                               f"'{self._func_scope.name}' already has its output")

    @staticmethod
    def _check_params(name, params):
        if isinstance(params, Var):
            params = [params]
        params = list(params)
        for p in params:
            if not isinstance(p, Var) or isinstance(p, DataflowVar):
                raise TypeError(f"function '{name}': parameters are relax.Vars, got "
                                f"{p!r} ({type(p).__name__})")
            if not isinstance(p.struct_info, (TensorStructInfo, ObjectStructInfo,
                                              TupleStructInfo, PrimStructInfo)):
                raise TypeError(f"function '{name}': parameter '{p.name_hint}' needs a "
                                "relax.TensorStructInfo (or an ObjectStructInfo, a "
                                "PrimStructInfo, or a TupleStructInfo of them)")
        return params

    # ------------------------------------------------------------ bindings
    def _new_var(self, name_hint, struct_info, dataflow):
        prefix = "lv" if dataflow else "gv"
        if not name_hint:
            count = self._counters[prefix]
            self._counters[prefix] += 1
            name_hint = prefix if count == 0 else f"{prefix}{count}"
        return (DataflowVar if dataflow else Var)(name_hint, struct_info)

    def emit(self, expr, name_hint=""):
        """Binds `expr` to a new variable (a DataflowVar inside a dataflow
        block) and returns the variable."""
        self._require_function("emit")
        if not isinstance(expr, Expr):
            raise TypeError(f"BlockBuilder.emit takes a graph expression, got "
                            f"{type(expr).__name__}")
        if isinstance(expr, Tuple):
            # A tuple of values (split's parts): its calls bound first.
            expr = Tuple([self._emit_nested(f) if isinstance(f, Call) else f
                          for f in expr.fields])
        if isinstance(expr, Call) and isinstance(expr.op, GlobalVar):
            expr = self._resolve_call(expr)
        if isinstance(expr, Call):
            # Nested calls are bound first, each to a variable of its own
            # (Relax's normalization: linear gives permute_dims, matmul, add).
            # A call nested in several places (an operator made of others)
            # is bound once.
            args = [self._emit_nested(a) if isinstance(a, Call) else a for a in expr.args]
            if any(a is not b for a, b in zip(args, expr.args)):
                expr = Call(expr.op, args, expr.struct_info, expr.attrs)
        var = self._new_var(name_hint, expr.struct_info, self._in_dataflow)
        self._func_scope.bindings.append((var, expr))
        return var

    def _resolve_call(self, call):
        """A call of a graph function of the module with the callee's
        result as its struct info (given already, or the callee's)."""
        from ..script.tir import PrimFunc
        name = call.op.name_hint
        callee = self._funcs.get(name)
        if isinstance(callee, PrimFunc):
            raise TypeError(f"BlockBuilder.emit: '{name}' is a prim_func; call it with "
                            "relax.call_tir")
        if call.struct_info is not None:
            return call
        info = getattr(callee, "ret_struct_info", None)
        if info is None:
            where = "is not a function of the module" if callee is None else \
                "does not say what it returns"
            raise ValueError(f"BlockBuilder.emit: the call of '{name}': '{name}' {where}; "
                             "add it first, or give the call its struct info")
        return Call(call.op, call.args, info, call.attrs)

    def _emit_nested(self, call):
        bound = self._func_scope.bound_calls.get(id(call))
        if bound is not None:
            return bound[1]
        var = self.emit(call)
        self._func_scope.bound_calls[id(call)] = (call, var)
        return var

    def emit_output(self, output, name_hint=""):
        """Marks `output` (a value of the dataflow block) as visible after
        the block: returns a Var bound to it."""
        self._require_function("emit_output")
        if not self._in_dataflow:
            raise RuntimeError("BlockBuilder.emit_output is called inside "
                               "`with bb.dataflow()`")
        if isinstance(output, (list, tuple)):
            output = Tuple(output)
        if isinstance(output, Call) and isinstance(output.op, GlobalVar):
            output = self._resolve_call(output)
        var = self._new_var(name_hint, output.struct_info, dataflow=False)
        self._func_scope.bindings.append((var, output))
        return var

    def emit_func_output(self, output, params=None):
        """Ends the function: `output` (a value, or a list of them) is what
        it returns. The parameters are given here or at function(); once."""
        self._require_function("emit_func_output")
        scope = self._func_scope
        if self._in_dataflow:
            raise RuntimeError("BlockBuilder.emit_func_output is called after the "
                               "dataflow block (outside `with bb.dataflow()`)")
        if params is not None:
            if scope.params is not None:
                raise ValueError(f"function '{scope.name}': the parameters were given "
                                 "at function(); give them once")
            scope.params = self._check_params(scope.name, params)
        if scope.params is None:
            raise ValueError(f"function '{scope.name}' has no parameters: give them to "
                             "bb.function(name, params) or emit_func_output(output, params)")
        if isinstance(output, (list, tuple)):
            output = Tuple(output)
        if not isinstance(output, Expr):
            raise TypeError(f"emit_func_output takes a graph value, got "
                            f"{type(output).__name__}")
        # TVM's BlockBuilder takes a dataflow block's own variable here too
        # (the seed of from_fx returns one): a graph function computes all
        # its values in one scope, so it is as good as its emit_output.
        writer = FunctionWriter(scope.name, scope.params, scope.private)
        for var, expr in scope.bindings:
            writer.bind(var, expr)
        self._funcs[scope.name] = Function(scope.name, writer.finish(output, scope.attrs),
                                           ret_struct_info=output.struct_info)
        scope.output_emitted = True

    # ------------------------------------------------------------- te
    def emit_te(self, func, *args, **kwargs):
        """Calls the te function `func` on placeholders for the graph
        values among `args` (TVM's emit_te): the te it returns becomes a
        prim_func (named after `func`, or primfunc_name_hint), and a
        call_tir of it on those values is emitted (bound to a variable
        named name_hint)."""
        name_hint = kwargs.pop("name_hint", "")
        return self.emit(self.call_te(func, *args, **kwargs), name_hint=name_hint)

    def call_te(self, func, *args, **kwargs):
        """emit_te's call_tir, not bound (TVM's call_te): the prim_func is
        added to the module; the call is returned, to emit or to return."""
        return te_call(self.add_func, func, args, kwargs)

    # ------------------------------------------------------------ module
    def add_func(self, func, func_name):
        """Adds a prim_func (or graph function) under `func_name`, or under
        func_name1, func_name2, ... when taken; a prim_func structurally
        equal to one in the module is not added again. Returns its
        GlobalVar."""
        from ..ir.base import structural_equal
        from ..script.tir import PrimFunc
        if isinstance(func, PrimFunc):
            func = func.as_private()
            for name, existing in self._funcs.items():
                if isinstance(existing, PrimFunc) and structural_equal(existing, func):
                    return GlobalVar(name)
        name, k = func_name, 0
        while name in self._funcs or (self._func_scope and name == self._func_scope.name):
            k += 1
            name = f"{func_name}{k}"
        if isinstance(func, PrimFunc):
            func = func.with_name(name) if func.name != name else func
        self._funcs[name] = func
        return GlobalVar(name)

    def update_func(self, gvar, func):
        """Replaces the module's function `gvar` (a GlobalVar or name) by
        `func`."""
        name = getattr(gvar, "name_hint", gvar)
        if name not in self._funcs:
            raise KeyError(f"BlockBuilder.update_func: the module has no function '{name}'")
        self._funcs[name] = func

    def get(self):
        """The module built so far (TVM's finalize + get)."""
        if self._func_scope is not None:
            raise RuntimeError(f"BlockBuilder.get: function '{self._func_scope.name}' "
                               "is still being built")
        return IRModule(dict(self._funcs))

    finalize = get

    def current_block_is_dataflow(self):
        return self._in_dataflow


def te_call(add_func, func, args, kwargs):
    """The call_tir of the te function `func` on placeholders for the graph
    values among `args` (TVM's call_te): the prim_func the te it returns
    makes is given to `add_func(prim, name_hint)`, which returns its
    GlobalVar."""
    kwargs = dict(kwargs)
    name_hint = kwargs.pop("primfunc_name_hint", None) or getattr(func, "__name__", "te_func")
    if kwargs.pop("primfunc_attrs", None):
        raise NotImplementedError(f"call_te({name_hint}): primfunc_attrs are not supported")
    inputs, placeholders = [], []
    shape_vars = {}  # a shape variable's name -> the te function's variable

    def te_var(d):
        """The te variable of shape variable `d`: the tir.Var it was
        given as (te functions close over it), or a new one."""
        if d.name not in shape_vars:
            origin = getattr(d, "origin", None)
            shape_vars[d.name] = origin if origin is not None else tir.Var(d.name, "int64")
        return shape_vars[d.name]

    def te_dim(d):
        """A dimension as te sees it: a size, a variable, or the
        expression of an affine form of variables ("n + m")."""
        if not isinstance(d, SymDim):
            return int(d)
        form = affine_form(d)
        if form is None or (form[0] == 0 and len(form[1]) == 1 and form[1][0][1] == 1):
            return te_var(d)
        size = None
        for name, coeff in form[1]:
            term = te_var(SymDim(name))
            term = term if coeff == 1 else term * coeff
            size = term if size is None else size + term
        return size + form[0] if form[0] else size

    def te_shape(shape):
        return tuple(te_dim(d) for d in shape)

    def convert(arg):
        if isinstance(arg, Expr):
            if not isinstance(arg.struct_info, TensorStructInfo):
                raise TypeError(f"emit_te({name_hint}): {arg!r} is not a tensor")
            for seen, ph in zip(inputs, placeholders):
                if seen is arg:
                    return ph
            n = len(inputs)
            if isinstance(arg, Var):
                name = arg.name_hint
            else:
                name = string.ascii_uppercase[n] if n < 26 else f"tensor_input_{n}"
            ph = te.placeholder(te_shape(arg.shape), arg.dtype, name)
            inputs.append(arg)
            placeholders.append(ph)
            return ph
        if isinstance(arg, (list, tuple)):
            return type(arg)(convert(a) for a in arg)
        return arg

    te_args = [convert(a) for a in args]
    te_kwargs = {k: convert(v) for k, v in kwargs.items()}
    result = func(*te_args, **te_kwargs)
    outputs = list(result) if isinstance(result, (list, tuple)) else [result]
    for out in outputs:
        if not isinstance(out, te.Tensor) or out.is_placeholder:
            raise TypeError(f"emit_te({name_hint}): the function returns "
                            f"{type(out).__name__}, not te.compute tensors")
    prim = te.create_prim_func(placeholders + outputs, name=name_hint)
    gvar = add_func(prim, name_hint)
    infos = [TensorStructInfo(tuple(o.shape), o.dtype) for o in outputs]
    return call_tir(gvar, inputs, infos if len(infos) > 1 else infos[0])


def _dps_call(what, args, out_sinfo):
    """The inputs (a value or a tuple of them) and result struct info (one
    TensorStructInfo, or a list: a tuple) of a destination-passing call."""
    if isinstance(args, Tuple):
        args = args.fields
    elif isinstance(args, Expr):
        args = [args]
    args = list(args)
    for a in args:
        if not isinstance(a, Expr) or not isinstance(a.struct_info, TensorStructInfo):
            raise TypeError(f"{what}: argument {a!r} is not a tensor")
    if isinstance(out_sinfo, (list, tuple)):
        infos = list(out_sinfo)
        info = infos[0] if len(infos) == 1 else TupleStructInfo(infos)
    else:
        info = out_sinfo
    for i in (info.fields if isinstance(info, TupleStructInfo) else [info]):
        if not isinstance(i, TensorStructInfo):
            raise TypeError(f"{what}: out_sinfo holds TensorStructInfos")
    return args, info


def call_tir(gvar, args, out_sinfo, tir_vars=None):
    """relax.call_tir: a call of the prim_func `gvar` on `args` (a value or
    a tuple of them) whose results are of `out_sinfo` (one
    TensorStructInfo, or a list)."""
    if tir_vars is not None:
        raise NotImplementedError("call_tir: tir_vars (scalar arguments of the prim_func) "
                                  "are not supported; its buffers' shape variables size it")
    if not isinstance(gvar, GlobalVar):
        raise TypeError(f"call_tir calls a GlobalVar (bb.add_func's), got {type(gvar).__name__}")
    args, info = _dps_call(f"call_tir({gvar.name_hint})", args, out_sinfo)
    return Call("relax.call_tir", [gvar] + args, info)


def call_tir_inplace(gvar, args, inplace_indices, out_sinfo, tir_vars=None):
    """relax.call_tir_inplace: call_tir where result k with
    inplace_indices[k] = j >= 0 is input j, which the prim_func writes in
    place (it takes no buffer of its own for that result: its parameters
    are the inputs, then the results whose index is -1)."""
    if tir_vars is not None:
        raise NotImplementedError("call_tir_inplace: tir_vars (scalar arguments of the "
                                  "prim_func) are not supported")
    if not isinstance(gvar, GlobalVar):
        raise TypeError("call_tir_inplace calls a GlobalVar (bb.add_func's), got "
                        f"{type(gvar).__name__}")
    what = f"call_tir_inplace({gvar.name_hint})"
    args, info = _dps_call(what, args, out_sinfo)
    fields = info.fields if isinstance(info, TupleStructInfo) else [info]
    indices = [inplace_indices] if isinstance(inplace_indices, int) else list(inplace_indices)
    if len(indices) != len(fields):
        raise ValueError(f"{what}: {len(indices)} inplace_indices for {len(fields)} results; "
                         "one per result (-1: a buffer of its own)")
    for k, j in enumerate(indices):
        if not isinstance(j, int) or j < -1 or j >= len(args):
            raise ValueError(f"{what}: inplace index {j!r} of result {k} is not -1 or an "
                             f"input's index (0..{len(args) - 1})")
        if j >= 0 and (tuple(args[j].shape) != tuple(fields[k].shape)
                       or args[j].dtype != fields[k].dtype):
            raise ValueError(f"{what}: result {k} ({fields[k]!r}) is written into input {j} "
                             f"of another shape or dtype ({args[j].struct_info!r})")
    used = [j for j in indices if j >= 0]
    if len(set(used)) != len(used):
        raise ValueError(f"{what}: an input is written in place twice ({indices})")
    return Call("relax.call_tir_inplace", [gvar] + args, info,
                {"inplace_indices": indices})


def call_dps_packed(func, args, out_sinfo):
    """relax.call_dps_packed: a call of the packed function named `func`
    (an ExternFunc or its name) in destination-passing style. The module
    declares it; the built module runs the function registered under that
    name (tvm.register_global_func) on the inputs' and outputs' arrays."""
    name = getattr(func, "global_symbol", func)
    if not isinstance(name, str) or not name:
        raise TypeError(f"call_dps_packed calls a function by name, got {func!r}")
    args, info = _dps_call(f'call_dps_packed("{name}")', args, out_sinfo)
    return Call("relax.call_dps_packed", [ExternFunc(name)] + args, info)


def call_pure_packed(func, *args, sinfo_args=None):
    """relax.call_pure_packed: a call of the packed function named `func`
    (a string or an ExternFunc) on `args`, which returns its result
    (`sinfo_args`: a TensorStructInfo of known shape, whose buffer the
    runtime copies the result into; or R.Object / a tensor of unknown
    shape, when the call runs only for what it does and its result is not
    used). The runtime runs the function registered under that name
    (tvm.register_global_func)."""
    name = func.global_symbol if isinstance(func, ExternFunc) else func
    if not isinstance(name, str):
        raise TypeError(f"call_pure_packed calls a function by name, got {func!r}")
    if isinstance(sinfo_args, (list, tuple)):
        if len(sinfo_args) != 1:
            raise ValueError(f'call_pure_packed("{name}"): sinfo_args is one struct info, '
                             f"got {len(sinfo_args)}")
        sinfo_args = sinfo_args[0]
    if sinfo_args is None:
        raise ValueError(f'call_pure_packed("{name}") needs sinfo_args (its result\'s '
                         "struct info)")
    for a in args:
        if not isinstance(a, Expr) or not isinstance(a.struct_info, TensorStructInfo):
            raise TypeError(f'call_pure_packed("{name}"): argument {a!r} is not a tensor '
                            "(packed functions take tensors here)")
    return Call("relax.call_pure_packed", [ExternFunc(name)] + list(args), sinfo_args)
