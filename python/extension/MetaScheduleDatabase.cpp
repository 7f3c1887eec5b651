//===- MetaScheduleDatabase.cpp - tuning databases from Python ------------===//
//
// The MetaSchedule library's workloads, tuning records and databases as
// Python sees them; a database given as Python functions (TVM's
// PyDatabase) is the library's FunctionDatabase. Targets cross as
// Target.export() dicts, traces as _tensorir.TraceModel.
//
//===----------------------------------------------------------------------===//

#include "MetaSchedule.h"

#include "TensorIR/MetaSchedule/Database.h"

#include <pybind11/functional.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

using RecordRef = std::shared_ptr<ms::TuningRecord>;

std::optional<ms::Target> targetOf(py::handle target) {
  if (target.is_none())
    return std::nullopt;
  std::string error;
  return check(ms::Target::fromJSON(jsonFromPython(target), error), error);
}

py::object targetToPython(const std::optional<ms::Target> &target) {
  return target ? jsonToPython(target->toJSON()) : py::none();
}

ms::ModuleEquality equalityOf(const std::string &name) {
  std::string error;
  return check(ms::parseModuleEquality(name, error), error);
}

std::vector<RecordRef> share(std::vector<ms::TuningRecord> records) {
  std::vector<RecordRef> out;
  for (ms::TuningRecord &record : records)
    out.push_back(std::make_shared<ms::TuningRecord>(std::move(record)));
  return out;
}

std::vector<ms::TuningRecord> unshare(py::handle list) {
  std::vector<ms::TuningRecord> out;
  for (py::handle item : list)
    out.push_back(*item.cast<RecordRef>());
  return out;
}

py::object moduleToPython(ModuleOp mod) {
  return py::cast(PyModule::own(OwningOpRef<ModuleOp>(mod.clone())));
}

/// The FunctionDatabase of Python's functions (each None or callable).
std::shared_ptr<ms::FunctionDatabase>
makeFunctionDatabase(py::object hasWorkload, py::object commitWorkload,
                     py::object commitRecord, py::object getTopK,
                     py::object getAll, py::object queryRecord,
                     py::object querySchedule, py::object queryModule,
                     py::object size, const std::string &equality) {
  auto db = std::make_shared<ms::FunctionDatabase>(equalityOf(equality));
  if (!hasWorkload.is_none())
    db->hasWorkloadFn = [hasWorkload](ModuleOp mod, std::string &error) {
      return callPython<bool>(error, [&] {
        return py::bool_(hasWorkload(moduleToPython(mod))).cast<bool>();
      });
    };
  if (!commitWorkload.is_none())
    db->commitWorkloadFn = [commitWorkload](ModuleOp mod, std::string &error) {
      return callPython<ms::WorkloadRef>(error, [&] {
        return commitWorkload(moduleToPython(mod)).cast<ms::WorkloadRef>();
      });
    };
  if (!commitRecord.is_none())
    db->commitTuningRecordFn = [commitRecord](const ms::TuningRecord &record,
                                              std::string &error) {
      return callPythonVoid(error, [&] {
        commitRecord(std::make_shared<ms::TuningRecord>(record));
      });
    };
  if (!getTopK.is_none())
    db->getTopKFn = [getTopK](const ms::WorkloadRef &workload, int64_t k,
                              std::string &error) {
      return callPython<std::vector<ms::TuningRecord>>(
          error, [&] { return unshare(getTopK(workload, k)); });
    };
  if (!getAll.is_none())
    db->getAllTuningRecordsFn = [getAll](std::string &error) {
      return callPython<std::vector<ms::TuningRecord>>(
          error, [&] { return unshare(getAll()); });
    };
  if (!size.is_none())
    db->sizeFn = [size](std::string &error) {
      return callPython<int64_t>(
          error, [&] { return py::int_(size()).cast<int64_t>(); });
    };
  if (!queryRecord.is_none())
    db->queryTuningRecordFn =
        [queryRecord](ModuleOp mod, const std::optional<ms::Target> &target,
                      StringRef name, std::string &error) {
          return callPython<std::optional<ms::TuningRecord>>(
              error, [&]() -> std::optional<ms::TuningRecord> {
                py::object record = queryRecord(
                    moduleToPython(mod), targetToPython(target), name.str());
                if (record.is_none())
                  return std::nullopt;
                return *record.cast<RecordRef>();
              });
        };
  if (!querySchedule.is_none())
    db->queryScheduleFn =
        [querySchedule](ModuleOp mod, const std::optional<ms::Target> &target,
                        StringRef name, std::string &error) {
          return callPython<ms::Schedule>(error, [&]() -> ms::Schedule {
            py::object sch = querySchedule(moduleToPython(mod),
                                           targetToPython(target), name.str());
            if (sch.is_none())
              return nullptr;
            return sch.cast<PySchedule &>().state;
          });
        };
  if (!queryModule.is_none())
    db->queryIRModuleFn = [queryModule](ModuleOp mod,
                                        const std::optional<ms::Target> &target,
                                        StringRef name, std::string &error) {
      return callPython<OwningOpRef<ModuleOp>>(
          error, [&]() -> OwningOpRef<ModuleOp> {
            py::object result = queryModule(moduleToPython(mod),
                                            targetToPython(target), name.str());
            return moduleOrNull(result);
          });
    };
  return db;
}

} // namespace

