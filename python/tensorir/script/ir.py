"""The `I` namespace of TVMScript: @I.ir_module classes."""
from ..ir import IRModule
from .parser import parse_module_text
from .tir import PrimFunc


def ir_module(cls):
    """@I.ir_module: a class whose @T.prim_func methods form one module."""
    funcs = [v for v in vars(cls).values() if isinstance(v, PrimFunc)]
    if not funcs:
        raise ValueError(f"@I.ir_module class {cls.__name__} has no @T.prim_func")
    text = parse_module_text([f.text for f in funcs])
    return IRModule.from_mlir(text, funcs[0].filename)
