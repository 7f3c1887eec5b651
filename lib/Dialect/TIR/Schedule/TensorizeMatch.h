//===- TensorizeMatch.h - a block against an intrinsic's description -----===//
//
// TVM's TensorizeComparator on tir's IR: whether a block computes what a
// tensor intrinsic's description computes, up to the buffers it works on
// and where in them. The block (the "scope") is compared with the root
// block of the description function:
//
//   - their written, then read regions, in order: each of the block's
//     buffers stands for one description parameter (same element type and
//     memory space, one to one); its region has the description's extents
//     in its last dimensions, and extent 1 in the dimensions before. The
//     region's starts are the buffer's *base*;
//   - their bodies, statement by statement: loops (bounds, kind, thread,
//     annotations), blocks (iteration kinds and domains, bindings, regions,
//     init), stores and the values they store (the same operations on the
//     same operands; conversions may differ in width only), opaque calls;
//     every access, less the buffer's base, must equal the description's
//     (index expressions compared with what is known of the variables'
//     ranges).
//
// Block annotations and names are not compared, as in TVM.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_TENSORIZEMATCH_H
#define TENSORIR_LIB_SCHEDULE_TENSORIZEMATCH_H

#include "TensorIR/Dialect/TIR/Analysis/Refusal.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tir::sched {

/// What a match found.
struct TensorizeMatch {
  /// The block's buffer standing for each description parameter (null for
  /// a parameter the description does not use).
  SmallVector<Value> buffers;
  /// Each buffer's base: the starts of its region in the block, over the
  /// block's region inputs (its iteration variables, then region values).
  DenseMap<Value, SmallVector<AffineExpr>> bases;
  /// The block's region inputs the bases are over.
  SmallVector<Value> inputs;
};

/// The root block of an intrinsic's function: its only block at the top;
/// null when it has none or several.
BlockOp getIntrinsicRoot(func::FuncOp func);

/// The compute block of an intrinsic's description: the last block its
/// root holds in post-order (the block under the loops, or the outer one
/// of a blockized description), as TVM takes it; null when the function
/// has no single root or the root holds no block.
BlockOp getIntrinsicComputeBlock(func::FuncOp func);

/// Matches `block` against the root block of `desc`; on a mismatch, fails
/// with `mismatch` saying where (its culprit: the op of the block's side
/// that differs, when there is one).
FailureOr<TensorizeMatch> matchTensorIntrin(BlockOp block, func::FuncOp desc,
                                            Refusal &mismatch);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_TENSORIZEMATCH_H
