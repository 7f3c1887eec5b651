//===- RangeSimplify.h - simplification with known ranges -------*- C++ -*-===//
//
// Index expressions simplified with what is known of the ranges of their
// inputs, as TVM's arith::Analyzer does for the forms schedule primitives
// produce: `(d0 * 4 + d1) floordiv 4` is `d0` and `(d0 * 4 + d1) mod 4` is
// `d1` when d1 is in [0, 4).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_RANGESIMPLIFY_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_RANGESIMPLIFY_H

#include "TensorIR/Dialect/TIR/Analysis/Interval.h"

namespace mlir::tir {

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

/// `e` (dimension k stands for `inputs[k]`) simplified with the inputs'
/// ranges (getValueRange); inputs whose range is a single value become that
/// value.
AffineExpr simplifyOverValues(AffineExpr e, ArrayRef<Value> inputs);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_RANGESIMPLIFY_H
