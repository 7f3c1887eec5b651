//===- Split.cpp - TVM's split --------------------------------------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// An index value computed from constants and `vector.vscale` alone (and
/// min / max and casts of such), at a given vscale; std::nullopt for anything
/// else (a function argument, ...).
static std::optional<int64_t> evaluateAtVScale(Value v, int64_t vscale) {
  ValueIndexExpr e = getIndexExprOf(v);
  SmallVector<int64_t> inputs;
  for (Value input : e.inputs) {
    Operation *op = input.getDefiningOp();
    if (isa_and_present<vector::VectorScaleOp>(op)) {
      inputs.push_back(vscale);
      continue;
    }
    if (isa_and_present<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
            op)) {
      auto x = evaluateAtVScale(op->getOperand(0), vscale);
      if (!x)
        return std::nullopt;
      inputs.push_back(*x);
      continue;
    }
    if (!isa_and_present<arith::MinSIOp, arith::MaxSIOp>(op))
      return std::nullopt;
    auto a = evaluateAtVScale(op->getOperand(0), vscale);
    auto b = evaluateAtVScale(op->getOperand(1), vscale);
    if (!a || !b)
      return std::nullopt;
    inputs.push_back(isa<arith::MinSIOp>(op) ? std::min(*a, *b)
                                             : std::max(*a, *b));
  }
  return evaluateAt(e.expr, inputs);
}

/// Whether the product of `factors` (none inferred) is at least the
/// extent for every vscale in `vscaleValues`.
static bool provenByVScale(ArrayRef<SplitFactor> factors, OpFoldResult extent,
                           ArrayRef<int64_t> vscaleValues) {
  if (vscaleValues.empty())
    return false;
  MLIRContext *ctx = extent.getContext();
  for (int64_t vs : vscaleValues) {
    std::optional<int64_t> e = isa<Value>(extent)
                                   ? evaluateAtVScale(cast<Value>(extent), vs)
                                   : getConstantIntValue(extent);
    if (!e)
      return false;
    int64_t product = 1;
    for (const SplitFactor &f : factors) {
      std::optional<int64_t> x =
          f.constant ? f.constant
                     : evaluateAt(f.scalable.replaceSymbols(
                                      {getAffineDimExpr(0, ctx)}),
                                  {vs});
      if (!x)
        return false;
      product *= *x;
    }
    if (product < *e)
      return false;
  }
  return true;
}

