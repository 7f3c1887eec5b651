//===- ArithmeticCounts.cpp - Group 1.1: a stored value's arithmetic ------===//
//
// The operations of a stored value's expression tree as TVM counts them
// (by kind and type, a value used twice counted twice, index arithmetic
// included), and the loads the tree reads.
//
//===----------------------------------------------------------------------===//

#include "FeatureCollector.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;
using namespace mlir::tir::ms::per_store;

/// How TVM counts the operation `op` of a stored value (by its result
/// type, as TVM counts by the dtype of a node; comparisons yield bool, so
/// TVM counts them as integer ones whatever they compare).
static ArithCounts::Kind classify(Operation *op, bool &counted) {
  counted = true;
  Type type =
      op->getNumResults() ? getElementTypeOrSelf(op->getResult(0)) : Type();
  bool isFloat = type && isa<FloatType>(type);
  if (isa<arith::AddFOp, arith::SubFOp, arith::NegFOp>(op))
    return ArithCounts::FloatAddSub;
  if (isa<arith::MulFOp>(op))
    return ArithCounts::FloatMul;
  if (isa<arith::DivFOp, arith::RemFOp>(op))
    return ArithCounts::FloatDivMod;
  if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
          arith::MinNumFOp>(op))
    return ArithCounts::FloatCmp;
  if (isa<arith::CmpFOp, arith::CmpIOp, arith::MaxSIOp, arith::MaxUIOp,
          arith::MinSIOp, arith::MinUIOp>(op))
    return ArithCounts::IntCmp;
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return ArithCounts::IntAddSub;
  if (isa<arith::MulIOp>(op))
    return ArithCounts::IntMul;
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
          arith::CeilDivUIOp, arith::FloorDivSIOp, arith::RemSIOp,
          arith::RemUIOp>(op))
    return ArithCounts::IntDivMod;
  if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op))
    return type && type.isInteger(1) ? ArithCounts::BoolOp
                                     : ArithCounts::IntMathFunc;
  if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op))
    return ArithCounts::IntMathFunc;
  if (isa<arith::SelectOp>(op))
    return ArithCounts::SelectOp;
  // Pure calls: math functions, and if_then_else (an scf.if yielding).
  if ((op->getDialect() && op->getDialect()->getNamespace() == "math") ||
      (isa<scf::IfOp>(op) && op->getNumResults()))
    return isFloat ? ArithCounts::FloatMathFunc : ArithCounts::IntMathFunc;
  // Calls of unknown effect.
  if (isa<tir::CallOp>(op) && op->getNumResults())
    return isFloat ? ArithCounts::FloatOtherFunc : ArithCounts::IntOtherFunc;
  counted = false;
  return ArithCounts::FloatMad;
}

/// The operations TVM's tree of `e` has: `a - b` is one subtraction
/// (MLIR writes `a + b * -1`), a product by a constant one
/// multiplication. Opaque inputs computed by an op count what they compute.
ArithCounts Collector::countExpr(AffineExpr e, SmallVectorImpl<LoadOp> &loads,
                                 DenseMap<Value, ArithCounts> &memo) {
  ArithCounts counts;
  std::function<void(AffineExpr)> visit = [&](AffineExpr x) {
    if (auto dim = dyn_cast<AffineDimExpr>(x)) {
      Value v = dimValues[dim.getPosition()];
      if (v.getDefiningOp())
        counts += countValue(v, loads, memo);
      return;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(x);
    if (!bin)
      return;
    AffineExpr lhs = bin.getLHS(), rhs = bin.getRHS();
    switch (x.getKind()) {
    case AffineExprKind::Add: {
      counts[ArithCounts::IntAddSub] += 1;
      visit(lhs);
      // A subtraction: `rhs` is a negated term.
      if (auto product = dyn_cast<AffineBinaryOpExpr>(rhs);
          product && rhs.getKind() == AffineExprKind::Mul) {
        auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
        if (factor && factor.getValue() < 0) {
          if (factor.getValue() != -1)
            counts[ArithCounts::IntMul] += 1;
          visit(product.getLHS());
          return;
        }
      }
      visit(rhs);
      return;
    }
    case AffineExprKind::Mul:
      counts[ArithCounts::IntMul] += 1;
      break;
    default:
      counts[ArithCounts::IntDivMod] += 1;
      break;
    }
    visit(lhs);
    visit(rhs);
  };
  visit(e);
  return counts;
}

/// Whether getIndexExprOf reads through `op`.
static bool isIndexArithmetic(Operation *op) {
  return isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
             arith::FloorDivSIOp, arith::CeilDivSIOp>(op) ||
         op->getName().getStringRef() == "affine.apply";
}

/// The operations TVM's expression tree of `v` has (a value used twice
/// counts twice), collecting the loads in it.
ArithCounts Collector::countValue(Value v, SmallVectorImpl<LoadOp> &loads,
                                  DenseMap<Value, ArithCounts> &memo) {
  auto known = memo.find(v);
  if (known != memo.end())
    return known->second;
  ArithCounts counts;
  Operation *op = v.getDefiningOp();
  if (v.getType().isIndex() && (!op || isIndexArithmetic(op))) {
    // Index arithmetic, and loop and iteration variables, as TVM sees them
    // once blocks are opaque.
    counts = countExpr(resolve(v), loads, memo);
  } else if (auto load = dyn_cast_or_null<LoadOp>(op)) {
    loads.push_back(load);
    for (AffineExpr index : resolveAccess(load))
      counts += countExpr(index, loads, memo);
  } else if (op) {
    bool counted;
    ArithCounts::Kind kind = classify(op, counted);
    if (counted)
      counts[kind] += 1;
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      counts += countValue(branch.getCondition(), loads, memo);
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          for (Value yielded : region->front().getTerminator()->getOperands())
            counts += countValue(yielded, loads, memo);
    } else {
      for (Value operand : op->getOperands())
        if (!isa<MemRefType>(operand.getType()))
          counts += countValue(operand, loads, memo);
    }
  }
  memo[v] = counts;
  return counts;
}
