"""Structural equality and hashing (TVM's tvm.ir.structural_equal,
assert_structural_equal and structural_hash).

Two programs are structurally equal when they have the same structure:
the same loops, blocks (names, iteration domains and kinds, bindings,
predicates, reads and writes, annotations), buffers (shapes, element types,
scopes) and computations, whatever their variables and buffers are named.
The comparison itself is the extension's (`_tensorir.structural_equal` /
`structural_hash`, in C++); this module chooses what is compared:

- two IRModules: function by function, matched by name (as TVM matches
  GlobalVars);
- two PrimFuncs, or two relax Functions: the two functions, whatever their
  names. A function's name
  is its global symbol here, and TVM compares the "global_symbol" attribute
  of two PrimFuncs; this package does not, as a PrimFunc taken out of a
  schedule (sch.mod["main"]) is named by its key. Compare whole IRModules
  where the names matter;
- an IRModule with a PrimFunc: not equal;
- IR nodes (statements, expressions): each built into tir as a fragment
  (its free variables and buffers as arguments, tensorir.tir.printer) and
  compared by the same C++ comparison. A free variable must be the same
  object in both unless map_free_vars (then free variables correspond in
  order of first use); free buffers correspond by their fields (shape,
  dtype, scope, layout), as TVM matches buffers.
"""
from .._ext import ext
from .module import IRModule


def _operand(value):
    """(native module, function name or None, kind) of an IRModule or PrimFunc."""
    from ..relax.function import Function
    from ..tir.function import PrimFunc
    if isinstance(value, IRModule):
        return value._native, None, "IRModule"
    if isinstance(value, PrimFunc):
        return value.mod._native, value.name, "PrimFunc"
    if isinstance(value, Function):
        return value._native, value.name, "Function"
    raise TypeError("structural equality compares IRModules, PrimFuncs and relax "
                    f"Functions, got {type(value).__name__}")


def _binding(name):
    if not hasattr(ext, name):
        raise NotImplementedError(
            f"tvm.ir.{name}: the native extension (_tensorir) has no {name} binding; "
            "rebuild it (ninja -C build _tensorir) from a tree that has "
            "python/extension/StructuralEqual.cpp")
    return getattr(ext, name)


def _is_node(value):
    """An IR node (statement, expression, buffer, ...) other than a
    function."""
    from ..tir.function import PrimFunc
    from .node import Node
    return isinstance(value, Node) and not isinstance(value, PrimFunc)


def _compare(lhs, rhs, map_free_vars):
    # What sch.get returns stands for its block or loop.
    lhs = lhs._as_node() if hasattr(type(lhs), "_as_node") else lhs
    rhs = rhs._as_node() if hasattr(type(rhs), "_as_node") else rhs
    if _is_node(lhs) or _is_node(rhs):
        if not (_is_node(lhs) and _is_node(rhs)):
            return False, (f"cannot compare a {type(lhs).__name__} with a "
                           f"{type(rhs).__name__}")
        return _compare_nodes(lhs, rhs, map_free_vars)
    a, func_a, kind_a = _operand(lhs)
    b, func_b, kind_b = _operand(rhs)
    if kind_a != kind_b:
        return False, f"cannot compare a {kind_a} with a {kind_b}"
    equal, message = _binding("structural_equal")(a, b, func_a, func_b, bool(map_free_vars))
    return bool(equal), message


def _compare_nodes(lhs, rhs, map_free_vars):
    from ..tir.printer import fragment
    if lhs is rhs:
        return True, ""
    try:
        a, vars_a, bufs_a = fragment(lhs)
        b, vars_b, bufs_b = fragment(rhs)
    except ValueError as e:
        return False, f"a node with no tir form is equal only to itself ({e})"
    if len(vars_a) != len(vars_b) or len(bufs_a) != len(bufs_b):
        return False, (f"{len(vars_a)} free variables and {len(bufs_a)} free buffers vs "
                       f"{len(vars_b)} and {len(bufs_b)}")
    if not map_free_vars:
        for x, y in zip(vars_a, vars_b):
            if x is not y:
                return False, (f"free variable {x.name} vs {y.name}: not the same object "
                               "(map_free_vars maps them)")
    for x, y in zip(vars_a, vars_b):
        if x.dtype != y.dtype:
            return False, f"free variable {x.name}: dtype {x.dtype} vs {y.dtype}"
    equal, message = _binding("structural_equal")(a, b, "fragment", "fragment", True)
    return bool(equal), message


def structural_equal(lhs, rhs, map_free_vars=False):
    """Whether `lhs` and `rhs` (IRModules or PrimFuncs) are structurally
    equal. map_free_vars: variables defined in neither may correspond."""
    return _compare(lhs, rhs, map_free_vars)[0]


def assert_structural_equal(lhs, rhs, map_free_vars=False):
    """Raises ValueError, with the first mismatch, unless `lhs` and `rhs`
    are structurally equal."""
    equal, message = _compare(lhs, rhs, map_free_vars)
    if not equal:
        raise ValueError(message or "the two programs are not structurally equal")


def structural_hash(node, map_free_vars=False):
    """A hash of `node` (an IRModule or PrimFunc) that structurally equal
    programs share (a module's function names take part, as equality
    matches functions by name). Variables are hashed by where they are
    defined, never by identity, so TVM's map_free_vars has nothing to change
    here; it is accepted for TVM's signature."""
    if _is_node(node):
        from ..tir.printer import fragment
        try:
            native, _, _ = fragment(node)
        except ValueError:
            return hash(type(node).__name__)  # no tir form: equal only to itself
        return int(_binding("structural_hash")(native, "fragment"))
    native, func, _ = _operand(node)
    return int(_binding("structural_hash")(native, func))
