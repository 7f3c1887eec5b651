"""relax.frontend.nn's core: Tensor (a graph value while a module is
exported), Parameter (a weight, an input of the exported functions),
Module (submodules and parameters found by attribute, as in PyTorch) and
ModuleList,
ModuleDict, and Effect (state a module keeps outside its parameters)."""
import numpy as np

from ...struct_info import SymDim, TensorStructInfo, _static_shape

__all__ = ["Effect", "Module", "ModuleDict", "ModuleList", "Parameter", "Tensor",
           "get_default_dtype", "set_default_dtype"]

_default_dtype = "float32"


def get_default_dtype():
    """The dtype of parameters made without one ("float32")."""
    return _default_dtype


def set_default_dtype(dtype):
    global _default_dtype
    _default_dtype = str(dtype)


class Tensor:
    """A tensor of the function being exported: its graph value (`_expr`),
    shape and dtype. Arithmetic operators are nn.op's (add, subtract,
    multiply, divide, matmul), with numpy broadcasting."""

    def __init__(self, *, _expr):
        if not isinstance(getattr(_expr, "struct_info", None), TensorStructInfo):
            raise TypeError(f"nn.Tensor holds a tensor value, got {_expr!r}")
        self._expr = _expr

    @property
    def shape(self):
        """The dimensions: ints, and shape variables (tir Vars) where the
        spec named them."""
        return [d if isinstance(d, SymDim) else int(d) for d in self._expr.struct_info.shape]

    @staticmethod
    def placeholder(shape, dtype, name="tensor"):
        """A tensor of `shape` and `dtype` that is no value of the function
        yet: what nn.extern and nn.tensor_ir_op give back (their `out`)."""
        from ...expr import Var
        return Tensor(_expr=Var(name, TensorStructInfo(shape, dtype)))

    @staticmethod
    def from_const(data):
        """A constant tensor of `data` (a numpy array or what np.asarray
        takes); float64 data becomes float32, as Relax's constants do."""
        from ...expr import const
        data = np.asarray(data)
        return Tensor(_expr=const(data.astype("float32") if data.dtype == np.float64
                                  else data))

    @staticmethod
    def from_scalar(data, dtype):
        """A 0-D constant tensor holding the number `data` as `dtype`."""
        from ...expr import const
        return Tensor(_expr=const(np.array(data, dtype=dtype)))

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def dtype(self):
        return self._expr.struct_info.dtype

    def __repr__(self):
        return f'Tensor({self.shape}, "{self.dtype}")'

    def _binary(self, other, name, reverse=False):
        from . import op
        if isinstance(other, (int, float)):
            other = Tensor.from_scalar(other, self.dtype)
        lhs, rhs = (other, self) if reverse else (self, other)
        return getattr(op, name)(lhs, rhs)

    def __add__(self, other):
        return self._binary(other, "add")

    def __radd__(self, other):
        return self._binary(other, "add")  # the tensor first, as Relax writes it

    def __sub__(self, other):
        return self._binary(other, "subtract")

    def __rsub__(self, other):
        return self._binary(other, "subtract", reverse=True)

    def __mul__(self, other):
        return self._binary(other, "multiply")

    def __rmul__(self, other):
        return self._binary(other, "multiply")

    def maximum(self, other):
        return self._binary(other, "maximum")

    def minimum(self, other):
        return self._binary(other, "minimum")

    def astype(self, dtype):
        from . import op
        return op.astype(self, dtype)

    def __truediv__(self, other):
        return self._binary(other, "divide")

    def __matmul__(self, other):
        return self._binary(other, "matmul")

    def reshape(self, *shape):
        from . import op
        if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = shape[0]
        return op.reshape(self, shape)

    def permute_dims(self, *axes):
        from . import op
        if len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = axes[0]
        return op.permute_dims(self, list(axes) if axes else None)

    def repeat(self, repeats, axis=None):
        from . import op
        return op.repeat(self, repeats, axis)


class Parameter:
    """A weight of a module: its shape and dtype (default: the default
    dtype) and, once given, its data (a numpy array or anything
    np.asarray takes, of that shape). Exported functions take every
    parameter as an input after the specified ones, in the order
    Module.named_parameters gives."""

    def __init__(self, shape, dtype=None):
        # A dimension is a size, or a shape variable (a name or a tir.Var)
        # the exported functions take the parameter of any size of.
        self.shape = [d if isinstance(d, SymDim) else int(d)
                      for d in _static_shape(list(shape), "nn.Parameter")]
        if any(not isinstance(d, SymDim) and d < 0 for d in self.shape):
            raise ValueError(f"nn.Parameter: the shape {self.shape} has a negative dimension")
        self.dtype = str(dtype or get_default_dtype())
        self._data = None
        self._tensor = None  # the graph value while a function is exported

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def data(self):
        return self._data

    @data.setter
    def data(self, value):
        if value is None:
            self._data = None
            return
        array = value.numpy() if hasattr(value, "numpy") else np.asarray(value)
        fits = len(array.shape) == len(self.shape) and all(
            isinstance(d, SymDim) or d == n for d, n in zip(self.shape, array.shape))
        if not fits or str(array.dtype) != self.dtype:
            raise ValueError(f"nn.Parameter of shape {self.shape} and dtype {self.dtype} "
                             f"given data of shape {list(array.shape)} and dtype "
                             f"{array.dtype}")
        self._data = array

    def to(self, dtype=None):
        """Changes the dtype (data given is converted)."""
        if dtype is not None:
            self.dtype = str(dtype)
            if self._data is not None:
                self._data = self._data.astype(self.dtype)

    def __repr__(self):
        return f'Parameter({self.shape}, "{self.dtype}")'

    def _value(self):
        """The parameter as a Tensor of the function being exported."""
        if self._tensor is None:
            raise RuntimeError("a Parameter is used as a tensor only while its module is "
                               "exported (Module.export_tvm)")
        return self._tensor

    # Inside forward, a parameter is used like the tensor it stands for.
    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._value(), name)

    def __add__(self, other):
        return self._value() + other

    def __radd__(self, other):
        return other + self._value()

    def __sub__(self, other):
        return self._value() - other

    def __mul__(self, other):
        return self._value() * other

    def __rmul__(self, other):
        return other * self._value()

    def __truediv__(self, other):
        return self._value() / other

    def __matmul__(self, other):
        return self._value() @ other


