//===- IndexValues.h - index values in tir ----------------------*- C++ -*-===//
//
// What the IR says of an index value: the index expression its integer
// arithmetic computes, its range (a constant, a loop's or a block's
// iteration variable with constant bounds), and index expressions over such
// values simplified with the ranges.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_INDEXVALUES_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_INDEXVALUES_H

#include "TensorIR/Dialect/TIR/Arith/Interval.h"

#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tir {

/// An index expression over SSA values: dimension k stands for
/// `inputs[k]`.
struct ValueIndexExpr {
  AffineExpr expr;
  SmallVector<Value> inputs;
};

/// The index expression `v` computes: constants, and arith's addi, subi,
/// muli, shli by a constant, floordivsi and ceildivsi and affine.apply on
/// `index` values, are
/// read through (narrower integers may wrap, so a cast is an input); any
/// other value, and one `isInput` accepts, is an input (each once, in
/// order of first use).
ValueIndexExpr getIndexExprOf(Value v,
                              function_ref<bool(Value)> isInput = nullptr);

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

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_INDEXVALUES_H
