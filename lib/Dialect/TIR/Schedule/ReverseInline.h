//===- ReverseInline.h - the plan of a reverse inline (internal) -*- C++
//-*-===//
//
// What reverse_compute_inline and fuse_reduction_epilogue share: the rules
// of a consumer block `C[h(u)] = k(B[f(u)], u)` whose computation moves
// into its producer, and where each consumer iteration variable lies over
// the producer store's indices. ComputeInline.cpp and
// FuseReductionEpilogue.cpp use it; ReverseInline.cpp implements it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_DIALECT_TIR_SCHEDULE_REVERSEINLINE_H
#define TENSORIR_LIB_DIALECT_TIR_SCHEDULE_REVERSEINLINE_H

#include "InlineUtils.h"

#include "mlir/IR/Dominance.h"

namespace mlir::tir::sched {

/// A primitive's refusals about one block (`block`): "<primitive> <why>".
struct InlineCtx {
  StringRef primitive;
  BlockOp block;
  ScheduleError &error;

  LogicalResult fail(Operation *culprit, const Twine &why) {
    return refuse(error, culprit, primitive + " " + why);
  }
  std::string name() { return ("'" + block.getBlockName() + "'").str(); }
};

/// The extents of `block`'s iteration variables (nullopt: runtime) and the
/// mask of those that are not of extent 1.
void getExtents(BlockOp block, SmallVectorImpl<std::optional<int64_t>> &extents,
                llvm::SmallBitVector &needed);

/// Every value from outside `source` that its body uses must be available
/// at `place`.
LogicalResult checkValuesAvailable(InlineCtx &c, BlockOp source,
                                   Operation *place, DominanceInfo &dominance);

/// What reverse_compute_inline found: the producer and its store, the
/// consumer's store and its loads of the buffer, and each consumer
/// iteration variable over the producer store's indices.
struct ReversePlan {
  Value buffer;
  BlockOp producer;
  StoreOp producerStore, consumerStore;
  SmallVector<LoadOp> consumerLoads;
  /// Inputs: the producer store's index operands first.
  SmallVector<Value> inputs;
  SmallVector<AffineExpr> vars;
  /// The consumer's domain as constraints over the inputs (each `c >= 0`)
  /// that the producer's domain does not already imply.
  SmallVector<AffineExpr> inBounds;
};

/// The body pattern of consumer `c.block` of `buffer` (TVM's reverse
/// inline pattern: one store, no predicate, the buffer loaded at one index
/// map that inverts), and each of its iteration variables over the
/// store indices of `producer`, the one block writing `buffer`; refuses
/// naming what breaks it. `root` is the scope both are in.
FailureOr<ReversePlan> planReverseInline(InlineCtx &c, Operation *root,
                                         Value buffer, BlockOp producer);

/// The producer's loads of the buffer (a reduction's update reading its
/// output) read where the consumer `c.block` stores instead.
void redirectProducerLoads(RewriterBase &rewriter, const ReversePlan &plan,
                           BlockOp consumer);

/// The consumer's store as the producer's iteration makes it, at the
/// builder's insertion point (its buffer, map and indices, the consumer's
/// variables replaced): for the caller to read or erase.
StoreOp cloneConsumerStore(RewriterBase &rewriter, const ReversePlan &plan,
                           BlockOp consumer);

/// Adds the consumer's domain to the producer's predicate, over its
/// bindings (constraints already there are not repeated).
void addInBoundsPredicate(RewriterBase &rewriter, const ReversePlan &plan);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_DIALECT_TIR_SCHEDULE_REVERSEINLINE_H
