//===- FunctionDatabase.cpp - a database given as functions ---------------===//

#include "TensorIR/MetaSchedule/Database.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

FailureOr<bool> FunctionDatabase::hasWorkload(ModuleOp mod,
                                              std::string &error) {
  if (!hasWorkloadFn) {
    error = notImplemented(name, "HasWorkload");
    return failure();
  }
  return hasWorkloadFn(mod, error);
}

FailureOr<WorkloadRef> FunctionDatabase::commitWorkload(ModuleOp mod,
                                                        std::string &error) {
  if (!commitWorkloadFn) {
    error = notImplemented(name, "CommitWorkload");
    return failure();
  }
  return commitWorkloadFn(mod, error);
}

LogicalResult FunctionDatabase::commitTuningRecord(const TuningRecord &record,
                                                   std::string &error) {
  if (!commitTuningRecordFn) {
    error = notImplemented(name, "CommitTuningRecord");
    return failure();
  }
  return commitTuningRecordFn(record, error);
}

FailureOr<std::vector<TuningRecord>>
FunctionDatabase::getTopK(const WorkloadRef &workload, int64_t k,
                          std::string &error) {
  if (!getTopKFn) {
    error = notImplemented(name, "GetTopK");
    return failure();
  }
  return getTopKFn(workload, k, error);
}

FailureOr<std::vector<TuningRecord>>
FunctionDatabase::getAllTuningRecords(std::string &error) {
  if (!getAllTuningRecordsFn) {
    error = notImplemented(name, "GetAllTuningRecords");
    return failure();
  }
  return getAllTuningRecordsFn(error);
}

FailureOr<int64_t> FunctionDatabase::size(std::string &error) {
  if (!sizeFn) {
    error = notImplemented(name, "Size");
    return failure();
  }
  return sizeFn(error);
}

FailureOr<std::optional<TuningRecord>> FunctionDatabase::queryTuningRecord(
    ModuleOp mod, const std::optional<Target> &target, StringRef workloadName,
    std::string &error) {
  if (!queryTuningRecordFn)
    return Database::queryTuningRecord(mod, target, workloadName, error);
  return queryTuningRecordFn(mod, target, workloadName, error);
}

FailureOr<Schedule>
FunctionDatabase::querySchedule(ModuleOp mod,
                                const std::optional<Target> &target,
                                StringRef workloadName, std::string &error) {
  if (!queryScheduleFn)
    return Database::querySchedule(mod, target, workloadName, error);
  return queryScheduleFn(mod, target, workloadName, error);
}

FailureOr<OwningOpRef<ModuleOp>>
FunctionDatabase::queryIRModule(ModuleOp mod,
                                const std::optional<Target> &target,
                                StringRef workloadName, std::string &error) {
  if (!queryIRModuleFn)
    return Database::queryIRModule(mod, target, workloadName, error);
  return queryIRModuleFn(mod, target, workloadName, error);
}