void tirpy::bindMetaScheduleDatabase(py::module_ &m) {
  py::class_<ms::Workload, ms::WorkloadRef>(
      m, "Workload", py::dynamic_attr(),
      "TVM's Workload: a tuned module and its structural hash.")
      .def(py::init([](py::handle module) {
             auto workload = std::make_shared<ms::Workload>();
             workload->mod = moduleOrNull(module);
             if (!workload->mod)
               throw py::type_error("Workload takes a module");
             workload->shash =
                 ms::hashModule(*workload->mod, ms::ModuleEquality::Structural);
             return workload;
           }),
           py::arg("mod"))
      .def_property_readonly(
          "mod", [](const ms::Workload &w) { return moduleToPython(*w.mod); })
      .def_readonly("shash", &ms::Workload::shash)
      .def("as_json",
           [](const ms::Workload &w) { return jsonToPython(w.toJSON()); })
      .def_static(
          "from_json",
          [](py::handle json) {
            std::string error;
            return check(
                ms::Workload::fromJSON(&context(), jsonFromPython(json), error),
                error);
          },
          py::arg("json_obj"));

  py::class_<ms::TuningRecord, RecordRef>(
      m, "TuningRecord", py::dynamic_attr(),
      "TVM's TuningRecord: a trace of a workload, its run times, target and "
      "arguments.")
      .def(py::init([](const PyTraceModel &trace, ms::WorkloadRef workload,
                       std::optional<std::vector<double>> runSecs,
                       py::object target,
                       std::optional<std::vector<ms::TensorInfo>> argsInfo) {
             if (!workload)
               throw py::type_error("TuningRecord takes a workload");
             auto record = std::make_shared<ms::TuningRecord>();
             record->trace = trace.trace;
             record->workload = std::move(workload);
             record->runSecs = std::move(runSecs);
             record->target = targetOf(target);
             record->argsInfo = std::move(argsInfo);
             return record;
           }),
           py::arg("trace"), py::arg("workload"),
           py::arg("run_secs") = py::none(), py::arg("target") = py::none(),
           py::arg("args_info") = py::none())
      .def_property_readonly("trace",
                             [](const ms::TuningRecord &r) {
                               return PyTraceModel{r.trace, nullptr};
                             })
      .def_readonly("workload", &ms::TuningRecord::workload)
      .def_readonly("run_secs", &ms::TuningRecord::runSecs)
      .def_property_readonly(
          "target",
          [](const ms::TuningRecord &r) { return targetToPython(r.target); })
      .def_readonly("args_info", &ms::TuningRecord::argsInfo)
      .def("is_valid", &ms::TuningRecord::isValid)
      .def("mean_run_secs", &ms::TuningRecord::getMeanRunSecs)
      .def("as_json",
           [](const ms::TuningRecord &r) {
             std::string error;
             return jsonToPython(check(r.toJSON(error), error));
           })
      .def_static(
          "from_json",
          [](py::handle json, ms::WorkloadRef workload) {
            std::string error;
            return std::make_shared<ms::TuningRecord>(
                check(ms::TuningRecord::fromJSON(
                          &context(), jsonFromPython(json), workload, error),
                      error));
          },
          py::arg("json_obj"), py::arg("workload"))
      .def("transform_script",
           [](const ms::TuningRecord &r) {
             std::string error;
             OwningOpRef<ModuleOp> script =
                 check(r.createTransformScript(error), error);
             return print(script->getOperation());
           })
      .def("create_schedule", [](const ms::TuningRecord &r) {
        std::string error;
        return wrap(check(r.createSchedule(error), error));
      });

  using DB = ms::Database;
  py::class_<DB, std::shared_ptr<DB>>(m, "Database", py::dynamic_attr(),
                                      "TVM's Database.")
      .def_property_readonly(
          "module_equality",
          [](const DB &db) {
            return ms::getModuleEqualityName(db.getModuleEquality()).str();
          })
      .def(
          "has_workload",
          [](DB &db, py::handle module) {
            std::string error;
            return check(db.hasWorkload(moduleOf(module), error), error);
          },
          py::arg("mod"))
      .def(
          "commit_workload",
          [](DB &db, py::handle module) {
            std::string error;
            return check(db.commitWorkload(moduleOf(module), error), error);
          },
          py::arg("mod"))
      .def(
          "commit_tuning_record",
          [](DB &db, const RecordRef &record) {
            std::string error;
            check(db.commitTuningRecord(*record, error), error);
          },
          py::arg("record"))
      .def(
          "get_top_k",
          [](DB &db, const ms::WorkloadRef &workload, int64_t k) {
            std::string error;
            return share(check(db.getTopK(workload, k, error), error));
          },
          py::arg("workload"), py::arg("top_k"))
      .def("get_all_tuning_records",
           [](DB &db) {
             std::string error;
             return share(check(db.getAllTuningRecords(error), error));
           })
      .def("size",
           [](DB &db) {
             std::string error;
             return check(db.size(error), error);
           })
      .def(
          "query_tuning_record",
          [](DB &db, py::handle module, py::handle target,
             const std::string &name) -> std::optional<RecordRef> {
            std::string error;
            std::optional<ms::TuningRecord> record =
                check(db.queryTuningRecord(moduleOf(module), targetOf(target),
                                           name, error),
                      error);
            if (!record)
              return std::nullopt;
            return std::make_shared<ms::TuningRecord>(std::move(*record));
          },
          py::arg("mod"), py::arg("target"), py::arg("workload_name"))
      .def(
          "query_schedule",
          [](DB &db, py::handle module, py::handle target,
             const std::string &name) -> py::object {
            std::string error;
            ms::Schedule sch =
                check(db.querySchedule(moduleOf(module), targetOf(target), name,
                                       error),
                      error);
            return sch ? py::cast(wrap(sch)) : py::none();
          },
          py::arg("mod"), py::arg("target"), py::arg("workload_name"))
      .def(
          "query_ir_module",
          [](DB &db, py::handle module, py::handle target,
             const std::string &name) -> py::object {
            std::string error;
            OwningOpRef<ModuleOp> mod =
                check(db.queryIRModule(moduleOf(module), targetOf(target), name,
                                       error),
                      error);
            if (!mod)
              return py::none();
            return py::cast(PyModule::own(std::move(mod)));
          },
          py::arg("mod"), py::arg("target"), py::arg("workload_name"))
      .def(
          "dump_pruned",
          [](DB &db, DB &destination) {
            std::string error;
            check(db.dumpPruned(destination, error), error);
          },
          py::arg("destination"))
      .def(
          "export_transform_scripts",
          [](DB &db, const std::string &directory) {
            std::string error;
            return check(db.exportTransformScripts(directory, error), error);
          },
          py::arg("directory"))
      .def_static("enter", &DB::enter, py::arg("database"))
      .def_static("exit", &DB::exit)
      .def_static("current", &DB::current);

  py::class_<ms::MemoryDatabase, DB, std::shared_ptr<ms::MemoryDatabase>>(
      m, "MemoryDatabase", py::dynamic_attr())
      .def(py::init([](const std::string &equality) {
             return std::make_shared<ms::MemoryDatabase>(equalityOf(equality));
           }),
           py::arg("module_equality") = "structural");

  py::class_<ms::JSONDatabase, DB, std::shared_ptr<ms::JSONDatabase>>(
      m, "JSONDatabase", py::dynamic_attr())
      .def(py::init([](const std::string &pathWorkload,
                       const std::string &pathTuningRecord, bool allowMissing,
                       const std::string &equality) {
             std::string error;
             return check(ms::JSONDatabase::open(&context(), pathWorkload,
                                                 pathTuningRecord, allowMissing,
                                                 equalityOf(equality), error),
                          error);
           }),
           py::arg("path_workload"), py::arg("path_tuning_record"),
           py::arg("allow_missing") = true,
           py::arg("module_equality") = "structural")
      .def_property_readonly(
          "path_workload",
          [](const ms::JSONDatabase &db) { return db.getPathWorkload().str(); })
      .def_property_readonly("path_tuning_record",
                             [](const ms::JSONDatabase &db) {
                               return db.getPathTuningRecord().str();
                             });

  py::class_<ms::UnionDatabase, DB, std::shared_ptr<ms::UnionDatabase>>(
      m, "UnionDatabase", py::dynamic_attr())
      .def(py::init([](std::vector<std::shared_ptr<DB>> databases,
                       bool ordered) {
             return std::make_shared<ms::UnionDatabase>(std::move(databases),
                                                        ordered);
           }),
           py::arg("databases"), py::arg("ordered"))
      .def_property_readonly("databases", &ms::UnionDatabase::getDatabases);

  py::class_<ms::FunctionDatabase, DB, std::shared_ptr<ms::FunctionDatabase>>(
      m, "FunctionDatabase", py::dynamic_attr())
      .def(py::init(&makeFunctionDatabase), py::arg("f_has_workload"),
           py::arg("f_commit_workload"), py::arg("f_commit_tuning_record"),
           py::arg("f_get_top_k"), py::arg("f_get_all_tuning_records"),
           py::arg("f_query_tuning_record"), py::arg("f_query_schedule"),
           py::arg("f_query_ir_module"), py::arg("f_size"),
           py::arg("module_equality") = "structural");
}
