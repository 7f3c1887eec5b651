//===- Analysis.h - analyses the schedule primitives share ------*- C++ -*-===//
//
// The questions TVM's primitives ask about blocks and loops, answered once
// here instead of per primitive: which buffers a block touches, whether it is
// a complete or a reduction block (TVM's definitions), whether the blocks
// under a loop have compact data flow, whether a value depends on a loop
// variable.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_SCHEDULE_ANALYSIS_H
#define TENSORIR_SCHEDULE_ANALYSIS_H

#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Schedule/Primitives.h"

namespace mlir::tir {

/// The buffers `block` reads and writes: its regions when it lists them,
/// else every buffer its body loads or stores and those its nested blocks
/// access, but not those allocated inside it; as TVMScript infers regions, a block with a tir.init leaves out
/// the reads of buffers it writes.
void getAccessedBuffers(BlockOp block, SmallVectorImpl<Value> &reads,
                        SmallVectorImpl<Value> &writes);

/// Whether `value` is one of `vars` or computed from one of them (through
/// the operands of the ops that define it, within the enclosing function).
bool dependsOnAny(Value value, ValueRange vars);

/// Why `block` is not a complete block among the blocks `scope` (TVM's
/// definition; 0 when it is one):
///   1. an iteration variable is not spatial;
///   2. another block of `scope` writes a buffer it writes (not dominant);
///   3. it reads a buffer it writes.
int getCompleteBlockViolation(BlockOp block, ArrayRef<BlockOp> scope);

/// Why `block` is not a reduction block among the blocks `scope` (TVM's
/// definition; 0 when it is one):
///   1. it has no tir.init;
///   2. a binding is not quasi-affine in the loops;
///   3. an iteration variable is neither spatial nor reduce;
///   4. another block of `scope` writes a buffer it writes (not dominant);
///   5. a reduce variable indexes a buffer it writes.
int getReductionBlockViolation(BlockOp block, ArrayRef<BlockOp> scope);

/// TVM's affine binding of `block` in the loop variables `loopVars` (the
/// other inputs act as parameters): each binding is a quasi-affine sum whose
/// smallest stride over the loops is 1 (`i * 16 + j`, `f floordiv 4`; not
/// `l * 16`), and each predicate bounds the loop part of some binding (as
/// split's `i0 * 16 + i1 < 100` does), not a mix of them. Refuses for
/// `primitive` naming `culprit` and the block otherwise.
LogicalResult checkAffineBinding(BlockOp block, ValueRange loopVars,
                                 StringRef primitive, Operation *culprit,
                                 ScheduleError &error);

/// TVM's compact data flow: every block directly under `loop` is a complete
/// or a reduction block among the blocks directly under it. Refuses for
/// `primitive`, naming the first block that is neither and both reasons.
LogicalResult checkCompactDataflow(ForOp loop, StringRef primitive,
                                   ScheduleError &error);

//===----------------------------------------------------------------------===//
// Scopes and data flow
//===----------------------------------------------------------------------===//

/// The scope root of `op`: its nearest enclosing tir.block, or the function
/// (the nearest op isolated from above) when there is none.
Operation *getScopeRoot(Operation *op);

/// The blocks of the scope `root` (nested in loops, not in another block),
/// in program order.
SmallVector<BlockOp> getScopeBlocks(Operation *root);

/// The blocks of `scope` before `block` that write a buffer it reads
/// (producers), or after it that read a buffer it writes (consumers).
SmallVector<BlockOp> getProducersIn(BlockOp block, ArrayRef<BlockOp> scope);
SmallVector<BlockOp> getConsumersIn(BlockOp block, ArrayRef<BlockOp> scope);

//===----------------------------------------------------------------------===//
// Buffer regions
//===----------------------------------------------------------------------===//

/// A block's read and write regions: each buffer with its region (starts and
/// extents in input space, over `inputs`: the block's iteration variables,
/// then its region values). Regions the block leaves out are inferred (on a
/// copy; the block is not changed), as TVMScript's parser does.
struct BlockAccessRegions {
  SmallVector<std::pair<Value, RegionExprs>> reads, writes;
  SmallVector<Value> inputs;
};
FailureOr<BlockAccessRegions> getAccessRegions(BlockOp block,
                                               ScheduleError &error);

/// A region of a buffer over values outside a loop: per dimension a lower
/// bound and an extent (simplified; a constant where it is one), as index
/// expressions whose dimension k stands for `inputs[k]`.
struct LoopRegion {
  SmallVector<AffineExpr> lowers, extents;
  SmallVector<Value> inputs;
  /// Whether every element of the box is accessed (no holes): false when a
  /// block has a predicate, an inner loop variable is scaled, divided, taken
  /// modulo or used in two dimensions, or accesses of different extents
  /// were joined.
  bool exact = true;
};

/// The region of `buffer` that `blocks` (blocks under `loop`, nested in
/// loops inside it, not inside another block) read (`writes` false) or
/// write, relaxed over the loops between each block and `loop`: TVM's
/// RelaxBufferRegions. Bindings are substituted into the blocks' regions;
/// predicates are ignored (the result may cover more, never less). Regions
/// of several blocks (or accesses) are joined when their bounds differ by
/// constants. Refuses (for `primitive`) what it cannot bound: an inner loop
/// with runtime bounds, a value computed inside `loop`, products of inner
/// loop variables, bounds of a union that differ by a runtime amount.
/// An empty `lowers` means no block accesses the buffer.
FailureOr<LoopRegion> relaxRegionUnderLoop(ForOp loop, Value buffer,
                                           bool writes,
                                           ArrayRef<BlockOp> blocks,
                                           StringRef primitive,
                                           ScheduleError &error);

/// `e` (dimension k stands for `inputs[k]`) simplified with the inputs'
/// ranges; inputs whose range is a single value become that value.
AffineExpr simplifyOverValues(AffineExpr e, ArrayRef<Value> inputs);

} // namespace mlir::tir

#endif // TENSORIR_SCHEDULE_ANALYSIS_H
