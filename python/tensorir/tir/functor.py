"""Visitors and mutators over the IR's Python objects (TVM's
tvm.tir.functor: PyStmtExprVisitor, PyStmtExprMutator).

Which fields of each node hold its children is written once here
(`CHILDREN`); tir.stmt_functor's post_order_visit / ir_transform /
substitute and the two classes below all walk them.

    @tvm.tir.functor.visitor
    class CountLoads(tvm.tir.PyStmtExprVisitor):
        def __init__(self):
            self.count = 0
        def visit_buffer_load_(self, op):
            self.count += 1
            super().visit_buffer_load_(op)   # the indices

A `visit_<node>_` method a subclass does not define visits the children
(visitor) or rebuilds the node from its mutated children, keeping the same
object when nothing changed (mutator).
"""
import re

from ..ir.node import Range
from . import expr as E
from . import stmt as S
from .buffer import BufferRegion, MatchBufferRegion

__all__ = ["PyStmtExprVisitor", "PyStmtExprMutator", "visitor", "mutator", "CHILDREN",
           "TYPE_KEYS", "children", "rebuild"]

# Fields holding children, per class (a list field holds several).
CHILDREN = {
    S.For: ("min", "extent", "body"),
    S.Block: ("iter_vars", "reads", "writes", "match_buffers", "init", "body"),
    S.BlockRealize: ("iter_values", "predicate", "block"),
    S.BufferStore: ("value", "indices"),
    S.SeqStmt: ("seq",),
    S.IfThenElse: ("condition", "then_case", "else_case"),
    S.LetStmt: ("value", "body"),
    S.AllocateConst: ("extents", "body"),
    S.DeclBuffer: ("body",),
    S.Evaluate: ("value",),
    S.IterVar: ("dom",),
    Range: ("min", "extent"),
    BufferRegion: ("region",),
    MatchBufferRegion: ("source",),
    E.BufferLoad: ("indices",),
    E.Cast: ("value",),
    E.Not: ("a",),
    E.Select: ("condition", "true_value", "false_value"),
    E.Call: ("args",),
    E.Let: ("value", "body"),
    E.Ramp: ("base", "stride"),
    E.Broadcast: ("value",),
}
for _cls in (E.Add, E.Sub, E.Mul, E.Div, E.Mod, E.FloorDiv, E.FloorMod, E.Min, E.Max, E.EQ,
             E.NE, E.LT, E.LE, E.GT, E.GE, E.And, E.Or):
    CHILDREN[_cls] = ("a", "b")
_LEAVES = (E.Var, E.IntImm, E.FloatImm, E.StringImm)
for _cls in _LEAVES + (E.SizeVar,):
    CHILDREN[_cls] = ()

# TVM's type keys ("tir.For", "IntImm", ...), for ir_transform's filter.
TYPE_KEYS = {("" if cls in (E.IntImm, E.FloatImm) else "tir.") + cls.__name__: cls
             for cls in CHILDREN if cls not in (Range, S.IterVar, BufferRegion,
                                                MatchBufferRegion)}


def _fields_of(node):
    fields = CHILDREN.get(type(node))
    if fields is None:
        for cls in type(node).__mro__:
            if cls in CHILDREN:
                fields = CHILDREN[type(node)] = CHILDREN[cls]
                break
        else:
            raise TypeError(f"no visitor rule for a {type(node).__name__}")
    return fields


def children(node):
    """The child nodes of `node`, in field order."""
    out = []
    for name in _fields_of(node):
        value = getattr(node, name)
        if isinstance(value, list):
            out.extend(value)
        elif value is not None:
            out.append(value)
    return out


def rebuild(node, fn):
    """`node` with each child replaced by fn(child); `node` itself when no
    child changes."""
    changes = {}
    for name in _fields_of(node):
        value = getattr(node, name)
        if isinstance(value, list):
            new = [fn(v) for v in value]
            if any(a is not b for a, b in zip(new, value)):
                changes[name] = new
        elif value is not None:
            new = fn(value)
            if new is not value:
                changes[name] = new
    return node.with_fields(**changes) if changes else node


