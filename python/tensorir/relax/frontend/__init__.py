"""relax.frontend: importers of models from other frameworks (torch), and
models written as modules (nn)."""


def detach_params(mod):
    """The module without the weights an importer kept in its "params"
    attribute (keep_params_as_input), and those weights: (IRModule,
    {function name: [arrays, in the order of its weight inputs]})."""
    params = dict(mod.attrs.get("params", {}))
    return mod.without_attr("params"), params


__all__ = ["detach_params", "nn", "torch"]
