//===- ReplayFunc.cpp - the space generator asked again -------------------===//

#include "TensorIR/MetaSchedule/SearchStrategy.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

LogicalResult ReplayFunc::preTuning(int64_t trials, int64_t trialsPerIter,
                                    const std::vector<Schedule> &,
                                    std::shared_ptr<Database>,
                                    std::shared_ptr<CostModel>,
                                    std::string &error) {
  if (!context || !context->spaceGenerator) {
    error = "ReplayFunc needs the tune context's space generator";
    return failure();
  }
  return startTuning(trials, trialsPerIter, error);
}

FailureOr<std::optional<std::vector<MeasureCandidate>>>
ReplayFunc::generateMeasureCandidates(std::string &error) {
  if (!tuning) {
    error = "generate_measure_candidates outside pre_tuning / post_tuning";
    return failure();
  }
  if (failed(checkContext(error)))
    return failure();
  if (!nextBatch())
    return std::optional<std::vector<MeasureCandidate>>();
  SpaceGenerator &generator = *context->spaceGenerator;
  ArrayRef<std::shared_ptr<Postproc>> postprocs = getPostprocs();
  std::vector<MeasureCandidate> batch;
  std::vector<int64_t> failures;
  for (int64_t i = st; i < ed; ++i) {
    Schedule picked;
    for (int64_t attempt = 0; !picked && attempt < maxFailCount; ++attempt) {
      FailureOr<std::vector<Schedule>> spaces =
          generator.generateDesignSpace(context->mod.get(), error);
      if (failed(spaces))
        return failure();
      if (spaces->empty()) {
        error = "ReplayFunc: the space generator gave no design space";
        return failure();
      }
      Schedule sch = (*spaces)[sampleInt(randState, 0,
                                         static_cast<int64_t>(spaces->size()))];
      FailureOr<bool> accepted =
          applyPostprocs(sch, postprocs, failures, error);
      if (failed(accepted))
        return failure();
      if (*accepted)
        picked = sch;
    }
    if (!picked)
      continue;
    FailureOr<MeasureCandidate> candidate = makeMeasureCandidate(picked, error);
    if (failed(candidate))
      return failure();
    batch.push_back(std::move(*candidate));
  }
  return endIfEmpty(std::move(batch), "ReplayFunc", maxFailCount);
}

FailureOr<std::shared_ptr<SearchStrategy>>
ReplayFunc::clone(std::string &) const {
  auto copy = std::make_shared<ReplayFunc>();
  copy->maxFailCount = maxFailCount;
  return std::shared_ptr<SearchStrategy>(copy);
}
