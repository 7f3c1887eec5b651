//===- ThreadBind.cpp - binding loops to GPU threads ----------------------===//
//
// TVM's MakeFactorSampler, BindSpatialLoop and BindBlockThreadIdx
// (meta_schedule/schedule/cuda/thread_bind.cc) over ScheduleSteps. What
// the helpers learn of the program (the loops above a block, their kinds
// and bindings) they read from the payload, untraced, as TVM reads its
// StmtSRefs; the steps that change it, and the get_loops TVM calls on the
// schedule, are recorded in the trace in TVM's order.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/ThreadBind.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"
#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"

#include "mlir/IR/Builders.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

/// Whether `loop` is bound to a thread axis whose tag starts with `prefix`
/// ("blockIdx.", "threadIdx."): TVM's IsBlockIdx / IsThreadIdx of the
/// loop's thread scope.
static bool isBoundTo(ForOp loop, StringRef prefix) {
  std::optional<StringRef> tag = loop.getThread();
  return loop.getKind() == ForKind::ThreadBinding && tag &&
         tag->starts_with(prefix);
}

/// Whether `op` is TVM's root block: a function, or the block "root" it
/// wraps its body in.
static bool isRootBlock(Operation *op) {
  if (isa<FunctionOpInterface>(op))
    return true;
  FunctionOpInterface func = getEnclosingFunction(op);
  return func && getExplicitRootBlock(func) == op;
}

ThreadExtentSampler
mlir::tir::ms::makeFactorSampler(ScheduleState &sch,
                                 std::vector<int64_t> threadExtents) {
  return [&sch, threadExtents = std::move(threadExtents)](
             int64_t maxExtent, std::string &error) -> FailureOr<ThreadExtent> {
    std::vector<int64_t> fitting;
    for (int64_t extent : threadExtents)
      if (extent <= maxExtent)
        fitting.push_back(extent);
    if (fitting.empty())
      return ThreadExtent::of(maxExtent);
    if (fitting.size() == 1)
      return ThreadExtent::of(fitting.front());
    // Uniform, as float32 probabilities (TVM's FloatImm of float32).
    double prob = static_cast<float>(1.0 / static_cast<double>(fitting.size()));
    ScheduleSteps steps(sch, error);
    FailureOr<Value> sampled = steps.sampleCategorical(
        fitting, std::vector<double>(fitting.size(), prob));
    if (failed(sampled))
      return failure();
    return ThreadExtent::sampled(*sampled);
  };
}

FailureOr<int64_t>
mlir::tir::ms::getMaxThreadsPerBlock(const TuneContext &context,
                                     std::string &error) {
  if (!context.target) {
    error = "ValueError: target is not defined";
    return failure();
  }
  std::optional<int64_t> threads =
      context.target->getInt("max_threads_per_block");
  if (!threads) {
    error = "ValueError: missing attribute `max_threads_per_block` in the "
            "target";
    return failure();
  }
  return *threads;
}

FailureOr<SmallVector<Value>>
mlir::tir::ms::splitByThreadExtent(ScheduleSteps &steps, Value loop,
                                   const ThreadExtent &factor) {
  if (!factor.param)
    return steps.split(
        loop, ArrayRef<std::optional<int64_t>>{std::nullopt, factor.constant});
  // TVM's trace records `factors=[None, v]`.
  return steps.split(loop, ArrayRef<Value>{Value(), factor.param});
}

FailureOr<SmallVector<Value>> mlir::tir::ms::bindSpatialLoop(
    ScheduleState &sch, Value loop, int64_t maxThreadblocks,
    int64_t maxThreadsPerBlock, const ThreadExtentSampler &getFactor,
    std::string &error) {
  ScheduleSteps steps(sch, error);
  ForOp op = steps.getForOp(loop);
  if (!op) {
    error = "BindSpatialLoop: the handle does not hold one tir.for";
    return failure();
  }
  int64_t extent =
      op.getConstantExtent().value_or(std::numeric_limits<int64_t>::max());
  if (extent <= maxThreadblocks * maxThreadsPerBlock) {
    ThreadExtentSampler defaultSampler;
    if (!getFactor)
      defaultSampler = makeFactorSampler(sch, {32, 64, 128, 256, 512, 1024});
    const ThreadExtentSampler &sampler = getFactor ? getFactor : defaultSampler;
    FailureOr<ThreadExtent> factor =
        sampler(std::min(extent, maxThreadsPerBlock), error);
    if (failed(factor))
      return failure();
    FailureOr<SmallVector<Value>> parts =
        splitByThreadExtent(steps, loop, *factor);
    if (failed(parts) || failed(steps.bind((*parts)[0], "blockIdx.x")) ||
        failed(steps.bind((*parts)[1], "threadIdx.x")))
      return failure();
    return SmallVector<Value>{(*parts)[0], (*parts)[1]};
  }
  // More iterations than the grid has threads: each thread runs a serial
  // loop over the rest, innermost.
  FailureOr<SmallVector<Value>> parts =
      steps.split(loop, ArrayRef<std::optional<int64_t>>{
                            std::nullopt, maxThreadblocks, maxThreadsPerBlock});
  if (failed(parts))
    return failure();
  SmallVector<Value> order = {(*parts)[1], (*parts)[2], (*parts)[0]};
  if (failed(steps.reorder(order)) ||
      failed(steps.bind(order[0], "blockIdx.x")) ||
      failed(steps.bind(order[1], "threadIdx.x")))
    return failure();
  return order;
}

