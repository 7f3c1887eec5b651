"""relax.frontend: importers of models from other frameworks (torch), and
models written as modules (nn)."""


def detach_params(mod):
    """The module without the weights an importer kept in its "params"
    attribute (keep_params_as_input), and those weights: (IRModule,
    {function name: [tvm.runtime tensors, in the order of its weight
    inputs]})."""
    from ...runtime import tensor
    params = {name: [tensor(a) if not hasattr(a, "numpy") else a for a in arrays]
              for name, arrays in dict(mod.attrs.get("params", {})).items()}
    return mod.without_attr("params"), params


__all__ = ["detach_params", "nn", "torch"]
