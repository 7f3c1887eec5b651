"""UnionDatabase: the best record of several databases."""
from ..._ext import ext
from ..utils import _bind, _native_of, _wraps_native
from .database import Database

__all__ = ["UnionDatabase"]


@_wraps_native(ext.UnionDatabase)
class UnionDatabase(Database):
    """TVM's UnionDatabase(*databases): queries give the best record of
    all of them; nothing is committed through it."""

    _ORDERED = False

    def __init__(self, *databases):
        natives = [_native_of(db, Database, type(self).__name__) for db in databases]
        _bind(self, ext.UnionDatabase(natives, self._ORDERED))
        self._databases = list(databases)
