"""Module.jit: a module exported, built and run from PyTorch. The functions
take and return torch tensors (copied through numpy), the module's
parameters passed after the arguments by the wrapper."""
import numpy as np

__all__ = ["TorchModule", "jit"]


def _to_array(value, where):
    """A torch tensor (or numpy array) as a numpy array; a tuple / list as
    a list of them, flattened (a tuple argument is its tensors in order)."""
    if isinstance(value, (tuple, list)):
        out = []
        for k, v in enumerate(value):
            out.extend(_to_array(v, f"{where}[{k}]"))
        return out
    if hasattr(value, "detach") and hasattr(value, "numpy"):
        return [np.ascontiguousarray(value.detach().cpu().numpy())]
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value)]  # an int argument (spec `int`)
    raise TypeError(f"{where} is a {type(value).__name__}; the jit module takes torch "
                    "tensors, ints (or tuples / lists of them)")


def _to_torch(value):
    import torch
    if isinstance(value, (tuple, list)) or type(value).__name__ == "Array":
        return tuple(_to_torch(v) for v in value)
    return torch.from_numpy(np.array(value.numpy()))


class TorchModule:
    """The built module's functions by method name: model["forward"](x)
    takes the method's arguments as torch tensors and returns torch
    tensors (a tuple where the method returns several)."""

    def __init__(self, spec, vm, params):
        self.spec, self._vm, self._params = spec, vm, params

    def __getitem__(self, method):
        if method not in self.spec:
            raise KeyError(f"jit module: no method {method!r}; it has "
                           f"{', '.join(self.spec)}")
        names = [a for a in self.spec[method] if a != "$"]
        func = self._vm[method]

        def call(*args):
            if len(args) != len(names):
                raise TypeError(f"{method} takes {len(names)} arguments ({', '.join(names)}), "
                                f"got {len(args)}")
            arrays = []
            for name, arg in zip(names, args):
                arrays.extend(_to_array(arg, f"{method}: argument {name!r}"))
            return _to_torch(func(*arrays, *self._params))

        call.__name__ = method
        return call


def jit(module, spec, device="cpu", pipeline="default_build", out_format="torch",
        debug=False):
    """Module.jit: exports `module`'s methods of `spec`, builds them for the
    CPU (relax pipeline `pipeline`) and returns a TorchModule. Every
    parameter needs its data (load_state_dict). debug (the IO effect
    handle of export_tvm) changes nothing here: the wrapper holds the
    effects."""
    from .... import runtime
    from ... import get_pipeline
    from ...vm import VirtualMachine
    if out_format != "torch":
        raise ValueError(f"nn.Module.jit: out_format {out_format!r} ('torch' is supported)")
    if str(device) not in ("cpu", "llvm"):
        raise ValueError(f"nn.Module.jit: device {device!r}: the jit module runs on the CPU "
                         "('cpu')")
    mod, params = module.export_tvm(spec)
    missing = [name for name, p in params if p.data is None]
    if missing:
        raise ValueError(f"nn.Module.jit: parameters without data: {', '.join(missing)} "
                         "(give them with load_state_dict, or Parameter.data)")
    if isinstance(pipeline, str):
        pipeline = get_pipeline(pipeline) if pipeline != "default_build" else None
    if pipeline is not None:
        mod = pipeline(mod)
    vm = VirtualMachine(runtime.compile(mod, "llvm"), runtime.cpu())
    return TorchModule(spec, vm, [p.data for _, p in params])
