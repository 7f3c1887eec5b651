"""tvm.tir.PrimFunc and TensorIntrin.

PrimFunc is the class TVMScript's @T.prim_func, te.create_prim_func and
IRModule[name] return (tensorir.script.tir.PrimFunc). This module gives it
the rest of TVM's PrimFunc surface it needs (with_attr, attrs, same_as),
without replacing the class, so every PrimFunc has them. Each is added only
where the class does not define it itself.
"""
import copy

from .._ext import ext
from ..ir.module import global_symbol
from .buffer import Buffer, function_signature
from ..script.tir import PrimFunc

__all__ = ["Buffer", "PrimFunc", "TensorIntrin"]


def _attrs(self):
    """The function's attributes: "global_symbol" (the name it is built
    under: its name unless with_attr set another) and those set with
    with_attr. The IR has no function attributes yet: they are kept on the
    Python object, and only the global symbol has an effect (build() names
    the function by it, IRModule.from_expr keys it by it). None of them
    takes part in structural equality."""
    return {"global_symbol": global_symbol(self), **getattr(self, "_extra_attrs", {})}


def _with_attr(self, attr_key_or_dict, attr_value=None):
    """A copy with attributes set (TVM's PrimFunc.with_attr)."""
    attrs = (dict(attr_key_or_dict) if isinstance(attr_key_or_dict, dict)
             else {attr_key_or_dict: attr_value})
    func = copy.copy(self)
    extra = dict(getattr(self, "_extra_attrs", {}))
    for key, value in attrs.items():
        if key == "global_symbol":
            func._global_symbol = str(getattr(value, "value", value))
        else:
            extra[key] = value
    func._extra_attrs = extra
    return func


def _without_attr(self, attr_key):
    """A copy without the attribute `attr_key` (without "global_symbol",
    the function's global symbol is its name again)."""
    func = copy.copy(self)
    func._extra_attrs = {k: v for k, v in getattr(self, "_extra_attrs", {}).items()
                         if k != attr_key}
    if attr_key == "global_symbol":
        func._global_symbol = None
    return func


def _same_as(self, other):
    return self is other


def _repr(self):
    return f"PrimFunc({self.name})"


def _signature(self):
    cached = getattr(self, "_signature_cache", None)
    if cached is None:
        cached = self._signature_cache = function_signature(self.text, self.name)
    return cached


def _params(self):
    """The parameters, as Vars named as in TVMScript (TVM's params)."""
    return [var for var, _ in _signature(self)]


def _buffer_map(self):
    """Each buffer parameter's Buffer (TVM's buffer_map)."""
    return {var: buf for var, buf in _signature(self) if buf is not None}


for _name, _method in (("attrs", property(_attrs)), ("with_attr", _with_attr),
                       ("without_attr", _without_attr), ("same_as", _same_as),
                       ("__repr__", _repr), ("params", property(_params)),
                       ("buffer_map", property(_buffer_map))):
    if _name not in PrimFunc.__dict__:
        setattr(PrimFunc, _name, _method)


class TensorIntrin:
    """A tensor intrinsic: `desc`, the computation it performs, and `impl`,
    how it performs it, both PrimFuncs, registered by name (TVM's
    tir.TensorIntrin). sch.tensorize looks them up by name."""

    _registry = {}

    def __init__(self, desc, impl):
        self.desc, self.impl = desc, impl

    @staticmethod
    def register(name, desc, impl, override=False):
        if name in TensorIntrin._registry and not override:
            raise ValueError(f"TensorIntrin '{name}' is already registered")
        TensorIntrin._registry[name] = TensorIntrin(desc, impl)
        # tensorize runs in C++ and finds the functions there by name; an
        # intrinsic whose script failed to parse raises when it is used.
        if isinstance(desc, PrimFunc) and isinstance(impl, PrimFunc):
            ext.register_tensor_intrin(name, desc.text, impl.text, True)

    @staticmethod
    def get(name, allow_missing=False):
        """The intrinsic registered as `name`; None if there is none and
        allow_missing, else ValueError."""
        intrin = TensorIntrin._registry.get(name)
        if intrin is None and not allow_missing:
            raise ValueError(f"TensorIntrin '{name}' is not registered")
        return intrin
