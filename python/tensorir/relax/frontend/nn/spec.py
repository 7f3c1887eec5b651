"""relax.frontend.nn.spec: what an exported function takes. A spec maps
each method to export to its arguments' specs, in order:

    {"forward": {"x": nn.spec.Tensor((1, 784), "float32")}}

An argument's spec is a Tensor (shape, dtype), `int` (or "int",
spec.Int(): an int64 given at run time, which the method gets as the
shape variable of the argument's name, to size its results' dimensions
with), or a tuple or list of specs (the method gets a tuple or list of
Tensors); the "$" entry, when
given, holds options ({"param_mode": "plain"}: the parameters follow the
arguments; "packed": they come as one tuple, `packed_params`)."""
from ...struct_info import TENSOR_DTYPES, _static_shape

__all__ = ["Int", "MethodSpec", "Tensor"]


class Tensor:
    """A tensor argument: its shape (sizes, and names of shape variables:
    ("n", 784) takes any batch size n at run time) and dtype."""

    def __init__(self, shape, dtype):
        dims = list(shape)
        _static_shape(dims, "nn.spec.Tensor")  # sizes and shape variables
        if dtype not in TENSOR_DTYPES:
            raise ValueError(f"nn.spec.Tensor: unsupported dtype {dtype!r}; tensors hold "
                             f"{', '.join(TENSOR_DTYPES)}")
        self.shape, self.dtype = dims, dtype

    def __repr__(self):
        return f'spec.Tensor({self.shape}, "{self.dtype}")'


class Int:
    """An int64 argument (a spec of `int`): the function takes it as
    R.Prim(value=<name>), the method gets the shape variable <name>."""

    def __repr__(self):
        return "spec.Int()"


class MethodSpec:
    """One method's arguments (name -> spec) and options, from the raw
    dict export_tvm is given; ValueError naming the method otherwise."""

    def __init__(self, module, name, raw):
        method = getattr(module, name, None)
        if not callable(method):
            raise ValueError(f"export_tvm: {type(module).__name__} has no method {name!r}")
        if not isinstance(raw, dict):
            raise TypeError(f"export_tvm: the spec of {name!r} is a dict of argument specs, "
                            f"got {type(raw).__name__}")
        options = dict(raw.get("$", {}))
        self.param_mode = options.pop("param_mode", "plain")
        if self.param_mode not in ("plain", "packed"):
            raise NotImplementedError(f"export_tvm: param_mode {self.param_mode!r} of "
                                      f"{name!r} ('plain' and 'packed' are supported)")
        options.pop("effect_mode", None)
        if options:
            raise ValueError(f"export_tvm: unknown options {sorted(options)} for {name!r}")
        self.name, self.method = name, method
        self.args = {}
        for arg, spec in raw.items():
            if arg == "$":
                continue
            if spec is int or spec == "int":
                spec = Int()
            if not _is_spec(spec):
                raise TypeError(f"export_tvm: argument {arg!r} of {name!r} is specified by "
                                "nn.spec.Tensor, int (or a tuple / list of them), got "
                                f"{spec!r}")
            if isinstance(spec, Int) and not arg.isidentifier():
                raise ValueError(f"export_tvm: the int argument {arg!r} of {name!r} names "
                                 "a shape variable: an identifier")
            self.args[arg] = spec


def _is_spec(spec):
    """Whether `spec` is a Tensor spec, or a tuple / list of specs."""
    if isinstance(spec, (tuple, list)):
        return all(_is_spec(s) for s in spec)
    return isinstance(spec, (Tensor, Int))
