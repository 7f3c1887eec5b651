"""tvm.meta_schedule.database over the MetaSchedule library: TVM's JSON
files (the module as MLIR text, the trace as TVM's JSON), reloads and
appends, best records and queries, module equalities, unions, pruning,
databases written in Python, and clear errors for broken files."""
import json
import os
import time

import numpy as np
import pytest

import tensorir as tvm
from tensorir import meta_schedule as ms
from tensorir import te
from tensorir.meta_schedule.testing import te_workload
from tensorir.tir.schedule import Schedule

TARGET = tvm.target.Target("llvm")


def _matmul(n=64):
    return tvm.IRModule({"main": te.create_prim_func(te_workload.matmul(n, n, n))})


def _matmul_relu(n=64):
    return tvm.IRModule({"main": te.create_prim_func(te_workload.matmul_relu(n, n, n))})


def _tiled(mod, factor):
    sch = Schedule(mod)
    block = sch.get_block("C")
    i, _, _ = sch.get_loops(block)
    sch.split(i, factors=[None, factor])
    return sch


def _record(db, mod, secs, factor=8):
    workload = db.commit_workload(mod)
    record = ms.database.TuningRecord(_tiled(mod, factor).trace, workload, secs, TARGET,
                                      ms.arg_info.ArgInfo.from_prim_func(mod["main"]))
    db.commit_tuning_record(record)
    return record


