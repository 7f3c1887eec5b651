//===- MeasureCallback.cpp - what follows a measurement -------------------===//
//
// The callbacks every tuning uses (TVM's defaults): the records go to the
// database, the cost model learns from them, the artifacts are removed.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/MeasureCallback.h"
#include "TensorIR/MetaSchedule/Profiler.h"
#include "TensorIR/MetaSchedule/TaskScheduler.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::tir::ms;

MeasureCallback::~MeasureCallback() = default;

LogicalResult
AddToDatabase::apply(TaskScheduler &scheduler, int64_t taskId,
                     const std::vector<MeasureCandidate> &candidates,
                     const std::vector<BuilderResult> &,
                     const std::vector<RunnerResult> &runnerResults,
                     std::string &error) {
  if (!scheduler.database)
    return success();
  Profiler::TimedScope timer("MeasureCallback/AddToDatabase");
  TuneContext &task = *scheduler.tasks[taskId]->ctx;
  FailureOr<WorkloadRef> workload =
      scheduler.database->commitWorkload(task.mod.get(), error);
  if (failed(workload))
    return failure();
  for (auto [candidate, result] : llvm::zip(candidates, runnerResults)) {
    TuningRecord record;
    record.trace = candidate.sch->getInstructions();
    record.workload = *workload;
    // A candidate that did not build or run is recorded with TVM's
    // stand-in time, so that it is never sampled again nor the best.
    record.runSecs = result.runSecs && !result.errorMsg
                         ? *result.runSecs
                         : std::vector<double>{TuningRecord::kMaxMeanTime};
    record.target = task.target;
    record.argsInfo = candidate.argsInfo;
    if (failed(scheduler.database->commitTuningRecord(record, error)))
      return failure();
  }
  return success();
}

std::string AddToDatabase::str() const {
  return defaultRepr("AddToDatabase", this);
}

LogicalResult
UpdateCostModel::apply(TaskScheduler &scheduler, int64_t taskId,
                       const std::vector<MeasureCandidate> &candidates,
                       const std::vector<BuilderResult> &builderResults,
                       const std::vector<RunnerResult> &runnerResults,
                       std::string &error) {
  if (!scheduler.costModel)
    return success();
  Profiler::TimedScope timer("MeasureCallback/UpdateCostModel");
  std::vector<MeasureCandidate> measured;
  std::vector<RunnerResult> results;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const RunnerResult &result = runnerResults[i];
    double sum = 0;
    if (result.runSecs)
      for (double t : *result.runSecs)
        sum += t;
    if (!builderResults[i].errorMsg && result.runSecs && sum > 0) {
      measured.push_back(candidates[i]);
      results.push_back(result);
    }
  }
  return scheduler.costModel->update(*scheduler.tasks[taskId]->ctx, measured,
                                     results, error);
}

std::string UpdateCostModel::str() const {
  return defaultRepr("UpdateCostModel", this);
}

LogicalResult
RemoveBuildArtifact::apply(TaskScheduler &, int64_t,
                           const std::vector<MeasureCandidate> &,
                           const std::vector<BuilderResult> &builderResults,
                           const std::vector<RunnerResult> &, std::string &) {
  Profiler::TimedScope timer("MeasureCallback/RemoveBuildArtifact");
  // The artifact, and its folder once empty (TVM's remove_build_dir
  // removes the folder whatever it holds, which is no place for a
  // library to be wrong about).
  for (const BuilderResult &result : builderResults) {
    if (!result.artifactPath || result.artifactPath->empty())
      continue;
    (void)llvm::sys::fs::remove(*result.artifactPath);
    StringRef folder = llvm::sys::path::parent_path(*result.artifactPath);
    if (!folder.empty())
      (void)llvm::sys::fs::remove(folder); // fails unless empty
  }
  return success();
}

std::string RemoveBuildArtifact::str() const {
  return defaultRepr("RemoveBuildArtifact", this);
}

LogicalResult
FunctionMeasureCallback::apply(TaskScheduler &scheduler, int64_t taskId,
                               const std::vector<MeasureCandidate> &candidates,
                               const std::vector<BuilderResult> &builderResults,
                               const std::vector<RunnerResult> &runnerResults,
                               std::string &error) {
  return callGiven(applyFn, name, "Apply", error, scheduler, taskId, candidates,
                   builderResults, runnerResults);
}

std::string FunctionMeasureCallback::str() const {
  return strFn ? strFn() : defaultRepr(name, this);
}
