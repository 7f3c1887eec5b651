//===- ScheduleSteps.h - the schedule's steps as C++ calls ------*- C++ -*-===//
//
// What schedule rules and postprocessors call: each of TVM's schedule
// methods as a typed C++ call on a ScheduleState (which records it in the
// trace as the transform.tir op it applies), with the handles of that
// state in and out, and the payload the handles hold. A refusal fails with
// the state's rendering of it in `error`, leaving the schedule as it was.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_SCHEDULESTEPS_H
#define TENSORIR_METASCHEDULE_SCHEDULESTEPS_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"

#include <optional>
#include <string>

namespace mlir::tir::ms {

class ScheduleSteps {
public:
  ScheduleSteps(ScheduleState &sch, std::string &error)
      : sch(sch), error(error) {}

  ScheduleState &getState() const { return sch; }

  // Queries.
  FailureOr<Value> getBlock(StringRef name, StringRef funcName);
  FailureOr<SmallVector<Value>> getLoops(Value block);
  FailureOr<SmallVector<Value>> getChildBlocks(Value blockOrLoop);
  FailureOr<SmallVector<Value>> getProducers(Value block);
  FailureOr<SmallVector<Value>> getConsumers(Value block);

  // Sampling: the results are parameters (TVM's ExprRVs).
  FailureOr<SmallVector<Value>> samplePerfectTile(Value loop, int64_t n,
                                                  int64_t maxInnermostFactor);
  FailureOr<Value> sampleCategorical(ArrayRef<int64_t> candidates,
                                     ArrayRef<double> probs);
  FailureOr<Value> sampleComputeLocation(Value block);

  // Loops.
  /// Split by parameters (a sampled tiling); a null Value is the factor
  /// inferred (TVM's None).
  FailureOr<SmallVector<Value>> split(Value loop, ArrayRef<Value> factors,
                                      bool preserveUnitIters = true);
  /// Split by constants; std::nullopt is the factor inferred.
  FailureOr<SmallVector<Value>> split(Value loop,
                                      ArrayRef<std::optional<int64_t>> factors,
                                      bool preserveUnitIters = true);
  FailureOr<Value> fuse(ArrayRef<Value> loops, bool preserveUnitIters = true);
  LogicalResult reorder(ArrayRef<Value> loops);
  LogicalResult parallel(Value loop);
  LogicalResult vectorize(Value loop);
  LogicalResult unroll(Value loop);
  LogicalResult bind(Value loop, StringRef threadAxis);

  // Blocks.
  LogicalResult computeAt(Value block, Value loop, bool preserveUnitLoops,
                          int64_t index = -1);
  LogicalResult reverseComputeAt(Value block, Value loop,
                                 bool preserveUnitLoops, int64_t index = -1);
  LogicalResult computeInline(Value block);
  LogicalResult reverseComputeInline(Value block);
  FailureOr<Value> cacheRead(Value block, int64_t readBufferIndex,
                             StringRef storageScope,
                             ArrayRef<Value> consumerBlocks = {});
  FailureOr<Value> cacheWrite(Value block, int64_t writeBufferIndex,
                              StringRef storageScope,
                              ArrayRef<Value> consumerBlocks = {});
  FailureOr<Value> rfactor(Value loop, int64_t factorAxis);
  /// A unit loop added above `blockOrLoop`.
  FailureOr<Value> addUnitLoop(Value blockOrLoop);
  LogicalResult setScope(Value block, int64_t bufferIndex,
                         StringRef storageScope);
  /// TVM's reindex of read (`write` false) or write buffer `bufferIndex`.
  FailureOr<Value> reindex(Value block, int64_t bufferIndex, bool write);
  /// TVM's transform_layout by `indexMap` over the buffer's indices; its
  /// symbols are `params` (sampled values).
  LogicalResult transformLayout(Value block, int64_t bufferIndex, bool write,
                                AffineMap indexMap,
                                bool assumeInjective = false,
                                ArrayRef<Value> params = {});
  LogicalResult transformBlockLayout(Value block, AffineMap indexMap);
  FailureOr<Value> blockize(Value loop, bool preserveUnitIters = true);
  /// The block (or the loop, blockized first) as tensor intrinsic `intrin`.
  LogicalResult tensorize(Value blockOrLoop, StringRef intrin,
                          bool preserveUnitIters = true);
  LogicalResult storageAlign(Value block, int64_t bufferIndex, int64_t axis,
                             int64_t factor, int64_t offset);
  FailureOr<Value> decomposeReduction(Value block, Value loop);

  // Annotations.
  LogicalResult annotate(Value blockOrLoop, StringRef key, Attribute value);
  /// The annotation takes the integer `param` holds (a sampled value).
  LogicalResult annotate(Value blockOrLoop, StringRef key, Value param);
  LogicalResult annotate(Value blockOrLoop, StringRef key, int64_t value);
  LogicalResult unannotate(Value blockOrLoop, StringRef key);

  // What handles hold now (null when a step erased it, or it holds
  // something else).
  BlockOp getBlockOp(Value block) const;
  ForOp getForOp(Value loop) const;
  /// The one op `handle` holds (a block, a loop, or the function: TVM's
  /// root block).
  Operation *getOp(Value handle) const;
  /// The integer a parameter holds (a sampled value); nullopt for another
  /// handle.
  std::optional<int64_t> getParamValue(Value param) const;

  /// The one step every call above is: `transform.tir.<mnemonic>`.
  FailureOr<SmallVector<Value>> apply(StringRef mnemonic,
                                      ArrayRef<Value> operands,
                                      ArrayRef<NamedAttribute> attributes,
                                      std::optional<unsigned> numResults);

private:
  FailureOr<Value> single(FailureOr<SmallVector<Value>> results);
  LogicalResult none(FailureOr<SmallVector<Value>> results);
  NamedAttribute attr(StringRef name, Attribute value) const;
  /// cache_read or cache_write (`indexName`: the buffer's position).
  FailureOr<Value> cache(StringRef mnemonic, StringRef indexName, Value block,
                         int64_t bufferIndex, StringRef storageScope,
                         ArrayRef<Value> consumerBlocks);

  ScheduleState &sch;
  std::string &error;
};

/// TVM's ReorderAndFuseReductionLoops: the loops of `block` reordered
/// spatial first, then reduction (only when they are not already so), the
/// reduction loops fused into one when there are several. Returns it and
/// the number of spatial loops; fails, saying so, when there is no
/// reduction loop.
FailureOr<std::pair<Value, int64_t>>
reorderAndFuseReductionLoops(ScheduleSteps &steps, Value block,
                             std::string &error);

/// The handle of `copy` that stands for `handle` of `original` (the same
/// random variable): a rule that copies a schedule carries its handles over
/// this way.
Value translateHandle(const ScheduleState &original, Value handle,
                      const ScheduleState &copy);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_SCHEDULESTEPS_H
