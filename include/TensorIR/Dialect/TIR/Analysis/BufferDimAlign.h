//===- BufferDimAlign.h - storage_align's padded strides --------*- C++ -*-===//
//
// TVM's storage_align records, on the block that writes a buffer, a
// `buffer_dim_align` annotation: [buffer_index, axis, factor, offset]
// entries, each asking that the stride of dimension `axis` of the block's
// `buffer_index`-th write buffer be `offset` modulo `factor`. The schedule
// writes the annotation; the lowering allocates the buffer with those
// strides. Both read it here.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_BUFFERDIMALIGN_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_BUFFERDIMALIGN_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::tir {

/// TVM's annotation key.
inline constexpr StringLiteral kBufferDimAlign = "buffer_dim_align";

/// One entry of the annotation.
struct DimAlign {
  int64_t bufferIndex, axis, factor, offset;
};

/// The entries of a `buffer_dim_align` annotation; failure when it is not
/// a list of lists of four integers.
FailureOr<SmallVector<DimAlign>> parseBufferDimAlign(Attribute annotation);

/// The strides of a buffer of `shape` laid out row-major, each dimension's
/// stride raised to the next value that is `offset` modulo `factor` where
/// `aligns` asks (TVM's CompactBufferAllocation: from the innermost
/// dimension out, each stride the next one times its extent, then
/// aligned).
SmallVector<int64_t> getAlignedStrides(ArrayRef<int64_t> shape,
                                       ArrayRef<DimAlign> aligns);

/// The alignments asked for each buffer allocated under `root`, from the
/// annotations of the blocks that write them (well-formed entries whose
/// axis is in range; a later entry for a dimension replaces an earlier).
DenseMap<Value, SmallVector<DimAlign>> collectBufferDimAligns(Operation *root);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_BUFFERDIMALIGN_H
