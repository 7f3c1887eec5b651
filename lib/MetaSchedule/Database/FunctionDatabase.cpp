//===- FunctionDatabase.cpp - a database given as functions ---------------===//

#include "TensorIR/MetaSchedule/Database.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

FailureOr<bool> FunctionDatabase::hasWorkload(ModuleOp mod,
                                              std::string &error) {
  return callGiven(hasWorkloadFn, name, "HasWorkload", error, mod);
}

FailureOr<WorkloadRef> FunctionDatabase::commitWorkload(ModuleOp mod,
                                                        std::string &error) {
  return callGiven(commitWorkloadFn, name, "CommitWorkload", error, mod);
}

LogicalResult FunctionDatabase::commitTuningRecord(const TuningRecord &record,
                                                   std::string &error) {
  return callGiven(commitTuningRecordFn, name, "CommitTuningRecord", error,
                   record);
}

FailureOr<std::vector<TuningRecord>>
FunctionDatabase::getTopK(const WorkloadRef &workload, int64_t k,
                          std::string &error) {
  return callGiven(getTopKFn, name, "GetTopK", error, workload, k);
}

FailureOr<std::vector<TuningRecord>>
FunctionDatabase::getAllTuningRecords(std::string &error) {
  return callGiven(getAllTuningRecordsFn, name, "GetAllTuningRecords", error);
}

FailureOr<int64_t> FunctionDatabase::size(std::string &error) {
  return callGiven(sizeFn, name, "Size", error);
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
