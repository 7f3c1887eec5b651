//===- MemoryDatabase.cpp - tuning records in memory ----------------------===//

#include "TensorIR/MetaSchedule/Database.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

/// Whether `record` belongs to `workload` under `equality`.
static bool belongsTo(const TuningRecord &record, const WorkloadRef &workload,
                      ModuleEquality equality) {
  return record.workload == workload ||
         (record.workload->shash == workload->shash &&
          equalModules(*record.workload->mod, *workload->mod, equality));
}

WorkloadRef MemoryDatabase::findWorkload(ModuleOp mod, uint64_t shash) const {
  for (const WorkloadRef &workload : workloads)
    if (workload->shash == shash && equalModules(*workload->mod, mod, equality))
      return workload;
  return nullptr;
}

FailureOr<bool> MemoryDatabase::hasWorkload(ModuleOp mod, std::string &) {
  return findWorkload(mod, hashModule(mod, equality)) != nullptr;
}

FailureOr<WorkloadRef> MemoryDatabase::commitWorkload(ModuleOp mod,
                                                      std::string &) {
  uint64_t shash = hashModule(mod, equality);
  if (WorkloadRef found = findWorkload(mod, shash))
    return found;
  auto workload = std::make_shared<Workload>();
  workload->mod = mod.clone();
  workload->shash = shash;
  workloads.push_back(workload);
  return workload;
}

LogicalResult MemoryDatabase::commitTuningRecord(const TuningRecord &record,
                                                 std::string &error) {
  if (!record.workload) {
    error = "a tuning record needs its workload";
    return failure();
  }
  records.push_back(record);
  return success();
}

FailureOr<std::vector<TuningRecord>>
MemoryDatabase::getTopK(const WorkloadRef &workload, int64_t k,
                        std::string &error) {
  if (k < 0) {
    error = "top_k must be non-negative, got " + std::to_string(k);
    return failure();
  }
  // (mean run time, position): the best first, ties in commit order.
  std::vector<std::pair<double, size_t>> order;
  for (auto [index, record] : llvm::enumerate(records))
    if (record.isValid() && belongsTo(record, workload, equality))
      order.emplace_back(record.getMeanRunSecs(), index);
  llvm::sort(order);
  std::vector<TuningRecord> found;
  for (auto [mean, index] : order) {
    if (found.size() == static_cast<size_t>(k))
      break;
    found.push_back(records[index]);
  }
  return found;
}

FailureOr<std::vector<TuningRecord>>
MemoryDatabase::getAllTuningRecords(std::string &) {
  return records;
}

FailureOr<int64_t> MemoryDatabase::size(std::string &) {
  return static_cast<int64_t>(records.size());
}
