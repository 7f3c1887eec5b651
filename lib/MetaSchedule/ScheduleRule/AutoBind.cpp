//===- AutoBind.cpp - TVM's AutoBind --------------------------------------===//
//
// The GPU rule that gives every block a thread binding: a block whose
// loops are not bound to blockIdx and threadIdx gets its outer spatial
// loops fused, split and bound to blockIdx.x / threadIdx.x
// (bindBlockThreadIdx, ThreadBind.h), the threads per block sampled from
// the rule's candidate extents (those within the target's limit). The
// schedule is changed in place; it is the only alternative.
//
// As TVM's, initialization always takes the target's
// "max_threads_per_block" (and fails without it), whatever the rule was
// created with; the value given at creation serves a rule never
// initialized.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ThreadBind.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

class AutoBind : public ScheduleRule {
public:
  AutoBind(int64_t maxThreadblocks, std::vector<int64_t> threadExtents,
           int64_t maxThreadsPerBlock)
      : maxThreadblocks(maxThreadblocks),
        threadExtents(std::move(threadExtents)),
        maxThreadsPerBlock(maxThreadsPerBlock) {}

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override {
    FailureOr<int64_t> threads = getMaxThreadsPerBlock(context, error);
    if (failed(threads))
      return failure();
    maxThreadsPerBlock = *threads;
    return success();
  }

  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override {
    if (maxThreadsPerBlock == -1) {
      error = "AutoBind: the number of threads per block is not known: "
              "initialize the rule with a tune context whose target has "
              "\"max_threads_per_block\"";
      return failure();
    }
    ThreadExtentSampler sampler = makeFactorSampler(*sch, threadExtents);
    if (failed(bindBlockThreadIdx(*sch, block, maxThreadblocks,
                                  maxThreadsPerBlock, sampler, error)))
      return failure();
    return std::vector<Schedule>{sch};
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(std::make_shared<AutoBind>(*this));
  }
  std::string str() const override { return defaultRepr("AutoBind", this); }

private:
  int64_t maxThreadblocks;
  /// The candidate threads per block.
  std::vector<int64_t> threadExtents;
  /// The target's limit (-1: not known yet).
  int64_t maxThreadsPerBlock;
};

} // namespace

std::shared_ptr<ScheduleRule>
mlir::tir::ms::createAutoBind(int64_t maxThreadblocks,
                              std::vector<int64_t> threadExtents,
                              int64_t maxThreadsPerBlock) {
  return std::make_shared<AutoBind>(maxThreadblocks, std::move(threadExtents),
                                    maxThreadsPerBlock);
}
