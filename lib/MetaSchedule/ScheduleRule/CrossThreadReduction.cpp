//===- CrossThreadReduction.cpp - TVM's CrossThreadReduction --------------===//
//
// On GPU targets, a reduction with little spatial parallelism (a softmax's
// row maximum, a norm) is computed by the threads of a block together: its
// reduction loops are fused, split by a thread count sampled from the
// rule's candidates, and the inner part bound to threadIdx.x. The block
// without it stays an alternative. When the block's first consumer allows
// it (the block writes one buffer, the consumer needs no multi-level
// tiling, the consumers share a loop, the block's outer loops are spatial
// where they meet the consumer's), the reduction is first computed at the
// consumer's loops with its result in shared memory, the consumer's
// innermost loop split and bound to threadIdx.x by the same count (or the
// count the consumer's threads were bound with already).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/ThreadBind.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// Where the block is computed when it is fused into its consumer: the
/// loop of the consumer it goes under, the consumer, and the consumer's
/// innermost loop.
struct ComputeTarget {
  Value loop;
  Value consumer;
  Value consumerInnermostLoop;
};

class CrossThreadReduction : public ScheduleRule {
public:
  explicit CrossThreadReduction(std::vector<int64_t> threadExtents)
      : threadExtents(std::move(threadExtents)) {}

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override {
    if (!context.target) {
      error = "CrossThreadReduction needs the task's target (its "
              "\"max_threads_per_block\" and \"thread_warp_size\")";
      return failure();
    }
    std::optional<int64_t> threads =
        context.target->getInt("max_threads_per_block");
    std::optional<int64_t> warp = context.target->getInt("thread_warp_size");
    if (!threads)
      context.log(LogLevel::Warning,
                  "Target does not have attribute \"max_threads_per_block\", "
                  "therefore the rule CrossThreadReduction will not be "
                  "applied");
    if (!warp)
      context.log(LogLevel::Warning,
                  "Target does not have attribute \"thread_warp_size\", "
                  "therefore the rule CrossThreadReduction will not be "
                  "applied");
    maxThreadsPerBlock = threads.value_or(-1);
    warpSize = warp.value_or(-1);
    return success();
  }

  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override {
    if (maxThreadsPerBlock == -1 || warpSize == -1)
      return std::vector<Schedule>{sch};
    ScheduleSteps original(*sch, error);
    BlockOp op = original.getBlockOp(block);
    if (!op || !needsRFactorOrCrossThreadReduction(op, maxThreadsPerBlock))
      return std::vector<Schedule>{sch};

    // The new schedule is a copy; the original stays, last.
    Schedule scheduled(sch->copy());
    if (failed(scheduled->seed(sch->forkSeed(), error)))
      return failure();
    ScheduleSteps steps(*scheduled, error);
    block = translateHandle(*sch, block, *scheduled);

    FailureOr<std::optional<ComputeTarget>> target =
        getComputeTarget(steps, block);
    if (failed(target))
      return failure();

    double prob = static_cast<float>(
        1.0 / static_cast<double>(threadExtents.size())); // TVM's float32
    FailureOr<Value> sampled = steps.sampleCategorical(
        threadExtents, std::vector<double>(threadExtents.size(), prob));
    if (failed(sampled))
      return failure();
    ThreadExtent extent = ThreadExtent::sampled(*sampled);

    if (*target) {
      ComputeTarget &fused = **target;
      FailureOr<bool> inThreads = isInThreadScope(steps, fused.consumer);
      if (failed(inThreads))
        return failure();
      if (!*inThreads) {
        // The consumer's innermost loop gives the threads.
        FailureOr<SmallVector<Value>> halves =
            splitByThreadExtent(steps, fused.consumerInnermostLoop, extent);
        if (failed(halves) || failed(steps.bind((*halves)[1], "threadIdx.x")))
          return failure();
        if (fused.consumerInnermostLoop == fused.loop)
          fused.loop = (*halves)[0];
      } else {
        // The consumer's threads are bound already: their count is used.
        FailureOr<ThreadExtent> bound = getThreadIdxExtent(*scheduled, error);
        if (failed(bound))
          return failure();
        extent = *bound;
      }
      if (failed(steps.computeAt(block, fused.loop,
                                 /*preserveUnitLoops=*/true)))
        return failure();
      if (failed(steps.setScope(block, 0, "shared")))
        return failure();
    }

    FailureOr<std::pair<Value, int64_t>> reduceLoop =
        reorderAndFuseReductionLoops(steps, block, error);
    if (failed(reduceLoop))
      return failure();
    FailureOr<SmallVector<Value>> halves =
        splitByThreadExtent(steps, reduceLoop->first, extent);
    if (failed(halves) || failed(steps.bind((*halves)[1], "threadIdx.x")))
      return failure();
    return std::vector<Schedule>{std::move(scheduled), sch};
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(
        std::make_shared<CrossThreadReduction>(*this));
  }
  std::string str() const override {
    return defaultRepr("CrossThreadReduction", this);
  }

private:
  /// TVM's InThreadScope: whether a loop above `block` is bound to
  /// threadIdx.{x,y,z}.
  static FailureOr<bool> isInThreadScope(ScheduleSteps &steps, Value block) {
    FailureOr<SmallVector<Value>> loops = steps.getLoops(block);
    if (failed(loops))
      return failure();
    return llvm::any_of(*loops, [&](Value loop) {
      ForOp forOp = steps.getForOp(loop);
      return forOp && forOp.getKind() == ForKind::ThreadBinding &&
             forOp.getThread() && forOp.getThread()->starts_with("threadIdx.");
    });
  }

