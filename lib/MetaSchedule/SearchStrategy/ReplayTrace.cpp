//===- ReplayTrace.cpp - design-space traces with fresh decisions ---------===//

#include "TensorIR/MetaSchedule/SearchStrategy.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

LogicalResult ReplayTrace::preTuning(int64_t trials, int64_t trialsPerIter,
                                     const std::vector<Schedule> &spaces,
                                     std::shared_ptr<Database>,
                                     std::shared_ptr<CostModel>,
                                     std::string &error) {
  if (spaces.empty()) {
    error = "ReplayTrace needs at least one design space";
    return failure();
  }
  if (failed(startTuning(trials, trialsPerIter, error)))
    return failure();
  designSpaces.clear();
  for (const Schedule &space : spaces)
    designSpaces.push_back(space->getInstructions().simplified(true));
  return success();
}

FailureOr<std::optional<std::vector<MeasureCandidate>>>
ReplayTrace::generateMeasureCandidates(std::string &error) {
  if (!tuning) {
    error = "generate_measure_candidates outside pre_tuning / post_tuning";
    return failure();
  }
  if (failed(checkContext(error)))
    return failure();
  if (!nextBatch())
    return std::optional<std::vector<MeasureCandidate>>();
  ArrayRef<std::shared_ptr<Postproc>> postprocs = getPostprocs();
  std::vector<MeasureCandidate> batch;
  std::vector<int64_t> failures;
  for (int64_t i = st; i < ed; ++i) {
    Schedule sch;
    for (int64_t attempt = 0; !sch && attempt < maxFailCount; ++attempt) {
      int64_t index =
          sampleInt(randState, 0, static_cast<int64_t>(designSpaces.size()));
      FailureOr<Schedule> applied = applyTraceAndPostprocs(
          context->mod.get(), withoutDecisions(designSpaces[index]), randState,
          postprocs, failures, error);
      if (failed(applied))
        return failure();
      sch = *applied;
    }
    // As TVM's: a slot whose samples the postprocessors all rejected is
    // left out of the batch.
    if (!sch)
      continue;
    FailureOr<MeasureCandidate> candidate = makeMeasureCandidate(sch, error);
    if (failed(candidate))
      return failure();
    batch.push_back(std::move(*candidate));
  }
  return endIfEmpty(std::move(batch), "ReplayTrace", maxFailCount);
}

FailureOr<std::shared_ptr<SearchStrategy>>
ReplayTrace::clone(std::string &) const {
  auto copy = std::make_shared<ReplayTrace>();
  copy->maxFailCount = maxFailCount;
  return std::shared_ptr<SearchStrategy>(copy);
}
