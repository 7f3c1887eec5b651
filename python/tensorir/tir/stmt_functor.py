"""tvm.tir.stmt_functor: walking and rewriting the IR with callbacks.

- post_order_visit(node, fvisit): fvisit on every statement and
  expression, children first; a node reached twice is visited once.
- pre_order_visit(node, fvisit): parents first; fvisit returning False
  skips the node's children.
- ir_transform(node, preorder, postorder, only_enable=None): rebuilds the
  tree. For each node (of the types named in only_enable, TVM's type keys
  such as "tir.For", when given), preorder(node) runs first; a result other
  than None replaces the node, and neither its children nor postorder are
  visited. Otherwise the children are transformed, then postorder(new
  node) may replace it (None keeps it).
- substitute(node, vmap): every use of a Var in vmap (a dict, or a function
  of the Var returning None to keep it) replaced by its value.
"""
from ..ir.node import Node
from . import expr as E
from . import stmt as S
from .functor import TYPE_KEYS, _fields_of, children, rebuild

__all__ = ["post_order_visit", "pre_order_visit", "ir_transform", "substitute"]


def _check_root(node, what):
    if not isinstance(node, Node):
        raise TypeError(f"{what} takes a tir statement or expression, got "
                        f"{type(node).__name__}")


def _deep_recursion(fn):
    """Runs fn with room for deep trees (a recursive walk is several times
    faster than an explicit stack in Python)."""
    import sys
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        return fn()
    finally:
        sys.setrecursionlimit(limit)


def post_order_visit(stmt, fvisit):
    """fvisit(node) for every statement and expression under `stmt`
    (itself included), children before parents."""
    _check_root(stmt, "post_order_visit")
    seen = set()
    fields_of = _fields_of
    callable_kind = {}

    def visit(node):
        key = id(node)
        if key in seen:
            return
        seen.add(key)
        for name in fields_of(node):
            value = getattr(node, name)
            if value.__class__ is list:
                for v in value:
                    visit(v)
            elif value is not None:
                visit(value)
        cls = node.__class__
        kind = callable_kind.get(cls)
        if kind is None:
            kind = callable_kind[cls] = issubclass(cls, (S.Stmt, E.PrimExpr))
        if kind:
            fvisit(node)

    _deep_recursion(lambda: visit(stmt))


def pre_order_visit(stmt, fvisit):
    """fvisit(node) for every statement and expression under `stmt`,
    parents first; when it returns False, the node's children are skipped."""
    _check_root(stmt, "pre_order_visit")
    seen = set()
    stack = [stmt]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, (S.Stmt, E.PrimExpr)) and fvisit(node) is False:
            continue
        stack.extend(reversed(children(node)))


def _check_result(before, after, callback):
    if after is None:
        return before
    if isinstance(before, S.Stmt) and not isinstance(after, S.Stmt):
        raise TypeError(f"ir_transform: {callback} returned a {type(after).__name__} for a "
                        f"{type(before).__name__}; a statement is replaced by a statement "
                        "(or None to keep it)")
    if isinstance(before, E.PrimExpr) and not isinstance(after, E.PrimExpr):
        raise TypeError(f"ir_transform: {callback} returned a {type(after).__name__} for a "
                        f"{type(before).__name__}; an expression is replaced by an "
                        "expression (or None to keep it)")
    return after


def ir_transform(stmt, preorder, postorder, only_enable=None):
    """The tree under `stmt` rebuilt through preorder / postorder (see the
    module's documentation)."""
    _check_root(stmt, "ir_transform")
    enabled = None
    if only_enable is not None:
        keys = [only_enable] if isinstance(only_enable, str) else list(only_enable)
        unknown = [k for k in keys if str(k) not in TYPE_KEYS]
        if unknown:
            raise ValueError(f"ir_transform: unknown node type {unknown[0]!r} in "
                             f"only_enable (known: {', '.join(sorted(TYPE_KEYS))})")
        enabled = {TYPE_KEYS[str(k)] for k in keys}

    def visit(node):
        active = isinstance(node, (S.Stmt, E.PrimExpr)) and (
            enabled is None or type(node) in enabled)
        if active and preorder is not None:
            result = preorder(node)
            if result is not None:
                return _check_result(node, result, "preorder")
        new = rebuild(node, visit)
        if active and postorder is not None:
            return _check_result(new, postorder(new), "postorder")
        return new

    return _deep_recursion(lambda: visit(stmt))


def substitute(node, vmap):
    """`node` with every use of a Var in `vmap` replaced (values may be te
    expressions or Python numbers; they are converted)."""
    _check_root(node, "substitute")
    if callable(vmap) and not isinstance(vmap, dict):
        lookup = vmap
    else:
        table = {}
        for var, value in dict(vmap).items():
            var = E.convert(var)
            if not isinstance(var, E.Var):
                raise TypeError(f"substitute maps Vars, got a {type(var).__name__} key")
            table[id(var)] = (var, E.convert(value, var.dtype))

        def lookup(v):
            hit = table.get(id(v))
            return hit[1] if hit is not None else None

    def visit(n):
        if isinstance(n, E.Var):
            value = lookup(n)
            return n if value is None else E.convert(value)
        return rebuild(n, visit)

    return visit(node)


