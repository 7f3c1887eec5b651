"""tvm.tir.analysis: questions about the IR's Python objects.

expr_deep_equal compares two expressions field by field (the same Var
objects, equal constants); undefined_vars lists the Vars a statement or
expression uses without defining them; verify_well_formed checks a
PrimFunc by building it from its nodes (the verifier's verdict).
"""
from ..ir.node import Node
from . import expr as E
from . import stmt as S
from .functor import children

__all__ = ["expr_deep_equal", "undefined_vars", "verify_well_formed"]


def expr_deep_equal(lhs, rhs):
    """Whether two expressions are the same tree: the same node types and
    fields, Vars and Buffers the same objects."""
    if lhs is rhs:
        return True
    if isinstance(lhs, E.IntImm) or isinstance(lhs, E.FloatImm):
        return type(lhs) is type(rhs) and lhs.dtype == rhs.dtype and lhs.value == rhs.value
    if not isinstance(lhs, Node) or type(lhs) is not type(rhs) or isinstance(lhs, E.Var):
        return False
    for (name, a), (_, b) in zip(lhs.fields(), rhs.fields()):
        if isinstance(a, list):
            if len(a) != len(b) or not all(expr_deep_equal(x, y) for x, y in zip(a, b)):
                return False
        elif isinstance(a, Node):
            if not expr_deep_equal(a, b):
                return False
        elif a != b:
            return False
    return True


def undefined_vars(node, defs=None):
    """The Vars `node` uses that neither it (loops, blocks' iteration
    variables, LetStmt / Let, AllocateConst's data) nor `defs` defines, in
    order of first use."""
    defined = {id(v) for v in (defs or [])}
    found, seen = [], set()

    def walk(n):
        if isinstance(n, E.Var):
            if id(n) not in defined and id(n) not in seen:
                seen.add(id(n))
                found.append(n)
            return
        if isinstance(n, S.For):
            defined.add(id(n.loop_var))
        elif isinstance(n, S.AllocateConst):
            defined.add(id(n.buffer_var))
        elif isinstance(n, S.Block):
            defined.update(id(iv.var) for iv in n.iter_vars)
        elif isinstance(n, (S.LetStmt, E.Let)):
            walk(n.value)
            defined.add(id(n.var))
            walk(n.body)
            return
        for c in children(n):
            walk(c)

    walk(node)
    return found


def verify_well_formed(func, assert_mode=True):
    """Whether the PrimFunc `func` is well formed: its nodes build into tir
    that passes tir's verifier. assert_mode: raise (ValueError with the
    reason) instead of returning False."""
    from .function import from_nodes
    try:
        from_nodes(func.params, func.body, func.buffer_map, func.name)
    except (ValueError, TypeError) as e:
        if assert_mode:
            raise ValueError(f"PrimFunc {func.name} is not well formed: {e}") from None
        return False
    return True
