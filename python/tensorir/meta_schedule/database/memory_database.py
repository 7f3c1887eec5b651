"""MemoryDatabase: tuning records in memory."""
from ..._ext import ext
from ..utils import _bind, _wraps_native
from .database import Database

__all__ = ["MemoryDatabase"]


@_wraps_native(ext.MemoryDatabase)
class MemoryDatabase(Database):
    """TVM's MemoryDatabase(module_equality="structural")."""

    def __init__(self, module_equality="structural"):
        _bind(self, ext.MemoryDatabase(module_equality))
