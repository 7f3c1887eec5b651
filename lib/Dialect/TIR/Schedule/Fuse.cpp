//===- Fuse.cpp - TVM's fuse ----------------------------------------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// Checks that `inner` is the last op of `outer`'s body and that what comes
/// before it only computes values (the inner loop's bounds, say) without
/// touching memory: loops nested that way are perfectly nested.
static LogicalResult checkPerfectlyNested(ForOp outer, ForOp inner,
                                          ScheduleError &error) {
  Block *body = outer.getBody();
  bool last = &body->back() == inner.getOperation();
  bool pure = llvm::all_of(*body, [&](Operation &op) {
    return &op == inner.getOperation() || isMemoryEffectFree(&op);
  });
  if (!last || !pure || inner->getBlock() != body)
    return refuse(error, outer,
                  "fuse needs perfectly nested loops: loop " + loopName(inner) +
                      " is not the only statement in "
                      "the body of loop " +
                      loopName(outer));
  return success();
}

FailureOr<ForOp> mlir::tir::fuse(RewriterBase &rewriter,
                                 ArrayRef<ForOp> loopsIn,
                                 ScheduleError &error) {
  SmallVector<ForOp> loops(loopsIn);
  if (loops.empty())
    return refuse(error, nullptr, "fuse needs at least one loop");
  SmallVector<OpFoldResult> extents;
  SmallVector<Value> outerVars;
  for (auto [i, loop] : llvm::enumerate(loops)) {
    if (llvm::is_contained(ArrayRef<ForOp>(loops).take_front(i), loop))
      return refuse(error, loop, "fuse got loop " + loopName(loop) + " twice");
    if (i > 0 && failed(checkPerfectlyNested(loops[i - 1], loop, error)))
      return failure();
    if (failed(checkPlainLoop(loop, "fuse", error)))
      return failure();
    if (failed(checkStartsAtZero(loop, "fuse", error)))
      return failure();
    // The fused bindings divide by the inner extents.
    if (loop.getConstantExtent() == 0)
      return refuse(error, loop,
                    "fuse needs loops of non-zero extent, but loop " +
                        loopName(loop) +
                        " has extent 0 (the nest runs nothing)");
    OpFoldResult extent = loop.getMixedUpperBound();
    if (auto v = dyn_cast<Value>(extent); v && dependsOnAny(v, outerVars))
      return refuse(error, loop,
                    "fuse cannot fuse loop " + loopName(loop) +
                        ": its extent depends on the variable of an outer "
                        "loop being fused");
    // Values computed between the loops must not depend on the fused
    // variables either: they move before the fused loop.
    if (i > 0)
      for (Operation &op : *loops[i - 1].getBody())
        if (&op != loop.getOperation())
          for (Value operand : op.getOperands())
            if (dependsOnAny(operand, outerVars))
              return refuse(error, loop,
                            "fuse cannot fuse loop " + loopName(loop) +
                                ": a value computed before it depends on "
                                "the variable of an outer loop being fused");
    outerVars.push_back(loop.getInductionVar());
    extents.push_back(extent);
  }
  // One loop is fused too, as TVM's: a new loop `<name>_fused` replaces
  // it (a unit loop's variable becomes 0 in the bindings).

  MLIRContext *ctx = loops.front().getContext();
  Location loc = loops.front().getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  // What was computed between the loops now comes before the fused loop.
  for (ForOp loop : ArrayRef<ForOp>(loops).drop_back())
    for (Operation &op : llvm::make_early_inc_range(*loop.getBody()))
      if (!llvm::is_contained(loops, dyn_cast<ForOp>(op)))
        rewriter.moveOpBefore(&op, loops.front());
  rewriter.setInsertionPoint(loops.front());
  ExprInputs extentInputs{ctx, {}};
  AffineExpr total = getAffineConstantExpr(1, ctx);
  for (OpFoldResult e : extents)
    total = total * extentInputs.of(e);
  OpFoldResult totalExtent =
      materializeIndex(rewriter, loc, total, extentInputs.values);
  std::string name;
  for (ForOp loop : loops)
    name += (name.empty() ? "" : "_") + loop.getVarName().value_or("i").str();
  name += "_fused";
  auto fused =
      ForOp::create(rewriter, loc, rewriter.getIndexAttr(0), totalExtent, name);
  Value f = fused.getInductionVar();

  // Loop i is `(f mod (e_i * inner)) floordiv inner`, inner the product of
  // the extents inside it; a loop of extent 1 is 0.
  ExprInputs in{ctx, {}};
  AffineExpr fv = in.dimOf(f);
  SmallVector<AffineExpr> exprs(loops.size());
  AffineExpr inner = getAffineConstantExpr(1, ctx);
  for (int64_t i = loops.size() - 1; i >= 0; --i) {
    AffineExpr e = in.of(extents[i]);
    if (getConstantIntValue(extents[i]) == 1)
      exprs[i] = getAffineConstantExpr(0, ctx);
    else if (i == 0)
      exprs[i] = fv.floorDiv(inner);
    else
      exprs[i] = (fv % (e * inner)).floorDiv(inner);
    inner = inner * e;
  }

  // Uses outside bindings get the expressions as values at the top of the
  // fused body; bindings are rewritten in place.
  SmallVector<LoopVarUses> uses = llvm::map_to_vector(loops, [](ForOp loop) {
    return collectLoopVarUses(loop.getInductionVar());
  });
  ForOp innermost = loops.back();
  rewriter.inlineBlockBefore(innermost.getBody(), fused.getBody(),
                             fused.getBody()->end(), {f});
  rewriter.setInsertionPointToStart(fused.getBody());
  for (auto [i, loopUses] : llvm::enumerate(uses))
    if (!loopUses.opaque.empty())
      loopUses.replaceOpaque(
          materializeIndexValue(rewriter, loc, exprs[i], in.values));
  // Innermost first: its variable became `f` when its body moved, and the
  // other substitutions bring `f` in.
  for (int64_t i = loops.size() - 1; i >= 0; --i) {
    Value old = i + 1 == (int64_t)loops.size() ? f : loops[i].getInductionVar();
    for (BlockOp block : uses[i].binders)
      substituteBindingValue(block, old, exprs[i], in.values);
  }
  eraseLoop(rewriter, loops.front());
  return fused;
}
