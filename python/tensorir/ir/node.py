"""The base of the IR's Python objects (TVM's Object / Node), tvm.ir.Op and
tvm.ir.Range.

Every node class lists its fields in `_fields`, in constructor order: the
functors (tir.stmt_functor) walk them, `with_fields` rebuilds a node with
some of them replaced, and the printer and structural equality read them.
Nodes compare and hash by identity, as TVM's objects do (`same_as`), except
where TVM's expressions build comparisons (tir.PrimExpr).
"""

__all__ = ["Node", "Op", "Range", "SourceName", "Span"]


class SourceName:
    """The name of a source file (TVM's tvm.ir.SourceName)."""

    def __init__(self, name):
        self.name = str(name)

    def __repr__(self):
        return f"SourceName({self.name!r})"


class Span:
    """Where a node comes from (TVM's tvm.ir.Span): a source and its first
    line and column (lines from 1). The ops built from a node carry it as
    their location, and nodes read from ops get theirs, so errors point at
    the user's source through node rewrites too."""

    def __init__(self, source_name, line, end_line=None, column=1, end_column=None):
        self.source_name = (source_name if isinstance(source_name, SourceName)
                            else SourceName(source_name))
        self.line, self.column = int(line), int(column)
        self.end_line = self.line if end_line is None else int(end_line)
        self.end_column = self.column if end_column is None else int(end_column)

    def __repr__(self):
        return f"Span({self.source_name.name!r}, {self.line}, {self.column})"


class Node:
    """An IR node: immutable by convention; build a changed copy with
    `with_fields` (the functors do)."""

    _fields = ()
    span = None

    def same_as(self, other):
        """TVM's same_as: the same object (a schedule's view of a block or
        loop, sch.get's, is the node it shows)."""
        if self is other:
            return True
        as_node = getattr(other, "_as_node", None)
        return as_node is not None and as_node() is self

    def fields(self):
        """(name, value) of each field, in constructor order."""
        return [(name, getattr(self, name)) for name in self._fields]

    def with_fields(self, **changes):
        """A copy with the named fields replaced, built by the class's
        constructor (which checks and converts them, and copies lists);
        `self` when nothing changes, as TVM's mutators keep unchanged
        nodes."""
        for key in changes:
            if key not in self._fields:
                raise TypeError(f"{type(self).__name__} has no field {key!r} (its fields: "
                                f"{', '.join(self._fields)})")
        if all(getattr(self, k) is v for k, v in changes.items()):
            return self
        values = [changes[f] if f in changes else getattr(self, f) for f in self._fields]
        return self._rebuild(values)

    def _rebuild(self, values):
        """A node of this class from its fields' values, in `_fields`
        order (the constructors take them so), where this one comes from."""
        node = type(self)(*values)
        if self.span is not None:
            node.span = self.span
        return node

    def script(self, **_):
        """The node as TVMScript (TVM's script())."""
        from ..tir.printer import script
        return script(self)

    def show(self, **kwargs):
        print(self.script(**kwargs))

    def __str__(self):
        return self.script()

    def __repr__(self):
        return self.script()

    __hash__ = object.__hash__


class Op(Node):
    """A primitive operator a tir.Call calls (TVM's tvm.ir.Op), found by
    name with Op.get("tir.exp"). The names are those TVMScript writes as
    T.<name>: the math functions, if_then_else, call_extern, ..."""

    _fields = ("name",)
    _registry = {}

    def __init__(self, name):
        self.name = name

    @staticmethod
    def get(op_name):
        if not isinstance(op_name, str):
            raise TypeError(f"Op.get takes a name, got {type(op_name).__name__}")
        if op_name not in Op._registry:
            Op._registry[op_name] = Op(op_name)
        return Op._registry[op_name]

    def script(self, **_):
        return f'Op("{self.name}")'


class Range(Node):
    """A half-open range [min, min + extent) (TVM's tvm.ir.Range).
    `Range(begin, end)` as TVM's constructor; `Range.from_min_extent`."""

    _fields = ("min", "extent")

    def __init__(self, begin, end=None, span=None):
        from ..tir.expr import convert, simplify_sub
        if end is None:
            begin, end = 0, begin
        self.min = convert(begin)
        self.extent = simplify_sub(convert(end), self.min)
        self.span = span

    def _rebuild(self, values):
        return Range.from_min_extent(*values)

    @staticmethod
    def from_min_extent(min_value, extent, span=None):
        from ..tir.expr import convert
        r = object.__new__(Range)
        r.min, r.extent, r.span = convert(min_value), convert(extent), span
        return r

    def script(self, **_):
        return f"Range({self.min.script()}, {self.extent.script()})"
