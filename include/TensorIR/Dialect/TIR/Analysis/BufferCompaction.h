//===- BufferCompaction.h - the part of a buffer an op touches --*- C++ -*-===//
//
// TVM's CompactBufferAllocation, the planning half shared by the CPU
// lowering (a buffer allocated per iteration of a loop,
// Conversion/TIRToSCF/CompactBuffers.h) and the GPU lowering (a shared or
// local buffer allocated inside its kernel, Conversion/TIRToGPU): the part
// of a buffer one execution of an op touches, as the shape of a smaller
// allocation and where the part starts.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_BUFFERCOMPACTION_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_BUFFERCOMPACTION_H

#include "TensorIR/Dialect/TIR/Analysis/Refusal.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

namespace mlir::tir {

/// The part of a buffer one execution of an op touches.
struct CompactPart {
  /// Its extents, per dimension: the buffer's own where the part is not
  /// smaller.
  SmallVector<int64_t> shape;
  /// Where it starts, per dimension, as index expressions whose dimension
  /// k stands for `inputs[k]` (values defined outside the op); 0 where the
  /// part spans the dimension.
  SmallVector<AffineExpr> lowers;
  SmallVector<Value> inputs;
};

/// The part of `buffer` (static shape) that one execution of `anchor`
/// touches through the reads and writes of `blocks` inside it (their
/// regions relaxed over the loops inside `anchor`; `sameThreadIsPoint` as
/// for relaxRegionUnder). Fails, saying why, where the part cannot be
/// bounded or is not of a constant size.
FailureOr<CompactPart> getCompactPart(Operation *anchor, Value buffer,
                                      ArrayRef<BlockOp> blocks, Refusal &why,
                                      bool sameThreadIsPoint = false);

/// Where compaction allocates a buffer that `blocks` access: the lowest
/// loop or block that strictly contains each of them (null: none).
Operation *getCompactionAnchor(ArrayRef<BlockOp> blocks);

/// `blocks` as the region analysis under `anchor` (a proper ancestor of
/// each) takes them: each replaced by the outermost block around it inside
/// `anchor`, whose regions cover its accesses; first-seen order, no
/// repeats.
SmallVector<BlockOp> getOutermostBlocksUnder(Operation *anchor,
                                             ArrayRef<BlockOp> blocks);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_BUFFERCOMPACTION_H
