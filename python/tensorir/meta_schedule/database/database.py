"""Database, Workload and TuningRecord: what tuning measured (the
MetaSchedule library's databases), and PyDatabase, one written in
Python."""
from ..._ext import ext
from ...ir import IRModule
from ...target import Target
from ...tir.schedule import Schedule, Trace
from ..arg_info import ArgInfo, TensorInfo
from ..utils import _bind, _object_of, _wraps_native

__all__ = ["Database", "PyDatabase", "TuningRecord", "Workload"]


def _as_module(mod, what):
    from ...tir.function import PrimFunc
    if isinstance(mod, PrimFunc):
        mod = IRModule({"main": mod})
    if not isinstance(mod, IRModule):
        raise TypeError(f"{what} takes an IRModule, got {type(mod).__name__}")
    return mod


def _target_json(target):
    if target is None:
        return None
    if not isinstance(target, Target):
        target = Target(target)
    return target.export()


@_wraps_native(ext.Workload)
class Workload:
    """TVM's Workload: a tuned module and its structural hash."""

    def __init__(self, mod):
        _bind(self, ext.Workload(_as_module(mod, "Workload")._native))

    @property
    def mod(self):
        return IRModule(self._native.mod)

    @property
    def shash(self):
        return self._native.shash

    def as_json(self):
        """["<hash>", "<the module as MLIR text>"]."""
        return self._native.as_json()

    @staticmethod
    def from_json(json_obj):
        return _object_of(ext.Workload.from_json(json_obj))


def _float_imm(value):
    from ...tir.expr import FloatImm
    return FloatImm("float32", value)


@_wraps_native(ext.TuningRecord)
class TuningRecord:
    """TVM's TuningRecord(trace, workload, run_secs, target, args_info)."""

    def __init__(self, trace, workload, run_secs=None, target=None, args_info=None):
        if not isinstance(trace, Trace):
            raise TypeError(f"TuningRecord takes a Trace, got {type(trace).__name__}")
        if not isinstance(workload, Workload):
            raise TypeError(f"TuningRecord takes a Workload, got {type(workload).__name__}")
        secs = None
        if run_secs is not None:
            secs = [float(getattr(t, "value", t)) for t in run_secs]
        infos = None
        if args_info is not None:
            infos = [info._native for info in args_info]
        _bind(self, ext.TuningRecord(trace._native, workload._native, secs,
                                     _target_json(target), infos))

    @property
    def trace(self):
        return Trace(self._native.trace)

    @property
    def workload(self):
        return _object_of(self._native.workload)

    @property
    def run_secs(self):
        secs = self._native.run_secs
        return None if secs is None else [_float_imm(t) for t in secs]

    @property
    def target(self):
        target = self._native.target
        return None if target is None else Target(target)

    @property
    def args_info(self):
        infos = self._native.args_info
        return None if infos is None else [TensorInfo._wrap(i) for i in infos]

    def is_valid(self):
        return self._native.is_valid()

    def as_json(self):
        """[trace, run_secs, target, args_info] in TVM's layout."""
        return self._native.as_json()

    @staticmethod
    def from_json(json_obj, workload):
        return _object_of(ext.TuningRecord.from_json(json_obj, workload._native))

    def as_transform_script(self):
        """Beyond TVM: the workload's module with the trace as a transform
        script beside it (MLIR text; tir-opt --transform-interpreter
        applies it)."""
        return self._native.transform_script()

    def as_measure_candidate(self):
        """TVM's as_measure_candidate: the record's schedule (its trace
        applied to the workload) with its arguments."""
        from ..search_strategy import MeasureCandidate
        sch = Schedule._from_native(self._native.create_schedule())
        return MeasureCandidate(sch, ArgInfo.from_entry_func(sch.mod, remove_preproc=True))


