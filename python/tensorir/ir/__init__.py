"""tvm.ir: IRModule, nodes, structural equality and passes."""
from . import transform
from .base import assert_structural_equal, structural_equal, structural_hash
from .container import Array
from .module import IRModule
from .node import Node, Op, Range, SourceName, Span

__all__ = ["Array", "IRModule", "Node", "Op", "Range", "SourceName", "Span", "assert_structural_equal",
           "structural_equal", "structural_hash", "transform"]
