"""tvm.meta_schedule.builder: building candidates."""
from .builder import BuilderResult

__all__ = ["BuilderResult"]
