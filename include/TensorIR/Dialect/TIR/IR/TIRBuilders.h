//===- TIRBuilders.h - nests the primitives and passes build ----*- C++ -*-===//
//
// Loop nests over a shape, and the spatial block inside one, as the
// schedule primitives (transform_layout's padding, transform_block_layout)
// and the passes (--tir-restore-declared-layouts) build them.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRBUILDERS_H
#define TENSORIR_DIALECT_TIR_IR_TIRBUILDERS_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

namespace mlir::tir {

/// A nest of serial loops `<prefix>0`, ... from 0 over `shape`, at the
/// builder's insertion point, which is left at the start of the innermost
/// body; returns their variables, outermost first.
SmallVector<Value> createLoopNest(OpBuilder &builder, Location loc,
                                  ArrayRef<int64_t> shape, StringRef prefix);

/// createLoopNest, holding one block `name` whose spatial variables
/// `<varPrefix>0`, ... run over `shape`, each bound to its loop; `body`
/// fills it (given the variables), `predicate` (dimension k: loop k) guards
/// it. The builder's insertion point is left after the nest.
BlockOp
createSpatialNest(OpBuilder &builder, Location loc, StringRef name,
                  ArrayRef<int64_t> shape, StringRef loopPrefix,
                  StringRef varPrefix,
                  function_ref<void(OpBuilder &, Location, ValueRange)> body,
                  ArrayRef<Conjunction> predicate = {});

/// `value` converted to `type` as TVM's Cast converts (elementwise for
/// vectors of the same length): float widths by extension or truncation,
/// integers by sign or zero extension (`fromUnsigned`) or truncation,
/// between integers and floats signed unless `fromUnsigned` / `toUnsigned`
/// say otherwise, `index` through i64. `value` itself when the types are
/// equal; null when no cast converts them (vectors of another length, a
/// vector to a scalar).
Value createConversion(OpBuilder &builder, Location loc, Value value, Type type,
                       bool fromUnsigned = false, bool toUnsigned = false);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_IR_TIRBUILDERS_H
