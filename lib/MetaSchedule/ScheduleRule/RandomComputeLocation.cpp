//===- RandomComputeLocation.cpp - TVM's RandomComputeLocation ------------===//
//
// A block directly under the root that has loops of its own (not shared
// with other blocks), is not tiled and has consumers is computed at a
// location sampled among those compute_at accepts (or inlined, or left at
// the root): the search then varies where producers such as padding are
// computed. A producer the rfactor rule marked is placed the same way.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"

#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

constexpr StringLiteral kRandomComputeProducer =
    "meta_schedule.random_compute_producer";

/// Whether `scope` (a block's scope root) is the root block: the function,
/// or a block directly in it.
bool isRootScope(Operation *scope) {
  if (isa<FunctionOpInterface>(scope))
    return true;
  auto func = dyn_cast<FunctionOpInterface>(scope->getParentOp());
  return func && getExplicitRootBlock(func).getOperation() == scope;
}

class RandomComputeLocation : public ScheduleRule {
public:
  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override {
    ScheduleSteps steps(*sch, error);
    BlockOp op = steps.getBlockOp(block);
    if (!op || !applies(op))
      return std::vector<Schedule>{sch};
    Value producer;
    if (getAnnotation(op, kRandomComputeProducer)) {
      FailureOr<SmallVector<Value>> producers = steps.getProducers(block);
      if (failed(producers) ||
          failed(steps.unannotate(block, kRandomComputeProducer)))
        return failure();
      if (producers->size() != 1) {
        error = "RandomComputeLocation: block '" + op.getBlockName().str() +
                "' is marked to place its producer, but has " +
                std::to_string(producers->size()) + " producers";
        return failure();
      }
      producer = producers->front();
    }
    if (failed(computeAtRandom(steps, block)) ||
        (producer && failed(computeAtRandom(steps, producer))))
      return failure();
    return std::vector<Schedule>{sch};
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(
        std::make_shared<RandomComputeLocation>());
  }
  std::string str() const override {
    return defaultRepr("RandomComputeLocation", this);
  }

private:
  /// TVM's CheckConditions.
  static bool applies(BlockOp block) {
    Operation *scope = getScopeRoot(block);
    if (!isRootScope(scope))
      return false;
    SmallVector<ForOp> loops = getLoops(block);
    if (loops.empty() || collectChildBlocks(loops.front()).size() > 1)
      return false;
    if (hasBeenMultiLevelTiled(block))
      return false;
    return !getConsumersIn(block, getScopeBlocks(scope)).empty();
  }

  static LogicalResult computeAtRandom(ScheduleSteps &steps, Value block) {
    FailureOr<Value> location = steps.sampleComputeLocation(block);
    if (failed(location))
      return failure();
    return steps.computeAt(block, *location, /*preserveUnitLoops=*/true);
  }
};

} // namespace

std::shared_ptr<ScheduleRule> mlir::tir::ms::createRandomComputeLocation() {
  return std::make_shared<RandomComputeLocation>();
}
