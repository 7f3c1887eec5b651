"""tvm.ir: IRModule and structural equality."""
from .base import assert_structural_equal, structural_equal, structural_hash
from .module import IRModule

__all__ = ["IRModule", "assert_structural_equal", "structural_equal", "structural_hash"]
