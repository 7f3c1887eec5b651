"""tvm.target: Target("llvm -mtriple=... -mattr=+sve") or a tag
(Target("nvidia/geforce-rtx-3080")), as a context manager
(Target.current() is the innermost one, None outside)."""
from . import tag
from .hexagon import hexagon
from .tag import list_tags, register_tag
from .target import Target, TargetKind

__all__ = ["Target", "TargetKind", "hexagon", "list_tags", "register_tag", "tag"]
