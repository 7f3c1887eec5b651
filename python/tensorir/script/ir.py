"""The `I` namespace of TVMScript: @I.ir_module classes, I.module_attrs."""
import sys

from ..ir import IRModule
from .tir import PrimFunc

_ATTRS_KEY = "__tir_module_attrs__"


def module_attrs(attrs):
    """I.module_attrs({...}) in an @I.ir_module class body: the module's
    attributes (IRModule.attrs)."""
    if not isinstance(attrs, dict):
        raise TypeError(f"I.module_attrs takes a dict, got {type(attrs).__name__}")
    namespace = sys._getframe(1).f_locals
    if "__qualname__" not in namespace:
        raise SyntaxError("I.module_attrs is written in an @I.ir_module class body")
    namespace[_ATTRS_KEY] = dict(attrs)


def ir_module(cls):
    """@I.ir_module: a class whose @T.prim_func and @R.function methods form
    one module."""
    from ..relax.function import Function
    from .relax_module import _TE_FUNCS_KEY, DeferredFunction
    from .relax_parser import UnknownCallee
    funcs = {name: v for name, v in vars(cls).items()
             if isinstance(v, (PrimFunc, Function, DeferredFunction))}
    if not funcs:
        raise ValueError(f"@I.ir_module class {cls.__name__} has no @T.prim_func or "
                         "@R.function")
    # Functions calling ones defined after them, parsed once those are
    # known (in turn, as the calls chain).
    deferred = [name for name, v in funcs.items() if isinstance(v, DeferredFunction)]
    while deferred:
        known = {name: v.ret_struct_info for name, v in funcs.items()
                 if isinstance(v, Function) and v.ret_struct_info is not None}
        left, error = [], None
        for name in deferred:
            try:
                funcs[name] = funcs[name].resolve(known)
            except UnknownCallee as e:
                left.append(name)
                error = error or e
        if len(left) == len(deferred):
            raise error  # the calls go round, or name no function of the module
        deferred = left
    # The prim_funcs the graph functions' R.emit_te calls made.
    te_funcs = vars(cls).get(_TE_FUNCS_KEY)
    for name, prim in (te_funcs.funcs.items() if te_funcs is not None else ()):
        if name in funcs:
            raise ValueError(f"@I.ir_module class {cls.__name__}: R.emit_te made a prim_func "
                             f"'{name}', which the class defines too; give the te "
                             "function another name (primfunc_name_hint=...)")
        funcs[name] = prim
    return IRModule(funcs, vars(cls).get(_ATTRS_KEY))
