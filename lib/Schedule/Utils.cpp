//===- Utils.cpp - helpers shared by the schedule primitives --------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

LogicalResult sched::refuse(ScheduleError &error, Operation *culprit,
                             const Twine &message) {
  error.message = message.str();
  error.culprit = culprit;
  return failure();
}

SmallVector<BlockOp> sched::collectChildBlocks(Operation *op) {
  SmallVector<BlockOp> blocks;
  op->walk<WalkOrder::PreOrder>([&](BlockOp block) {
    if (block == op)
      return WalkResult::advance();
    blocks.push_back(block);
    return WalkResult::skip();
  });
  return blocks;
}

std::string sched::loopName(ForOp loop) {
  if (auto name = loop.getVarName())
    return ("'" + *name + "'").str();
  return "the loop";
}

LogicalResult sched::checkOnlyBindingUses(ForOp loop, ScheduleError &error) {
  Value iv = loop.getInductionVar();
  for (OpOperand &use : iv.getUses()) {
    auto block = dyn_cast<BlockOp>(use.getOwner());
    bool isBinding =
        block && use.getOperandNumber() >=
                     block.getBindingValues().getBeginOperandIndex() &&
        use.getOperandNumber() < block.getBindingValues().getBeginOperandIndex() +
                                     block.getBindingValues().size();
    if (!isBinding)
      return refuse(error, loop,
                    "the variable of loop " + loopName(loop) +
                        " is used by '" +
                        use.getOwner()->getName().getStringRef() +
                        "', not only in block bindings");
  }
  return success();
}

FailureOr<int64_t> sched::checkZeroBasedConstantExtent(ForOp loop,
                                                        StringRef primitive,
                                                        ScheduleError &error) {
  std::optional<int64_t> lower = loop.getConstantLowerBound();
  if (lower != 0)
    return refuse(error, loop,
                  primitive + " needs loops that start at 0; loop " +
                      loopName(loop) + " starts at " +
                      (lower ? std::to_string(*lower) : "a runtime value"));
  std::optional<int64_t> upper = loop.getConstantUpperBound();
  if (!upper)
    return refuse(error, loop,
                  primitive + " needs loops with a constant extent; loop " +
                      loopName(loop) + " ends at a runtime value");
  return *upper;
}

ForOp sched::createLoop(RewriterBase &rewriter, Location loc, int64_t extent,
                         StringRef name) {
  auto loop = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                            rewriter.getIndexAttr(extent), ForKind::Serial,
                            StringAttr());
  if (!name.empty())
    loop.setVarName(name);
  return loop;
}

//===----------------------------------------------------------------------===//
// Range-aware simplification
//===----------------------------------------------------------------------===//

namespace {
using Ranges = ArrayRef<std::optional<Interval>>;

/// `e` as a sum of (term, coefficient), constants as term 1.
void terms(AffineExpr e, int64_t scale,
           SmallVectorImpl<std::pair<AffineExpr, int64_t>> &out) {
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    terms(bin.getLHS(), scale, out);
    terms(bin.getRHS(), scale, out);
    return;
  }
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    out.push_back({getAffineConstantExpr(1, e.getContext()),
                   c.getValue() * scale});
    return;
  }
  if (e.getKind() == AffineExprKind::Mul) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    if (auto k = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
      terms(bin.getLHS(), scale * k.getValue(), out);
      return;
    }
  }
  out.push_back({e, scale});
}

AffineExpr sum(ArrayRef<std::pair<AffineExpr, int64_t>> parts,
               MLIRContext *ctx) {
  AffineExpr total = getAffineConstantExpr(0, ctx);
  for (auto [term, k] : parts)
    total = total + term * k;
  return total;
}

AffineExpr simplify(AffineExpr e, Ranges ranges) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  AffineExpr lhs = simplify(bin.getLHS(), ranges);
  AffineExpr rhs = simplify(bin.getRHS(), ranges);
  AffineExprKind kind = e.getKind();
  auto c = dyn_cast<AffineConstantExpr>(rhs);
  if ((kind == AffineExprKind::FloorDiv || kind == AffineExprKind::Mod) && c &&
      c.getValue() > 0) {
    int64_t divisor = c.getValue();
    if (auto whole = evaluateRange(lhs, ranges);
        whole && whole->lo >= 0 && whole->hi < divisor)
      return kind == AffineExprKind::Mod
                 ? lhs
                 : getAffineConstantExpr(0, e.getContext());
    SmallVector<std::pair<AffineExpr, int64_t>> parts, quotient, rest;
    terms(lhs, 1, parts);
    for (auto [term, k] : parts) {
      if (k % divisor == 0)
        quotient.push_back({term, k / divisor});
      else
        rest.push_back({term, k});
    }
    AffineExpr remainder = sum(rest, e.getContext());
    auto r = evaluateRange(remainder, ranges);
    if (r && r->lo >= 0 && r->hi < divisor)
      return kind == AffineExprKind::Mod ? remainder
                                         : sum(quotient, e.getContext());
  }
  switch (kind) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  case AffineExprKind::FloorDiv:
    return lhs.floorDiv(rhs);
  case AffineExprKind::CeilDiv:
    return lhs.ceilDiv(rhs);
  case AffineExprKind::Mod:
    return lhs % rhs;
  default:
    return e;
  }
}
} // namespace

