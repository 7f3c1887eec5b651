//===- Split.cpp - TVM's split --------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

FailureOr<SmallVector<ForOp>>
mlir::tir::split(RewriterBase &rewriter, ForOp loop,
                 ArrayRef<std::optional<int64_t>> factors,
                 bool preserveUnitIters, ScheduleError &error) {
  // Rules, all checked before anything changes.
  if (factors.size() < 2)
    return refuse(error, loop, "split needs at least two factors, got " +
                                   Twine(factors.size()));
  if (failed(checkPlainLoop(loop, "split", error)))
    return failure();
  FailureOr<int64_t> extent =
      checkZeroBasedConstantExtent(loop, "split", error);
  if (failed(extent))
    return failure();
  int64_t known = 1;
  int inferred = -1;
  for (auto [i, f] : llvm::enumerate(factors)) {
    if (!f) {
      if (inferred >= 0)
        return refuse(error, loop,
                      "split infers at most one factor; factors " +
                          Twine(inferred) + " and " + Twine(i) +
                          " are both left open");
      inferred = i;
      continue;
    }
    if (*f < 1)
      return refuse(error, loop,
                    "split factors must be positive, factor " + Twine(i) +
                        " is " + Twine(*f));
    known *= *f;
  }
  SmallVector<int64_t> extents;
  for (auto f : factors)
    extents.push_back(f ? *f : llvm::divideCeil(*extent, known));
  int64_t product = 1;
  for (int64_t e : extents)
    product *= e;
  if (product < *extent)
    return refuse(error, loop,
                  "the split factors multiply to " + Twine(product) +
                      ", less than the extent " + Twine(*extent) +
                      " of loop " + loopName(loop));
  if (failed(checkOnlyBindingUses(loop, error)))
    return failure();

  // New loops, outermost first, where the old loop was.
  MLIRContext *ctx = loop.getContext();
  StringRef base = loop.getVarName().value_or("i");
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  SmallVector<ForOp> loops;
  for (auto [i, e] : llvm::enumerate(extents)) {
    ForOp created = createLoop(rewriter, loop.getLoc(), e,
                               (base + "_" + Twine(i)).str());
    loops.push_back(created);
    rewriter.setInsertionPointToStart(created.getBody());
  }
  rewriter.inlineBlockBefore(loop.getBody(), loops.back().getBody(),
                             loops.back().getBody()->end(),
                             {loops.back().getInductionVar()});
  // The old variable, now a placeholder for the innermost one, is
  // `l0 * (f1 * f2 ...) + l1 * (f2 ...) + ... + l_last` in every binding.
  Value placeholder = loops.back().getInductionVar();
  SmallVector<Value> ivs;
  AffineExpr fused = getAffineConstantExpr(0, ctx);
  int64_t stride = 1;
  for (int64_t i = extents.size() - 1; i >= 0; --i) {
    if (extents[i] != 1 || preserveUnitIters) {
      fused = fused + getAffineDimExpr(ivs.size(), ctx) * stride;
      ivs.push_back(loops[i].getInductionVar());
    }
    stride *= extents[i];
  }
  SmallVector<AffineExpr> guardExprs;
  if (product != *extent)
    guardExprs.push_back(getAffineConstantExpr(*extent - 1, ctx) - fused);
  // The innermost variable stands for the old one until bindings are
  // rewritten: substitute in every block directly under the new loops.
  for (BlockOp block : collectChildBlocks(loops.front()))
    substituteBindingValue(block, placeholder, fused, ivs, guardExprs);
  rewriter.eraseOp(loop);
  return loops;
}
