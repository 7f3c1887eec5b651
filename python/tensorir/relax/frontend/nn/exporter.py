"""Module.export_tvm: each method named in the spec traced into a graph
function of an IRModule (BlockBuilder), its arguments first, then the
module's parameters."""
from ...block_builder import BlockBuilder
from ...expr import Tuple, Var
from ...struct_info import ObjectStructInfo, TensorStructInfo
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


def export(module, spec, debug=False):
    global _builder
    from .core import Tensor
    if not isinstance(spec, dict) or not spec:
        raise TypeError("export_tvm takes {method name: {argument: nn.spec.Tensor}}")
    methods = [MethodSpec(module, name, raw) for name, raw in spec.items()]
    params = list(module.named_parameters())
    bb = BlockBuilder()
    for method in methods:
        inputs = [Var(name, TensorStructInfo(s.shape, s.dtype))
                  for name, s in method.args.items()]
        # debug: the effect handle after the arguments, given back beside
        # the results.
        effects = [Var("_io", ObjectStructInfo())] if debug else []
        weights = [Var(name.replace(".", "_"), TensorStructInfo(p.shape, p.dtype))
                   for name, p in params]
        if _builder is not None:
            raise RuntimeError("export_tvm is running already (a forward exported "
                               "another module)")
        _builder = bb
        try:
            for (_, param), var in zip(params, weights):
                param._tensor = Tensor(_expr=var)
            # The function says how many inputs are the caller's (Relax's
            # num_input): the parameters follow them.
            with bb.function(method.name, inputs + effects + weights,
                             attrs={"num_input": len(inputs) + len(effects)}):
                with bb.dataflow():
                    result = method.method(*[Tensor(_expr=v) for v in inputs])
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
    return bb.get(), params
