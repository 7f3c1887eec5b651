//===- ParallelizeVectorizeUnroll.cpp - TVM's ParallelizeVectorizeUnroll --===//
//
// The rule leaves the decisions to the root block's annotations: how many
// iterations to run in parallel (cores x jobs per core), how long a loop
// to vectorize, and an unroll depth drawn from its candidates. The
// postprocessor RewriteParallelVectorizeUnroll applies them to the loops.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "TensorIR/Dialect/TIR/Schedule/Query.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

class ParallelizeVectorizeUnroll : public ScheduleRule {
public:
  explicit ParallelizeVectorizeUnroll(ParallelizeVectorizeUnrollOptions options)
      : options(std::move(options)) {}

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override {
    if (options.maxJobsPerCore == -1)
      return success();
    FailureOr<int64_t> cores = getTargetNumCores(context, error);
    if (failed(cores))
      return failure();
    maxParallelExtent = *cores * options.maxJobsPerCore;
    return success();
  }

  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override {
    ScheduleSteps steps(*sch, error);
    // The root block only: the function, or its explicit root block.
    Operation *op = steps.getOp(block);
    auto root = dyn_cast_if_present<BlockOp>(op);
    auto parent =
        root ? dyn_cast<FunctionOpInterface>(root->getParentOp()) : nullptr;
    bool isRoot = isa_and_present<FunctionOpInterface>(op) ||
                  (parent && getExplicitRootBlock(parent) == root);
    if (!isRoot)
      return std::vector<Schedule>{sch};
    if (options.maxJobsPerCore != -1) {
      if (maxParallelExtent < 0) {
        error = "ParallelizeVectorizeUnroll is not initialized with a "
                "TuneContext (its target's cores)";
        return failure();
      }
      if (failed(steps.annotate(block, "meta_schedule.parallel",
                                maxParallelExtent)))
        return failure();
    }
    if (options.maxVectorizeExtent != -1 &&
        failed(steps.annotate(block, "meta_schedule.vectorize",
                              options.maxVectorizeExtent)))
      return failure();
    if (!options.unrollMaxSteps.empty() &&
        !isSpatialFunction(getEnclosingFunction(op))) {
      size_t n = options.unrollMaxSteps.size();
      // TVM's probabilities are float32.
      double prob = static_cast<float>(1.0 / static_cast<double>(n));
      FailureOr<Value> maxStep = steps.sampleCategorical(
          options.unrollMaxSteps, std::vector<double>(n, prob));
      if (failed(maxStep) ||
          failed(steps.annotate(block,
                                options.unrollExplicit
                                    ? "meta_schedule.unroll_explicit"
                                    : "meta_schedule.unroll_implicit",
                                *maxStep)))
        return failure();
    }
    return std::vector<Schedule>{sch};
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(
        std::make_shared<ParallelizeVectorizeUnroll>(*this));
  }
  std::string str() const override {
    return defaultRepr("ParallelizeVectorizeUnroll", this);
  }

private:
  ParallelizeVectorizeUnrollOptions options;
  int64_t maxParallelExtent = -1;
};

} // namespace

std::shared_ptr<ScheduleRule> mlir::tir::ms::createParallelizeVectorizeUnroll(
    ParallelizeVectorizeUnrollOptions options) {
  return std::make_shared<ParallelizeVectorizeUnroll>(std::move(options));
}
