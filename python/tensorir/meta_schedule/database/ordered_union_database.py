"""OrderedUnionDatabase: the record of the first database that has one."""
from .union_database import UnionDatabase

__all__ = ["OrderedUnionDatabase"]


class OrderedUnionDatabase(UnionDatabase):
    """TVM's OrderedUnionDatabase(*databases): queries give the best record
    of the first database that has one."""

    _ORDERED = True