def _method_name(cls):
    """visit_<snake case of the class>_, as TVM names them."""
    special = {"IntImm": "int_imm", "FloatImm": "float_imm", "StringImm": "string_imm",
               "EQ": "eq", "NE": "ne", "LT": "lt", "LE": "le", "GT": "gt", "GE": "ge",
               "SizeVar": "size_var", "FloorDiv": "floor_div", "FloorMod": "floor_mod",
               "LetStmt": "let_stmt", "IfThenElse": "if_then_else", "SeqStmt": "seq_stmt",
               "BufferStore": "buffer_store", "BufferLoad": "buffer_load",
               "BlockRealize": "block_realize"}
    name = special.get(cls.__name__) or re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    return f"visit_{name}_"


_VISIT_METHODS = {cls: _method_name(cls) for cls in CHILDREN
                  if cls not in (Range, S.IterVar, BufferRegion, MatchBufferRegion)}


class _Functor:
    def _dispatch(self, node):
        method = _VISIT_METHODS.get(type(node))
        if method is None:
            for cls in type(node).__mro__:
                if cls in _VISIT_METHODS:
                    method = _VISIT_METHODS[cls]
                    break
            else:
                raise TypeError(f"{type(self).__name__} cannot visit a "
                                f"{type(node).__name__}")
        return getattr(self, method)(node)


class PyStmtExprVisitor(_Functor):
    """Visits every statement and expression; override visit_<node>_."""

    def visit_stmt(self, stmt):
        if not isinstance(stmt, S.Stmt):
            raise TypeError(f"visit_stmt takes a statement, got {type(stmt).__name__}")
        return self._dispatch(stmt)

    def visit_expr(self, expr):
        if not isinstance(expr, E.PrimExpr):
            raise TypeError(f"visit_expr takes an expression, got {type(expr).__name__}")
        return self._dispatch(expr)

    def _visit_children(self, node):
        for child in children(node):
            if isinstance(child, (S.Stmt, E.PrimExpr)):
                self._dispatch(child)
            else:  # IterVar, Range, regions: their expressions
                self._visit_children(child)


class PyStmtExprMutator(_Functor):
    """Rebuilds every statement and expression; override visit_<node>_ and
    return the replacement."""

    def visit_stmt(self, stmt):
        return self._checked(stmt, S.Stmt, "visit_stmt", "a statement")

    def visit_expr(self, expr):
        return self._checked(expr, E.PrimExpr, "visit_expr", "an expression")

    def _checked(self, node, kind, method, what):
        """The visit of `node` (a `kind`), which must give a `kind` back."""
        if not isinstance(node, kind):
            raise TypeError(f"{method} takes {what}, got {type(node).__name__}")
        result = self._dispatch(node)
        if not isinstance(result, kind):
            raise TypeError(f"{type(self).__name__}.{_VISIT_METHODS[type(node)]} returned "
                            f"a {type(result).__name__}, not {what}")
        return result

    def _rebuild(self, node):
        def fn(child):
            if isinstance(child, S.Stmt):
                return self.visit_stmt(child)
            if isinstance(child, E.PrimExpr):
                return self.visit_expr(child)
            return self._rebuild(child)
        return rebuild(node, fn)


def _default(kind):
    def method(self, op):
        if kind == "visit":
            self._visit_children(op)
            return None
        return self._rebuild(op)
    return method


for _cls, _name in _VISIT_METHODS.items():
    setattr(PyStmtExprVisitor, _name, _default("visit"))
    setattr(PyStmtExprMutator, _name, _default("mutate"))


def visitor(cls):
    """@tvm.tir.functor.visitor: marks a PyStmtExprVisitor subclass (kept for
    TVM's spelling; the class works without it)."""
    if not issubclass(cls, PyStmtExprVisitor):
        raise TypeError(f"@visitor decorates a PyStmtExprVisitor subclass, got {cls.__name__}")
    return cls


def mutator(cls):
    """@tvm.tir.functor.mutator: marks a PyStmtExprMutator subclass."""
    if not issubclass(cls, PyStmtExprMutator):
        raise TypeError(f"@mutator decorates a PyStmtExprMutator subclass, got {cls.__name__}")
    return cls
