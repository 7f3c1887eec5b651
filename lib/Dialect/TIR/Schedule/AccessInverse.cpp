//===- AccessInverse.cpp - a block's access inverted ----------------------===//

#include "AccessInverse.h"

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Digits.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include "llvm/ADT/DenseSet.h"
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

/// `base` as a source: iteration variables (below `sizes.size()`, each
/// with a known size) with positive coefficients in mixed radix.
static std::optional<DigitSource>
parseSource(AffineExpr base, ArrayRef<std::optional<int64_t>> sizes) {
  AffineTerms terms = AffineTerms::get(base);
  if (terms.constant != 0 || terms.terms.empty())
    return std::nullopt;
  DigitSource source;
  for (auto [term, k] : terms.terms) {
    auto var = dyn_cast<AffineDimExpr>(term);
    if (!var || var.getPosition() >= sizes.size() ||
        !sizes[var.getPosition()] || k < 1)
      return std::nullopt;
    source.vars.push_back({var.getPosition(), k});
  }
  llvm::sort(source.vars, llvm::less_second());
  int64_t next = 1;
  for (auto [var, k] : source.vars) {
    if (k != next)
      return std::nullopt;
    next = k * *sizes[var];
  }
  source.size = next;
  return source;
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
  SmallVector<std::optional<Interval>> ranges(numDims);
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size && *size > 0)
      ranges[i] = Interval{0, *size - 1};

  DigitAccess access;
  SmallVector<AffineExpr> bases;
  for (auto [d, start] : llvm::enumerate(starts)) {
    // Digits of a fused source stay digits (not split into sums of
    // digits of its variables).
    AffineExpr e = simplifyWithRanges(start, ranges, numDims, 0,
                                      /*splitBoundedTerms=*/false);
    access.constants.push_back(std::nullopt);
    if (auto k = dyn_cast<AffineConstantExpr>(e)) {
      access.constants.back() = k.getValue();
      continue;
    }
    // A digit of its source: the source is checked below.
    IndexDigit parsed = getIndexDigit(e);
    auto *at = llvm::find(bases, parsed.base);
    if (at == bases.end()) {
      std::optional<DigitSource> source = parseSource(parsed.base, sizes);
      if (!source)
        return failure();
      bases.push_back(parsed.base);
      access.sources.push_back(*source);
      at = std::prev(bases.end());
    }
    access.sources[at - bases.begin()].digits.push_back(
        Digit{static_cast<unsigned>(d), parsed.divisor, parsed.extent});
  }

  // No variable in two sources; each source's digits chain from stride 1
  // and reach its size.
  llvm::SmallDenseSet<unsigned> seen;
  for (DigitSource &source : access.sources) {
    for (auto [var, k] : source.vars)
      if (!seen.insert(var).second)
        return failure();
    llvm::sort(source.digits, [](const Digit &a, const Digit &b) {
      return a.stride < b.stride;
    });
    int64_t next = 1;
    for (auto [k, digit] : llvm::enumerate(source.digits)) {
      if (digit.stride != next)
        return failure();
      bool last = k + 1 == source.digits.size();
      if (!digit.extent) {
        if (!last)
          return failure();
        break;
      }
      next = digit.stride * *digit.extent;
      if (last && next < source.size)
        return failure(); // the source wraps: two values, one element
    }
  }
  return access;
}
