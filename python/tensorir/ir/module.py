"""tvm.ir.module: where TVM users import IRModule from."""
from . import IRModule

__all__ = ["IRModule"]
