//===- IndexValueRanges.h - ranges of index values in tir -------*- C++ -*-===//
//
// What the IR says of an index value's range (a constant, a loop's or a
// block's iteration variable with constant bounds), and index expressions
// over such values simplified with it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_INDEXVALUERANGES_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_INDEXVALUERANGES_H

#include "TensorIR/Dialect/TIR/Arith/Interval.h"

#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"

namespace mlir::tir {

/// The range of an `index` value: a constant, a tir.for induction variable
/// with constant bounds, or a tir.block iteration variable with a constant
/// domain. nullopt otherwise (and for an empty range).
std::optional<Interval> getValueRange(Value value);

/// getValueRange of each value.
SmallVector<std::optional<Interval>> getValueRanges(ValueRange values);

/// `e` (dimension k stands for `inputs[k]`) simplified with the inputs'
/// ranges (getValueRange); inputs whose range is a single value become that
/// value.
AffineExpr simplifyOverValues(AffineExpr e, ArrayRef<Value> inputs);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_INDEXVALUERANGES_H
