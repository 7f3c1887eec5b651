"""tvm.tir.IndexMap: a map from a buffer's (or a block's) indices to new
ones, written as a Python function of the indices.

`IndexMap.from_func(lambda i, j: (i // 4, j, i % 4))` calls the function on
index variables and keeps the expressions it returns (`+ - * // %` build
TVM's floor division and modulo). The schedule hands the map to the C++
primitives as an affine map over dimensions d0, d1, ... (the initial
indices in order), built by the extension from the expressions;
`IndexMap.AXIS_SEPARATOR` in the returned list marks where a flattened
buffer's physical axes split (set_axis_separator).
"""
import inspect

from .._ext import ext
from .expr import IntImm
from .size_expr import SymbolicExpr as PrimExpr

__all__ = ["IndexMap", "IndexVar"]


class IndexVar(PrimExpr):
    """An initial index of an IndexMap: dimension `position` of the map."""

    def __init__(self, name, position, dtype="int32"):
        self.name, self.position, self.dtype = name, position, dtype

    def to_node(self):
        from .expr import Var
        if "_var" not in self.__dict__:
            self._var = Var(self.name, self.dtype)
        return self._var

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)


class _AxisSeparator:
    def __repr__(self):
        return "IndexMap.AXIS_SEPARATOR"


def _python_text(value):
    """An expression as Python source over the index names."""
    if isinstance(value, IndexVar):
        return value.name
    if isinstance(value, int):
        return str(value)
    spelling = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "floormod": "%"}
    op = spelling.get(value.op)
    if op is None:
        return f"T.{value.op}({_python_text(value.a)}, {_python_text(value.b)})"
    return f"({_python_text(value.a)} {op} {_python_text(value.b)})"


class IndexMap:
    """TVM's IndexMap: `initial_indices` (IndexVar) mapped to
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
        variables = [IndexVar(n, k, index_dtype) for k, n in enumerate(names)]
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
        return ext.Attribute.index_map(self.ndim, self.final_indices)

    def map_indices(self, indices):
        """The final indices for `indices` (ints give ints where every
        operation does)."""
        from .size_expr import fold

        def value(e):
            if isinstance(e, IndexVar):
                return indices[e.position]
            if isinstance(e, int):
                return e
            a, b = value(e.a), value(e.b)
            if isinstance(a, int) and isinstance(b, int):
                return fold(e.op, a, b)
            return type(e)(e.op, a, b)
        return [value(f) for f in self.final_indices]

    def __repr__(self):
        names = ", ".join(v.name for v in self.initial_indices)
        finals = ", ".join(_python_text(f) for f in self.final_indices)
        return f"IndexMap(lambda {names}: ({finals}{',' if len(self.final_indices) == 1 else ''}))"
