//===- Primitives.h - TVM's loop schedule primitives on tir -----*- C++ -*-===//
//
// TVM's Schedule primitives as C++ functions over tir IR, with TVM's legality
// rules. Shared by the transform.tir ops, passes and the Python Schedule.
//
// Every primitive checks all of its rules before it changes anything: when
// it refuses, it returns failure with `error` set (the rule, and the loop or
// block at fault) and the IR is as it was. Block ops are never replaced, so
// anything that refers to a block stays valid; loops that a primitive
// replaces are erased, and the new loops are returned.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_SCHEDULE_PRIMITIVES_H
#define TENSORIR_SCHEDULE_PRIMITIVES_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::tir {

/// Why a primitive refused, and the loop or block at fault.
struct ScheduleError {
  std::string message;
  Operation *culprit = nullptr;
};

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

/// The blocks directly under `parent` (a tir.block, a tir.for or a function):
/// nested in loops, but not inside another block (TVM's get_child_blocks).
SmallVector<BlockOp> getChildBlocks(Operation *parent);

/// The blocks of `block`'s scope that come before it and write a buffer it
/// reads (TVM's get_producers).
SmallVector<BlockOp> getProducers(BlockOp block);

/// The blocks of `block`'s scope that come after it and read a buffer it
/// writes (TVM's get_consumers).
SmallVector<BlockOp> getConsumers(BlockOp block);

//===----------------------------------------------------------------------===//
// Loop transformations
//===----------------------------------------------------------------------===//

/// Splits `loop` into nested loops with the given extents, outermost first;
/// at most one factor may be std::nullopt (inferred as the ceiling of the
/// extent over the others). When the product exceeds the extent, every block
/// under the loop gets the predicate `fused < extent`. With
/// `preserveUnitIters` false, a loop of extent 1 does not appear in the
/// bindings.
FailureOr<SmallVector<ForOp>> split(RewriterBase &rewriter, ForOp loop,
                                    ArrayRef<std::optional<int64_t>> factors,
                                    bool preserveUnitIters,
                                    ScheduleError &error);

/// Fuses perfectly nested loops (outermost first) into one loop.
FailureOr<ForOp> fuse(RewriterBase &rewriter, ArrayRef<ForOp> loops,
                      ScheduleError &error);

/// Reorders loops of one single-branch chain into the given order (the
/// outermost position gets loops[0]). Returns the loops in the given order.
FailureOr<SmallVector<ForOp>> reorder(RewriterBase &rewriter,
                                      ArrayRef<ForOp> loops,
                                      ScheduleError &error);

/// Wraps `target` (a tir.block or tir.for) in a new loop of extent 1.
FailureOr<ForOp> addUnitLoop(RewriterBase &rewriter, Operation *target,
                             ScheduleError &error);

//===----------------------------------------------------------------------===//
// Loop kinds and annotations
//===----------------------------------------------------------------------===//

/// Marks `loop` parallel (TVM's parallel): no block under it may bind a
/// reduce (or other non-spatial) iteration variable to it.
LogicalResult parallel(ForOp loop, ScheduleError &error);
/// Marks `loop` vectorized, under the same rule as parallel.
LogicalResult vectorize(ForOp loop, ScheduleError &error);
/// Marks `loop` unrolled.
LogicalResult unroll(ForOp loop, ScheduleError &error);
/// Binds `loop` to a GPU thread axis ("blockIdx.x", "threadIdx.y", ...),
/// under the same rule as parallel.
LogicalResult bind(ForOp loop, StringRef thread, ScheduleError &error);

/// Sets annotation `key` of a tir.for or tir.block.
LogicalResult annotate(Operation *target, StringRef key, Attribute value,
                       ScheduleError &error);
/// Removes annotation `key`; refuses when there is none.
LogicalResult unannotate(Operation *target, StringRef key,
                         ScheduleError &error);

} // namespace mlir::tir

#endif // TENSORIR_SCHEDULE_PRIMITIVES_H
