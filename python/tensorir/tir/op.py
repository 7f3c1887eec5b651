"""tvm.tir.op: the functions TVM's users build expressions with, outside
TVMScript (te computes, topi): if_then_else, all / any, the math calls
(exp, sqrt, ...) and indexdiv / indexmod.

They build the nodes TVMScript's T.<name> builds, and fold constants as
TVM's operators do (`all(True, c)` is `c`, `if_then_else(True, a, b)` is
`a`).
"""
from . import expr as E

__all__ = ["if_then_else", "all", "any", "exp", "sqrt", "log", "tanh", "rsqrt", "floor", "ceil",
           "round", "abs", "sin", "cos", "erf", "exp2", "log2", "indexdiv", "indexmod"]


def _is_const_bool(value):
    return isinstance(value, E.IntImm) and value.dtype == "bool"


def if_then_else(cond, t, f, span=None):
    """`t` where `cond` holds, else `f`; only the chosen side is evaluated
    (a call of tir.if_then_else, unlike tir.Select). A constant condition
    picks its side at once."""
    cond = E.convert(cond)
    if cond.dtype != "bool":
        raise TypeError(f"tir.if_then_else takes a boolean condition, got {cond.dtype}")
    t, f = E.convert(t), E.convert(f)
    t, f = E.unify_dtypes(t, f, "if_then_else")
    if isinstance(cond, E.IntImm):
        return t if cond.value else f
    return E.Call(t.dtype, "tir.if_then_else", [cond, t, f], span)


def _fold_logical(conds, cls, name):
    if not conds:
        raise ValueError(f"tir.{name} takes at least one condition")
    absorbing = cls is E.Or  # True absorbs `or`, False absorbs `and`
    out = E.convert(conds[0])
    for cond in conds[1:]:
        cond = E.convert(cond)
        if _is_const_bool(out):
            out = out if bool(out.value) == absorbing else cond
        elif _is_const_bool(cond):
            out = cond if bool(cond.value) == absorbing else out
        else:
            out = cls(out, cond)
    return out


def all(*conds, span=None):  # noqa: A001 - TVM's name
    """The conjunction of the conditions, nested to the left
    ((a and b) and c), as TVMScript reads `a and b and c`."""
    return _fold_logical(conds, E.And, "all")


def any(*conds, span=None):  # noqa: A001 - TVM's name
    """The disjunction of the conditions, nested to the left."""
    return _fold_logical(conds, E.Or, "any")


def _math(name):
    def call(x, span=None):
        x = E.convert(x)
        if isinstance(x, E.IntImm):  # T.exp(1) is the float's
            x = E.FloatImm("float32", x.value)
        if x.dtype.split("x")[0] not in E.FLOAT_DTYPES:
            raise TypeError(f"tir.{name} takes a floating-point value, got {x.dtype}")
        return E.Call(x.dtype, "tir." + name, [x], span)
    call.__name__ = name
    call.__doc__ = f"T.{name}(x): a call of tir.{name}."
    return call


# The one-argument math calls T.<name> writes (a tir.Call of "tir.<name>").
exp, exp2, log, log2 = _math("exp"), _math("exp2"), _math("log"), _math("log2")
sqrt, rsqrt, tanh, erf = _math("sqrt"), _math("rsqrt"), _math("tanh"), _math("erf")
sin, cos = _math("sin"), _math("cos")
floor, ceil, round, abs = _math("floor"), _math("ceil"), _math("round"), _math("abs")  # noqa: A001


def indexdiv(a, b, span=None):
    """a // b of indices (floor division, TVM's te.indexdiv)."""
    return E.floordiv(a, b)


def indexmod(a, b, span=None):
    """a % b of indices (floor modulo, TVM's te.indexmod)."""
    return E.floormod(a, b)
