//===- CompactBuffers.h - buffers allocated where they are used -*- C++ -*-===//
//
// TVM's PlanAndUpdateBufferAllocationLocation + CompactBufferAllocation for
// the CPU lowering: a buffer whose accesses all lie under one loop, each
// iteration of which touches its own part of the buffer, is allocated in
// that loop's body with the shape of the part one iteration touches, its
// indices shifted by the part's start. convert-tir-to-scf applies the plan
// (compact-buffers); the plan itself is computed on tir, before lowering,
// with the part analysis the GPU lowering shares (getCompactPart,
// Dialect/TIR/Analysis/BufferCompaction.h).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_CONVERSION_TIRTOSCF_COMPACTBUFFERS_H
#define TENSORIR_CONVERSION_TIRTOSCF_COMPACTBUFFERS_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::tir {

/// Where and how one buffer is allocated after compaction.
struct CompactedBuffer {
  /// The loop one iteration of which touches the part the buffer keeps.
  ForOp loop;
  /// Where the buffer is allocated: at the start of the body of the
  /// innermost parallel loop from `loop` out to the allocation (one buffer
  /// per iteration, so per thread), or, when there is none (null), where
  /// the tir.alloc_buffer was (iterations run one after another and reuse
  /// the one buffer: none reads what another wrote).
  ForOp home;
  /// The start of the part one iteration touches, per dimension, as index
  /// expressions whose dimension k stands for `inputs[k]` (values from
  /// outside `loop`, or its induction variable).
  SmallVector<AffineExpr> lowers;
  SmallVector<Value> inputs;
  /// The compacted buffer's type: the part's extents.
  MemRefType type;
  /// Set by the lowering: the new buffer.
  Value buffer;
};

/// The buffers allocated by tir.alloc_buffer ops under `root` that can be
/// compacted, keyed by the allocated buffer. A buffer is compacted when:
/// it has a static shape; every use is a tir.load / tir.store inside a
/// tir.block, or a block's region; some loop around all those blocks (and
/// inside the allocation's scope) has them in loops only (no other block
/// between) and touches in each iteration a box of constant extents whose
/// start moves, from one iteration to the next, by at least the box's
/// extent in some dimension (iterations touch disjoint parts: no value
/// flows from one to another, so each can have a buffer of its own). No
/// vectorized loop may lie on that path (its iterations run at once, in
/// lanes, and would share the buffer). The innermost such loop is taken. A
/// dimension whose box is not smaller than the buffer keeps its full
/// extent.
llvm::MapVector<Value, CompactedBuffer> planBufferCompaction(Operation *root);

} // namespace mlir::tir

#endif // TENSORIR_CONVERSION_TIRTOSCF_COMPACTBUFFERS_H
