"""The `T` namespace of TVMScript.

Inside a @T.prim_func nothing here runs: the parser reads the function's
source. What is here makes the annotations and decorators evaluate when
Python defines the function.
"""
import ast
import builtins

from ..tir import expr as _E
from ..tir.function import PrimFunc
from .values import DeferredScriptError
from .parser import ScriptError, parse_function
from .source import function_source, python_env


def _parse(fn, private=False):
    if not callable(fn) or not hasattr(fn, "__code__"):
        raise ScriptError(f"@T.prim_func decorates a Python function, got "
                          f"{type(fn).__name__}")
    try:
        source, filename, offset = function_source(fn)
    except OSError as e:
        code = fn.__code__
        raise ScriptError(f"{code.co_filename}:{code.co_firstlineno}: error: @T.prim_func "
                          f"needs the source of '{fn.__name__}' ({e}); a function made by "
                          "exec or typed at the interactive prompt has none: parse its text "
                          "with tensorir.script.from_source") from None
    tree = ast.parse(source)
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise ScriptError(f"{filename}:{offset + 1}: error: @T.prim_func "
                          "decorates a function")
    native = parse_function(node, source, filename, offset, python_env(fn), private)
    return PrimFunc._of_native(node.name, native, filename)


def prim_func(fn=None, *, private=False, check_well_formed=True):
    """@T.prim_func: parses the decorated function as TVMScript. With
    check_well_formed=False a function the parser refuses (an unbound
    variable, say) is an error at its first use instead of at definition.
    private=True: a function of its module only (not exported by build)."""
    def parse(f):
        if check_well_formed:
            return _parse(f, private)
        try:
            return _parse(f, private)
        except ScriptError as e:
            return DeferredScriptError(f"'{getattr(f, '__name__', 'prim_func')}'", e)
    return parse if fn is None else parse(fn)


class _BufferType:
    """What T.Buffer(...) / T.decl_buffer(...) evaluate to outside a
    function body: the declaration, read by the parser (options such as
    data= are kept in kwargs)."""

    def __init__(self, shape=None, dtype="float32", **kwargs):
        self.shape, self.dtype, self.kwargs = shape, dtype, kwargs


class _BufferMeta(type):
    def __getitem__(cls, item):
        return _BufferType(*item) if isinstance(item, tuple) else _BufferType(item)


class Buffer(metaclass=_BufferMeta):
    """T.Buffer((m, n), "float32") in parameter annotations."""

    def __new__(cls, shape=None, dtype="float32", *args, **kwargs):
        return _BufferType(shape, dtype, **kwargs)


def decl_buffer(shape=None, dtype="float32", **kwargs):
    """T.decl_buffer(shape, dtype, data=...): a buffer declaration, for a
    Python helper that a function body calls."""
    return _BufferType(shape, dtype, **kwargs)


class handle:  # noqa: N801 - TVMScript's spelling
    """T.handle parameters (with T.match_buffer in the body)."""


def _assigned_name(depth=2):
    """The variable the calling line assigns to (`n = T.int64()`), or None."""
    import inspect
    frame = inspect.currentframe()
    try:
        for _ in range(depth):
            frame = frame.f_back
        info = inspect.getframeinfo(frame, context=1)
        line = (info.code_context or [""])[0]
        target = line.split("=", 1)[0].strip() if "=" in line else ""
        return target if target.isidentifier() else None
    finally:
        del frame


def _scalar(name):
    def make(value=None):
        # Outside a function body (in a parameter annotation such as
        # T.Buffer((T.int64(16),))), a typed constant is its number.
        if isinstance(value, (int, float)) and not isinstance(value, builtins.bool):
            return value
        # `n = T.int64()` outside a function: a variable (a shape variable of
        # relax's struct infos), named after what it is assigned to.
        if value is None and name.startswith(("int", "uint")):
            return _E.Var(_assigned_name() or "v", name)
        raise ScriptError(f"T.{name}(...) is only meaningful inside a @T.prim_func")
    make.__name__ = name
    return make


int8, int16, int32, int64 = (_scalar(n) for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (_scalar(n) for n in ("uint8", "uint16", "uint32", "uint64"))
float16, float32, float64 = (_scalar(n) for n in ("float16", "float32", "float64"))
bfloat16 = _scalar("bfloat16")
float8_e4m3fn = _scalar("float8_e4m3fn")
float8_e5m2 = _scalar("float8_e5m2")
boolean = _scalar("bool")


def _bool(value=None):
    """T.bool(x) outside a function: a bool IntImm (an annotation's value)."""
    if isinstance(value, (builtins.bool, int)):
        return _E.IntImm("bool", builtins.bool(value))
    raise ScriptError("T.bool(...) takes True or False outside a @T.prim_func")


globals()["bool"] = _bool


def _only_in_script(name):
    def stub(*args, **kwargs):
        raise ScriptError(f"T.{name} is only meaningful inside a @T.prim_func")
    stub.__name__ = name
    return stub


for _name in ("grid", "serial", "parallel", "vectorized", "unroll",
              "thread_binding", "block", "init", "where", "reads", "writes",
              "alloc_buffer", "match_buffer", "block_attr", "func_attr",
              "exp", "sqrt", "log", "tanh", "if_then_else", "rsqrt",
              "Cast", "evaluate", "min_value", "max_value", "allocate_const",
              "call_extern", "shift_left", "shift_right", "bitwise_and",
              "bitwise_or", "q_multiply_shift", "launch_thread", "env_thread"):
    globals()[_name] = _only_in_script(_name)


# Outside a function, integer arithmetic on symbolic values builds
# expressions (tvm.tir nodes) that a function can then use.
def vscale():
    """T.vscale(): the scalable-vector multiple (a call of tir.vscale)."""
    return _E.Call("int32", "tir.vscale", [])


def _symbolic(op):
    def make(a, b):
        if op == "ceildiv":
            return _E.ceildiv(a, b)
        cls = {"floordiv": _E.FloorDiv, "floormod": _E.FloorMod, "min": _E.Min,
               "max": _E.Max}[op]
        return _E.make_binary(cls, a, b)
    make.__name__ = op
    make.__doc__ = f"T.{op}(a, b) outside a function: an IntImm or a PrimExpr"
    return make


floordiv, floormod, ceildiv = _symbolic("floordiv"), _symbolic("floormod"), _symbolic("ceildiv")
min, max = _symbolic("min"), _symbolic("max")  # noqa: A001 - TVMScript's names


class axis:  # noqa: N801 - TVMScript's spelling
    spatial = S = reduce = R = scan = opaque = remap = staticmethod(
        _only_in_script("axis"))
