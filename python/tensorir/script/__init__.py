"""TVMScript: `from tensorir.script import tir as T` (and `ir as I`)."""
import ast as _ast

from . import ir, tir
from .parser import ScriptError, parse_function, parse_module_text

__all__ = ["ir", "tir", "ScriptError", "from_source", "ir_module"]

ir_module = ir.ir_module  # @tvm.script.ir_module


def from_source(text, filename="<tvmscript>"):
    """Parses TVMScript text (as mod.script() or func.script() prints it),
    as TVM's from_source: one @T.prim_func at the top level gives that
    PrimFunc; otherwise every function decorated with @T.prim_func, at the
    top level or in an @I.ir_module class, goes into one IRModule."""
    from ..ir import IRModule
    tree = _ast.parse(text, filename)
    functions = []

    def is_prim_func(node):
        return any(_ast.unparse(d).startswith("T.prim_func") for d in node.decorator_list)

    for node in tree.body:
        if isinstance(node, _ast.FunctionDef) and is_prim_func(node):
            functions.append(node)
        elif isinstance(node, _ast.ClassDef):
            functions.extend(n for n in node.body
                             if isinstance(n, _ast.FunctionDef) and is_prim_func(n))
    if not functions:
        raise ScriptError(f"{filename}: no @T.prim_func in the text")
    texts = [parse_function(f, text, filename, 0) for f in functions]
    mod = IRModule.from_mlir(parse_module_text(texts), filename)
    single = len(functions) == 1 and functions[0] in tree.body
    return mod[functions[0].name] if single else mod
