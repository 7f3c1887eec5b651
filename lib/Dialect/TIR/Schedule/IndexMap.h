//===- IndexMap.h - TVM's IndexMap over affine maps -------------*- C++ -*-===//
//
// transform_layout, transform_block_layout and the reindex caches take an
// index map: an affine map (d0, ..., dn-1) -> (e0, ...) from a buffer's (or
// a block's) indices to new ones. What they ask of it is shared here: the
// shape of its results over given extents, whether it is a bijection onto
// that shape (and which inputs feed which results), and its inverse.
//
// Maps are understood as TVM's iterator maps are: each result a sum of
// pieces `(d floordiv f) mod e` of the inputs, scaled in mixed radix
// (`i * 128 + j`, `i floordiv 4`, `i mod 4`, `(i mod 21) floordiv 3`).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_INDEXMAP_H
#define TENSORIR_LIB_SCHEDULE_INDEXMAP_H

#include "TensorIR/Dialect/TIR/Analysis/Refusal.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tir::sched {

/// Each result's extent over inputs in [0, extents[i]): its largest value
/// plus one. Fails, saying why, for a result that can be negative or is
/// unbounded.
FailureOr<SmallVector<int64_t>>
getMappedShape(AffineMap map, ArrayRef<int64_t> extents, Refusal &why);

/// getMappedShape where the map's results or the extents use symbols
/// (runtime values: shape variables and sizes, taken as non-negative, a
/// divisor as positive): each result's extent as an expression of the
/// symbols (a constant where it is one). Fails, saying why, for a result
/// that can be negative or that it cannot bound.
FailureOr<SmallVector<AffineExpr>>
getSymbolicMappedShape(AffineMap map, ArrayRef<AffineExpr> extents,
                       Refusal &why);

/// How `map` relates inputs in [0, extents[i]) to its results.
struct IndexMapAnalysis {
  /// Each result's extent (getMappedShape).
  SmallVector<int64_t> shape;
  /// Every point of `shape` is the image of exactly one input point.
  bool bijective = false;
  /// Injective, but some points of `shape` are no input's image (the map
  /// pads: `i floordiv 4, i mod 4` for 14 values of i).
  bool pads = false;
  /// Where the map is injective: each input as an expression of the
  /// results (dims 0.. are the results), defined on the image.
  SmallVector<AffineExpr> inverse;
  /// Whether each result is an exact mixed-radix sum (no gaps between its
  /// terms, no constant): padding then comes only from inputs whose
  /// pieces cover more than their extent (`inputPadded`), and a point of
  /// the new shape is padding exactly where some such input's inverse
  /// reaches past its extent.
  bool resultsExact = false;
  SmallVector<bool> inputPadded;
  /// Per input, the constant it is shifted by before it is split (`(i + 1)
  /// floordiv 8`): its inverse can then also fall below 0.
  SmallVector<int64_t> inputOffset;
  /// For each result, the inputs it reads.
  SmallVector<SmallVector<unsigned>> inputsOf;
};

/// Analyses `map` (dims only) over inputs of `extents`. Fails, saying why,
/// for a map that is not a mixed-radix sum of input pieces or that sends
/// two inputs to the same point (not injective).
FailureOr<IndexMapAnalysis>
analyzeIndexMap(AffineMap map, ArrayRef<int64_t> extents, Refusal &why);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_INDEXMAP_H
