//===- AddRFactor.cpp - TVM's AddRFactor ----------------------------------===//
//
// A reduction with little spatial parallelism (a softmax's row maximum, a
// norm) gains parallelism by rfactor: its reduction loops are fused,
// split in two by a sampled tiling, and each half in turn becomes the
// factored loop of an alternative; the block without rfactor stays an
// alternative too. The rfactor block, the producer of the original, is
// marked so that RandomComputeLocation places it.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

class AddRFactor : public ScheduleRule {
public:
  AddRFactor(int64_t maxJobsPerCore, int64_t maxInnermostFactor)
      : maxJobsPerCore(maxJobsPerCore), maxInnermostFactor(maxInnermostFactor) {
  }

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override {
    FailureOr<int64_t> cores = getTargetNumCores(context, error);
    if (failed(cores))
      return failure();
    if (maxJobsPerCore != -1)
      maxParallelExtent = *cores * maxJobsPerCore;
    return success();
  }

  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override {
    ScheduleSteps steps(*sch, error);
    BlockOp op = steps.getBlockOp(block);
    if (!op || !needsRFactorOrCrossThreadReduction(op, maxParallelExtent))
      return std::vector<Schedule>{sch};
    // The schedule without rfactor, last among the alternatives.
    Schedule original(sch->copy());
    std::string ignored;
    if (failed(original->seed(sch->forkSeed(), ignored)))
      return failure();

    FailureOr<std::pair<Value, int64_t>> fused =
        reorderAndFuseReductionLoops(steps, block, error);
    if (failed(fused))
      return failure();
    auto [reduceLoop, numSpatialLoops] = *fused;
    FailureOr<SmallVector<Value>> factors =
        steps.samplePerfectTile(reduceLoop, 2, maxInnermostFactor);
    if (failed(factors))
      return failure();
    FailureOr<SmallVector<Value>> halves = steps.split(reduceLoop, *factors);
    if (failed(halves))
      return failure();

    std::vector<Schedule> results;
    for (Value half : *halves) {
      Schedule alternative(sch->copy());
      if (failed(alternative->seed(sch->forkSeed(), ignored)))
        return failure();
      // An rfactor the primitive refuses is no alternative.
      std::string refusal;
      ScheduleSteps altSteps(*alternative, refusal);
      FailureOr<Value> rf = altSteps.rfactor(
          translateHandle(*sch, half, *alternative), numSpatialLoops);
      if (failed(rf))
        continue;
      if (failed(altSteps.annotate(translateHandle(*sch, block, *alternative),
                                   "meta_schedule.random_compute_producer",
                                   int64_t(1)))) {
        error = refusal;
        return failure();
      }
      results.push_back(std::move(alternative));
    }
    results.push_back(std::move(original));
    return results;
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(std::make_shared<AddRFactor>(*this));
  }
  std::string str() const override { return defaultRepr("AddRFactor", this); }

private:
  int64_t maxJobsPerCore, maxInnermostFactor;
  int64_t maxParallelExtent = -1;
};

} // namespace

std::shared_ptr<ScheduleRule>
mlir::tir::ms::createAddRFactor(int64_t maxJobsPerCore,
                                int64_t maxInnermostFactor) {
  return std::make_shared<AddRFactor>(maxJobsPerCore, maxInnermostFactor);
}
