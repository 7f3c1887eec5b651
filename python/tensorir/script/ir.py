"""The `I` namespace of TVMScript: @I.ir_module classes."""
from ..ir import IRModule
from .tir import PrimFunc


def ir_module(cls):
    """@I.ir_module: a class whose @T.prim_func and @R.function methods form
    one module."""
    from ..relax.function import Function
    funcs = {name: v for name, v in vars(cls).items() if isinstance(v, (PrimFunc, Function))}
    if not funcs:
        raise ValueError(f"@I.ir_module class {cls.__name__} has no @T.prim_func or "
                         "@R.function")
    return IRModule(funcs)
