//===- Digits.h - index expressions as digits of a base ---------*- C++ -*-===//
//
// An index that takes a floordiv and a mod of something, `(x floordiv 8)
// mod 4`, is a digit of x: its value is x's digit of weight 8 in a
// mixed-radix numbering with radix 4 there. Layout primitives read indices
// this way to invert them (transform_layout, compute_inline's reverse
// mapping, cache_read's access inversion), and all read them here.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ARITH_DIGITS_H
#define TENSORIR_DIALECT_TIR_ARITH_DIGITS_H

#include "mlir/IR/AffineExpr.h"

#include <optional>

namespace mlir::tir {

/// `(base floordiv divisor) mod extent`; no extent when no mod bounds it.
struct IndexDigit {
  AffineExpr base;
  int64_t divisor = 1;
  std::optional<int64_t> extent;
};

/// `e` as a digit. Divisions and remainders by positive constants, nested
/// in any order, are merged by rules that hold for every value of the
/// base (floor semantics):
///   (x floordiv a) floordiv b = x floordiv (a * b)
///   (x mod m) floordiv k      = (x floordiv k) mod (m / k)   (k divides m)
///   (x mod m) mod k           = x mod k                      (k divides m)
///   (x mod m) mod k           = x mod m                      (k >= m)
/// An expression that is not such a division or remainder, or whose
/// operands break the rules, is the base of a digit of divisor 1 and no
/// extent.
IndexDigit getIndexDigit(AffineExpr e);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ARITH_DIGITS_H
