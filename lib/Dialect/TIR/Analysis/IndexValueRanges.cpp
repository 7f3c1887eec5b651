//===- IndexValueRanges.cpp - ranges of index values in tir ---------------===//

#include "TensorIR/Dialect/TIR/Analysis/IndexValueRanges.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tir;

std::optional<Interval> mlir::tir::getValueRange(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return Interval::point(constant.getSExtValue());
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return std::nullopt;
  Operation *owner = arg.getOwner()->getParentOp();
  std::optional<int64_t> lo, hi;
  if (auto forOp = dyn_cast_or_null<ForOp>(owner)) {
    lo = forOp.getConstantLowerBound();
    hi = forOp.getConstantUpperBound();
  } else if (auto blockOp = dyn_cast_or_null<BlockOp>(owner)) {
    if (arg.getArgNumber() >= blockOp.getNumIterVars())
      return std::nullopt;
    lo = blockOp.getConstantDomainLower(arg.getArgNumber());
    hi = blockOp.getConstantDomainUpper(arg.getArgNumber());
  }
  if (!lo || !hi || *hi <= *lo)
    return std::nullopt;
  return Interval{*lo, *hi - 1};
}

SmallVector<std::optional<Interval>>
mlir::tir::getValueRanges(ValueRange values) {
  return llvm::map_to_vector(values, getValueRange);
}

AffineExpr mlir::tir::simplifyOverValues(AffineExpr e, ArrayRef<Value> inputs) {
  MLIRContext *ctx = e.getContext();
  SmallVector<std::optional<Interval>> ranges;
  SmallVector<AffineExpr> points;
  for (auto [i, v] : llvm::enumerate(inputs)) {
    std::optional<Interval> r = getValueRange(v);
    ranges.push_back(r);
    points.push_back(r && r->isPoint() ? getAffineConstantExpr(r->lo, ctx)
                                       : getAffineDimExpr(i, ctx));
  }
  return simplifyWithRanges(e.replaceDims(points), ranges, inputs.size(), 0);
}
