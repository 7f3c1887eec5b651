"""tvm.base: TVMError, as TVM's older code imports it."""
from .error import TVMError

__all__ = ["TVMError"]