  /// TVM's GetThreadIdxExtentFromTrace: the factor the first loop bound
  /// to threadIdx.x (that a split made) was split off by. TVM reads the
  /// first split of the trace, which must be that loop's; here the split
  /// that made the loop is looked for.
  static FailureOr<ThreadExtent> getThreadIdxExtent(const ScheduleState &sch,
                                                    std::string &error) {
    ArrayRef<InstructionRef> insts = sch.getInstructions().getInstructions();
    for (const InstructionRef &bind : insts) {
      if (bind->kind->getName() != "Bind" || bind->operands.empty() ||
          bind->operands[0].size() != 1)
        continue;
      auto axis = dyn_cast_if_present<StringAttr>(
          bind->attributes ? bind->attributes.get("thread_axis") : Attribute());
      if (!axis || axis.getValue() != "threadIdx.x")
        continue;
      const RV &loop = bind->operands[0][0];
      for (const InstructionRef &split : insts) {
        if (split->kind->getName() != "Split")
          continue;
        auto it = llvm::find(split->outputs, loop);
        if (it == split->outputs.end())
          continue;
        std::vector<TVMValue> inputs, attrs;
        split->kind->getTVMLayout(*split, inputs, attrs);
        size_t index = 1 + (it - split->outputs.begin());
        if (index >= inputs.size() ||
            inputs[index].tag == TVMValue::Tag::None) {
          error = "ValueError: Extracting an extent which needs inference is "
                  "not supported so far";
          return failure();
        }
        const TVMValue &factor = inputs[index];
        if (factor.tag == TVMValue::Tag::Variable) {
          if (Value param = sch.getHandle(factor.variable))
            return ThreadExtent::sampled(param);
        } else if (auto constant =
                       dyn_cast_if_present<IntegerAttr>(factor.constant)) {
          return ThreadExtent::of(constant.getInt());
        }
        break;
      }
    }
    error = "ValueError: Unable to get the extent of \"threadIdx.x\"";
    return failure();
  }

  /// TVM's GetComputeTargetLoopAndBlock: where `block` is computed when it
  /// is fused into its first consumer, or nothing when it is not fusible.
  static FailureOr<std::optional<ComputeTarget>>
  getComputeTarget(ScheduleSteps &steps, Value block) {
    // compute_at does not take a block writing several buffers (a tuple
    // reduction such as argmax).
    SmallVector<Value> reads, writes;
    getReadWriteBuffers(steps.getBlockOp(block), reads, writes);
    if (writes.size() != 1)
      return std::optional<ComputeTarget>();

    FailureOr<SmallVector<Value>> consumers = steps.getConsumers(block);
    if (failed(consumers))
      return failure();
    if (consumers->empty() ||
        needsMultiLevelTiling(steps.getBlockOp(consumers->front())))
      return std::optional<ComputeTarget>();

    // The consumers' lowest common ancestor: the consumer itself when there
    // is one (a block, which no loop is); for several, the loop holding
    // them all, without which they are not fusible.
    ForOp commonLoop;
    if (consumers->size() > 1) {
      SmallVector<BlockOp> ops;
      for (Value consumer : *consumers)
        ops.push_back(steps.getBlockOp(consumer));
      Operation *common = ops.front()->getParentOp();
      while (common && !llvm::all_of(ops, [&](BlockOp b) {
               return common->isProperAncestor(b);
             }))
        common = common->getParentOp();
      commonLoop = dyn_cast_if_present<ForOp>(common);
      if (!commonLoop)
        return std::optional<ComputeTarget>();
    }

    FailureOr<SmallVector<Value>> consumerLoops =
        steps.getLoops(consumers->front());
    if (failed(consumerLoops))
      return failure();
    FailureOr<SmallVector<Value>> blockLoops = steps.getLoops(block);
    if (failed(blockLoops))
      return failure();
    int64_t position =
        getComputePosition(steps, *blockLoops, *consumerLoops, commonLoop);
    if (position < 0)
      return std::optional<ComputeTarget>();
    return std::optional<ComputeTarget>(ComputeTarget{
        (*consumerLoops)[position], consumers->front(), consumerLoops->back()});
  }

  /// TVM's GetComputePosition: the deepest consumer loop the block may go
  /// under, walking the two nests together: before the block's first loop
  /// that is not spatial, and no deeper than the consumers' common loop;
  /// -1 when none.
  static int64_t getComputePosition(ScheduleSteps &steps,
                                    ArrayRef<Value> blockLoops,
                                    ArrayRef<Value> consumerLoops,
                                    ForOp commonLoop) {
    int64_t n =
        static_cast<int64_t>(std::min(blockLoops.size(), consumerLoops.size()));
    for (int64_t i = 0; i < n; ++i) {
      if (getLoopIterType(steps.getForOp(blockLoops[i])) != IterType::Spatial)
        return i - 1;
      if (commonLoop && steps.getForOp(consumerLoops[i]) == commonLoop)
        return i;
    }
    return n - 1;
  }

  std::vector<int64_t> threadExtents;
  int64_t maxThreadsPerBlock = -1;
  int64_t warpSize = -1;
};

} // namespace

FailureOr<std::shared_ptr<ScheduleRule>>
mlir::tir::ms::createCrossThreadReduction(std::vector<int64_t> threadExtents,
                                          std::string &error) {
  if (llvm::any_of(threadExtents, [](int64_t e) { return e <= 0; })) {
    // TVM's words.
    error = "ValueError: The candidates of thread extent must be positive";
    return failure();
  }
  return std::shared_ptr<ScheduleRule>(
      std::make_shared<CrossThreadReduction>(std::move(threadExtents)));
}
