"""tvm.tir.IndexMap: a map from a buffer's (or a block's) indices to new
ones, written as a Python function of the indices.

`IndexMap.from_func(lambda i, j: (i // 4, j, i % 4))` calls the function on
index variables (tir.Vars) and keeps the expressions it returns (`+ - * //
%` build TVM's floor division and modulo nodes). The schedule hands the map
to the C++ primitives as an affine map over dimensions d0, d1, ... (the
initial indices in order), built by the extension from the expressions;
`IndexMap.AXIS_SEPARATOR` in the returned list marks where a flattened
buffer's physical axes split (set_axis_separator).
"""
import inspect

from .._ext import ext
from .expr import IntImm, PrimExpr, Var

__all__ = ["IndexMap"]


class _AxisSeparator:
    def __repr__(self):
        return "IndexMap.AXIS_SEPARATOR"


class IndexMap:
    """TVM's IndexMap: `initial_indices` (tir.Vars) mapped to
    `final_indices` (expressions of them, or ints)."""

    AXIS_SEPARATOR = _AxisSeparator()

    def __init__(self, initial_indices, final_indices, inverse_index_map=None):
        self.initial_indices = list(initial_indices)
        self.final_indices = [f.value if isinstance(f, IntImm) else f for f in final_indices]
        self.inverse_index_map = inverse_index_map
        for f in self.final_indices:
            if not isinstance(f, (PrimExpr, int)) or isinstance(f, bool):
                raise TypeError(f"an index map returns index expressions, got "
                                f"{type(f).__name__}")

    @staticmethod
    def from_func(mapping_function, ndim=None, inverse_index_map=None,
                  *, index_dtype="int64"):
        """The map `mapping_function` computes. Its parameters name the
        initial indices; a `*args` parameter takes as many as `ndim` leaves
        after the named ones. Axis separators in the result are refused
        here (from_func_with_separators takes them)."""
        index_map, separators = IndexMap.from_func_with_separators(
            mapping_function, ndim, inverse_index_map, index_dtype=index_dtype)
        if separators:
            raise ValueError("the index map returns IndexMap.AXIS_SEPARATOR; use "
                             "from_func_with_separators")
        return index_map

    @staticmethod
    def from_func_with_separators(mapping_function, ndim=None, inverse_index_map=None,
                                  *, index_dtype="int64"):
        """(IndexMap, axis_separators): the map and the positions in its
        results where IndexMap.AXIS_SEPARATOR was returned."""
        params = inspect.signature(mapping_function).parameters.values()
        positional, var_args, keyword = [], None, []
        for p in params:
            if p.kind == p.VAR_POSITIONAL:
                var_args = p.name
            elif p.kind == p.KEYWORD_ONLY:
                keyword.append(p.name)
            elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                positional.append(p.name)
            else:
                raise TypeError(f"an index map function takes indices, not "
                                f"**{p.name}")
        named = len(positional) + len(keyword)
        if var_args is None:
            # An arity other than `ndim` is the primitive's to refuse (it
            # names the buffer or block).
            extra = 0
        else:
            if ndim is None:
                raise ValueError("an index map function with *args needs the number of "
                                 "dimensions (ndim)")
            extra = ndim - named
            if extra < 0:
                raise ValueError(f"the index map function names {named} indices, but "
                                 f"the buffer has {ndim} dimensions")
        names = positional + [f"{var_args}_{k}" for k in range(extra)] + keyword
        variables = [Var(n, index_dtype) for n in names]
        args = variables[:len(positional) + extra]
        kwargs = {n: v for n, v in zip(keyword, variables[len(args):])}
        result = mapping_function(*args, **kwargs)
        if isinstance(result, IndexMap):
            return result, []
        if isinstance(result, (PrimExpr, int, IntImm)):
            result = [result]
        finals, separators = [], []
        for value in result:
            if value is IndexMap.AXIS_SEPARATOR:
                separators.append(len(finals))
            else:
                finals.append(value)
        return IndexMap(variables, finals, inverse_index_map), separators

    @property
    def ndim(self):
        return len(self.initial_indices)

    def _attribute(self):
        """The map as the primitives take it: an affine map over d0, d1,
        ... (ValueError when an expression is not affine)."""
        return ext.Attribute.index_map(self.initial_indices, self.final_indices)

    def _symbolic_attribute(self, leading=()):
        """(map, names): the map with the Vars that are not its indices (a
        function's shape variables, scalar parameters) as symbols, and
        their names, by which the primitive finds their values; the Vars
        `leading` are the first symbols."""
        return ext.Attribute.symbolic_index_map(self.initial_indices, self.final_indices,
                                                leading=list(leading))

    def map_indices(self, indices):
        """The final indices for `indices`, simplified by tir's index
        arithmetic (ints give ints)."""
        from ..arith import Analyzer
        from .stmt_functor import substitute
        vmap = {var: index for var, index in zip(self.initial_indices, indices)}
        out = []
        for f in self.final_indices:
            value = Analyzer().simplify(substitute(f, vmap)) if isinstance(f, PrimExpr) else f
            out.append(value.value if isinstance(value, IntImm) else value)
        return out

    def inverse(self, shape):
        """TVM's IndexMap.inverse over the range `shape`: the map's own
        inverse where it was made with one (suggest_index_map's maps
        are); computing one is not supported yet (ValueError)."""
        if self.inverse_index_map is not None:
            inverse = self.inverse_index_map
            return inverse if isinstance(inverse, IndexMap) else IndexMap.from_func(inverse)
        raise ValueError("IndexMap.inverse: this map was made without its inverse, and "
                         "computing one is not supported yet")

    def is_equivalent_to(self, other):
        """TVM's IndexMap.is_equivalent_to: the same number of initial and
        final indices, and final indices that tir's index arithmetic
        proves equal once `other`'s initial indices are this map's (their
        dtypes aside)."""
        from ..arith import Analyzer
        if not isinstance(other, IndexMap):
            return False
        if (len(self.initial_indices) != len(other.initial_indices)
                or len(self.final_indices) != len(other.final_indices)):
            return False
        analyzer = Analyzer()
        for mine, theirs in zip(self.final_indices, other.map_indices(self.initial_indices)):
            if not isinstance(mine, PrimExpr) and not isinstance(theirs, PrimExpr):
                if mine != theirs:
                    return False
                continue
            mine = mine if isinstance(mine, PrimExpr) else IntImm("int32", mine)
            difference = analyzer.simplify(mine - theirs)
            if not (isinstance(difference, IntImm) and difference.value == 0):
                return False
        return True

    def __repr__(self):
        names = ", ".join(v.name for v in self.initial_indices)
        finals = ", ".join(f.script() if isinstance(f, PrimExpr) else str(f)
                           for f in self.final_indices)
        return f"IndexMap(lambda {names}: ({finals}{',' if len(self.final_indices) == 1 else ''}))"
