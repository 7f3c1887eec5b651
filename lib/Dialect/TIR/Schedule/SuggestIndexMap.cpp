//===- SuggestIndexMap.cpp - TVM's suggest_index_map ----------------------===//
//
// The layout in which an access walks a buffer in loop order. The
// flattened access `sum scale * digit` is read as a mixed-radix number
// whose digits are splits of the loops (`(v floordiv f) mod e`); sorting
// the digits by loop (outer digits first) gives the new dimensions, and
// peeling them off the flattened buffer index gives the map.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

using namespace mlir;
using namespace mlir::tir;

namespace {

/// One digit of the access: (loop floordiv factor) mod extent, times scale.
struct Digit {
  unsigned loop;
  int64_t factor, extent, scale;
};

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The digit `e` is (a split of one loop), or failure.
FailureOr<Digit> digitOf(AffineExpr e, ArrayRef<int64_t> extents) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return Digit{d.getPosition(), 1, extents[d.getPosition()], 0};
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return failure();
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!c || c.getValue() <= 0)
    return failure();
  int64_t k = c.getValue();
  FailureOr<Digit> inner = digitOf(bin.getLHS(), extents);
  if (failed(inner))
    return failure();
  switch (e.getKind()) {
  case AffineExprKind::FloorDiv:
    // (v floordiv f mod e) floordiv k: digits of it above k (k divides e,
    // or the digit is all of what is left).
    if (inner->extent % k != 0 && inner->extent > k)
      return failure();
    return Digit{inner->loop, inner->factor * k, ceilDiv(inner->extent, k), 0};
  case AffineExprKind::Mod:
    return Digit{inner->loop, inner->factor, std::min(inner->extent, k), 0};
  default:
    return failure();
  }
}

/// Adds the digits of `e` times `scale` to `digits` (constants aside).
LogicalResult collect(AffineExpr e, int64_t scale, ArrayRef<int64_t> extents,
                      SmallVectorImpl<Digit> &digits) {
  if (isa<AffineConstantExpr>(e))
    return success();
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    return success(succeeded(collect(bin.getLHS(), scale, extents, digits)) &&
                   succeeded(collect(bin.getRHS(), scale, extents, digits)));
  }
  if (e.getKind() == AffineExprKind::Mul) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return collect(bin.getLHS(), scale * c.getValue(), extents, digits);
    return failure();
  }
  FailureOr<Digit> digit = digitOf(e, extents);
  if (failed(digit))
    return failure();
  digit->scale = scale;
  if (digit->extent > 1) // a loop of extent 1 is a constant
    digits.push_back(*digit);
  return success();
}

} // namespace

FailureOr<SuggestedLayout>
mlir::tir::suggestIndexMap(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides,
                           ArrayRef<AffineExpr> indices,
                           ArrayRef<int64_t> loopExtents) {
  if (indices.size() != shape.size() || shape.empty())
    return failure();
  unsigned ndim = shape.size();
  SmallVector<int64_t> stride(strides);
  if (stride.empty()) {
    stride.assign(ndim, 1);
    for (int d = static_cast<int>(ndim) - 2; d >= 0; --d)
      stride[d] = stride[d + 1] * shape[d + 1];
  }
  if (stride.size() != ndim ||
      llvm::any_of(shape, [](int64_t s) { return s <= 0; }) ||
      llvm::any_of(stride, [](int64_t s) { return s <= 0; }))
    return failure(); // empty buffers, reversed or broadcast layouts
  SmallVector<Digit> digits;
  for (auto [d, e] : llvm::enumerate(indices))
    if (failed(collect(e, stride[d], loopExtents, digits)))
      return failure();
  if (digits.empty())
    return failure();
  // Outer digits first; adjacent digits of one loop that continue each
  // other are one (`(v floordiv 4) mod 2 * 4 + v mod 4` is `v mod 8`).
  llvm::stable_sort(
      digits, [](const Digit &a, const Digit &b) { return a.scale > b.scale; });
  for (size_t k = 0; k + 1 < digits.size();) {
    Digit &hi = digits[k], &lo = digits[k + 1];
    if (hi.loop == lo.loop && hi.factor == lo.factor * lo.extent &&
        hi.scale == lo.scale * lo.extent) {
      lo.extent *= hi.extent;
      digits.erase(digits.begin() + k);
      continue;
    }
    ++k;
  }
  // A mixed-radix number: each digit's scale is the next one's times its
  // extent, the last one's 1.
  for (size_t k = 0; k < digits.size(); ++k) {
    int64_t below =
        k + 1 < digits.size() ? digits[k + 1].scale * digits[k + 1].extent : 1;
    if (digits[k].scale != below)
      return failure();
  }
  unsigned n = digits.size();
  SmallVector<unsigned> order(n);
  for (unsigned k = 0; k < n; ++k)
    order[k] = k;
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    if (digits[a].loop != digits[b].loop)
      return digits[a].loop < digits[b].loop;
    return digits[a].factor > digits[b].factor;
  });
  MLIRContext *ctx = indices.front().getContext();

  // Forward: peel the digits, innermost first, off the flattened index.
  SmallVector<std::optional<Interval>> ranges;
  AffineExpr flat = getAffineConstantExpr(0, ctx);
  for (unsigned d = 0; d < ndim; ++d) {
    ranges.push_back(Interval{0, shape[d] - 1});
    flat = flat + getAffineDimExpr(d, ctx) * stride[d];
  }
  auto simplify = [&](AffineExpr e, unsigned numDims) {
    return simplifyWithRanges(simplifyIndexExpr(e, numDims, 0), ranges, numDims,
                              0);
  };
  SmallVector<AffineExpr> split(n);
  AffineExpr rest = simplify(flat, ndim);
  for (int k = static_cast<int>(n) - 1; k >= 0; --k) {
    split[k] = simplify(rest % digits[k].extent, ndim);
    rest = simplify(rest.floorDiv(digits[k].extent), ndim);
  }
  SmallVector<AffineExpr> forward;
  for (unsigned p = 0; p < n; ++p)
    forward.push_back(split[order[p]]);

  // Inverse: the digits' mixed-radix number, peeled by the buffer's shape.
  SmallVector<unsigned> position(n);
  for (unsigned p = 0; p < n; ++p)
    position[order[p]] = p;
  ranges.clear();
  for (unsigned p = 0; p < n; ++p)
    ranges.push_back(Interval{0, digits[order[p]].extent - 1});
  AffineExpr number = getAffineConstantExpr(0, ctx);
  int64_t radix = 1;
  for (int k = static_cast<int>(n) - 1; k >= 0; --k) {
    number = number + getAffineDimExpr(position[k], ctx) * radix;
    radix *= digits[k].extent;
  }
  SmallVector<AffineExpr> inverse(ndim);
  AffineExpr left = simplify(number, n);
  for (int d = static_cast<int>(ndim) - 1; d >= 0; --d) {
    inverse[d] = simplify(left % shape[d], n);
    left = simplify(left.floorDiv(shape[d]), n);
  }
  return SuggestedLayout{AffineMap::get(ndim, 0, forward, ctx),
                         AffineMap::get(n, 0, inverse, ctx)};
}