def test_json_files_and_reload(tmp_path):
    mod = _matmul()
    db = ms.database.JSONDatabase(work_dir=str(tmp_path))
    _record(db, mod, [2e-3], factor=4)
    _record(db, mod, [1e-3, 3e-3], factor=16)
    _record(db, mod, [1e-3], factor=8)
    workload_lines = open(db.path_workload).read().splitlines()
    record_lines = open(db.path_tuning_record).read().splitlines()
    assert len(workload_lines) == 1 and len(record_lines) == 3
    shash, text = json.loads(workload_lines[0])
    assert int(shash) == db.commit_workload(mod).shash
    assert "tir.block \"C\"" in text  # the module as MLIR text
    index, (trace, secs, target, args) = json.loads(record_lines[0])
    assert index == 0 and secs == [2e-3] and target["kind"] == "llvm"
    assert trace[0][0][0] == "GetBlock" and args[0] == ["TENSOR", "float32", [64, 64]]

    again = ms.database.JSONDatabase(work_dir=str(tmp_path))
    assert len(again) == 3 and again.has_workload(mod)
    best = again.get_top_k(again.commit_workload(mod), 2)
    # Means 2e-3 tie: the one committed first comes first.
    assert [[t.value for t in r.run_secs] for r in best] == [[1e-3], [2e-3]]
    # The best record's module is the tiled one, and it computes the same.
    tuned = again.query_ir_module(mod, TARGET)
    assert tvm.ir.structural_equal(tuned, _tiled(mod, 8).mod)
    a, b = np.random.rand(64, 64).astype("float32"), np.random.rand(64, 64).astype("float32")
    c = np.zeros((64, 64), "float32")
    tvm.build(tuned, target="llvm")["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)
    # Appending to a reloaded database keeps one workload line.
    _record(again, mod, [5e-4])
    assert len(open(db.path_workload).read().splitlines()) == 1
    assert len(ms.database.JSONDatabase(work_dir=str(tmp_path))) == 4


def test_record_json_round_trip_and_validity():
    mod = _matmul()
    db = ms.database.MemoryDatabase()
    record = _record(db, mod, [1.5, 2.5])
    again = ms.database.TuningRecord.from_json(record.as_json(), record.workload)
    assert str(again.trace) == str(record.trace)
    assert [t.value for t in again.run_secs] == [1.5, 2.5]
    assert str(again.target) == str(record.target)
    assert again.is_valid()
    # No run time, the stand-in for a failed measurement, or an empty
    # trace: not valid, so never the best.
    workload = record.workload
    assert not ms.database.TuningRecord(record.trace, workload).is_valid()
    assert not ms.database.TuningRecord(record.trace, workload, [1e10]).is_valid()
    assert not ms.database.TuningRecord(Schedule(mod).trace, workload, [1.0]).is_valid()
    candidate = record.as_measure_candidate()
    assert tvm.ir.structural_equal(candidate.sch.mod, _tiled(mod, 8).mod)
    assert [i.shape for i in candidate.args_info] == [[64, 64]] * 3


def test_broken_files_are_named(tmp_path):
    workloads, records = tmp_path / "w.json", tmp_path / "r.json"
    db = ms.database.JSONDatabase(str(workloads), str(records))
    _record(db, _matmul(), [1.0])
    with open(records, "a") as f:
        f.write("[0, [not json\n")
    with pytest.raises(tvm.TVMError, match=r"line 2 of the database file '.*r.json' is not JSON"):
        ms.database.JSONDatabase(str(workloads), str(records))
    records.write_text("[3, [[[], []], [1.0], null, null]]\n")
    with pytest.raises(tvm.TVMError, match="workload index 3 is not one of the 1 workloads"):
        ms.database.JSONDatabase(str(workloads), str(records))
    with pytest.raises(tvm.TVMError, match="does not exist"):
        ms.database.JSONDatabase(str(tmp_path / "none.json"), str(records), allow_missing=False)
    with pytest.raises(tvm.TVMError, match="unknown module equality 'exact'"):
        ms.database.MemoryDatabase(module_equality="exact")
    # A record of another database's workload is refused by a JSON database.
    other = ms.database.MemoryDatabase()
    with pytest.raises(tvm.TVMError, match="was not committed to this database"):
        ms.database.JSONDatabase(str(tmp_path / "w2"), str(tmp_path / "r2")) \
            .commit_tuning_record(_record(other, _matmul(), [1.0]))


def test_module_equalities():
    # Structural: matmul and matmul + relu are two workloads.
    db = ms.database.MemoryDatabase()
    _record(db, _matmul(), [1.0])
    assert not db.has_workload(_matmul_relu())
    # Anchor block: both have the same reduction block C, so they share.
    anchored = ms.database.MemoryDatabase(module_equality="anchor-block")
    _record(anchored, _matmul(), [1.0])
    assert anchored.has_workload(_matmul_relu())
    assert not anchored.has_workload(_matmul(32))
    assert ms.database.MemoryDatabase(module_equality="ignore-tensor").has_workload(_matmul()) \
        is False


def test_union_current_and_pruning():
    mod = _matmul()
    slow, fast = ms.database.MemoryDatabase(), ms.database.MemoryDatabase()
    _record(slow, mod, [2.0])
    _record(fast, mod, [1.0], factor=16)

    def best(db):
        return db.query_tuning_record(mod, TARGET, "main").run_secs[0].value

    assert best(ms.database.UnionDatabase(slow, fast)) == 1.0
    assert best(ms.database.OrderedUnionDatabase(slow, fast)) == 2.0
    with pytest.raises(tvm.TVMError, match="UnionDatabase does not support commit_workload"):
        ms.database.UnionDatabase(slow).commit_workload(mod)
    assert ms.database.Database.current() is None
    with fast:
        assert ms.database.Database.current() is fast
    assert ms.database.Database.current() is None

    _record(slow, mod, [0.5])
    _record(slow, _matmul(32), [1e10])  # never measured: pruned away
    pruned = ms.database.MemoryDatabase()
    slow.dump_pruned(pruned)
    (record,) = pruned.get_all_tuning_records()
    assert record.run_secs[0].value == 0.5
    assert ms.database.MemoryDatabase().query_schedule(mod, TARGET, "main") is None


def test_py_database_and_schedule_fn_database():
    @ms.derived_object
    class Listed(ms.database.PyDatabase):
        def __init__(self):
            self.workloads, self.records = [], []

        def has_workload(self, mod):
            return any(tvm.ir.structural_equal(w.mod, mod) for w in self.workloads)

        def commit_workload(self, mod):
            for w in self.workloads:
                if tvm.ir.structural_equal(w.mod, mod):
                    return w
            self.workloads.append(ms.database.Workload(mod))
            return self.workloads[-1]

        def commit_tuning_record(self, record):
            self.records.append(record)

        def get_top_k(self, workload, top_k):
            return sorted(self.records, key=lambda r: r.run_secs[0].value)[:top_k]

        def get_all_tuning_records(self):
            return self.records

        def __len__(self):
            return len(self.records)

    db = Listed()
    mod = _matmul()
    _record(db, mod, [3.0], factor=4)
    _record(db, mod, [1.0], factor=16)
    assert len(db) == 2
    # The queries not overridden are the library's, over get_top_k.
    assert tvm.ir.structural_equal(db.query(mod, TARGET, kind="ir_module"),
                                   _tiled(mod, 16).mod)

    def tile(sch):
        _tiled_in_place(sch)
        return True

    def _tiled_in_place(sch):
        i, _, _ = sch.get_loops(sch.get_block("C"))
        sch.split(i, factors=[None, 2])

    by_function = ms.database.Database.create(tile)
    assert len(by_function.query_schedule(mod, TARGET).get_loops("C")) == 4
    assert by_function.query_tuning_record(mod, TARGET).run_secs[0].value == 0.0


def test_ten_thousand_records_load_fast(tmp_path):
    mod = _matmul()
    db = ms.database.JSONDatabase(work_dir=str(tmp_path))
    record = _record(db, mod, [1e-3])
    line = open(db.path_tuning_record).read()
    with open(db.path_tuning_record, "a") as f:
        f.write(line * 9999)
    start = time.perf_counter()
    loaded = ms.database.JSONDatabase(work_dir=str(tmp_path))
    seconds = time.perf_counter() - start
    assert len(loaded) == 10000
    # TVM's users wait minutes for large databases; the issue asks < 2 s
    # on this machine kind (measured 0.8 s), with room for slow CI hosts.
    assert seconds < 6, seconds
    assert str(loaded.get_top_k(loaded.commit_workload(mod), 1)[0].trace) == str(record.trace)


def test_best_records_as_transform_scripts(tmp_path):
    # The best record of each workload, as a transform script beside its
    # module: tir-opt applies it with no Python and gives the tuned module.
    import subprocess

    from conftest import built_tool
    tir_opt = built_tool("tir-opt")
    if tir_opt is None:
        pytest.skip("tir-opt is not built")
    db = ms.database.MemoryDatabase()
    _record(db, _matmul(), [2.0], factor=4)
    _record(db, _matmul(), [1.0], factor=16)
    _record(db, _matmul_relu(), [1.0], factor=8)
    _record(db, _matmul(32), [1e10])  # never measured: no script
    paths = db.export_transform_scripts(tmp_path / "scripts")
    assert [os.path.basename(p) for p in paths] == ["0_main.mlir", "1_main.mlir"]
    text = open(paths[0]).read()
    assert "transform.named_sequence @__transform_main" in text
    assert "mean run time 1 s" in text
    out = subprocess.run([tir_opt, paths[0], "--transform-interpreter"], capture_output=True,
                         text=True, check=True).stdout
    tuned = tvm.IRModule.from_mlir(out)
    assert tvm.ir.structural_equal(tuned["main"], _tiled(_matmul(), 16).mod["main"])
    # One record alone, as text.
    record = db.get_top_k(db.commit_workload(_matmul_relu()), 1)[0]
    assert "transform.tir.split" in record.as_transform_script()


def test_databases_made_by_kind():
    assert isinstance(ms.database.create("memory"), ms.database.MemoryDatabase)
    with pytest.raises(ValueError, match="Unknown Database: disk"):
        ms.database.create("disk")
