"""tvm.meta_schedule.database: what tuning measured."""
from .database import Database, PyDatabase, TuningRecord, Workload
from .json_database import JSONDatabase
from .memory_database import MemoryDatabase
from .ordered_union_database import OrderedUnionDatabase
from .schedule_fn_database import ScheduleFnDatabase
from .union_database import UnionDatabase

create = Database.create  # ms.database.create(kind="memory"), as TVM's

__all__ = ["Database", "JSONDatabase", "MemoryDatabase", "OrderedUnionDatabase", "PyDatabase",
           "ScheduleFnDatabase", "TuningRecord", "UnionDatabase", "Workload", "create"]
