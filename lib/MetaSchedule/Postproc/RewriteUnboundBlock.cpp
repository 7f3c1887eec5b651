//===- RewriteUnboundBlock.cpp - TVM's RewriteUnboundBlock ----------------===//
//
// The GPU postprocessor that leaves no block without threads. The blocks
// directly in TVM's root block (those not nested in another block), each
// under loops not bound to both a blockIdx and a threadIdx axis, are
// found first, in program order; then each, found by name, goes through
// bindBlockThreadIdx (ThreadBind.h), which skips those bound already or
// tiled by MultiLevelTiling, with as many threads per block as the target
// allows ("max_threads_per_block", or the loop's extent when smaller) and
// at most `maxThreadblocks` blocks.
//
// A refused step rejects the schedule (TVM's throws, and the search counts
// the schedule as failed).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/ThreadBind.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// TVM's UnboundBlockFinder: walks the ops nested in `op`'s regions, not
/// entering blocks (a block is recorded, with `funcName`, by name) nor
/// loops that have both a blockIdx and a threadIdx loop at or above them.
class UnboundBlockFinder {
public:
  static SmallVector<std::pair<std::string, std::string>> find(ModuleOp mod) {
    UnboundBlockFinder finder;
    for (FunctionOpInterface func : getScheduledFunctions(mod)) {
      finder.funcName = func.getName().str();
      finder.visitRegions(getRootBlock(func));
    }
    return std::move(finder.blocks);
  }

private:
  void visitRegions(Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &body : region)
        for (Operation &nested : body)
          visit(&nested);
  }

  void visit(Operation *op) {
    if (auto block = dyn_cast<BlockOp>(op)) {
      blocks.emplace_back(block.getBlockName().str(), funcName);
      return;
    }
    auto loop = dyn_cast<ForOp>(op);
    if (!loop) {
      visitRegions(op);
      return;
    }
    std::optional<StringRef> tag = loop.getKind() == ForKind::ThreadBinding
                                       ? loop.getThread()
                                       : std::nullopt;
    bool isBlockIdx = tag && tag->starts_with("blockIdx.");
    bool isThreadIdx = tag && tag->starts_with("threadIdx.");
    numBlockIdx += isBlockIdx;
    numThreadIdx += isThreadIdx;
    if (numBlockIdx == 0 || numThreadIdx == 0)
      visitRegions(op);
    numBlockIdx -= isBlockIdx;
    numThreadIdx -= isThreadIdx;
  }

  /// The blocks found (name, function name).
  SmallVector<std::pair<std::string, std::string>> blocks;
  std::string funcName;
  /// The blockIdx / threadIdx loops around the op visited.
  int numBlockIdx = 0, numThreadIdx = 0;
};

class RewriteUnboundBlock : public Postproc {
public:
  explicit RewriteUnboundBlock(int64_t maxThreadblocks)
      : maxThreadblocks(maxThreadblocks) {}

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override {
    FailureOr<int64_t> threads = getMaxThreadsPerBlock(context, error);
    if (failed(threads))
      return failure();
    maxThreadsPerBlock = *threads;
    return success();
  }

  FailureOr<bool> apply(const Schedule &sch, std::string &error) override {
    if (maxThreadsPerBlock == -1) {
      error = "RewriteUnboundBlock: the number of threads per block is not "
              "known: initialize the postprocessor with a tune context whose "
              "target has \"max_threads_per_block\"";
      return failure();
    }
    // Not sampled: as many threads as allowed.
    ThreadExtentSampler getFactor =
        [threads = maxThreadsPerBlock](
            int64_t maxExtent, std::string &) -> FailureOr<ThreadExtent> {
      return ThreadExtent::of(std::min(threads, maxExtent));
    };
    std::string refusal;
    ScheduleSteps steps(*sch, refusal);
    for (auto &[name, funcName] : UnboundBlockFinder::find(sch->getPayload())) {
      FailureOr<Value> block = steps.getBlock(name, funcName);
      if (failed(block) ||
          failed(bindBlockThreadIdx(*sch, *block, maxThreadblocks,
                                    maxThreadsPerBlock, getFactor, refusal)))
        return false;
    }
    return true;
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    return std::shared_ptr<Postproc>(
        std::make_shared<RewriteUnboundBlock>(*this));
  }

  std::string str() const override {
    return defaultRepr("RewriteUnboundBlock", this);
  }

private:
  int64_t maxThreadblocks;
  /// The target's limit (-1: not initialized yet).
  int64_t maxThreadsPerBlock = -1;
};

} // namespace

std::shared_ptr<Postproc>
mlir::tir::ms::createRewriteUnboundBlock(int64_t maxThreadblocks) {
  return std::make_shared<RewriteUnboundBlock>(maxThreadblocks);
}
