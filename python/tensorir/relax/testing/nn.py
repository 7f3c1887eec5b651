"""relax.testing.nn: graph variables for BlockBuilder-built tests
(Placeholder: an input; Parameter: a weight)."""
from ..expr import Var
from ..struct_info import TensorStructInfo


class Placeholder(Var):
    """An input tensor of `shape` and `dtype`, a relax.Var."""

    def __init__(self, shape, dtype="float32", name="data"):
        super().__init__(name, TensorStructInfo(tuple(shape), dtype))


class Parameter(Var):
    """A weight tensor of `shape` and `dtype`, a relax.Var."""

    def __init__(self, shape, dtype="float32", name="param"):
        super().__init__(name, TensorStructInfo(tuple(shape), dtype))


__all__ = ["Parameter", "Placeholder"]