@_wraps_native(ext.Database)
class Database:
    """TVM's Database: workloads found by module equality, and their tuning
    records; `with db:` makes it Database.current()."""

    def has_workload(self, mod):
        return self._native.has_workload(_as_module(mod, "has_workload")._native)

    def commit_workload(self, mod):
        return _object_of(self._native.commit_workload(
            _as_module(mod, "commit_workload")._native))

    def commit_tuning_record(self, record):
        if not isinstance(record, TuningRecord):
            raise TypeError(f"commit_tuning_record takes a TuningRecord, got "
                            f"{type(record).__name__}")
        self._native.commit_tuning_record(record._native)

    def get_top_k(self, workload, top_k):
        return [_object_of(r) for r in self._native.get_top_k(workload._native, int(top_k))]

    def get_all_tuning_records(self):
        return [_object_of(r) for r in self._native.get_all_tuning_records()]

    def __len__(self):
        return self._native.size()

    def query_tuning_record(self, mod, target, workload_name="main"):
        record = self._native.query_tuning_record(
            _as_module(mod, "query_tuning_record")._native, _target_json(target),
            workload_name or "main")
        return _object_of(record)

    def query_schedule(self, mod, target, workload_name="main"):
        native = self._native.query_schedule(
            _as_module(mod, "query_schedule")._native, _target_json(target),
            workload_name or "main")
        return None if native is None else Schedule._from_native(native)

    def query_ir_module(self, mod, target, workload_name="main"):
        native = self._native.query_ir_module(
            _as_module(mod, "query_ir_module")._native, _target_json(target),
            workload_name or "main")
        return None if native is None else IRModule(native)

    def query(self, mod, target, *, workload_name="main", kind="schedule"):
        """The best record ("record"), its schedule ("schedule") or its
        module ("ir_module") of a module equal to `mod`, or None."""
        if kind == "schedule":
            return self.query_schedule(mod, target, workload_name)
        if kind == "record":
            return self.query_tuning_record(mod, target, workload_name)
        if kind == "ir_module":
            return self.query_ir_module(mod, target, workload_name)
        raise ValueError(f'Unknown kind: {kind}. Candidates are: "schedule", "record", '
                         '"ir_module"')

    def export_transform_scripts(self, directory):
        """Beyond TVM: the best valid record of each workload written to
        `directory` as `<n>_<function>.mlir`, the workload's module with
        the record's trace as a transform script (its decisions included),
        which `tir-opt --transform-interpreter` turns into the tuned module
        with no Python; the paths written."""
        import os
        return self._native.export_transform_scripts(os.fspath(directory))

    def dump_pruned(self, destination):
        """The best valid record of each workload, committed to
        `destination`."""
        self._native.dump_pruned(destination._native)

    def __enter__(self):
        ext.Database.enter(self._native)
        return self

    def __exit__(self, ptype, value, trace):
        ext.Database.exit()

    @staticmethod
    def current():
        return _object_of(ext.Database.current())

    @staticmethod
    def create(kind="json", *args, **kwargs):
        """TVM's Database.create: "json", "memory", "union",
        "ordered_union", or a schedule function (ScheduleFnDatabase)."""
        from .json_database import JSONDatabase
        from .memory_database import MemoryDatabase
        from .ordered_union_database import OrderedUnionDatabase
        from .schedule_fn_database import ScheduleFnDatabase
        from .union_database import UnionDatabase
        if callable(kind):
            return ScheduleFnDatabase(kind, *args, **kwargs)
        if kind == "json":
            return JSONDatabase(*args, **kwargs)
        if kind == "memory":
            return MemoryDatabase(*args, **kwargs)
        if kind == "union":
            return UnionDatabase(*args, **kwargs)
        if kind == "ordered_union":
            return OrderedUnionDatabase(*args, **kwargs)
        raise ValueError(f"Unknown Database: {kind}")


def _module_fn(f):
    """f(mod: IRModule, ...) as the library calls it (a native module)."""
    if f is None:
        return None
    return lambda native, *args: f(IRModule(native), *args)


def _query_fn(f, convert):
    if f is None:
        return None

    def query(native_module, target, name):
        result = f(IRModule(native_module), None if target is None else Target(target), name)
        return None if result is None else convert(result)

    return query


@_wraps_native(ext.FunctionDatabase)
class _PyDatabase(Database):
    def __init__(self, f_has_workload=None, f_commit_workload=None,
                 f_commit_tuning_record=None, f_get_top_k=None,
                 f_get_all_tuning_records=None, f_query_tuning_record=None,
                 f_query_schedule=None, f_query_ir_module=None, f_size=None,
                 module_equality="structural"):
        def commit_workload(native_module):
            return f_commit_workload(IRModule(native_module))._native

        def commit_record(native_record):
            f_commit_tuning_record(_object_of(native_record))

        def get_top_k(native_workload, k):
            return [r._native for r in f_get_top_k(_object_of(native_workload), k)]

        def get_all():
            return [r._native for r in f_get_all_tuning_records()]

        _bind(self, ext.FunctionDatabase(
            _module_fn(f_has_workload),
            None if f_commit_workload is None else commit_workload,
            None if f_commit_tuning_record is None else commit_record,
            None if f_get_top_k is None else get_top_k,
            None if f_get_all_tuning_records is None else get_all,
            _query_fn(f_query_tuning_record, lambda r: r._native),
            _query_fn(f_query_schedule, lambda s: s._native),
            _query_fn(f_query_ir_module, lambda m: m._native),
            f_size, module_equality))


class PyDatabase:
    """TVM's PyDatabase: subclass it and decorate with derived_object; the
    query methods not overridden are the library's (from get_top_k)."""

    _tvm_metadata = {
        "cls": _PyDatabase,
        "methods": ["has_workload", "commit_workload", "commit_tuning_record", "get_top_k",
                    "get_all_tuning_records", "query_tuning_record", "query_schedule",
                    "query_ir_module", "__len__"],
    }

    def has_workload(self, mod):
        raise NotImplementedError

    def commit_workload(self, mod):
        raise NotImplementedError

    def commit_tuning_record(self, record):
        raise NotImplementedError

    def get_top_k(self, workload, top_k):
        raise NotImplementedError

    def get_all_tuning_records(self):
        raise NotImplementedError

    def query_tuning_record(self, mod, target, workload_name=None):
        raise NotImplementedError

    def query_schedule(self, mod, target, workload_name=None):
        raise NotImplementedError

    def query_ir_module(self, mod, target, workload_name=None):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError
