//===- LayoutPadding.h - what transform_layout writes in padding -*- C++
//-*-===//
//
// A transform_layout whose index map pads (`lambda i: (i floordiv 4,
// i mod 4)` over 14 elements makes a 4 x 4 buffer with two points that are
// no element's image) must say what the padding holds. TVM plans it in
// one of three ways, in this order of preference, and so does tir:
//
// - prologue: nobody in the scope writes the buffer (an input). A nest over
//   the new shape assumes (`tir.call "assume"`) that the padding holds the
//   pad value; the caller provides it.
// - replacement: a writer visits every old index in row-major order
//   (loops from 0 over each dimension, in order, serial) and its loops
//   hold only stores of that element. Its loops become loops over the new
//   shape and it stores `if_then_else(padding, pad_value, value)`.
// - epilogue: otherwise, after the last writer's loops, a block
//   `buffer_<name>_padding` stores the pad value where the padding is.
//
// The padding is expressed as TVM expresses it: for an old index split as
// `(outer, inner)` = `(i floordiv c, i mod c)` over n values, the points
// with `outer == n floordiv c and n mod c <= inner`; otherwise the points
// where the inverse map reaches past the old extent.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_LAYOUTPADDING_H
#define TENSORIR_LIB_SCHEDULE_LAYOUTPADDING_H

#include "IndexMap.h"

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tir::sched {

/// What the padding holds: a constant of the buffer's element type, or an
/// integer expression of the new indices (`map`, one result, dimension k
/// is new index k), converted to the element type.
struct PadValue {
  TypedAttr constant;
  AffineMap map;
};

/// The plan for a padded buffer, made on the IR before its accesses are
/// rewritten (the replacement plan's checks read the old indices).
struct PaddingPlan {
  enum class Kind { Prologue, Replacement, Epilogue } kind;
  /// Where the buffer lives (its allocation's scope, or the function).
  Operation *scope = nullptr;
  /// Replacement: the writers whose loops are replaced (one per nest).
  SmallVector<StoreOp> writers;
  /// Epilogue: the statement the filling nest goes after.
  Operation *anchor = nullptr;
};

/// Plans the padding of `buffer` (in `scope`) for `analysis` (a map that
/// pads), `oldShape` being the buffer's shape before the transform.
PaddingPlan planPadding(Operation *scope, Value buffer,
                        const IndexMapAnalysis &analysis,
                        ArrayRef<int64_t> oldShape);

/// Replaces the writers of a replacement plan. Runs before the buffer's
/// accesses go through the index map: the stores it makes index the old
/// buffer with the inverse of the map, which the rewrite then simplifies
/// to the new indices.
void replacePaddedWriters(RewriterBase &rewriter, const PaddingPlan &plan,
                          Value buffer, const IndexMapAnalysis &analysis,
                          ArrayRef<int64_t> oldShape, const PadValue &pad);

/// Adds the prologue or epilogue nest of `plan` for `buffer`, whose
/// accesses already use the new shape.
void addPaddingNest(RewriterBase &rewriter, Operation *scope,
                    const PaddingPlan &plan, Value buffer,
                    const IndexMapAnalysis &analysis,
                    ArrayRef<int64_t> oldShape, const PadValue &pad);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_LAYOUTPADDING_H
