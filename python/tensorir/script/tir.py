"""The `T` namespace of TVMScript.

Inside a @T.prim_func nothing here runs: the parser reads the function's
source. What is here makes the annotations and decorators evaluate when
Python defines the function.
"""
import ast

from ..ir import IRModule
from .parser import (ScriptError, function_source, parse_function,
                     parse_module_text, python_env)


class PrimFunc:
    """A tir function written in TVMScript."""

    def __init__(self, name, text, filename):
        self.name, self.text, self.filename = name, text, filename
        self._mod = None

    @property
    def mod(self):
        if self._mod is None:
            self._mod = IRModule.from_mlir(parse_module_text([self.text]),
                                           self.filename)
        return self._mod

    def with_name(self, name):
        text = self.text.replace(f"func.func @{self.name}(", f"func.func @{name}(", 1)
        return PrimFunc(name, text, self.filename)

    def script(self):
        return self.mod.script()

    def show(self):
        self.mod.show()

    def __str__(self):
        return self.script()


def _parse(fn):
    source, filename, offset = function_source(fn)
    tree = ast.parse(source)
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise ScriptError(f"{filename}:{offset + 1}: error: @T.prim_func "
                          "decorates a function")
    text = parse_function(node, source, filename, offset, python_env(fn))
    func = PrimFunc(node.name, text, filename)
    func.mod  # parse and verify now, so errors come at definition
    return func


def prim_func(fn=None, *, private=False, check_well_formed=True):
    """@T.prim_func: parses the decorated function as TVMScript."""
    if fn is None:
        return lambda f: _parse(f)
    return _parse(fn)


class _BufferType:
    def __init__(self, shape=None, dtype="float32", **kwargs):
        self.shape, self.dtype = shape, dtype


class _BufferMeta(type):
    def __getitem__(cls, item):
        return _BufferType(*item) if isinstance(item, tuple) else _BufferType(item)


class Buffer(metaclass=_BufferMeta):
    """T.Buffer((m, n), "float32") in parameter annotations."""

    def __new__(cls, shape=None, dtype="float32", *args, **kwargs):
        return _BufferType(shape, dtype)


class handle:  # noqa: N801 - TVMScript's spelling
    """T.handle parameters (with T.match_buffer in the body)."""


def _scalar(name):
    def make(value=None):
        # Outside a function body (in a parameter annotation such as
        # T.Buffer((T.int64(16),))), a typed constant is its number.
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        raise ScriptError(f"T.{name}(...) is only meaningful inside a @T.prim_func")
    make.__name__ = name
    return make


int8, int16, int32, int64 = (_scalar(n) for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (_scalar(n) for n in ("uint8", "uint16", "uint32", "uint64"))
float16, float32, float64 = (_scalar(n) for n in ("float16", "float32", "float64"))
bfloat16 = _scalar("bfloat16")
boolean = _scalar("bool")


def _only_in_script(name):
    def stub(*args, **kwargs):
        raise ScriptError(f"T.{name} is only meaningful inside a @T.prim_func")
    stub.__name__ = name
    return stub


for _name in ("grid", "serial", "parallel", "vectorized", "unroll",
              "thread_binding", "block", "init", "where", "reads", "writes",
              "alloc_buffer", "match_buffer", "block_attr", "func_attr",
              "max", "min", "exp", "sqrt", "log", "tanh", "if_then_else",
              "floordiv", "floormod", "Cast", "evaluate", "min_value",
              "max_value"):
    globals()[_name] = _only_in_script(_name)


class axis:  # noqa: N801 - TVMScript's spelling
    spatial = S = reduce = R = scan = opaque = remap = staticmethod(
        _only_in_script("axis"))
