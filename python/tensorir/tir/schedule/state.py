"""tvm.tir.schedule.state: the debug mask a Schedule takes, and TVM's
ScheduleState: the module being scheduled, its blocks and loops as
StmtSRefs, their cached flags and block scopes.

TVM's debug mask turns on consistency checks of its schedule state after
each primitive. A Schedule accepts the mask and records it
(sch.debug_mask); anything but "none" verifies the IR each primitive
changed.
"""
import collections
import enum
import weakref

__all__ = ["BlockScope", "CachedFlags", "DepKind", "Dependency", "ScheduleDebugMask",
           "ScheduleState", "StmtSRef", "parse_debug_mask"]


class ScheduleDebugMask(enum.IntFlag):
    """TVM's flags: what a schedule checks after each primitive."""

    VERIFY_SREF_TREE = 1
    VERIFY_CACHED_FLAGS = 2


def parse_debug_mask(debug_mask):
    """"all" / "none" / an int (ScheduleDebugMask flags) as an int."""
    if isinstance(debug_mask, str):
        if debug_mask == "all":
            return -1
        if debug_mask == "none":
            return 0
        raise ValueError(f'debug_mask is "all", "none" or an int, got {debug_mask!r}')
    if isinstance(debug_mask, int):
        return int(debug_mask)
    raise TypeError(f"debug_mask is a str or an int, got {type(debug_mask).__name__}")


# --------------------------------------------------------------- the state
# TVM's ScheduleState holds the module and, for each block and loop, a
# StmtSRef. In tir the schedule's state is its MLIR module, which the C++
# ScheduleState changes primitive by primitive; a StmtSRef names a block or
# loop of the module as it is when the sref is taken (a function and a
# position), and its `stmt` is that block or loop as an IR node. Nodes are
# shared by every module of the same text (see _node_module), so the nodes
# of an unscheduled module are those of the PrimFunc it was made of, as in
# TVM.


class CachedFlags(collections.namedtuple("CachedFlags",
                                         ["affine_binding", "region_cover", "stage_pipeline"])):
    """TVM's cached flags of a block: its bindings are affine in the loops
    between it and its scope root; it reads, of what earlier blocks of its
    scope write, only what they write; the scope it is the root of is a
    stage pipeline (no write-after-read among its child blocks, each
    region-covered)."""


class DepKind(enum.IntEnum):
    """TVM's kinds of dependence between two blocks of a scope."""

    RAW = 0
    WAW = 1
    WAR = 2
    OPAQUE = 3


def _node_module(cache, text, symbols, make):
    """The IRModule of `text` whose nodes a schedule hands out, from
    `cache` (the schedule's, shared with its copies; `make()` builds it the
    first time). The modules of one schedule's states are kept while it
    lives; each schedule has its own, so schedules never share a module."""
    key = (text, tuple(sorted(symbols.items())))
    entry = cache.get(key)
    if entry is not None and entry[0]._native is entry[1]:
        cache.move_to_end(key)
        return entry[0]
    mod = make()
    remember_node_module(cache, text, mod)
    return mod


def remember_node_module(cache, text, mod):
    """Makes `mod` (an IRModule of `text`) the one `cache` hands out for
    that text (the last 16 states are kept)."""
    key = (text, tuple(sorted(mod._symbols.items())))
    cache[key] = (mod, mod._native)
    cache.move_to_end(key)
    while len(cache) > 16:
        cache.popitem(last=False)


class StmtSRef:
    """TVM's StmtSRef: a block or loop of a schedule's module (a function
    and the statement's position in it), as the module was when the sref was
    taken. `stmt` is the node; srefs of one statement of one module state
    are one object."""

    def __init__(self, state, mod, func_name, kind, index):
        self._state = weakref.ref(state) if state is not None else None
        self._mod = mod
        self._func_name = func_name
        self._kind = kind
        self._index = index

    @property
    def stmt(self):
        """The tir.Block or tir.For (None for TVM's marks)."""
        if self._mod is None:
            return None
        from ..stmt import Block, For
        body = self._mod[self._func_name].body
        if self._kind == "block" and self._index == -1:
            return body.block
        return _statements(body, Block if self._kind == "block" else For)[self._index]

    @property
    def parent(self):
        """The sref of the block or loop around this one (None for the
        root)."""
        state = self._state() if self._state is not None else None
        if state is None:
            return None
        state._position(self)
        found = state._schedule._native.stmt_parent(self._func_name, (self._kind, self._index))
        return None if found is None else state._sref(self._mod, self._func_name, *found)

    def same_as(self, other):
        return self is other

    @staticmethod
    def inline_mark():
        """TVM's mark of a block computed inline (sample_compute_location)."""
        return _INLINE_MARK

    @staticmethod
    def root_mark():
        """TVM's mark of a block computed at the root."""
        return _ROOT_MARK

    def __repr__(self):
        if self._mod is None:
            return "StmtSRef(mark)"
        return f"StmtSRef({self._func_name}: {self._kind} {self._index})"


