//===- IndexValues.cpp - index values in tir ------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tir;

ValueIndexExpr mlir::tir::getIndexExprOf(Value v,
                                         function_ref<bool(Value)> isInput) {
  ValueIndexExpr out{AffineExpr(), {}};
  MLIRContext *ctx = v.getContext();
  std::function<AffineExpr(Value)> build = [&](Value x) -> AffineExpr {
    if (std::optional<int64_t> c = getConstantIntValue(x))
      return getAffineConstantExpr(*c, ctx);
    Operation *op = x.getType().isIndex() && !(isInput && isInput(x))
                        ? x.getDefiningOp()
                        : nullptr;
    auto operand = [&](unsigned i) { return build(op->getOperand(i)); };
    if (isa_and_present<arith::AddIOp>(op))
      return operand(0) + operand(1);
    if (isa_and_present<arith::SubIOp>(op))
      return operand(0) - operand(1);
    if (isa_and_present<arith::MulIOp>(op))
      return operand(0) * operand(1);
    if (isa_and_present<arith::ShLIOp>(op))
      if (std::optional<int64_t> shift = getConstantIntValue(op->getOperand(1));
          shift && *shift >= 0 && *shift < 62)
        return operand(0) * (int64_t(1) << *shift);
    if (isa_and_present<arith::FloorDivSIOp>(op))
      return operand(0).floorDiv(operand(1));
    if (isa_and_present<arith::CeilDivSIOp>(op))
      return operand(0).ceilDiv(operand(1));
    if (auto apply = dyn_cast_if_present<affine::AffineApplyOp>(op)) {
      AffineMap map = apply.getAffineMap();
      SmallVector<AffineExpr> args;
      for (Value arg : apply.getMapOperands())
        args.push_back(build(arg));
      return map.getResult(0).replaceDimsAndSymbols(
          ArrayRef<AffineExpr>(args).take_front(map.getNumDims()),
          ArrayRef<AffineExpr>(args).drop_front(map.getNumDims()));
    }
    auto *it = llvm::find(out.inputs, x);
    if (it == out.inputs.end()) {
      out.inputs.push_back(x);
      it = std::prev(out.inputs.end());
    }
    return getAffineDimExpr(it - out.inputs.begin(), ctx);
  };
  out.expr = build(v);
  return out;
}

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
