"""Module.export_tvm: each method named in the spec traced into a graph
function of an IRModule (BlockBuilder), its arguments first, then the
module's parameters; with debug=True, the functions take the IO effect
handle and the module has `_initialize_effect`, which makes it."""
from ...block_builder import BlockBuilder
from ...expr import Tuple, Var
from ...struct_info import ObjectStructInfo, PrimStructInfo, TensorStructInfo, TupleStructInfo
from .spec import MethodSpec

__all__ = ["current_builder", "export"]

_builder = None


def current_builder(what):
    """The BlockBuilder of the function being exported; RuntimeError naming
    `what` outside export_tvm."""
    if _builder is None:
        raise RuntimeError(f"{what} makes graph values only while a module is exported "
                           "(Module.export_tvm)")
    return _builder


def _tensors(value, method):
    """The graph values of what `method` returned: a Tensor, or a tuple /
    list of them."""
    from .core import Parameter, Tensor
    if isinstance(value, Parameter):
        value = value._value()
    if isinstance(value, Tensor):
        return value._expr
    if isinstance(value, (list, tuple)) and value:
        return [_tensors(v, method) for v in value]
    raise TypeError(f"export_tvm: {method} returned {type(value).__name__}; it returns "
                    "nn.Tensors (one, or a tuple of them)")


def _struct_info(spec, name):
    """The struct info of argument `name` of spec `spec` (a tuple for a
    tuple or list of specs; an int the shape variable of its name)."""
    from .spec import Int
    if isinstance(spec, (tuple, list)):
        return TupleStructInfo([_struct_info(s, f"{name}_{k}") for k, s in enumerate(spec)])
    if isinstance(spec, Int):
        return PrimStructInfo("int64", name)
    return TensorStructInfo(spec.shape, spec.dtype)


def _argument(bb, value, spec):
    """What the method gets for the graph value `value` of spec `spec`: a
    Tensor, or a tuple / list (as the spec is) of its fields, each bound."""
    from .core import Tensor
    from .spec import Int
    if isinstance(spec, (tuple, list)):
        fields = [_argument(bb, bb.emit(value[k]), s) for k, s in enumerate(spec)]
        return type(spec)(fields)
    if isinstance(spec, Int):
        return value.struct_info.value  # the shape variable (a tir.Var)
    return Tensor(_expr=value)


def export(module, spec, debug=False):
    global _builder
    from .core import Tensor
    if not isinstance(spec, dict) or not spec:
        raise TypeError("export_tvm takes {method name: {argument: nn.spec.Tensor}}")
    methods = [MethodSpec(module, name, raw) for name, raw in spec.items()]
    params = list(module.named_parameters())
    bb = BlockBuilder()
    for method in methods:
        inputs = [Var(name, _struct_info(s, name)) for name, s in method.args.items()]
        # debug: the effect handle after the arguments, given back beside
        # the results.
        effects = [Var("_io", ObjectStructInfo())] if debug else []
        infos = [TensorStructInfo(p.shape, p.dtype) for _, p in params]
        # "plain": a parameter per weight; "packed": one tuple of them.
        weights = [Var(name.replace(".", "_"), info) for (name, _), info in zip(params, infos)]
        if method.param_mode == "packed":
            weights = [Var("packed_params", TupleStructInfo(infos))]
        if _builder is not None:
            raise RuntimeError("export_tvm is running already (a forward exported "
                               "another module)")
        _builder = bb
        try:
            # The function says how many inputs are the caller's (Relax's
            # num_input): the parameters follow them.
            with bb.function(method.name, inputs + effects + weights,
                             attrs={"num_input": len(inputs) + len(effects)}):
                with bb.dataflow():
                    if method.param_mode == "packed":
                        values = [bb.emit(weights[0][k], name.replace(".", "_"))
                                  for k, (name, _) in enumerate(params)]
                    else:
                        values = weights
                    for (_, param), value in zip(params, values):
                        param._tensor = Tensor(_expr=value)
                    args = [_argument(bb, v, method.args[v.name_hint]) for v in inputs]
                    result = method.method(*args)
                    outputs = _tensors(result, method.name)
                    if effects:
                        outputs = Tuple([Tuple(outputs) if isinstance(outputs, list)
                                         else outputs, Tuple(effects)])
                    output = bb.emit_output(outputs)
                bb.emit_func_output(output)
        finally:
            _builder = None
            for _, param in params:
                param._tensor = None
    if debug:
        _initialize_effect(bb)
    return bb.get(), params


def _initialize_effect(bb):
    """`_initialize_effect`: the function giving the effect handles the
    exported functions take ((_io,), the IO handle an R.null_value())."""
    from ...op import null_value
    with bb.function("_initialize_effect", []):
        with bb.dataflow():
            io = bb.emit(null_value(), "_io")
            output = bb.emit_output(Tuple([io]))
        bb.emit_func_output(output)
