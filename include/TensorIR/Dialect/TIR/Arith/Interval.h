//===- Interval.h - integer ranges of index expressions ---------*- C++ -*-===//
//
// Closed integer intervals and the range of a quasi-affine index expression
// when its inputs range over intervals: what bounds checks, range-aware
// simplification and region relaxation build on.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ARITH_INTERVAL_H
#define TENSORIR_DIALECT_TIR_ARITH_INTERVAL_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace mlir::tir {

/// A closed integer interval [lo, hi].
struct Interval {
  int64_t lo;
  int64_t hi;

  static Interval point(int64_t v) { return {v, v}; }
  bool isPoint() const { return lo == hi; }
  bool contains(int64_t v) const { return lo <= v && v <= hi; }
  bool operator==(const Interval &o) const { return lo == o.lo && hi == o.hi; }
};

/// The range of `expr` when its dims / symbols range over the given
/// intervals (nullopt entries are unknown). Returns nullopt when the range
/// cannot be bounded (an unknown input, a product or sum that overflows, a
/// division by a non-constant or non-positive value).
std::optional<Interval>
evaluateRange(AffineExpr expr, ArrayRef<std::optional<Interval>> dimRanges,
              ArrayRef<std::optional<Interval>> symRanges = {});

/// The value of `expr` at integer dimension values; nullopt where it
/// cannot say (a symbol, a division by 0, an overflow).
std::optional<int64_t> evaluateAt(AffineExpr expr, ArrayRef<int64_t> dims);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ARITH_INTERVAL_H