class Module:
    """A model or a part of one, as PyTorch's: the Parameters and Modules
    assigned to its attributes are its own; forward (or any method named
    in export_tvm's spec) computes with nn.op on Tensors."""

    def named_parameters(self, prefix=""):
        """(dotted name, Parameter) of every parameter, submodules' too, in
        the order they were assigned; each once."""
        seen = set()

        def walk(module, path):
            if isinstance(module, (ModuleList, ModuleDict)):
                for key, item in module._children():
                    yield from walk(item, f"{path}{key}.")
                return
            for name, value in vars(module).items():
                if name.startswith("_"):
                    continue
                if isinstance(value, Parameter):
                    if id(value) not in seen:
                        seen.add(id(value))
                        yield path + name, value
                elif isinstance(value, Module):
                    yield from walk(value, f"{path}{name}.")

        yield from walk(self, prefix + "." if prefix else "")

    def parameters(self):
        for _, param in self.named_parameters():
            yield param

    def state_dict(self):
        """{dotted name: Parameter}."""
        return dict(self.named_parameters())

    def load_state_dict(self, state_dict, strict=True):
        """Gives the parameters their data from {dotted name: array};
        strict: every parameter named, and nothing else."""
        own = dict(self.named_parameters())
        missing = [name for name in own if name not in state_dict]
        unexpected = [name for name in state_dict if name not in own]
        if strict and (missing or unexpected):
            raise KeyError(f"load_state_dict: missing {missing}, unexpected {unexpected}")
        for name, value in state_dict.items():
            if name in own:
                own[name].data = value
        return missing, unexpected

    def to(self, dtype=None):
        for param in self.parameters():
            param.to(dtype)

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} has no forward")

    def export_tvm(self, spec, debug=False, allow_extern=False):
        """The module's methods named in `spec` as graph functions of an
        IRModule, and its parameters: returns (IRModule, [(name,
        Parameter), ...]). spec: {method: {argument: nn.spec.Tensor(shape,
        dtype), ...}, ...} (a tuple or list of specs: a tuple argument);
        each function takes those arguments, then every parameter (TVM's
        param_mode "plain"; with {"$": {"param_mode": "packed"}} one tuple
        `packed_params` of them). With debug=True each function also takes
        the effect handle `_io` (an R.Object, after the arguments) and
        returns (its results, (_io,)), as Relax's exporter writes it, and
        the module has `_initialize_effect`, which makes the handle; the
        compiler builds only functions without one."""
        from .exporter import export
        mod, params = export(self, spec, debug)
        return (mod, params, []) if allow_extern else (mod, params)

    def jit(self, spec, device="cpu", pipeline="default_build", out_format="torch",
            debug=False):
        """The methods of `spec` exported, built for the CPU and wrapped to
        take and return torch tensors: model["forward"](x). Parameters need
        their data."""
        from .torch import jit
        return jit(self, spec, device, pipeline, out_format, debug)


class Effect:
    """State a module keeps besides its parameters (a KV cache, the IO
    handle of a debug export): a Module's attribute of this type is found
    by nn.Mutator's visit_effect. Subclasses say what they hold."""

    def __repr__(self):
        return f"{type(self).__name__}()"


class ModuleList(Module):
    """A list of modules, indexed and iterated; their parameters are named
    "<list>.<index>.<name>"."""

    def __init__(self, modules):
        self.modules = list(modules)

    def __iter__(self):
        return iter(self.modules)

    def __getitem__(self, index):
        return self.modules[index]

    def __setitem__(self, index, module):
        self.modules[index] = module

    def __len__(self):
        return len(self.modules)

    def append(self, module):
        self.modules.append(module)

    def _children(self):
        return [(str(index), module) for index, module in enumerate(self.modules)]

    def forward(self, x):
        for module in self.modules:
            x = module(x)
        return x


class ModuleDict(Module):
    """Modules by name, as a dict (in the order given); their parameters are
    named "<dict>.<key>.<name>"."""

    def __init__(self, modules=None):
        self.modules = dict(modules or {})
        for key in self.modules:
            if not isinstance(key, str):
                raise TypeError(f"nn.ModuleDict: keys are strings, got {key!r}")

    def __getitem__(self, key):
        return self.modules[key]

    def __setitem__(self, key, module):
        self.modules[key] = module

    def __contains__(self, key):
        return key in self.modules

    def __iter__(self):
        return iter(self.modules)

    def __len__(self):
        return len(self.modules)

    def keys(self):
        return self.modules.keys()

    def values(self):
        return self.modules.values()

    def items(self):
        return self.modules.items()

    def _children(self):
        return list(self.modules.items())

    def forward(self, *args, **kwargs):
        raise NotImplementedError("nn.ModuleDict has no forward: call its modules by key")