FailureOr<SmallVector<ForOp>> mlir::tir::split(RewriterBase &rewriter,
                                               ForOp loop,
                                               ArrayRef<SplitFactor> factors,
                                               const SplitOptions &options,
                                               ScheduleError &error) {
  // Rules, all checked before anything changes.
  if (factors.size() < 2)
    return refuse(error, loop,
                  "split needs at least two factors, got " +
                      Twine(factors.size()));
  if (failed(checkPlainLoop(loop, "split", error)))
    return failure();
  if (failed(checkStartsAtZero(loop, "split", error)))
    return failure();
  OpFoldResult extent = loop.getMixedUpperBound();
  std::optional<int64_t> constExtent = getConstantIntValue(extent);
  int inferred = -1;
  bool allConstant = true;
  int64_t known = 1;
  for (auto [i, f] : llvm::enumerate(factors)) {
    if (f.isInferred()) {
      if (inferred >= 0)
        return refuse(error, loop,
                      "split infers at most one factor; factors " +
                          Twine(inferred) + " and " + Twine(i) +
                          " are both left open");
      inferred = i;
      continue;
    }
    if (f.constant && *f.constant < 1)
      return refuse(error, loop,
                    "split factors must be positive, factor " + Twine(i) +
                        " is " + Twine(*f.constant));
    if (f.constant)
      known *= *f.constant;
    else
      allConstant = false;
  }
  if (inferred < 0) {
    if (allConstant && constExtent && known < *constExtent)
      return refuse(error, loop,
                    "the split factors multiply to " + Twine(known) +
                        ", less than the extent " + Twine(*constExtent) +
                        " of loop " + loopName(loop));
    if ((!allConstant || !constExtent) &&
        !provenByVScale(factors, extent, options.vscaleValues))
      return refuse(
          error, loop,
          "split cannot prove that the factors multiply to at least the "
          "extent of loop " +
              loopName(loop) +
              " (The product of factors is not larger than or equal to the "
              "extent of loop tir.For#0, in TVM's words); leave one factor "
              "as None to infer it");
  }

  // The factors as index values, computed before the loop: vector.vscale
  // for scalable ones, the ceiling of the extent over the others for the
  // inferred one.
  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Value vscale;
  auto getVScale = [&]() {
    if (!vscale)
      vscale = vector::VectorScaleOp::create(rewriter, loc);
    return vscale;
  };
  SmallVector<OpFoldResult> extents;
  for (const SplitFactor &f : factors) {
    if (f.constant)
      extents.push_back(rewriter.getIndexAttr(*f.constant));
    else if (f.scalable)
      extents.push_back(materializeIndex(
          rewriter, loc, f.scalable.replaceSymbols({getAffineDimExpr(0, ctx)}),
          {getVScale()}));
    else
      extents.push_back(OpFoldResult());
  }
  if (inferred >= 0) {
    ExprInputs in{ctx, {}};
    AffineExpr product = getAffineConstantExpr(1, ctx);
    for (auto [i, e] : llvm::enumerate(extents))
      if ((int)i != inferred)
        product = product * in.of(e);
    // Read through the extent's arithmetic: `n * 32` split by 32 is n.
    AffineExpr ext = in.exprOf(extent);
    extents[inferred] = materializeIndex(
        rewriter, loc,
        simplifyAffineExpr(ext.ceilDiv(product), in.values.size(), 0),
        in.values);
  }

  // New loops, outermost first, where the old loop was.
  StringRef base = loop.getVarName().value_or("i");
  SmallVector<ForOp> loops;
  for (auto [i, e] : llvm::enumerate(extents)) {
    auto created = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0), e,
                                 (base + "_" + Twine(i)).str());
    loops.push_back(created);
    rewriter.setInsertionPointToStart(created.getBody());
  }

  // The old variable is `l0 * (f1 * f2 ...) + l1 * (f2 ...) + ... + l_last`
  // over the new variables and the runtime factors.
  ExprInputs in{ctx, {}};
  for (ForOp created : loops) // outermost first, as TVM prints them
    in.dimOf(created.getInductionVar());
  AffineExpr fused = getAffineConstantExpr(0, ctx);
  AffineExpr stride = getAffineConstantExpr(1, ctx);
  for (int64_t i = extents.size() - 1; i >= 0; --i) {
    std::optional<int64_t> c = getConstantIntValue(extents[i]);
    if (c != 1 || options.preserveUnitIters)
      fused = fused + in.dimOf(loops[i].getInductionVar()) * stride;
    stride = stride * in.of(extents[i]);
  }
  bool exact =
      allConstant && constExtent && inferred < 0 && known == *constExtent;
  if (inferred >= 0 && allConstant) {
    // The inferred factor divides the extent exactly where the others'
    // product is known to divide it (a runtime `n * 32` split by 32).
    int64_t divisor =
        constExtent ? *constExtent : getKnownDivisor(cast<Value>(extent));
    exact = divisor % known == 0;
  }
  SmallVector<AffineExpr> guards;
  if (!exact && !options.disablePredication)
    guards.push_back(in.of(extent) - 1 - fused);

  // Who uses the old variable: bindings are rewritten in place, other uses
  // get the fused expression as a value at the top of the new body.
  LoopVarUses uses = collectLoopVarUses(loop.getInductionVar());
  SmallVector<BlockOp> children = collectChildBlocks(loop);
  ForOp innermost = loops.back();
  rewriter.inlineBlockBefore(loop.getBody(), innermost.getBody(),
                             innermost.getBody()->end(),
                             {innermost.getInductionVar()});
  Value placeholder = innermost.getInductionVar();
  if (!uses.opaque.empty()) {
    rewriter.setInsertionPointToStart(innermost.getBody());
    uses.replaceOpaque(materializeIndexValue(rewriter, loc, fused, in.values));
  }
  for (BlockOp block : uses.binders)
    substituteBindingValue(block, placeholder, fused, in.values,
                           llvm::is_contained(children, block)
                               ? ArrayRef<AffineExpr>(guards)
                               : ArrayRef<AffineExpr>());
  // TVM puts the predicate on every block directly under the loop.
  for (BlockOp block : children)
    if (!uses.binders.contains(block) && !guards.empty())
      substituteBindingValue(block, placeholder, fused, in.values, guards);
  eraseLoop(rewriter, loop);
  return loops;
}
