//===- Fuse.cpp - TVM's fuse ----------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// The only op in `loop`'s body, if there is exactly one.
static Operation *soleChild(ForOp loop) {
  Block *body = loop.getBody();
  return llvm::hasSingleElement(*body) ? &body->front() : nullptr;
}

FailureOr<ForOp> mlir::tir::fuse(RewriterBase &rewriter,
                                 ArrayRef<ForOp> loopsIn,
                                 ScheduleError &error) {
  SmallVector<ForOp> loops(loopsIn);
  if (loops.empty())
    return refuse(error, nullptr, "fuse needs at least one loop");
  SmallVector<int64_t> extents;
  for (auto [i, loop] : llvm::enumerate(loops)) {
    ForOp previous = i > 0 ? loops[i - 1] : ForOp();
    if (llvm::is_contained(ArrayRef<ForOp>(loops).take_front(i), loop))
      return refuse(error, loop,
                    "fuse got loop " + loopName(loop) + " twice");
    if (previous && soleChild(previous) != loop.getOperation())
      return refuse(error, previous,
                    "fuse needs perfectly nested loops: loop " +
                        loopName(loop) + " is not the only statement in "
                        "the body of loop " + loopName(previous));
    if (failed(checkPlainLoop(loop, "fuse", error)))
      return failure();
    FailureOr<int64_t> extent =
        checkZeroBasedConstantExtent(loop, "fuse", error);
    if (failed(extent) || failed(checkOnlyBindingUses(loop, error)))
      return failure();
    extents.push_back(*extent);
  }
  if (loops.size() == 1)
    return loops.front();

  MLIRContext *ctx = loops.front().getContext();
  int64_t total = 1;
  for (int64_t e : extents)
    total *= e;
  std::string name;
  for (ForOp loop : loops)
    name += (name.empty() ? "" : "_") + loop.getVarName().value_or("i").str();
  name += "_fused";
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loops.front());
  ForOp fused = createLoop(rewriter, loops.front().getLoc(), total, name);
  Value f = fused.getInductionVar();
  // Loop i is `(f floordiv (e_{i+1} * ... )) mod e_i`.
  SmallVector<BlockOp> blocks = collectChildBlocks(loops.back());
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  int64_t inner = 1;
  for (int64_t i = loops.size() - 1; i >= 0; --i) {
    AffineExpr expr = d0.floorDiv(inner);
    if (i > 0)
      expr = expr % extents[i];
    for (BlockOp block : blocks)
      substituteBindingValue(block, loops[i].getInductionVar(), expr, {f});
    inner *= extents[i];
  }
  ForOp innermost = loops.back();
  rewriter.inlineBlockBefore(innermost.getBody(), fused.getBody(),
                             fused.getBody()->end(), {f});
  rewriter.eraseOp(loops.front());
  return fused;
}
