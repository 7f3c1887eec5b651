//===- TraceApply.cpp - a tuned trace applied to a related module ---------===//
//
// TVM's ScheduleUsingAnchorTrace (TraceApply.h), in three parts:
// the blocks the trace does not name are inlined first (those feeding the
// anchor stay), then the trace's steps are replayed on the blocks this
// module has, and the one block left as it was gets the target's default.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/TraceApply.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"
#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/ModuleEquality.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// The blocks of the module being scheduled, in program order.
SmallVector<BlockOp> getBlocks(ScheduleState &sch) {
  SmallVector<BlockOp> blocks;
  sch.getPayload()->walk([&](BlockOp block) { blocks.push_back(block); });
  return blocks;
}

/// The block named `name` now (TVM's GetBlock by name), or null.
BlockOp findBlock(ScheduleState &sch, StringRef name) {
  for (BlockOp block : getBlocks(sch))
    if (block.getBlockName() == name)
      return block;
  return nullptr;
}

/// The handle of the block named `name` (a get_block step).
FailureOr<Value> getBlockHandle(ScheduleState &sch, StringRef name,
                                std::string &error) {
  BlockOp block = findBlock(sch, name);
  if (!block) {
    error =
        "schedule_using_anchor_trace: no block is named '" + name.str() + "'";
    return failure();
  }
  FunctionOpInterface func = getEnclosingFunction(block);
  ScheduleSteps steps(sch, error);
  return steps.getBlock(name, func ? func.getName() : StringRef());
}

/// TVM's IsAncestor: whether `ancestor` is `block` (by name) or feeds it,
/// through producers, in its scope.
bool isAncestor(BlockOp ancestor, BlockOp block,
                llvm::DenseSet<Operation *> &visited) {
  if (ancestor.getBlockName() == block.getBlockName())
    return true;
  if (!visited.insert(block).second)
    return false;
  SmallVector<BlockOp> scope = getScopeBlocks(getScopeRoot(block));
  for (BlockOp producer : getProducersIn(block, scope))
    if (isAncestor(ancestor, producer, visited))
      return true;
  return false;
}

/// TVM's InlinePostBlocks: the spatial blocks the anchor trace does not
/// get by name, and that do not feed the anchor block, are inlined by the
/// target's AutoInline; the output block last (only it can be
/// reverse-inlined, once its producers are gone).
LogicalResult inlinePostBlocks(ScheduleState &sch, const Trace &anchor,
                               const Target &target, std::string &error) {
  llvm::StringSet<> named;
  for (const InstructionRef &inst : anchor.getInstructions())
    if (inst->kind->getName() == "GetBlock")
      if (auto name = inst->attributes.getAs<StringAttr>("name"))
        named.insert(name.getValue());
  Operation *anchorBlock = findAnchorBlock(sch.getPayload());
  SmallVector<std::string> todo;
  std::optional<size_t> last;
  for (BlockOp block : getBlocks(sch)) {
    if (block.getBlockName() == "root")
      continue;
    if (auto anchorOp = dyn_cast_if_present<BlockOp>(anchorBlock)) {
      llvm::DenseSet<Operation *> visited;
      if (isAncestor(block, anchorOp, visited))
        continue;
    }
    if (!isSpatialBlock(block) || named.contains(block.getBlockName()))
      continue;
    if (isOutputBlock(block))
      last = todo.size();
    todo.push_back(block.getBlockName().str());
  }
  if (last)
    std::swap(todo[*last], todo.back());
  std::shared_ptr<ScheduleRule> inlining =
      createAutoInline(getDefaultAutoInlineOptions(target.isGPU()));
  // The rule applies in place; the schedule handle shares this state.
  Schedule shared(std::shared_ptr<ScheduleState>(), &sch);
  for (const std::string &name : todo) {
    FailureOr<Value> block = getBlockHandle(sch, name, error);
    if (failed(block) || failed(inlining->apply(shared, *block, error)))
      return failure();
  }
  return success();
}

/// A loop nest's kinds (and thread tags), to tell a scheduled block from
/// one left as it was.
using LoopKinds = SmallVector<std::pair<ForKind, StringRef>>;

LoopKinds getLoopKinds(BlockOp block) {
  LoopKinds kinds;
  for (Operation *op = block->getParentOp(); op; op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op))
      kinds.push_back({loop.getKind(), loop.getThread().value_or("")});
  return kinds;
}

