"""tvm.tir.PrimFunc and TensorIntrin.

PrimFunc is the class TVMScript's @T.prim_func, te.create_prim_func and
IRModule[name] return: one function of a native module, with TVM's
PrimFunc surface (params, buffer_map, body as nodes, with_attr, attrs,
same_as).
"""
import copy
import types

from .._ext import ext
from ..ir.module import IRModule, global_symbol, split_functions
from .buffer import Buffer

__all__ = ["Buffer", "PrimFunc", "TensorIntrin"]


def _attrs(self):
    """The function's attributes: "global_symbol" (the name it is built
    under: its name unless with_attr set another) and those set with
    with_attr. The IR has no function attributes yet: they are kept on the
    Python object, and only the global symbol has an effect (build() names
    the function by it, IRModule.from_expr keys it by it). None of them
    takes part in structural equality."""
    symbol = global_symbol(self)
    return {**({"global_symbol": symbol} if symbol else {}),
            **getattr(self, "_extra_attrs", {})}


def _with_attr(self, attr_key_or_dict, attr_value=None):
    """A copy with attributes set (TVM's PrimFunc.with_attr)."""
    attrs = (dict(attr_key_or_dict) if isinstance(attr_key_or_dict, dict)
             else {attr_key_or_dict: attr_value})
    if "global_symbol" in attrs and self.is_private:
        # As in TVM, a function given a global symbol is visible outside its
        # module: a private kernel of a model built on its own is exported.
        func = PrimFunc._of_native(self.name, self.mod._native.with_visibility(self.name, False),
                                   self.filename)
    else:
        func = copy.copy(self)
    extra = dict(getattr(self, "_extra_attrs", {}))
    for key, value in attrs.items():
        if key in COMPILER_FUNC_ATTRS:
            func = _with_compiler_attr(func, key, value)
        if key == "global_symbol":
            func._global_symbol = str(getattr(value, "value", value))
        else:
            extra[key] = value
    func._extra_attrs = extra
    return func


# The function attributes the compiler reads from the IR (T.func_attr's
# and with_attr's; the rest stay on the Python object): lists of parameter
# positions.
COMPILER_FUNC_ATTRS = ("layout_free_buffers",)


def _with_compiler_attr(func, key, value):
    """A copy of `func` whose IR carries attribute `key` (a list of
    parameter positions, as T.func_attr writes it)."""
    positions = [getattr(v, "value", v) for v in value]
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in positions):
        raise TypeError(f"PrimFunc {func.name}: {key} is a list of parameter positions, "
                        f"got {value!r}")
    count = len(func.params)
    if any(x < 0 or x >= count for x in positions):
        raise ValueError(f"PrimFunc {func.name}: {key} lists position(s) "
                         f"{[x for x in positions if x < 0 or x >= count]}, but the "
                         f"function has {count} parameters")
    native = type(func.mod._native).compose([(func.mod._native, func.name, func.name)])
    native.set_function_attr(func.name, key, positions)
    copied = PrimFunc._of_native(func.name, native, func.filename)
    copied.__dict__.update({k: v for k, v in func.__dict__.items()
                            if k not in ("_mod", "_text")})
    return copied


def _without_attr(self, attr_key):
    """A copy without the attribute `attr_key` (without "global_symbol",
    the function's global symbol is its name again)."""
    func = copy.copy(self)
    if attr_key in COMPILER_FUNC_ATTRS:
        func = _with_compiler_attr(func, attr_key, [])
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
        cached = self._signature_cache = ext.function_signature(
            self.mod._native, self.name, node_classes())
    return cached


def node_classes():
    """The node classes the extension builds nodes of, by TVM's names
    (python/extension/Nodes.cpp); made once."""
    global _CLASSES
    if _CLASSES is None:
        from ..ir.node import Range, Span
        from . import expr as E
        from . import stmt as S
        from .buffer import BufferRegion, MatchBufferRegion
        names = {}
        for module in (E, S):
            names.update({k: v for k, v in vars(module).items() if not k.startswith("_")})
        names.update(Buffer=Buffer, BufferRegion=BufferRegion,
                     MatchBufferRegion=MatchBufferRegion, Range=Range, Span=Span)
        _CLASSES = types.SimpleNamespace(**names)
    return _CLASSES


_CLASSES = None


def _nodes(self):
    """(params, buffer_map, body) as IR nodes, built once by the extension
    from the function's ops (regions inferred for every block). The same
    objects every time, so a visitor and a transform of `f.body` see the
    same nodes."""
    cached = self.__dict__.get("_node_cache")
    if cached is None:
        native = self.mod._native.run_passes("tir-infer-access-regions")
        try:
            params, buffer_map, body = ext.function_nodes(native, self.name, node_classes())
        except ValueError as e:
            raise ValueError(f"PrimFunc {self.name} has no form as IR nodes: {e}") from None
        cached = self._node_cache = (params, dict(buffer_map), body)
    return cached


def _params(self):
    """The parameters, as Vars named as in TVMScript (TVM's params)."""
    try:
        return list(_nodes(self)[0])
    except ValueError:
        return [var for var, _ in _signature(self)]


def _buffer_map(self):
    """Each buffer parameter's Buffer (TVM's buffer_map)."""
    try:
        return dict(_nodes(self)[1])
    except ValueError:
        return {var: buf for var, buf in _signature(self) if buf is not None}


