//===- RangeSimplify.cpp - simplification with known ranges ---------------===//

#include "TensorIR/Dialect/TIR/Analysis/RangeSimplify.h"
#include "TensorIR/Dialect/TIR/Analysis/AffineTerms.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"

#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tir;

using Ranges = ArrayRef<std::optional<Interval>>;

/// Bottom-up: each floordiv / mod by a positive constant whose dividend is
/// `divisor * q + r` with r in [0, divisor) becomes q / r; a constant that
/// cannot carry (below the gcd of the divisor and the coefficients) leaves
/// the division.
static AffineExpr simplify(AffineExpr e, Ranges ranges) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  MLIRContext *ctx = e.getContext();
  AffineExpr lhs = simplify(bin.getLHS(), ranges);
  AffineExpr rhs = simplify(bin.getRHS(), ranges);
  AffineExprKind kind = e.getKind();
  auto c = dyn_cast<AffineConstantExpr>(rhs);
  if ((kind == AffineExprKind::FloorDiv || kind == AffineExprKind::Mod) && c &&
      c.getValue() > 0) {
    int64_t divisor = c.getValue();
    bool isMod = kind == AffineExprKind::Mod;
    if (auto whole = evaluateRange(lhs, ranges);
        whole && whole->lo >= 0 && whole->hi < divisor)
      return isMod ? lhs : getAffineConstantExpr(0, ctx);
    AffineTerms parts = AffineTerms::get(lhs);
    // lhs == divisor * quotient + rest: when rest stays within one multiple
    // [m * divisor, (m + 1) * divisor), the division is quotient + m and
    // the remainder rest - m * divisor. Two splits: the multiples of the
    // divisor out, or (failing that) every coefficient's floor quotient out
    // ((45c) floordiv 2 over c in [0, 1] is 22c).
    for (bool floorAll : {false, true}) {
      AffineTerms quotient, rest;
      auto place = [&](int64_t k, auto add) {
        int64_t q = floorAll ? llvm::divideFloorSigned(k, divisor)
                             : (k % divisor == 0 ? k / divisor : 0);
        add(quotient, q);
        add(rest, k - q * divisor);
      };
      for (auto [term, k] : parts.terms)
        place(k, [&, term = term](AffineTerms &t, int64_t v) {
          if (v != 0)
            t.terms.push_back({term, v});
        });
      place(parts.constant, [](AffineTerms &t, int64_t v) { t.constant = v; });
      AffineExpr remainder = rest.toExpr(ctx);
      auto r = evaluateRange(remainder, ranges);
      if (!r)
        continue;
      int64_t m = llvm::divideFloorSigned(r->lo, divisor);
      if (r->hi >= (m + 1) * divisor)
        continue;
      quotient.constant += m;
      return isMod ? remainder - m * divisor : quotient.toExpr(ctx);
    }
    // The terms are multiples of g, which divides the divisor: a constant
    // b0 below g does not carry into the quotient ((8x + 7) floordiv 16 is
    // (8x) floordiv 16).
    int64_t g = divisor;
    for (auto [term, k] : parts.terms)
      g = std::gcd(g, k);
    int64_t b0 = llvm::mod(parts.constant, g);
    if (g > 1 && b0 != 0 && !parts.terms.empty()) {
      AffineExpr base = simplify(lhs - b0, ranges);
      return isMod ? simplify(base % divisor, ranges) + b0
                   : simplify(base.floorDiv(divisor), ranges);
    }
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

AffineExpr mlir::tir::simplifyWithRanges(AffineExpr expr, Ranges dimRanges,
                                         unsigned numDims,
                                         unsigned numSymbols) {
  AffineExpr simplified = simplifyIndexExpr(expr, numDims, numSymbols);
  return simplifyIndexExpr(simplify(simplified, dimRanges), numDims,
                           numSymbols);
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