/// Replays `inst` (whose random variables `translated` maps to this
/// state's), as TVM's ApplyAnchorTrace does: compute_inline and
/// reverse_compute_inline of a block that here can only go the other way
/// go that way.
LogicalResult replay(ScheduleState &sch, const Trace &anchor,
                     const InstructionRef &inst,
                     DenseMap<const RandomVariable *, RV> &translated,
                     std::string &error) {
  Instruction here = *inst;
  for (std::vector<RV> &operand : here.operands)
    for (RV &rv : operand)
      rv = translated.lookup(rv.get());
  StringRef kind = inst->kind->getName();
  if (kind == "ComputeInline" || kind == "ReverseComputeInline") {
    Value block = here.operands.empty() || here.operands[0].empty()
                      ? Value()
                      : sch.getHandle(here.operands[0][0]);
    std::string refusal;
    ScheduleSteps steps(sch, refusal);
    bool reverse = kind == "ReverseComputeInline";
    if (succeeded(reverse ? steps.reverseComputeInline(block)
                          : steps.computeInline(block)))
      return success();
    std::string other;
    ScheduleSteps fallback(sch, other);
    if (succeeded(reverse ? fallback.computeInline(block)
                          : fallback.reverseComputeInline(block)))
      return success();
    // TVM leaves an output block that can go neither way as it is.
    BlockOp op = steps.getBlockOp(block);
    if (!reverse && op && isOutputBlock(op))
      return success();
    error = refusal;
    return failure();
  }
  std::vector<RV> fresh;
  if (kind == "GetChildBlocks") {
    // A fused module may have more blocks there than the anchor's: its
    // first ones stand for the anchor's.
    Value parent = here.operands.empty() || here.operands[0].empty()
                       ? Value()
                       : sch.getHandle(here.operands[0][0]);
    ScheduleSteps steps(sch, error);
    FailureOr<SmallVector<Value>> children = steps.getChildBlocks(parent);
    if (failed(children))
      return failure();
    for (Value child : *children)
      fresh.push_back(sch.getRandomVariable(child));
  } else {
    FailureOr<std::vector<RV>> outputs =
        sch.applyInstruction(here, anchor.getDecision(inst.get()), error);
    if (failed(outputs))
      return failure();
    fresh = std::move(*outputs);
  }
  if (fresh.size() < inst->outputs.size()) {
    error = kind.str() + " gave " + std::to_string(fresh.size()) +
            " results here, the anchor trace " +
            std::to_string(inst->outputs.size());
    return failure();
  }
  for (auto [old, now] : llvm::zip(inst->outputs, fresh))
    if (old)
      translated[old.get()] = now;
  return success();
}

/// TVM's ApplyAnchorTrace: the steps whose blocks and loops this module has
/// (an instruction taking a random variable of a block it lacks is skipped,
/// and its outputs with it). Returns the names of the blocks left as they
/// were (same loops of the same kinds).
FailureOr<SmallVector<std::string>>
applyAnchorTrace(ScheduleState &sch, const Trace &anchor, std::string &error) {
  llvm::StringMap<LoopKinds> before;
  SmallVector<std::string> order;
  for (BlockOp block : getBlocks(sch)) {
    order.push_back(block.getBlockName().str());
    before[block.getBlockName()] = getLoopKinds(block);
  }
  DenseMap<const RandomVariable *, RV> translated;
  llvm::DenseSet<const RandomVariable *> foreign;
  for (const InstructionRef &inst : anchor.getInstructions()) {
    bool applicable = true;
    for (const std::vector<RV> &operand : inst->operands)
      for (const RV &rv : operand)
        applicable &= !rv || !foreign.contains(rv.get());
    bool missingBlock = false;
    if (inst->kind->getName() == "GetBlock") {
      auto name = inst->attributes.getAs<StringAttr>("name");
      // "root" is the function itself (TVM's root block), always there.
      missingBlock = !name || (name.getValue() != "root" &&
                               !findBlock(sch, name.getValue()));
    }
    if (!applicable || missingBlock) {
      for (const RV &rv : inst->outputs)
        if (rv)
          foreign.insert(rv.get());
      continue;
    }
    if (failed(replay(sch, anchor, inst, translated, error)))
      return failure();
  }
  SmallVector<std::string> unscheduled;
  for (const std::string &name : order) {
    BlockOp block = findBlock(sch, name);
    if (block && name != "root" && getLoopKinds(block) == before[name])
      unscheduled.push_back(name);
  }
  return unscheduled;
}

} // namespace

LogicalResult mlir::tir::ms::scheduleUsingAnchorTrace(ScheduleState &sch,
                                                      const Trace &anchor,
                                                      const Target &target,
                                                      std::string &error) {
  if (failed(inlinePostBlocks(sch, anchor, target, error)))
    return failure();
  FailureOr<SmallVector<std::string>> unscheduled =
      applyAnchorTrace(sch, anchor, error);
  if (failed(unscheduled))
    return failure();
  if (unscheduled->empty())
    return success();
  if (unscheduled->size() > 1) {
    error = "schedule_using_anchor_trace: the anchor trace leaves " +
            std::to_string(unscheduled->size()) + " blocks unscheduled (" +
            llvm::join(*unscheduled, ", ") +
            "); at most one (fused, spatial) block may remain";
    return failure();
  }
  FailureOr<Value> last = getBlockHandle(sch, unscheduled->front(), error);
  if (failed(last))
    return failure();
  ScheduleSteps steps(sch, error);
  BlockOp lastOp = steps.getBlockOp(*last);
  SmallVector<BlockOp> producers =
      getProducersIn(lastOp, getScopeBlocks(getScopeRoot(lastOp)));
  // Into the write cache it reads.
  if (producers.size() == 1 && isSpatialBlock(producers.front()))
    return steps.reverseComputeInline(*last);
  StringRef kind = target.getKind();
  if (kind == "llvm" || kind == "hexagon") {
    FailureOr<SmallVector<Value>> loops = steps.getLoops(*last);
    if (failed(loops))
      return failure();
    if (loops->empty())
      return success();
    FailureOr<Value> fused = steps.fuse(*loops);
    return failed(fused) ? failure() : steps.parallel(*fused);
  }
  if (target.isGPU()) {
    std::optional<int64_t> threads = target.getInt("max_threads_per_block");
    if (!threads) {
      error = "schedule_using_anchor_trace: the target has no "
              "max_threads_per_block";
      return failure();
    }
    std::shared_ptr<ScheduleRule> bind = createAutoBind(
        /*maxThreadblocks=*/256, {32, 64, 128, 256, 512, 1024}, *threads);
    Schedule shared(std::shared_ptr<ScheduleState>(), &sch);
    return failure(failed(bind->apply(shared, *last, error)));
  }
  return success();
}
