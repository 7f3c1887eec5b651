//===- Digits.cpp - index expressions as digits of a base -----------------===//

#include "TensorIR/Dialect/TIR/Arith/Digits.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tir;

IndexDigit mlir::tir::getIndexDigit(AffineExpr e) {
  IndexDigit self{e, 1, std::nullopt};
  bool isDiv = e.getKind() == AffineExprKind::FloorDiv;
  if (!isDiv && e.getKind() != AffineExprKind::Mod)
    return self;
  auto bin = cast<AffineBinaryOpExpr>(e);
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!c || c.getValue() < 1)
    return self;
  int64_t k = c.getValue();
  IndexDigit inner = getIndexDigit(bin.getLHS());
  if (isDiv) {
    if (inner.extent && *inner.extent % k != 0)
      return self;
    if (llvm::MulOverflow(inner.divisor, k, inner.divisor))
      return self;
    if (inner.extent)
      *inner.extent /= k;
    return inner;
  }
  if (inner.extent && *inner.extent <= k)
    return inner;
  if (inner.extent && *inner.extent % k != 0)
    return self;
  inner.extent = k;
  return inner;
}
