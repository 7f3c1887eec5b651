"""@R.function texts as relax Functions, and the functions of one
@I.ir_module class together: the decorator, the functions parsed once the
module knows their callees (DeferredFunction), the prim_funcs R.emit_te
makes (TeFunctions, shared by the module's functions), the metadata
constants of printed text, and a function's body read back from its
TVMScript (function_body)."""
import ast

import numpy as np

from ..relax.function import Function
from ..relax.struct_info import TENSOR_DTYPES
from .source import function_source, python_env
from .relax_parser import GraphParser, UnknownCallee
from .values import ScriptError


def metadata_constants(metadata):
    """The numpy arrays of `metadata["relax.expr.Constant"]`: entries are
    arrays, or (dtype, shape, data) with data a number (a splat) or the
    elements' little-endian bytes in hex, as mod.script(show_meta=True)
    prints them."""
    if metadata is None:
        return None
    entries = metadata.get("relax.expr.Constant", []) if isinstance(metadata, dict) else None
    if entries is None:
        raise ScriptError("metadata is a dict {\"relax.expr.Constant\": [...]}")
    arrays = []
    for k, entry in enumerate(entries):
        if isinstance(entry, np.ndarray):
            arrays.append(entry)
            continue
        try:
            dtype, shape, data = entry
        except (TypeError, ValueError):
            raise ScriptError(f"metadata constant {k}: expected (dtype, shape, data)") from None
        if dtype not in TENSOR_DTYPES:
            raise ScriptError(f"metadata constant {k}: unsupported dtype {dtype!r}")
        shape = tuple(int(d) for d in shape)
        if isinstance(data, str):
            raw = bytes.fromhex(data[2:] if data.startswith("0x") else data)
            np_dtype = np.dtype("bool" if dtype == "bool" else dtype).newbyteorder("<")
            count = int(np.prod(shape, dtype=np.int64))
            if len(raw) != count * np_dtype.itemsize:
                raise ScriptError(f"metadata constant {k}: {len(raw)} bytes of data for "
                                  f"{count} elements of {dtype}")
            array = np.frombuffer(raw, dtype=np_dtype).astype(np_dtype.newbyteorder("="))
            arrays.append(array.reshape(shape))
        else:
            arrays.append(np.full(shape, data, dtype=dtype))
    return arrays


def is_private(node):
    for d in node.decorator_list:
        if isinstance(d, ast.Call):
            for k in d.keywords:
                if k.arg == "private" and isinstance(k.value, ast.Constant):
                    return bool(k.value.value)
    return False


class TeFunctions:
    """The prim_funcs R.emit_te makes in a module's graph functions, by
    name: one made twice is kept once, and a new one takes the te
    function's name, or name1, name2, ... when taken (BlockBuilder's
    naming)."""

    def __init__(self, taken=()):
        self.funcs = {}
        self.taken = set(taken)

    def add(self, prim, name_hint):
        from ..ir.base import structural_equal
        from ..relax.expr import GlobalVar
        prim = prim.as_private()
        for name, existing in self.funcs.items():
            if structural_equal(existing, prim):
                return GlobalVar(name)
        name, k = name_hint, 0
        while name in self.funcs or name in self.taken:
            k += 1
            name = f"{name_hint}{k}"
        self.funcs[name] = prim.with_name(name) if prim.name != name else prim
        return GlobalVar(name)


class DeferredFunction:
    """An @R.function of an @I.ir_module class that calls a function
    defined after it: parsed when the module is (resolve)."""

    def __init__(self, node, source, filename, offset, env, private, error, te_funcs=None):
        self.node, self.source, self.filename = node, source, filename
        self.offset, self.env, self.private = offset, env, private
        self.error, self.te_funcs = error, te_funcs

    def resolve(self, callees):
        return parse_graph_function(self.node, self.source, self.filename, self.offset,
                                    self.env, self.env.get("metadata"), self.private, callees,
                                    self.te_funcs)

    # Used as a function outside an @I.ir_module class: the call's error.
    def __getattr__(self, name):
        raise self.error

    def __call__(self, *args, **kwargs):
        raise self.error


def parse_graph_function(node, source, filename, line_offset, env=None, metadata=None,
                         private=None, callees=None, te_funcs=None):
    """The @R.function `node` as a relax Function (private when its decorator
    or `private` says so); `callees`: what the module's other graph
    functions return, by name; `te_funcs`: the module's TeFunctions (a
    function by itself has its own). The prim_funcs its R.emit_te calls
    made are its `te_funcs`, which a module made of it takes."""
    constants = metadata_constants(metadata)
    if te_funcs is None:
        te_funcs = TeFunctions()
    parser = GraphParser(node, source, filename, line_offset, env, constants, callees,
                         te_funcs)
    native = parser.parse(is_private(node) if private is None else private)
    func = Function(node.name, native, filename, parser.output_info)
    func.te_funcs = te_funcs.funcs
    return func


_TE_FUNCS_KEY = "__tir_te_funcs__"


def _class_body():
    """The namespace of the class body being executed (an @I.ir_module's),
    from the caller's frames, or None."""
    import sys
    frame = sys._getframe(2)
    for _ in range(4):
        if frame is None:
            break
        names = frame.f_locals
        if "__qualname__" in names and "__module__" in names:
            return names
        frame = frame.f_back
    return None


def _class_body_functions(names):
    """The graph functions defined so far in class body `names`, by name."""
    return {k: v.ret_struct_info for k, v in names.items()
            if isinstance(v, Function) and v.ret_struct_info is not None}


def module_te_funcs(names):
    """The TeFunctions of class body `names` (made on first use)."""
    if _TE_FUNCS_KEY not in names:
        names[_TE_FUNCS_KEY] = TeFunctions()
    registry = names[_TE_FUNCS_KEY]
    registry.taken.update(k for k in names if not k.startswith("__"))
    return registry


def parse_decorated(fn, private=False):
    if not callable(fn) or not hasattr(fn, "__code__"):
        raise ScriptError(f"@R.function decorates a Python function, got {type(fn).__name__}")
    source, filename, offset = function_source(fn)
    node = ast.parse(source).body[0]
    env = python_env(fn)
    body = _class_body()
    known = _class_body_functions(body) if body is not None else None
    te_funcs = module_te_funcs(body) if body is not None else None
    private = private or is_private(node)
    try:
        return parse_graph_function(node, source, filename, offset, env, env.get("metadata"),
                                    private, known, te_funcs)
    except UnknownCallee as error:
        if known is None:  # not in a module's class: nothing defines it later
            raise
        return DeferredFunction(node, source, filename, offset, env, private, error,
                                te_funcs)


def function_body(func):
    """(parameters, [(var, expr)], output, attributes) of the relax Function
    `func`: its bindings as relax expressions (Calls of the operators, of
    call_tir and call_dps_packed), read back from its TVMScript."""
    text = func._native.tvmscript(as_module=False, show_meta=True)
    tree = ast.parse(text)
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    metadata = None
    for n in tree.body:
        if (isinstance(n, ast.Assign) and len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name) and n.targets[0].id == "metadata"):
            metadata = ast.literal_eval(n.value)
    parser = GraphParser(node, text, f"<{func.name}>", 0, {}, metadata_constants(metadata))
    params, output = parser.parse_body()
    return params, [(var, expr) for var, expr, _ in parser.bindings], output, \
        dict(parser.func_attrs)