LogicalResult mlir::tir::ms::bindBlockThreadIdx(
    ScheduleState &sch, Value block, int64_t maxThreadblocks,
    int64_t maxThreadsPerBlock, const ThreadExtentSampler &getFactor,
    std::string &error) {
  ScheduleSteps steps(sch, error);
  Operation *op = steps.getOp(block);
  if (!op) {
    error = "BindBlockThreadIdx: the handle does not hold one block";
    return failure();
  }
  if (isRootBlock(op))
    return success();
  auto blockOp = dyn_cast<BlockOp>(op);
  if (!blockOp) {
    error = "BindBlockThreadIdx: the handle holds a '" +
            op->getName().getStringRef().str() + "', not a tir.block";
    return failure();
  }
  if (hasBeenMultiLevelTiled(blockOp))
    return success();

  // The positions, among the loops above the block (outermost first), of
  // the first blockIdx loop, the first threadIdx loop, the first loop
  // whose body other loops or blocks share (the one after a loop with
  // several statements, or a loop that is not serial), and the last of the
  // leading spatial loops; -1 where there is none.
  SmallVector<ForOp> loops = getLoops(blockOp);
  int64_t n = static_cast<int64_t>(loops.size());
  int64_t blockIdx = -1, threadIdx = -1, multiChild = -1, lastSpatial = -1;
  for (auto [index, loop] : llvm::enumerate(loops)) {
    int64_t i = static_cast<int64_t>(index);
    if (blockIdx == -1 && isBoundTo(loop, "blockIdx."))
      blockIdx = i;
    if (threadIdx == -1 && isBoundTo(loop, "threadIdx."))
      threadIdx = i;
    if (multiChild == -1 && loop.getKind() != ForKind::Serial)
      multiChild = i;
    if (multiChild == -1 && !hasSingleStatement(loop))
      multiChild = i + 1;
    if (lastSpatial == i - 1 && getLoopIterType(loop) == IterType::Spatial)
      lastSpatial = i;
  }
  if (multiChild == -1)
    multiChild = n;
  if (blockIdx != -1 && threadIdx != -1)
    return success();
  if (blockIdx != -1) {
    error = "BindBlockThreadIdx: block '" + blockOp.getBlockName().str() +
            "' has a loop bound to blockIdx but none bound to threadIdx, "
            "which is not supported";
    return failure();
  }

  FailureOr<SmallVector<Value>> handles = steps.getLoops(block);
  if (failed(handles))
    return failure();
  if (lastSpatial == -1) {
    // No spatial loop to fuse: a unit loop outside the others is one.
    FailureOr<Value> unit =
        steps.addUnitLoop(handles->empty() ? block : handles->front());
    if (failed(unit))
      return failure();
    handles->insert(handles->begin(), *unit);
    lastSpatial = 0;
    if (threadIdx != -1)
      ++threadIdx;
    ++multiChild;
  }
  auto fuseFirst = [&](ArrayRef<Value> candidates,
                       int64_t count) -> FailureOr<Value> {
    if (count <= 0) {
      error = "BindBlockThreadIdx: block '" + blockOp.getBlockName().str() +
              "' has no loop to fuse: ValueError: 'fuse' requires at least "
              "1 loop(s)";
      return failure();
    }
    return steps.fuse(candidates.take_front(count));
  };
  if (threadIdx != -1) {
    // Under a threadIdx loop: the loops above it make the blocks.
    int64_t count = std::min({multiChild, threadIdx, lastSpatial + 1});
    FailureOr<SmallVector<Value>> current = steps.getLoops(block);
    if (failed(current))
      return failure();
    FailureOr<Value> fused = fuseFirst(*current, count);
    if (failed(fused))
      return failure();
    return steps.bind(*fused, "blockIdx.x");
  }
  FailureOr<Value> fused =
      fuseFirst(*handles, std::min(multiChild, lastSpatial + 1));
  if (failed(fused))
    return failure();
  return bindSpatialLoop(sch, *fused, maxThreadblocks, maxThreadsPerBlock,
                         getFactor, error);
}