_INLINE_MARK = StmtSRef(None, None, None, None, None)
_ROOT_MARK = StmtSRef(None, None, None, None, None)


def _statements(body, kind):
    """The blocks (not the root) or loops under `body`, in pre-order, as
    the C++ side numbers them."""
    from ..stmt_functor import pre_order_visit
    found = []
    pre_order_visit(body, lambda n: found.append(n) if isinstance(n, kind) else None)
    return found[1:] if kind.__name__ == "Block" else found


class Dependency:
    """TVM's Dependency: `dst` depends on `src` (an earlier block) by
    `kind`."""

    def __init__(self, src, dst, kind):
        self.src, self.dst, self.kind = src, dst, DepKind(kind)

    def __repr__(self):
        return f"Dependency({self.src}, {self.dst}, {self.kind.name})"


class BlockScope:
    """TVM's BlockScope: the dependences among the child blocks of a
    block (or of the function, the root)."""

    def __init__(self, deps):
        self._deps = deps

    def get_deps_by_src(self, block):
        """The dependences of later blocks on `block` (an sref)."""
        return [d for d in self._deps if d.src is block]

    def get_deps_by_dst(self, block):
        """The dependences of `block` (an sref) on earlier blocks."""
        return [d for d in self._deps if d.dst is block]


class ScheduleState:
    """TVM's ScheduleState: a module being scheduled, its blocks and loops
    as StmtSRefs, their cached flags and block scopes. Made of an IRModule
    or a PrimFunc; tir.Schedule(...).state is the state of a schedule. The
    module changes only through a schedule's primitives: TVM's
    replace(sref, stmt) of a hand-built statement has no counterpart."""

    def __init__(self, mod, *, debug_mask="none", enable_check=True, _schedule=None):
        if _schedule is None:
            from .schedule import Schedule
            _schedule = Schedule(mod, debug_mask=debug_mask, enable_check=enable_check)
        self._schedule = _schedule
        self._srefs = {}

    @property
    def mod(self):
        return self._schedule.mod

    @property
    def debug_mask(self):
        return self._schedule.debug_mask

    @property
    def enable_check(self):
        return self._schedule.enable_check

    def _sref(self, mod, func_name, kind, index):
        key = (id(mod), func_name, kind, index)
        sref = self._srefs.get(key)
        if sref is None or sref._mod is not mod:
            sref = self._srefs[key] = StmtSRef(self, mod, func_name, kind, index)
        return sref

    def get_sref(self, stmt):
        """The sref of a tir.Block or tir.For of the module (None if the
        module has no such statement)."""
        from ..stmt import Block, For
        node = getattr(stmt, "_as_node", lambda: stmt)()
        if not isinstance(node, (Block, For)):
            raise TypeError(f"get_sref takes a tir.Block or tir.For, got {type(stmt).__name__}")
        mod = self.mod
        kind = "block" if isinstance(node, Block) else "loop"
        for func_name in mod.function_names():
            func = mod[func_name]
            if not hasattr(func, "body"):
                continue
            body = func.body
            if kind == "block" and body.block is node:
                return self._sref(mod, func_name, kind, -1)
            for index, other in enumerate(_statements(body, type(node))):
                if other is node:
                    return self._sref(mod, func_name, kind, index)
        return None

    def _position(self, sref):
        if not isinstance(sref, StmtSRef) or sref._mod is None:
            raise TypeError("expected the StmtSRef of a block or loop")
        if sref._state is None or sref._state() is not self:
            raise ValueError("the StmtSRef is not one of this schedule state's")
        if sref._mod is not self.mod:
            raise ValueError("the StmtSRef names a statement of the module before a primitive "
                             "changed it; take it again (sch.get_sref)")
        return sref

    def _get_cached_flags(self, block_sref):
        """TVM's cached flags of a block (CachedFlags)."""
        sref = self._position(block_sref)
        if sref._kind != "block":
            raise TypeError("cached flags are a block's; the sref is a loop's")
        return CachedFlags(*self._schedule._native.block_flags(sref._func_name, sref._index))

    def get_block_scope(self, block_sref):
        """The BlockScope of a block (the dependences among its child
        blocks)."""
        sref = self._position(block_sref)
        if sref._kind != "block":
            raise TypeError("a block scope is a block's; the sref is a loop's")
        deps = []
        for src, dst, kind in self._schedule._native.block_dependences(sref._func_name,
                                                                        sref._index):
            deps.append(Dependency(self._sref(sref._mod, sref._func_name, "block", src),
                                   self._sref(sref._mod, sref._func_name, "block", dst), kind))
        return BlockScope(deps)

    def replace(self, src_sref, tgt_stmt, block_sref_reuse=None):
        raise NotImplementedError(
            "ScheduleState.replace: tir's schedule state is its MLIR module, changed by the "
            "schedule primitives only; a hand-built statement cannot replace one")
