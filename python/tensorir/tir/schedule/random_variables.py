"""The random variables of a schedule (TVM's BlockRV, LoopRV, ExprRV) and
the read-only view sch.get gives of what one refers to."""
from ..._ext import ext
from ..expr import Var


class _RV:
    """A random variable (TVM's BlockRV / LoopRV / ExprRV): one object per
    value of a trace, shared by the schedules copied from the one that made
    it. `BlockRV()` makes one that no schedule knows yet (for building
    traces by hand)."""

    _KIND = "block"

    def __init__(self, rv=None, handle=None):
        self._rv = rv if rv is not None else ext.RandomVariable(self._KIND)
        self._handle = handle

    @classmethod
    def _of(cls, handle):
        return cls(handle.rv, handle)

    def same_as(self, other):
        """TVM's Object.same_as: the same random variable."""
        return isinstance(other, _RV) and self._rv == other._rv

    def __eq__(self, other):
        # The same random variable, or two that hold the same blocks or
        # loops of one schedule (TVM compares what they refer to through
        # sch.get).
        if not isinstance(other, _RV):
            return False
        if self._rv == other._rv:
            return True
        return (self._handle is not None and other._handle is not None
                and self._handle == other._handle)

    def __hash__(self):
        return hash(self._handle) if self._handle is not None else hash(self._rv)

    def __repr__(self):
        return f"{type(self).__name__}({self._handle if self._handle is not None else ''})"


class BlockRV(_RV):
    """A block of the schedule; it stays valid across loop transformations."""

    _KIND = "block"


class LoopRV(_RV):
    """A loop of the schedule; split and fuse replace the loops they take."""

    _KIND = "loop"


class ExprRV(_RV, Var):
    """An integer a sampling primitive drew (TVM's ExprRV, a tir.Var):
    `sch.get(v)` gives its value; split takes it as a factor, so that a
    replay with another decision splits by the new value. In an index map
    it stands for its value."""

    _KIND = "expr"

    def __init__(self, rv=None, handle=None):
        _RV.__init__(self, rv, handle)
        Var.__init__(self, "v", "int32")

    __eq__ = _RV.__eq__
    __hash__ = _RV.__hash__


def _rv_of(native):
    """The Python random variable of a native one."""
    return {"block": BlockRV, "loop": LoopRV, "expr": ExprRV}[native.kind](native)


class _StmtView:
    """What sch.get returns: the block or loop a random variable refers to
    (a block's name as name_hint)."""

    def __init__(self, handle, schedule=None):
        self._handle = handle
        self._schedule = schedule
        self.name_hint = handle.block_name

    def _as_node(self):
        """The tir.Block or tir.For itself, as IR nodes of the scheduled
        module (TVM's sch.get returns it): found at the same place in the
        same function."""
        position = self._handle.position
        if position is None or self._schedule is None:
            raise ValueError("this handle holds no single block or loop")
        func_name, index = position
        body = self._schedule._nodes_of(func_name).body
        from ..stmt import Block, For
        # Position -1 is the function's root block (TVM's "root"), however
        # the handle holds it.
        kind = Block if self._handle.kind == "block" or index == -1 else For
        found = []
        from ..stmt_functor import pre_order_visit
        pre_order_visit(body, lambda n: found.append(n) if isinstance(n, kind) else None)
        # The nodes' root block has no op of its own in tir.
        return found[index + 1 if kind is Block else index]

    def __getattr__(self, name):
        # The rest of TVM's Block / For fields (body, iter_vars, loop_var,
        # extent, kind, ...) come from the node.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._as_node(), name)

    def __eq__(self, other):
        # Views of the same block or loop; a view and the node it shows
        # (what sch.get of a StmtSRef gives) compare equal too, as TVM's
        # sch.get gives the node for both. (Hashing stays by handle: a view
        # keeps its hash across steps, which change the nodes.)
        if isinstance(other, _StmtView):
            return self._handle == other._handle
        from ..stmt import Block, For
        if isinstance(other, (Block, For)):
            try:
                return self._as_node() is other
            except ValueError:
                return False
        return NotImplemented

    def __hash__(self):
        return hash(self._handle)

    def same_as(self, other):
        """TVM's Object.same_as: the same block or loop (a view of it, or
        its node)."""
        if isinstance(other, _StmtView):
            return self == other
        return other is not None and self._as_node() is other

    @property
    def annotations(self):
        """The block's or loop's annotations (TVM's Block.annotations):
        booleans and integers as IntImm, floats as FloatImm, strings as
        str, other attributes as their text."""
        from ..expr import FloatImm, IntImm
        items = self._handle.annotations
        if items is None:
            raise ValueError("annotations: the handle holds no single block or loop")
        out = {}
        for name, kind, value in items:
            if kind == "bool":
                out[name] = IntImm("bool", value)
            elif kind.startswith("int"):
                out[name] = IntImm(kind, value)
            elif kind == "float":
                out[name] = FloatImm("float32", value)
            elif kind == "str":
                out[name] = value
            else:
                # Lists and other attributes: as the node has them.
                try:
                    out[name] = self._as_node().annotations[name]
                except (ValueError, KeyError):
                    out[name] = value
        return out

    def _regions(self, which):
        """The block node's regions (their buffers with their scopes), or,
        for a view with no schedule to read nodes from, BufferRegions of
        the buffers the handle names."""
        if self._schedule is not None and self._handle.position is not None:
            return getattr(self._as_node(), which)
        from ..buffer import buffers_of
        h = self._handle
        if which == "reads":
            return buffers_of(h.read_buffer_names, h.read_buffer_shapes,
                              h.read_buffer_element_types)
        return buffers_of(h.write_buffer_names, h.write_buffer_shapes,
                          h.write_buffer_element_types)

    @property
    def reads(self):
        """A block's read regions, in order (TVM's Block.reads)."""
        return self._regions("reads")

    @property
    def writes(self):
        """A block's write regions, in order (TVM's Block.writes)."""
        return self._regions("writes")

    def __repr__(self):
        return str(self._handle)


def _wrap(handle):
    """A result handle as Python: a LoopRV, a BlockRV, or the int a
    parameter holds."""
    if handle.kind == "param":
        params = handle.params
        return params[0] if len(params) == 1 else params
    rv = handle.rv
    kind = rv.kind if rv is not None else handle.kind
    return LoopRV._of(handle) if kind == "loop" else BlockRV._of(handle)
