//===- Simplify.h - simplification of index expressions ---------*- C++ -*-===//
//
// The one simplifier of tir's index expressions: the verifier, the
// printers, structural equality, the schedule primitives, the lowering and
// Python (through the extension) all simplify through here.
//
// - simplifyIndexExpr: the form tir stores and prints, from the expression
//   alone (linear terms merged, `x mod c` written as a mod).
// - simplifyWithRanges: also with what is known of the inputs' ranges, as
//   TVM's arith::Analyzer does for the forms schedule primitives produce:
//   `(d0 * 4 + d1) floordiv 4` is `d0` and `(d0 * 4 + d1) mod 4` is `d1`
//   when d1 is in [0, 4).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ARITH_SIMPLIFY_H
#define TENSORIR_DIALECT_TIR_ARITH_SIMPLIFY_H

#include "TensorIR/Dialect/TIR/Arith/Interval.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::tir {

/// MLIR's simplifyAffineExpr, made safe for what tir stores: MLIR 22
/// simplifies semi-affine expressions over dimensions wrongly (for
/// `-(d2 floordiv d3) - (d2 mod d3) * 8` it returns
/// `-((d2 floordiv d3) * 2)`), so an expression that divides by or
/// multiplies inputs is simplified with every input as a symbol, which
/// MLIR handles soundly. MLIR's flattening writes `k * (x mod c)` as
/// `k * x - (k * c) * (x floordiv c)`; the mod is folded back, as TVM
/// writes it.
AffineExpr simplifyIndexExpr(AffineExpr e, unsigned numDims,
                             unsigned numSymbols);

/// `expr` simplified with what is known of its dimensions' ranges
/// (nullopt: unknown): a floordiv or mod by a positive constant whose
/// dividend splits into a multiple of the divisor plus a remainder that
/// stays in [0, divisor) is rewritten without the division. Terms that
/// cannot carry leave it: with the other terms multiples of some g that
/// divides the divisor, terms within [0, g) (`(4x + v) floordiv 16` over v
/// in [0, 4) is `(4x) floordiv 16`); `splitBoundedTerms` false keeps such
/// terms in the division unless they are a constant (an access's digits
/// of a fused source, `(8v1 + v4) mod 16`, stay recognizable as such).
AffineExpr simplifyWithRanges(AffineExpr expr,
                              ArrayRef<std::optional<Interval>> dimRanges,
                              unsigned numDims, unsigned numSymbols,
                              bool splitBoundedTerms = true);

/// Upper bounds on a division tightened, in place, in a set of constraints
/// (`c >= 0` each): `k - (x floordiv d) >= 0` becomes `k * d + d - 1 - x
/// >= 0`, and, with `m - (x mod d) >= 0` also there, the largest x both
/// allow, `k * d + m - x >= 0` (TVM's simplifier: `i floordiv 128 < 127
/// and i mod 128 < 127` is `i < 16255 and i mod 128 < 127`).
void tightenDivisionBounds(SmallVectorImpl<AffineExpr> &constraints);

/// An inequality `c >= 0` in the fewest terms, with what is known of its
/// dimensions' ranges: the terms are split into leading ones, whose
/// coefficients share a divisor g, and the rest, whose sum stays in a range
/// that cannot change the bound the leading ones get; the rest are dropped
/// and the leading terms divided by g (`1023 - 16x - 4i - j >= 0` over i, j
/// in [0, 4) is `63 - x >= 0`, as TVM's simplifier writes a split loop's
/// guard). Returns `c` when no split holds.
AffineExpr simplifyInequality(AffineExpr c,
                              ArrayRef<std::optional<Interval>> dimRanges);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ARITH_SIMPLIFY_H
