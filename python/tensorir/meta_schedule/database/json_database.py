"""JSONDatabase: TVM's two files of JSON lines (workloads, tuning
records)."""
import os

from ..._ext import ext
from ..utils import _bind, _wraps_native
from .database import Database

__all__ = ["JSONDatabase"]


@_wraps_native(ext.JSONDatabase)
class JSONDatabase(Database):
    """TVM's JSONDatabase: `path_workload` and `path_tuning_record`, or
    `work_dir` holding database_workload.json and
    database_tuning_record.json; missing files are created when
    allow_missing. Records are appended as they are committed."""

    def __init__(self, path_workload=None, path_tuning_record=None, *, work_dir=None,
                 allow_missing=True, module_equality="structural"):
        if work_dir is not None:
            os.makedirs(work_dir, exist_ok=True)
            if path_workload is None:
                path_workload = os.path.join(work_dir, "database_workload.json")
            if path_tuning_record is None:
                path_tuning_record = os.path.join(work_dir, "database_tuning_record.json")
        if path_workload is None or path_tuning_record is None:
            raise ValueError("JSONDatabase takes path_workload and path_tuning_record, or "
                             "work_dir")
        _bind(self, ext.JSONDatabase(os.fspath(path_workload), os.fspath(path_tuning_record),
                                     bool(allow_missing), module_equality))

    @property
    def path_workload(self):
        return self._native.path_workload

    @property
    def path_tuning_record(self):
        return self._native.path_tuning_record
