"""tvm.target: Target("llvm -mtriple=... -mattr=+sve"), as a context
manager (Target.current() is the innermost one, None outside)."""
from .target import Target, TargetKind

__all__ = ["Target", "TargetKind"]
