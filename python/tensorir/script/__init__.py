"""TVMScript: `from tensorir.script import tir as T` (and `ir as I`,
`relax as R`)."""
import ast as _ast

from .._ext import ext
from . import ir, relax, tir
from .parser import ScriptError, parse_function

__all__ = ["ir", "relax", "tir", "ScriptError", "from_source", "ir_module"]

ir_module = ir.ir_module  # @tvm.script.ir_module


def from_source(text, filename="<tvmscript>"):
    """Parses TVMScript text (as mod.script() or func.script() prints it),
    as TVM's from_source: one @T.prim_func at the top level gives that
    PrimFunc; otherwise every function decorated with @T.prim_func, at the
    top level or in an @I.ir_module class, goes into one IRModule."""
    from ..ir import IRModule
    from .relax_module import parse_graph_function
    tree = _ast.parse(text, filename)
    functions = []

    def decorated(node, prefix):
        return any(_ast.unparse(d).startswith(prefix) for d in node.decorator_list)

    def is_function(node):
        return isinstance(node, _ast.FunctionDef) and (
            decorated(node, "T.prim_func") or decorated(node, "R.function"))

    # The module's tensor constants: `metadata = {...}` after the module
    # (what script(show_meta=True) prints).
    metadata = None
    for node in tree.body:
        if isinstance(node, _ast.FunctionDef) and is_function(node):
            functions.append(node)
        elif isinstance(node, _ast.ClassDef):
            functions.extend(n for n in node.body if is_function(n))
        elif isinstance(node, _ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], _ast.Name) and node.targets[0].id == "metadata":
            try:
                metadata = _ast.literal_eval(node.value)
            except ValueError:
                raise ScriptError(f"{filename}:{node.lineno}: error: metadata is a literal "
                                  "dict (as script(show_meta=True) prints it)") from None
    if not functions:
        raise ScriptError(f"{filename}: no @T.prim_func or @R.function in the text")
    # Each function is built natively; the module holds them in the text's
    # order.
    natives = {}
    for f in functions:
        if decorated(f, "R.function"):
            natives[f.name] = parse_graph_function(f, text, filename, 0,
                                                   metadata=metadata)._native
        else:
            private = any(_ast.unparse(d).replace(" ", "").endswith("private=True)")
                          for d in f.decorator_list)
            natives[f.name] = parse_function(f, text, filename, 0, private=private)
    native = ext.Module.compose([(natives[f.name], f.name, f.name) for f in functions])
    native.verify()
    mod = IRModule(native)
    single = len(functions) == 1 and functions[0] in tree.body
    return mod[functions[0].name] if single else mod
