//===- Reorder.cpp - TVM's reorder ----------------------------------------===//
//
// The loop ops themselves move (each keeps its variable, bounds and kind),
// so anything that refers to a loop or a block still refers to the same
// one afterwards.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// The loops of `chain` that feed both a spatial and a reduce iteration
/// variable of `block` (after fusing a spatial loop with a reduction loop).
static SmallVector<ForOp> getMixedLoops(BlockOp block, ArrayRef<ForOp> chain) {
  SmallVector<ForOp> mixed;
  for (ForOp loop : chain) {
    bool spatial = false, reduce = false;
    for (unsigned i : block.getIterVarsFedBy(loop.getInductionVar())) {
      spatial |= block.getIterType(i) == IterType::Spatial;
      reduce |= block.getIterType(i) == IterType::Reduce;
    }
    if (spatial && reduce)
      mixed.push_back(loop);
  }
  return mixed;
}

/// A block's tir.init runs at the instance whose reduce variables are at
/// their start; that instance must still come first among those of its
/// spatial point after the reorder. Loops that feed only spatial or only
/// reduce variables can move freely (the spatial ones are fixed within a
/// point, the reduce ones are all at their start in the init instance), but
/// two loops that both feed spatial and reduce variables walk the points
/// together, and swapping them interleaves the points: refused. (TVM v0.23
/// accepts such a reorder when the bindings are affine, e.g. after
/// `fuse(j, k)` and `split(f, [None, 8])` with k of 12, and computes wrong
/// sums.)
static LogicalResult checkInitStaysFirst(BlockOp block, ArrayRef<ForOp> chain,
                                         ArrayRef<ForOp> nest,
                                         ScheduleError &error) {
  if (!block.getInitOp())
    return success();
  SmallVector<ForOp> mixed = getMixedLoops(block, chain);
  SmallVector<ForOp> mixedAfter = llvm::filter_to_vector(
      nest, [&](ForOp l) { return is_contained(mixed, l); });
  if (mixed == mixedAfter)
    return success();
  unsigned first = 0;
  while (mixed[first] == mixedAfter[first])
    ++first;
  return refuse(error, mixedAfter[first],
                "reorder would run the init of block '" + block.getBlockName() +
                    "' after some of its updates: loops " +
                    loopName(mixed[first]) + " and " +
                    loopName(mixedAfter[first]) +
                    " both feed its spatial and its reduce iteration "
                    "variables, so their order must stay");
}

FailureOr<SmallVector<ForOp>> mlir::tir::reorder(RewriterBase &rewriter,
                                                 ArrayRef<ForOp> loopsIn,
                                                 ScheduleError &error) {
  SmallVector<ForOp> loops(loopsIn);
  if (loops.empty())
    return refuse(error, nullptr, "reorder needs at least one loop");
  for (auto [i, loop] : llvm::enumerate(loops))
    if (llvm::is_contained(ArrayRef<ForOp>(loops).take_front(i), loop))
      return refuse(error, loop,
                    "reorder got loop " + loopName(loop) + " twice");
  // The outermost and innermost of the given loops, which must all lie on
  // one path.
  ForOp top = loops.front(), bottom = loops.front();
  for (ForOp loop : loops) {
    if (loop->isProperAncestor(top))
      top = loop;
    if (bottom->isProperAncestor(loop))
      bottom = loop;
  }
  for (ForOp loop : loops)
    if (!top->isAncestor(loop) || !loop->isAncestor(bottom))
      return refuse(error, loop,
                    "reorder needs loops on one nest: loop " + loopName(loop) +
                        " is not above or below loop " +
                        loopName(top == loop ? bottom : top));
  // The chain from top to bottom: each loop's body holds only the next one.
  SmallVector<ForOp> chain;
  for (Operation *op = bottom; op != top->getParentOp();
       op = op->getParentOp()) {
    auto loop = dyn_cast<ForOp>(op);
    if (!loop)
      return refuse(error, op,
                    "reorder cannot move loops across '" +
                        op->getName().getStringRef() + "' (loops " +
                        loopName(top) + " and " + loopName(bottom) +
                        " are in different blocks)");
    chain.push_back(loop);
  }
  std::reverse(chain.begin(), chain.end());
  for (ForOp loop : ArrayRef<ForOp>(chain).drop_back())
    if (!llvm::hasSingleElement(*loop.getBody()))
      return refuse(error, loop,
                    "reorder needs a single-branch nest: loop " +
                        loopName(loop) +
                        " holds more than the next loop of the nest");
  for (ForOp loop : chain)
    for (Value bound : loop.getDynamicBounds())
      for (ForOp other : chain)
        if (bound == other.getInductionVar())
          return refuse(error, loop,
                        "reorder cannot move loop " + loopName(loop) +
                            ": its bounds depend on loop " + loopName(other));
  for (ForOp loop : chain)
    if (failed(checkOnlyBindingUses(loop, error)))
      return failure();
  // TVM's rules for the blocks under the nest: the iteration variables the
  // nest feeds are spatial or reduce, and their bindings are quasi-affine in
  // the nest's loops (loops outside it act as parameters).
  SmallVector<BlockOp> blocks = collectChildBlocks(bottom);
  for (BlockOp block : blocks) {
    for (ForOp loop : chain)
      for (unsigned i : block.getIterVarsFedBy(loop.getInductionVar())) {
        IterType kind = block.getIterType(i);
        if (kind == IterType::Spatial || kind == IterType::Reduce)
          continue;
        return refuse(error, bottom,
                      "reorder needs the loops to feed only spatial or reduce "
                      "iteration variables, but block '" +
                          block.getBlockName() + "' binds a " +
                          stringifyIterType(kind) + " variable to them");
      }
    // TVM's partial affine binding: in the loops from the top of the nest
    // down to the block.
    SmallVector<Value> loopVars;
    for (Operation *op = block->getParentOp(); op != top->getParentOp();
         op = op->getParentOp())
      if (auto loop = dyn_cast<ForOp>(op))
        loopVars.push_back(loop.getInductionVar());
    if (failed(checkAffineBinding(block, loopVars, "reorder", bottom, error)))
      return failure();
  }

  // The new nest: the chain with the given loops' places filled in the
  // given order.
  SmallVector<ForOp> nest;
  unsigned next = 0;
  for (ForOp loop : chain)
    nest.push_back(llvm::is_contained(loops, loop) ? loops[next++] : loop);
  for (BlockOp block : blocks)
    if (failed(checkInitStaysFirst(block, chain, nest, error)))
      return failure();
  ForOp oldBottom = chain.back(), newBottom = nest.back();

  // Take every loop of the chain out to sit before the top one, then nest
  // them again in the new order; the innermost body follows the new
  // innermost loop.
  SmallVector<Operation *> innermostBody = llvm::map_to_vector(
      *oldBottom.getBody(), [](Operation &op) { return &op; });
  for (ForOp loop : ArrayRef<ForOp>(chain).drop_front())
    rewriter.moveOpBefore(loop, top);
  for (unsigned i = 1; i < nest.size(); ++i)
    rewriter.moveOpBefore(nest[i], nest[i - 1].getBody(),
                          nest[i - 1].getBody()->end());
  if (oldBottom != newBottom)
    for (Operation *op : innermostBody)
      rewriter.moveOpBefore(op, newBottom.getBody(),
                            newBottom.getBody()->end());
  return loops;
}