AffineExpr sched::simplifyWithRanges(AffineExpr expr, Ranges dimRanges,
                                      unsigned numDims, unsigned numSymbols) {
  AffineExpr simplified = simplifyAffineExpr(expr, numDims, numSymbols);
  return simplifyAffineExpr(simplify(simplified, dimRanges), numDims,
                            numSymbols);
}

//===----------------------------------------------------------------------===//
// Binding substitution
//===----------------------------------------------------------------------===//

void sched::substituteBindingValue(BlockOp block, Value old, AffineExpr expr,
                                    ValueRange exprValues,
                                    ArrayRef<AffineExpr> extraConstraints) {
  MLIRContext *ctx = block.getContext();
  AffineMap map = block.getBindings();
  SmallVector<Value> dims(block.getBindingDims());
  SmallVector<Value> syms(block.getBindingSymbols());
  if (!llvm::is_contained(dims, old) && extraConstraints.empty())
    return;

  // New dimensions: the old ones without `old`, then the expression's values.
  SmallVector<Value> newDims;
  for (Value d : dims)
    if (d != old && !llvm::is_contained(newDims, d))
      newDims.push_back(d);
  SmallVector<AffineExpr> exprDims;
  for (Value v : exprValues) {
    auto it = llvm::find(newDims, v);
    if (it == newDims.end()) {
      newDims.push_back(v);
      it = std::prev(newDims.end());
    }
    exprDims.push_back(getAffineDimExpr(it - newDims.begin(), ctx));
  }
  AffineExpr replacement =
      expr.replaceDimsAndSymbols(exprDims, /*symReplacements=*/{});
  SmallVector<AffineExpr> dimReplacements;
  for (Value d : dims)
    dimReplacements.push_back(
        d == old ? replacement
                 : getAffineDimExpr(llvm::find(newDims, d) - newDims.begin(),
                                    ctx));
  SmallVector<AffineExpr> symReplacements;
  for (unsigned i = 0; i < syms.size(); ++i)
    symReplacements.push_back(getAffineSymbolExpr(i, ctx));

  SmallVector<std::optional<Interval>> ranges;
  for (Value d : newDims)
    ranges.push_back(getValueRange(d));
  unsigned nd = newDims.size(), ns = syms.size();

  SmallVector<AffineExpr> results;
  for (AffineExpr e : map.getResults())
    results.push_back(simplifyWithRanges(
        e.replaceDimsAndSymbols(dimReplacements, symReplacements), ranges, nd,
        ns));
  SmallVector<AffineExpr> constraints;
  SmallVector<bool> eqFlags;
  if (auto predicate = block.getPredicate()) {
    for (unsigned i = 0, e = predicate->getNumConstraints(); i < e; ++i) {
      constraints.push_back(simplifyWithRanges(
          predicate->getConstraint(i).replaceDimsAndSymbols(dimReplacements,
                                                            symReplacements),
          ranges, nd, ns));
      eqFlags.push_back(predicate->isEq(i));
    }
  }
  for (AffineExpr c : extraConstraints) {
    constraints.push_back(simplifyWithRanges(
        c.replaceDimsAndSymbols(exprDims, {}), ranges, nd, ns));
    eqFlags.push_back(false);
  }
  // Drop what holds everywhere (a constant >= 0, or a bound implied by
  // the ranges).
  SmallVector<AffineExpr> kept;
  SmallVector<bool> keptEq;
  for (auto [c, eq] : llvm::zip(constraints, eqFlags)) {
    auto range = evaluateRange(c, ranges);
    bool always = range && (eq ? (range->lo == 0 && range->hi == 0)
                               : range->lo >= 0);
    if (!always) {
      kept.push_back(c);
      keptEq.push_back(eq);
    }
  }
  if (kept.empty())
    block.removePredicateAttr();

  // Keep only the dimensions still in use (a unit loop folded to 0 leaves
  // the bindings, as in TVM).
  llvm::SmallBitVector used(nd);
  auto markUsed = [&](AffineExpr e) {
    e.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        used.set(d.getPosition());
    });
  };
  for (AffineExpr e : results)
    markUsed(e);
  for (AffineExpr c : kept)
    markUsed(c);
  SmallVector<Value> operands;
  SmallVector<AffineExpr> compress;
  for (unsigned i = 0; i < nd; ++i) {
    compress.push_back(getAffineDimExpr(operands.size(), ctx));
    if (used.test(i))
      operands.push_back(newDims[i]);
  }
  unsigned keptDims = operands.size();
  SmallVector<AffineExpr> compressed;
  for (AffineExpr e : results)
    compressed.push_back(e.replaceDimsAndSymbols(compress, symReplacements));
  block.setBindingsAttr(
      AffineMapAttr::get(AffineMap::get(keptDims, ns, compressed, ctx)));
  if (!kept.empty()) {
    SmallVector<AffineExpr> keptCompressed;
    for (AffineExpr c : kept)
      keptCompressed.push_back(c.replaceDimsAndSymbols(compress, symReplacements));
    block.setPredicateAttr(IntegerSetAttr::get(
        IntegerSet::get(keptDims, ns, keptCompressed, keptEq)));
  }
  operands.append(syms.begin(), syms.end());
  block.getBindingValuesMutable().assign(operands);
}
