"""Structural equality and hashing of IR nodes (statements, expressions,
buffers, regions): tvm.ir.structural_equal / structural_hash when they are
given nodes rather than IRModules or PrimFuncs.

Two trees are equal when they have the same node types and fields, up to
the names of variables and buffers: a variable a loop, a block's iteration
variable or a let defines is matched with the one at the same place of the
other tree; buffers are matched where they are first met, by their fields
(shape, dtype, scope, layout), as TVM does. A variable neither tree
defines (free) must be the same object, unless map_free_vars, which
matches free ones by order of first use. Block names
and annotations take part; names of variables and buffers do not.
"""
from ..ir.node import Node
from . import expr as E
from . import stmt as S
from .buffer import Buffer, MatchBufferRegion

__all__ = ["node_structural_equal", "node_structural_hash"]

# Fields that are names only.
_NAME_FIELDS = {"name"}


class _Mismatch(Exception):
    pass


class _Comparer:
    def __init__(self, map_free_vars):
        self.map_free = map_free_vars
        self.lhs_to_rhs, self.rhs_to_lhs = {}, {}

    def fail(self, path, what, a, b):
        raise _Mismatch(f"{' > '.join(path) or 'the nodes'}: {what} differs: {_show(a)} vs "
                        f"{_show(b)}")

    def define(self, a, b):
        self.lhs_to_rhs[id(a)], self.rhs_to_lhs[id(b)] = b, a

    def same_var(self, a, b, path):
        mapped = self.lhs_to_rhs.get(id(a))
        if mapped is not None:
            if mapped is not b:
                self.fail(path, "variable", a, b)
            return
        if id(b) in self.rhs_to_lhs:
            self.fail(path, "variable", a, b)
        if a is b:
            self.define(a, b)  # no other variable may map to it now
            return
        if isinstance(a, Buffer):
            # As TVM: a buffer met for the first time is matched by its
            # fields (shape, dtype, scope, layout), not its identity.
            return self.define_buffer(a, b, path)
        if not self.map_free:
            self.fail(path, "free variable (not the same object; map_free_vars maps them)", a, b)
        if isinstance(a, Buffer):
            self.buffer_fields(a, b, path)
        elif a.dtype != b.dtype:
            self.fail(path, "variable dtype", a.dtype, b.dtype)
        self.define(a, b)

    def buffer_fields(self, a, b, path):
        for field in ("dtype", "scope_name", "offset_factor"):
            if getattr(a, field) != getattr(b, field):
                self.fail(path + [f"buffer {a.name}"], field, getattr(a, field),
                          getattr(b, field))
        self.value(a.shape, b.shape, path + [f"buffer {a.name} shape"])
        self.value(a.strides, b.strides, path + [f"buffer {a.name} strides"])
        self.value(a.elem_offset, b.elem_offset, path + [f"buffer {a.name} elem_offset"])

    def define_buffer(self, a, b, path):
        self.buffer_fields(a, b, path)
        self.define(a, b)
        for va, vb in zip([a.elem_offset] + a.strides, [b.elem_offset] + b.strides):
            if isinstance(va, E.Var) and isinstance(vb, E.Var):
                self.define(va, vb)

    def node(self, a, b, path):
        if type(a) is not type(b):
            self.fail(path, "node type", type(a).__name__, type(b).__name__)
        if isinstance(a, (E.Var, Buffer)):
            return self.same_var(a, b, path)
        here = path + [_label(a)]
        # Definitions first: the variables and buffers a node binds.
        if isinstance(a, S.For):
            self.define_var(a.loop_var, b.loop_var, here)
        elif isinstance(a, S.IterVar):
            self.define_var(a.var, b.var, here)
        elif isinstance(a, S.Block):
            for x, y in zip(a.alloc_buffers, b.alloc_buffers):
                self.define_buffer(x, y, here)
        elif isinstance(a, MatchBufferRegion):
            self.value(a.source, b.source, here)
            self.define_buffer(a.buffer, b.buffer, here)
            return
        elif isinstance(a, (S.LetStmt, E.Let)):
            self.value(a.value, b.value, here)
            self.define_var(a.var, b.var, here)
            self.value(a.body, b.body, here)
            return
        for name in a._fields:
            if name in _NAME_FIELDS or (isinstance(a, S.For) and name == "loop_var") or \
                    (isinstance(a, S.IterVar) and name == "var") or \
                    (isinstance(a, S.Block) and name == "alloc_buffers"):
                if name == "alloc_buffers" and len(a.alloc_buffers) != len(b.alloc_buffers):
                    self.fail(here, "number of alloc_buffers", len(a.alloc_buffers),
                              len(b.alloc_buffers))
                continue
            self.value(getattr(a, name), getattr(b, name), here + [name])

    def define_var(self, a, b, path):
        if a.dtype != b.dtype:
            self.fail(path, "variable dtype", a.dtype, b.dtype)
        self.define(a, b)

    def value(self, a, b, path):
        if isinstance(a, Node) or isinstance(b, Node):
            if not (isinstance(a, Node) and isinstance(b, Node)):
                self.fail(path, "value", a, b)
            return self.node(a, b, path)
        if isinstance(a, (list, tuple)):
            if not isinstance(b, (list, tuple)) or len(a) != len(b):
                self.fail(path, "length", a, b)
            for k, (x, y) in enumerate(zip(a, b)):
                self.value(x, y, path[:-1] + [f"{path[-1]}[{k}]"] if path else [str(k)])
            return
        if isinstance(a, dict):
            if not isinstance(b, dict) or sorted(a) != sorted(b):
                self.fail(path, "keys", a, b)
            for k in a:
                self.value(a[k], b[k], path + [repr(k)])
            return
        if a != b or type(a) is not type(b) and not (isinstance(a, (int, float)) and
                                                      isinstance(b, (int, float))):
            self.fail(path, "value", a, b)


def _label(node):
    if isinstance(node, S.Block):
        return f'Block "{node.name_hint}"'
    return type(node).__name__


def _show(value):
    try:
        text = value.script() if isinstance(value, Node) else repr(value)
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) < 80 else text[:77] + "..."


def node_structural_equal(lhs, rhs, map_free_vars=False):
    """(equal, message of the first difference)."""
    try:
        _Comparer(map_free_vars).value(lhs, rhs, [])
    except _Mismatch as e:
        return False, str(e)
    return True, ""


def node_structural_hash(node):
    """A hash equal for structurally equal trees (variables and buffers
    hashed by the order they are met, not their names)."""
    order = {}

    def h(value):
        if isinstance(value, (E.Var, Buffer)):
            if id(value) not in order:
                order[id(value)] = len(order)
            extra = value.dtype
            return hash(("var", order[id(value)], extra))
        if isinstance(value, Node):
            return hash((type(value).__name__,) + tuple(
                h(getattr(value, f)) for f in value._fields if f not in _NAME_FIELDS))
        if isinstance(value, (list, tuple)):
            return hash(tuple(h(v) for v in value))
        if isinstance(value, dict):
            return hash(tuple(sorted((k, h(v)) for k, v in value.items())))
        return hash(value)

    return h(node)
