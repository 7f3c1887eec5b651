"""TVMScript: `from tensorir.script import tir as T` (and `ir as I`)."""
from . import ir, tir
from .parser import ScriptError

__all__ = ["ir", "tir", "ScriptError"]
