//===- UnionDatabase.cpp - queries over several databases -----------------===//

#include "TensorIR/MetaSchedule/Database.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

std::string UnionDatabase::unsupported(StringRef method) const {
  return ((ordered ? "OrderedUnionDatabase" : "UnionDatabase") +
          Twine(" does not support ") + method +
          ": it only queries the databases it unites")
      .str();
}

FailureOr<std::optional<TuningRecord>>
UnionDatabase::queryTuningRecord(ModuleOp mod,
                                 const std::optional<Target> &target,
                                 StringRef workloadName, std::string &error) {
  std::optional<TuningRecord> best;
  for (const std::shared_ptr<Database> &db : databases) {
    FailureOr<std::optional<TuningRecord>> record =
        db->queryTuningRecord(mod, target, workloadName, error);
    if (failed(record))
      return failure();
    if (!*record)
      continue;
    if (ordered)
      return record;
    if (!best || (*record)->getMeanRunSecs() < best->getMeanRunSecs())
      best = std::move(*record);
  }
  return best;
}

FailureOr<bool> UnionDatabase::hasWorkload(ModuleOp, std::string &error) {
  error = unsupported("has_workload");
  return failure();
}

FailureOr<WorkloadRef> UnionDatabase::commitWorkload(ModuleOp,
                                                     std::string &error) {
  error = unsupported("commit_workload");
  return failure();
}

LogicalResult UnionDatabase::commitTuningRecord(const TuningRecord &,
                                                std::string &error) {
  error = unsupported("commit_tuning_record");
  return failure();
}

FailureOr<std::vector<TuningRecord>>
UnionDatabase::getTopK(const WorkloadRef &, int64_t, std::string &error) {
  error = unsupported("get_top_k");
  return failure();
}

FailureOr<std::vector<TuningRecord>>
UnionDatabase::getAllTuningRecords(std::string &error) {
  error = unsupported("get_all_tuning_records");
  return failure();
}

FailureOr<int64_t> UnionDatabase::size(std::string &error) {
  error = unsupported("size");
  return failure();
}
