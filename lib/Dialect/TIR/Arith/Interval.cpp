//===- Interval.cpp - integer ranges of index expressions -----------------===//

#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tir;

static std::optional<Interval> multiply(Interval a, Interval b) {
  int64_t corners[4];
  if (llvm::MulOverflow(a.lo, b.lo, corners[0]) ||
      llvm::MulOverflow(a.lo, b.hi, corners[1]) ||
      llvm::MulOverflow(a.hi, b.lo, corners[2]) ||
      llvm::MulOverflow(a.hi, b.hi, corners[3]))
    return std::nullopt;
  return Interval{*std::min_element(corners, corners + 4),
                  *std::max_element(corners, corners + 4)};
}

/// The range of a sum holding both x and x floordiv c, with x split into
/// c * (x floordiv c) + x mod c so that the two are not bounded apart
/// (`x - x floordiv 2` over x in [0, 3] is (x floordiv 2) + x mod 2, at
/// most 2, not 3); nullopt where the sum has no such pair or a term has no
/// range.
static std::optional<Interval>
evaluateSplitSum(AffineExpr expr, ArrayRef<std::optional<Interval>> dimRanges,
                 ArrayRef<std::optional<Interval>> symRanges) {
  AffineTerms parts = AffineTerms::get(expr);
  bool paired = false;
  for (auto &[x, k] : parts.terms) {
    if (k == 0)
      continue;
    for (auto &[t, m] : parts.terms) {
      auto div = dyn_cast<AffineBinaryOpExpr>(t);
      auto c = div ? dyn_cast<AffineConstantExpr>(div.getRHS())
                   : AffineConstantExpr();
      if (!div || div.getKind() != AffineExprKind::FloorDiv || !c ||
          c.getValue() <= 0 || div.getLHS() != x)
        continue;
      int64_t scaled;
      if (llvm::MulOverflow(k, c.getValue(), scaled) ||
          llvm::AddOverflow(m, scaled, m))
        return std::nullopt;
      x = x % c.getValue();
      paired = true;
      break;
    }
  }
  if (!paired)
    return std::nullopt;
  Interval sum = Interval::point(parts.constant);
  for (auto &[term, k] : parts.terms) {
    std::optional<Interval> r = evaluateRange(term, dimRanges, symRanges);
    if (!r)
      return std::nullopt;
    std::optional<Interval> scaled = multiply(*r, Interval::point(k));
    if (!scaled || llvm::AddOverflow(sum.lo, scaled->lo, sum.lo) ||
        llvm::AddOverflow(sum.hi, scaled->hi, sum.hi))
      return std::nullopt;
  }
  return sum;
}

std::optional<Interval>
mlir::tir::evaluateRange(AffineExpr expr,
                         ArrayRef<std::optional<Interval>> dimRanges,
                         ArrayRef<std::optional<Interval>> symRanges) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return Interval::point(cast<AffineConstantExpr>(expr).getValue());
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    return pos < dimRanges.size() ? dimRanges[pos] : std::nullopt;
  }
  case AffineExprKind::SymbolId: {
    unsigned pos = cast<AffineSymbolExpr>(expr).getPosition();
    return pos < symRanges.size() ? symRanges[pos] : std::nullopt;
  }
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<Interval> rhs =
      evaluateRange(bin.getRHS(), dimRanges, symRanges);
  std::optional<Interval> lhs =
      evaluateRange(bin.getLHS(), dimRanges, symRanges);
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    std::optional<Interval> split =
        evaluateSplitSum(expr, dimRanges, symRanges);
    if (!lhs || !rhs)
      return split;
    int64_t lo, hi;
    if (llvm::AddOverflow(lhs->lo, rhs->lo, lo) ||
        llvm::AddOverflow(lhs->hi, rhs->hi, hi))
      return split;
    if (split)
      return Interval{std::max(lo, split->lo), std::min(hi, split->hi)};
    return Interval{lo, hi};
  }
  case AffineExprKind::Mul:
    if (!lhs || !rhs)
      return std::nullopt;
    return multiply(*lhs, *rhs);
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    // Only division by a positive constant has a simple monotone range.
    if (!lhs || !rhs || !rhs->isPoint() || rhs->lo <= 0)
      return std::nullopt;
    int64_t d = rhs->lo;
    if (expr.getKind() == AffineExprKind::FloorDiv)
      return Interval{llvm::divideFloorSigned(lhs->lo, d),
                      llvm::divideFloorSigned(lhs->hi, d)};
    return Interval{llvm::divideCeilSigned(lhs->lo, d),
                    llvm::divideCeilSigned(lhs->hi, d)};
  }
  case AffineExprKind::Mod: {
    if (!rhs || !rhs->isPoint() || rhs->lo <= 0)
      return std::nullopt;
    int64_t d = rhs->lo;
    // Within one period the remainder grows with the dividend.
    if (lhs && llvm::divideFloorSigned(lhs->lo, d) ==
                   llvm::divideFloorSigned(lhs->hi, d))
      return Interval{llvm::mod(lhs->lo, d), llvm::mod(lhs->hi, d)};
    return Interval{0, d - 1};
  }
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> mlir::tir::evaluateAt(AffineExpr expr,
                                             ArrayRef<int64_t> dims) {
  SmallVector<std::optional<Interval>> points;
  for (int64_t d : dims)
    points.push_back(Interval::point(d));
  std::optional<Interval> r = evaluateRange(expr, points);
  if (!r || !r->isPoint())
    return std::nullopt;
  return r->lo;
}
