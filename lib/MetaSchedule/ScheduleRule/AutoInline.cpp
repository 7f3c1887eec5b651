//===- AutoInline.cpp - TVM's AutoInline and InlineConstantScalars --------===//
//
// Both rules inline blocks: AutoInline a block whose write its consumers
// may read instead (or, into its producer, one that only copies what its
// producer writes), InlineConstantScalars a block that computes a scalar
// constant. Whether a block may be inlined is the primitive's own check:
// the step is tried, and a refusal leaves the schedule as it was.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// Applies `mnemonic` ("compute_inline", "reverse_compute_inline") to
/// `block` where the primitive accepts it (TVM's CanComputeInline); a
/// refusal is not an error. Whether it applied.
bool tryInline(ScheduleState &sch, Value block, StringRef mnemonic) {
  std::string refusal;
  ScheduleSteps steps(sch, refusal);
  return succeeded(steps.apply(mnemonic, {block}, {}, 0));
}

/// The ways TVM's CheckInline may inline a block, in its order: into the
/// consumers (when they may), else into the one producer.
enum class InlineKind { None, IntoConsumer, IntoProducer, Either };

class AutoInline : public ScheduleRule {
public:
  explicit AutoInline(AutoInlineOptions options)
      : options(std::move(options)) {}

  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &) override {
    std::string ignored;
    ScheduleSteps steps(*sch, ignored);
    if (BlockOp op = steps.getBlockOp(block)) {
      InlineKind kind = check(op);
      bool inlined =
          (kind == InlineKind::IntoConsumer || kind == InlineKind::Either) &&
          tryInline(*sch, block, "compute_inline");
      if (!inlined &&
          (kind == InlineKind::IntoProducer || kind == InlineKind::Either))
        tryInline(*sch, block, "reverse_compute_inline");
    }
    return std::vector<Schedule>{sch};
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(std::make_shared<AutoInline>(*this));
  }
  std::string str() const override { return defaultRepr("AutoInline", this); }

private:
  /// TVM's CheckInline: which way `block` is inlined, if any. Whether the
  /// primitive accepts it is left to the step.
  InlineKind check(BlockOp block) const {
    Refusal why;
    FailureOr<BlockAccessRegions> regions = getAccessRegions(block, why);
    if (failed(regions) || regions->writes.size() != 1)
      return InlineKind::None;
    SmallVector<BlockOp> scope = getScopeBlocks(getScopeRoot(block));
    bool hasConsumers = !getConsumersIn(block, scope).empty();
    // A constant tensor goes into its consumers whatever else holds.
    if (options.inlineConstTensor && regions->reads.empty() && hasConsumers)
      return InlineKind::IntoConsumer;
    // Functions of spatial blocks only inline whatever may be.
    if (!isSpatialFunction(getEnclosingFunction(block))) {
      if (callsAnyOf(block, options.disallowOps))
        return InlineKind::None;
      if (options.disallowIfThenElse && hasIfThenElse(block))
        return InlineKind::None;
      if (options.requireInjective || options.requireOrdered) {
        ArrayRef<AffineExpr> written = regions->writes.front().second.starts;
        for (auto &read : regions->reads) {
          ReadWritePattern pattern =
              analyzeReadWritePattern(read.second.starts, written);
          if ((options.requireInjective && !pattern.injective) ||
              (options.requireOrdered && !pattern.ordered))
            return InlineKind::None;
        }
      }
    }
    if (auto rule = dyn_cast_if_present<StringAttr>(
            getAnnotation(block, "meta_schedule.inline_rule"));
        rule && rule.getValue() == "disable")
      return InlineKind::None;
    bool intoConsumer = options.intoConsumer && hasConsumers;
    bool intoProducer = false;
    if (options.intoProducer) {
      SmallVector<BlockOp> producers = getProducersIn(block, scope);
      intoProducer =
          producers.size() == 1 &&
          getCompleteBlockViolation(producers.front(), scope) == 0 &&
          !getAnnotation(producers.front(), "meta_schedule.auto_tensorize");
    }
    if (intoConsumer && intoProducer)
      return InlineKind::Either;
    if (intoConsumer)
      return InlineKind::IntoConsumer;
    return intoProducer ? InlineKind::IntoProducer : InlineKind::None;
  }

  AutoInlineOptions options;
};

class InlineConstantScalars : public ScheduleRule {
public:
  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &) override {
    std::string ignored;
    ScheduleSteps steps(*sch, ignored);
    BlockOp op = steps.getBlockOp(block);
    Refusal why;
    FailureOr<BlockAccessRegions> regions =
        op ? getAccessRegions(op, why) : FailureOr<BlockAccessRegions>();
    // A block that computes a scalar from nothing, not an output.
    if (succeeded(regions) && regions->reads.empty() &&
        regions->writes.size() == 1 &&
        cast<MemRefType>(regions->writes.front().first.getType()).getRank() ==
            0 &&
        !isOutputBlock(op))
      tryInline(*sch, block, "compute_inline");
    return std::vector<Schedule>{sch};
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(
        std::make_shared<InlineConstantScalars>());
  }
  std::string str() const override {
    return defaultRepr("InlineConstantScalars", this);
  }
};

} // namespace

std::shared_ptr<ScheduleRule>
mlir::tir::ms::createAutoInline(AutoInlineOptions options) {
  return std::make_shared<AutoInline>(std::move(options));
}

std::shared_ptr<ScheduleRule> mlir::tir::ms::createInlineConstantScalars() {
  return std::make_shared<InlineConstantScalars>();
}
