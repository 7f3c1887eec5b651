//===- MultiLevelTiling.h - TVM's MultiLevelTiling, to build on -*- C++ -*-===//
//
// The MultiLevelTiling rule as a class its variants derive from (TVM's
// MultiLevelTilingNode): the state an alternative carries through the
// sub-rules, the sub-rules themselves, and the hook (applySubRules) a
// variant overrides to add its own (tensor intrinsics, tensor cores).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_METASCHEDULE_SCHEDULERULE_MULTILEVELTILING_H
#define TENSORIR_LIB_METASCHEDULE_SCHEDULERULE_MULTILEVELTILING_H

#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <functional>

namespace mlir::tir::ms {

/// One alternative being built: its schedule, the block's handle in it,
/// the loops of each tile level (outermost first), the sampled factors of
/// each level, the caches added, and the handles a variant keeps.
struct TilingState {
  Schedule sch;
  Value block;
  std::vector<SmallVector<Value>> tiles;
  /// Per tile level, the sampled factor of each loop split into it.
  std::vector<SmallVector<Value>> tileFactors;
  std::vector<std::pair<int64_t, Value>> readReuse, writeReuse;
  /// Handles of blocks a variant keeps track of (carried by copy()).
  SmallVector<Value> extra;
  /// What a variant chose for this alternative (an intrinsic group).
  int64_t variant = -1;

  /// A copy of the schedule with the handles carried over.
  TilingState copy() const;
  /// The cache of read `index` (null when there is none).
  Value readCache(int64_t index) const;
};

using TilingStates = std::vector<TilingState>;

/// TVM's IsWriteCache: a block that writes one buffer, each read mapping
/// injectively and in order to the write (a copy).
bool isWriteCache(BlockOp block);

/// TVM's TileForIntrin: `block`'s inner loops tiled to the tensor
/// intrinsic's shape (tile_with_tensor_intrin) and blockized, the outer
/// block annotated "meta_schedule.auto_tensorize" with the intrinsic's
/// name. Returns the outer block, or a null Value where the loops do not
/// tile to the intrinsic.
FailureOr<Value> tileForIntrin(ScheduleSteps &steps, Value block,
                               StringRef intrinName, bool allowPadding,
                               std::string &error);

/// The description of the tensor intrinsic `intrinName` as `block`'s
/// schedule sees it; fails, saying so, for an unknown one.
FailureOr<func::FuncOp> getTensorIntrinDesc(ScheduleSteps &steps, Value block,
                                            StringRef intrinName,
                                            std::string &error);

class MultiLevelTiling : public ScheduleRule {
public:
  explicit MultiLevelTiling(MultiLevelTilingOptions options);

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override;
  FailureOr<std::shared_ptr<ScheduleRule>>
  clone(std::string &error) const override;
  std::string str() const override;

protected:
  using SubRule =
      std::function<FailureOr<TilingStates>(TilingState, std::string &)>;

  /// Applies `rule` to every state, gathering the alternatives it makes.
  static FailureOr<TilingStates>
  forEach(TilingStates states, const SubRule &rule, std::string &error);

  /// Applies `rules` in order, each to every alternative the previous ones
  /// made.
  static FailureOr<TilingStates>
  runSubRules(TilingStates states, ArrayRef<SubRule> rules, std::string &error);

  /// The sub-rules in TVM's order; a variant adds its own around them.
  virtual FailureOr<TilingStates> applySubRules(TilingStates states,
                                                std::string &error);

  /// TVM's TileLoopNest: every spatial and reduction loop split into its
  /// levels (trivial binding: loop k iterates variable k), reordered, the
  /// first levels fused and bound. With `innerSpatialLoops` >= 0, only
  /// that many innermost spatial loops are tiled; the outer ones join the
  /// first bound level.
  FailureOr<TilingStates> tileLoopNest(TilingState state, std::string &error,
                                       int64_t innerSpatialLoops = -1) const;
  /// TVM's SplitLoop: `loop` of `block` split into `n` tiles by a sampled
  /// perfect tiling; the factors (null where a variant splits by a
  /// constant) and the loops, outermost first.
  virtual FailureOr<std::pair<SmallVector<Value>, SmallVector<Value>>>
  splitLoop(ScheduleSteps &steps, Value block, Value loop, int64_t n) const;
  /// TVM's AddWriteReuse.
  FailureOr<TilingStates> addWriteReuse(TilingState state,
                                        std::string &error) const;
  /// TVM's AddReadReuse ("must" only).
  FailureOr<TilingStates> addReadReuse(TilingState state,
                                       std::string &error) const;
  /// TVM's AddAsyncPipeline: on GPUs with asynchronous copies (sm_80 and
  /// later), alternatives whose outer reduction loop is pipelined in each
  /// of `stages` stages.
  FailureOr<TilingStates> addAsyncPipeline(TilingState state,
                                           std::string &error) const;
  /// TVM's AnnotateCooperativeFetching: a vector length sampled from those
  /// the cache's element type allows.
  LogicalResult annotateCooperativeFetching(ScheduleSteps &steps,
                                            Value cache) const;

  MultiLevelTilingOptions options;
  std::vector<int64_t> spatialLevels, reductionLevels;
  int64_t threadWarpSize = -1;
  int64_t maxThreadsPerBlock = -1;
  /// The pipeline depths AddAsyncPipeline tries (none below sm_80).
  std::vector<int64_t> stages;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_LIB_METASCHEDULE_SCHEDULERULE_MULTILEVELTILING_H
