//===- ThreadBind.h - binding loops to GPU threads --------------*- C++ -*-===//
//
// TVM's thread binding helpers (meta_schedule/schedule/cuda/thread_bind.h),
// shared by the AutoBind rule and the RewriteUnboundBlock postprocessor:
// how many threads a loop gets (a sampler of thread extents), how a loop is
// split over blockIdx.x and threadIdx.x, and how a block none of whose
// loops is bound gets its outer spatial loops fused and bound. Every step
// goes through ScheduleSteps, so that the trace records it as TVM's does.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_THREADBIND_H
#define TENSORIR_METASCHEDULE_THREADBIND_H

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir::tir::ms {

class TuneContext;

/// A thread count as TVM's ExprRV holds it: either a parameter that
/// sample_categorical drew (the split then takes it as an operand, which
/// MutateThreadBinding can change), or a constant.
struct ThreadExtent {
  /// The sampled parameter; null for a constant.
  Value param;
  int64_t constant = 0;

  static ThreadExtent sampled(Value param) { return {param, 0}; }
  static ThreadExtent of(int64_t constant) { return {Value(), constant}; }
};

/// The target's "max_threads_per_block" (TVM's AutoBind and
/// RewriteUnboundBlock read it when a task initializes them); fails, in
/// TVM's words, without a target or without the attribute.
FailureOr<int64_t> getMaxThreadsPerBlock(const TuneContext &context,
                                         std::string &error);

/// `loop` split as [None, factor] (the factor a parameter operand of the
/// split when it was sampled, as TVM's trace has it).
FailureOr<SmallVector<Value>> splitByThreadExtent(ScheduleSteps &steps,
                                                  Value loop,
                                                  const ThreadExtent &factor);

/// TVM's get_factor: the thread count of a loop given the most threads it
/// may have (`maxExtent`). A sampler may record steps (a
/// sample_categorical); it fails with `error` when one is refused.
using ThreadExtentSampler = std::function<FailureOr<ThreadExtent>(
    int64_t maxExtent, std::string &error)>;

/// TVM's MakeFactorSampler: of `threadExtents`, the candidates not above
/// the limit; none: the limit itself; one: that candidate; several: a
/// sample_categorical over them in `sch`, each equally likely.
ThreadExtentSampler makeFactorSampler(ScheduleState &sch,
                                      std::vector<int64_t> threadExtents);

/// TVM's BindSpatialLoop: `loop` (of extent n, unknown extents counting as
/// unbounded) is split and bound to blockIdx.x / threadIdx.x. When
/// n <= maxThreadblocks * maxThreadsPerBlock, it is split as
/// [None, getFactor(min(n, maxThreadsPerBlock))] and the two loops bound
/// in turn; otherwise as [None, maxThreadblocks, maxThreadsPerBlock], the
/// outermost moved innermost (a serial loop over what the grid does not
/// cover). A null `getFactor` samples from 32, 64, ..., 1024. Returns the
/// blockIdx loop, the threadIdx loop, and the serial loop if there is one.
FailureOr<SmallVector<Value>>
bindSpatialLoop(ScheduleState &sch, Value loop, int64_t maxThreadblocks,
                int64_t maxThreadsPerBlock,
                const ThreadExtentSampler &getFactor, std::string &error);

/// TVM's BindBlockThreadIdx: binds the loops of `block` (a block handle of
/// `sch`) unless it is TVM's root block, was tiled by MultiLevelTiling, or
/// already has loops bound to both blockIdx and threadIdx. Its outer
/// loops, up to the first that is not serial or holds several statements,
/// and as long as they are spatial, are fused (a block with no outer
/// spatial loop, a reduction's or one without loops, gets a unit loop
/// `u` first). Under a threadIdx loop, the fused loop (those above the
/// threadIdx loop) is bound to blockIdx.x; otherwise it goes to
/// bindSpatialLoop. A block with a blockIdx loop but no threadIdx loop is
/// refused (TVM's unsupported case).
LogicalResult bindBlockThreadIdx(ScheduleState &sch, Value block,
                                 int64_t maxThreadblocks,
                                 int64_t maxThreadsPerBlock,
                                 const ThreadExtentSampler &getFactor,
                                 std::string &error);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_THREADBIND_H
