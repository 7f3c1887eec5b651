//===- AccessInverse.cpp - a block's access inverted ----------------------===//

#include "AccessInverse.h"

#include "TensorIR/Dialect/TIR/Analysis/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Analysis/RangeSimplify.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

AffineExpr Inverse::lowerOf(AffineExpr lo, AffineExpr hi) const {
  if (scale == -1)
    return offset - hi;
  return (lo - offset).floorDiv(tile);
}

AffineExpr Inverse::upperOf(AffineExpr lo, AffineExpr hi) const {
  if (scale == -1)
    return offset - lo;
  return (hi - offset).floorDiv(tile);
}

FailureOr<Inverse> sched::invertIndex(AffineExpr start,
                                      AffineConstantExpr extent,
                                      unsigned numVars) {
  AffineTerms terms = AffineTerms::get(start);
  if (!extent || terms.terms.size() != 1)
    return failure();
  auto [term, scale] = terms.terms.front();
  auto var = dyn_cast<AffineDimExpr>(term);
  if (!var || var.getPosition() >= numVars)
    return failure();
  int64_t e = extent.getValue();
  if ((scale == 1 || scale == -1) && e == 1)
    return Inverse{var.getPosition(), scale, terms.constant, 1};
  if (scale > 1 && e == scale)
    return Inverse{var.getPosition(), scale, terms.constant, scale};
  return failure();
}

/// `e` as a digit of an iteration variable (below `numVars`): a variable,
/// a floordiv of a digit (by a divisor of its extent), a mod of a digit
/// (by a divisor of its extent).
static std::optional<Digit> parseDigit(AffineExpr e, unsigned numVars) {
  if (auto var = dyn_cast<AffineDimExpr>(e)) {
    if (var.getPosition() >= numVars)
      return std::nullopt;
    return Digit{var.getPosition(), 1, std::nullopt};
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return std::nullopt;
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!c || c.getValue() < 1)
    return std::nullopt;
  int64_t k = c.getValue();
  std::optional<Digit> inner = parseDigit(bin.getLHS(), numVars);
  if (!inner || (inner->extent && *inner->extent % k != 0))
    return std::nullopt;
  switch (e.getKind()) {
  case AffineExprKind::FloorDiv:
    inner->stride *= k;
    if (inner->extent)
      inner->extent = *inner->extent / k;
    return inner;
  case AffineExprKind::Mod:
    inner->extent = k;
    return inner;
  default:
    return std::nullopt;
  }
}

FailureOr<DigitAccess>
sched::invertDigits(ArrayRef<AffineExpr> starts, ArrayRef<AffineExpr> extents,
                    ArrayRef<std::optional<int64_t>> sizes, unsigned numDims) {
  // TVM inverts only an access of single elements.
  for (AffineExpr extent : extents) {
    auto k = dyn_cast<AffineConstantExpr>(extent);
    if (!k || k.getValue() != 1)
      return failure();
  }
  unsigned numVars = sizes.size();
  SmallVector<std::optional<Interval>> ranges(numDims);
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size && *size > 0)
      ranges[i] = Interval{0, *size - 1};

  DigitAccess access;
  access.digits.resize(numVars);
  for (auto [d, start] : llvm::enumerate(starts)) {
    AffineExpr e = simplifyWithRanges(start, ranges, numDims, 0);
    access.constants.push_back(std::nullopt);
    if (auto k = dyn_cast<AffineConstantExpr>(e)) {
      access.constants.back() = k.getValue();
      continue;
    }
    std::optional<Digit> digit = parseDigit(e, numVars);
    if (!digit || !sizes[digit->dim])
      return failure();
    unsigned var = digit->dim;
    digit->dim = d;
    access.digits[var].push_back(*digit);
  }

  // Each variable's digits must chain from stride 1 and reach its domain.
  for (auto [var, digits] : llvm::enumerate(access.digits)) {
    llvm::sort(digits, [](const Digit &a, const Digit &b) {
      return a.stride < b.stride;
    });
    int64_t next = 1;
    for (auto [k, digit] : llvm::enumerate(digits)) {
      if (digit.stride != next)
        return failure();
      bool last = k + 1 == digits.size();
      if (!digit.extent) {
        if (!last)
          return failure();
        break;
      }
      next = digit.stride * *digit.extent;
      if (last && next < *sizes[var])
        return failure(); // the variable wraps: two values, one element
    }
  }
  return access;
}