def _body(self):
    """The body as IR nodes (TVM's PrimFunc.body): the root BlockRealize,
    whose block allocates the function's top-level buffers."""
    return _nodes(self)[2]


def from_nodes(params, body, buffer_map=None, name="main", private=False, attrs=None):
    """A PrimFunc of IR nodes, built into tir by the extension
    (python/extension/FromNodes.cpp) and checked by the verifier;
    ValueError names what is wrong."""
    buffer_map = dict(buffer_map or {})
    from .expr import Var
    for p in params:
        if not isinstance(p, Var):
            raise TypeError(f"PrimFunc {name}: params are tir.Vars (a buffer parameter is a "
                            f"handle Var mapped to its Buffer in buffer_map), got a "
                            f"{type(p).__name__}")
    for key, buf in buffer_map.items():
        if not any(key is p for p in params):
            raise ValueError(f"PrimFunc {name}: buffer_map key {key!r} is not one of the "
                             "params (Vars)")
        if not isinstance(buf, Buffer):
            raise TypeError(f"PrimFunc {name}: buffer_map maps params to tir.Buffers, got a "
                            f"{type(buf).__name__}")
    try:
        native = ext.function_from_nodes(name, list(params), buffer_map, body, bool(private))
    except ValueError as e:
        raise ValueError(f"PrimFunc {name}: {e}") from None
    func = PrimFunc._of_native(name, native, f"<PrimFunc {name}>")
    # Its nodes are read from tir when asked for, not kept from the caller:
    # regions inferred again show there, as they are in the IR.
    if attrs:
        func = _with_attr(func, dict(attrs))
    return func


def _with_body(self, new_body, span=None):
    """This function with another body (TVM's with_body): the same
    parameters and buffers."""
    params, buffer_map, _ = _nodes(self)
    func = from_nodes(params, new_body, buffer_map, self.name, self.is_private)
    func._extra_attrs = dict(getattr(self, "_extra_attrs", {}))
    func._global_symbol = getattr(self, "_global_symbol", None)
    func._symbol_from_key = getattr(self, "_symbol_from_key", False)
    return func


class PrimFunc:
    """A tir function: function `name` of a native module (`mod`)."""

    def __init__(self, params, body, ret_type=None, buffer_map=None, attrs=None, span=None):
        """PrimFunc(params, body, ret_type, buffer_map, attrs) as TVM builds
        one from IR nodes (named by attrs["global_symbol"], else "main")."""
        attrs = dict(attrs or {})
        symbol = attrs.get("global_symbol")
        if buffer_map is None and isinstance(ret_type, dict):
            buffer_map, ret_type = ret_type, None  # PrimFunc(params, body, buffer_map)
        self.__dict__.update(from_nodes(list(params), body, buffer_map,
                                        str(getattr(symbol, "value", symbol or "main")),
                                        attrs=attrs).__dict__)
        # Without a global symbol, the module holding it names it by its
        # key (TVM's GlobalVar); "main" on its own.
        self._symbol_from_key = symbol is None

    @classmethod
    def _of_native(cls, name, native, filename="<module>"):
        """Function `name` of a native module that holds only it."""
        func = cls.__new__(cls)
        func.name, func.filename, func._text = name, filename, None
        func._mod = IRModule(native)
        return func

    @property
    def text(self):
        """The function's MLIR text."""
        if self._text is None:
            self._text = split_functions(self._mod.mlir())[self.name]
        return self._text

    @property
    def mod(self):
        return self._mod

    def with_name(self, name):
        """This function named `name` (a copy)."""
        return PrimFunc._of_native(
            name, type(self.mod._native).compose([(self.mod._native, self.name, name)]),
            self.filename)

    @property
    def is_private(self):
        """@T.prim_func(private=True): a function of its module only (a graph
        function calls it); a built library does not export it."""
        return self.mod._native.is_private(self.name)

    def as_private(self):
        """This function, private."""
        if self.is_private:
            return self
        return PrimFunc._of_native(self.name,
                                   self.mod._native.with_visibility(self.name, True),
                                   self.filename)

    def script(self, *args, **kwargs):
        """The function as TVMScript (one @T.prim_func; an IRModule prints
        an @I.ir_module class). TVM's printing options are ignored."""
        return self.mod._native.tvmscript()

    def show(self, *args, **kwargs):
        print(self.script())

    def __str__(self):
        return self.script()

    # TVM's PrimFunc surface over the native function.
    attrs = property(_attrs)
    with_attr = _with_attr
    without_attr = _without_attr
    same_as = _same_as
    __repr__ = _repr
    params = property(_params)
    buffer_map = property(_buffer_map)
    body = property(_body)
    with_body = _with_body


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
            ext.register_tensor_intrin(name, desc.mod._native, desc.name,
                                       impl.mod._native, impl.name, True)

    @staticmethod
    def get(name, allow_missing=False):
        """The intrinsic registered as `name`; None if there is none and
        allow_missing, else ValueError."""
        intrin = TensorIntrin._registry.get(name)
        if intrin is None and not allow_missing:
            raise ValueError(f"TensorIntrin '{name}' is not registered")
        return intrin
