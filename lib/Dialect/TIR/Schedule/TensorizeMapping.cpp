//===- TensorizeMapping.cpp - TVM's get_tensorize_loop_mapping ------------===//
//
// Which loops above a block a tensor intrinsic's description loops stand
// for: what tile_with_tensor_intrin splits and reorders so that the
// innermost loops mirror the description, ready for blockize and
// tensorize. Iteration variables are matched by kind and position, from the
// last; each matched variable's loop is found by its binding, so the loops
// may be in any order.
//
//===----------------------------------------------------------------------===//

#include "TensorizeMatch.h"

#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

using namespace mlir;
using namespace mlir::tir;

namespace {

/// Whether `expr` uses a dimension whose binding value is the variable of
/// one of `loops`.
bool usesLoop(AffineExpr expr, BlockOp block, ArrayRef<ForOp> loops) {
  ValueRange values = block.getBindingValues();
  bool found = false;
  expr.walk([&](AffineExpr e) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      for (ForOp loop : loops)
        if (values[d.getPosition()] == loop.getInductionVar())
          found = true;
  });
  return found;
}

/// What `binding` is beyond `loop`'s variable (binding - loop variable,
/// simplified), when that uses no loop of `loops`; std::nullopt otherwise
/// (the binding is not the loop plus something the loops do not feed).
std::optional<AffineExpr> residualOver(AffineExpr binding, BlockOp block,
                                       ForOp loop, ArrayRef<ForOp> loops) {
  ValueRange values = block.getBindingValues();
  for (auto [k, value] : llvm::enumerate(values)) {
    if (value != loop.getInductionVar())
      continue;
    AffineExpr rest = simplifyAffineExpr(
        binding - getAffineDimExpr(k, block.getContext()), values.size(), 0);
    if (!usesLoop(rest, block, loops))
      return rest;
  }
  return std::nullopt;
}

} // namespace

FailureOr<TensorizeLoopMapping>
mlir::tir::getTensorizeLoopMapping(BlockOp block, func::FuncOp desc,
                                   bool allowPadding, Refusal &why) {
  // The description: its compute block and its loops, outermost first.
  BlockOp descBlock = sched::getIntrinsicComputeBlock(desc);
  if (!descBlock)
    return why.set(block, "the description has no single root block holding "
                          "a block");
  TensorizeLoopMapping result;
  sched::getIntrinsicRoot(desc).getBody()->walk(
      [&](ForOp loop) { result.descLoops.push_back(loop); });
  std::reverse(result.descLoops.begin(), result.descLoops.end());

  // The workload: the loops nested directly above the block (a loop holding
  // more than the next one ends the nest), each starting at 0.
  SmallVector<ForOp> loops;
  Operation *child = block;
  for (auto loop = dyn_cast<ForOp>(block->getParentOp()); loop;
       loop = dyn_cast<ForOp>(loop->getParentOp())) {
    if (!llvm::hasSingleElement(loop.getBody()->without_terminator()) ||
        &*loop.getBody()->without_terminator().begin() != child)
      break;
    if (loop.getConstantLowerBound() != 0)
      return why.set(loop, "a loop above the block does not start at 0");
    loops.push_back(loop);
    child = loop;
  }
  std::reverse(loops.begin(), loops.end());
  unsigned numIters = block.getNumIterVars();
  unsigned numDesc = descBlock.getNumIterVars();
  if (numIters < numDesc)
    return why.set(block, "the block has fewer iteration variables (" +
                              Twine(numIters) + ") than the description (" +
                              Twine(numDesc) + ")");
  if (loops.size() != numIters)
    return why.set(block, "the block has " + Twine(numIters) +
                              " iteration variables but " +
                              Twine(loops.size()) + " loops nested above it");
  if (result.descLoops.size() != numDesc)
    return why.set(block, "the description has " + Twine(numDesc) +
                              " iteration variables but " +
                              Twine(result.descLoops.size()) + " loops");

  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  SmallVector<AffineExpr> descBindings = descBlock.getBindingExprs();
  SmallVector<int64_t> padding(numIters, 1);
  bool padded = false;
  bool paddingAllowed = allowPadding;
  DenseSet<Operation *> taken;
  int next = static_cast<int>(numIters) - 1;
  for (int d = static_cast<int>(numDesc) - 1; d >= 0; --d) {
    // The description loop the variable is.
    std::optional<unsigned> descLoop;
    for (auto [k, loop] : llvm::enumerate(result.descLoops))
      if (residualOver(descBindings[d], descBlock, loop, result.descLoops)) {
        descLoop = k;
        break;
      }
    if (!descLoop)
      return why.set(block, "description variable " + Twine(d) +
                                " is bound to no single loop");
    std::optional<int64_t> descExtent =
        result.descLoops[*descLoop].getConstantExtent();
    if (!descExtent)
      return why.set(block, "a description loop's extent is not a constant");
    if (*descExtent <= 0)
      return why.set(block, "a description loop has extent " +
                                Twine(*descExtent) + " (it runs nothing)");
    // The block's nearest earlier variable of the same kind (TVM takes the
    // kind of the loop's position; the variable's own kind is meant).
    IterType kind = descBlock.getIterType(d);
    int c = next;
    while (c >= 0 && block.getIterType(c) != kind)
      --c;
    if (c < 0)
      return why.set(block, "no iteration variable of the block matches "
                            "description variable " +
                                Twine(d) + " (" + stringifyIterType(kind) +
                                ")");
    next = c - 1;
    // The loop that variable is.
    ForOp found;
    for (ForOp loop : loops) {
      if (taken.contains(loop))
        continue;
      std::optional<AffineExpr> rest =
          residualOver(bindings[c], block, loop, loops);
      if (!rest)
        continue;
      if (paddingAllowed &&
          *rest != getAffineConstantExpr(0, block.getContext()))
        paddingAllowed = false; // padding needs bindings that are the loops
      std::optional<int64_t> extent = loop.getConstantExtent();
      if (!extent)
        return why.set(loop, "the extent of a matched loop is not a constant");
      if (*extent % *descExtent != 0) {
        if (!allowPadding)
          return why.set(loop, "the loop's extent (" + Twine(*extent) +
                                   ") is not a multiple of the description "
                                   "loop's (" +
                                   Twine(*descExtent) + ")");
        padding[c] = *descExtent;
        padded = true;
      }
      found = loop;
      break;
    }
    if (!found)
      return why.set(block, "iteration variable " + Twine(c) +
                                " of the block is bound to no single loop");
    taken.insert(found);
    result.loopMap.emplace_back(found, *descLoop);
  }
  if (padded) {
    if (!paddingAllowed)
      return why.set(block, "padding needs bindings that are the loops "
                            "themselves");
    result.blockIterPaddings = padding;
  }
  return result;
}
