//===- AccessInverse.h - a block's access inverted -------------*- C++ -*-===//
//
// compute_at and reverse_compute_at know the region the other blocks need
// (or provide) under a loop; the block's own access (the element one
// iteration writes, or reads) maps its iteration variables to that buffer.
// Inverting the access gives the values of the variables that cover the
// region. Two forms are inverted:
//   - dimension by dimension (TVM's dimension-wise domain): each index is
//     one variable times 1 or -1 plus a constant, or a tile of a variable
//     whose scale is the tile's extent;
//   - digits (TVM's bijective iter map): each index is a digit
//     `(v floordiv stride) mod extent` of one variable, and the digits of a
//     variable write it in mixed radix (`temp[v floordiv 16, v mod 16]`).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_ACCESSINVERSE_H
#define TENSORIR_LIB_SCHEDULE_ACCESSINVERSE_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::tir::sched {

/// An index of a block's access inverted: `scale * var + offset` covers,
/// for each value of iteration variable `var`, one element (|scale| 1) or a
/// tile of `tile` elements (scale == tile > 1, the access's extent).
struct Inverse {
  unsigned var;
  int64_t scale, offset, tile;

  /// The values of `var` whose elements meet [lo, hi] (inclusive).
  AffineExpr lowerOf(AffineExpr lo, AffineExpr hi) const;
  AffineExpr upperOf(AffineExpr lo, AffineExpr hi) const;
};

/// `start` (over the block's `numVars` iteration variables, then other
/// inputs) with `extent` as an Inverse; failure for other forms.
FailureOr<Inverse> invertIndex(AffineExpr start, AffineConstantExpr extent,
                               unsigned numVars);

/// One index of an access (dimension `dim`) as a digit of a source:
/// `(source floordiv stride) mod extent` (no mod when `extent` is unset).
struct Digit {
  unsigned dim;
  int64_t stride;
  std::optional<int64_t> extent;
};

/// What digits are taken of: one iteration variable, or several fused in
/// mixed radix (`8 * v1 + v4` with v4 in [0, 8)): the variables with their
/// coefficients from 1 up, each the one below times its domain's size.
/// The source's values are [0, size).
struct DigitSource {
  SmallVector<std::pair<unsigned, int64_t>> vars; // (variable, coefficient)
  int64_t size;
  /// Its digits from stride 1 up: each stride the one below times its
  /// extent, the last one (unbounded or wide enough) reaching `size`. Then
  /// `source == sum(stride * digit)`, one element per value.
  SmallVector<Digit> digits;
};

/// An access whose indices are constants and digits of sources, each
/// iteration variable in one source at most.
struct DigitAccess {
  SmallVector<DigitSource> sources;
  /// Per dimension, the constant index (unset for a digit).
  SmallVector<std::optional<int64_t>> constants;
};

/// The access of one element at `starts` (one index per dimension, over
/// the block's iteration variables then other inputs, `numDims` in all;
/// each variable's domain [0, sizes[i]) ) as a DigitAccess; failure for
/// other forms, where an extent is not 1, and where a variable's domain
/// does not start at 0 (`sizes[i]` unset).
FailureOr<DigitAccess> invertDigits(ArrayRef<AffineExpr> starts,
                                    ArrayRef<AffineExpr> extents,
                                    ArrayRef<std::optional<int64_t>> sizes,
                                    unsigned numDims);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_ACCESSINVERSE_H
