//===- ScheduleRules.h - TVM's schedule rules -------------------*- C++ -*-===//
//
// The schedule rules MetaSchedule builds design spaces from, each TVM's
// (src/meta_schedule/schedule_rule), written for tir's schedule: one file
// per rule in lib/MetaSchedule/ScheduleRule. getDefaultScheduleRules gives
// TVM's list for a rule kind (Target::getRuleKind).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_SCHEDULERULES_H
#define TENSORIR_METASCHEDULE_SCHEDULERULES_H

#include "TensorIR/MetaSchedule/ScheduleRule.h"

#include <optional>

namespace mlir::tir::ms {

/// A rule a program names for a block (its "schedule_rule" annotation):
/// the schedules it makes of the block.
using CustomRule = std::function<FailureOr<std::vector<Schedule>>(
    const Schedule &, Value block, std::string &error)>;
/// Where ApplyCustomRule finds the rule registered under a name (null:
/// none); the Python package gives its global functions.
void setCustomRuleLookup(std::function<CustomRule(StringRef name)> lookup);

/// TVM's ApplyCustomRule: a block annotated "schedule_rule" = NAME is
/// scheduled by the rule "meta_schedule.<target key>.<NAME>".
std::shared_ptr<ScheduleRule> createApplyCustomRule();

/// TVM's AutoInline: a block that writes one buffer is inlined into its
/// consumers (or, `intoProducer`, its one producer into it) when it may
/// be, unless one of the conditions refuses it (outside functions of
/// spatial blocks only): it calls one of `disallowOps`, it branches, its
/// reads do not map injectively / in order to its write.
struct AutoInlineOptions {
  bool intoProducer = false;
  bool intoConsumer = true;
  bool inlineConstTensor = true;
  bool disallowIfThenElse = true;
  bool requireInjective = true;
  bool requireOrdered = true;
  std::vector<std::string> disallowOps = {"tir.exp"};
};
std::shared_ptr<ScheduleRule> createAutoInline(AutoInlineOptions options);
/// The AutoInline settings of TVM's default rules: the CPU's (into
/// consumers; injective, ordered, branch-free blocks not calling exp), or a
/// GPU's (both directions, all of them).
AutoInlineOptions getDefaultAutoInlineOptions(bool gpu);

/// TVM's InlineConstantScalars: a block that computes a scalar from
/// nothing (a constant) is inlined, unless it is an output.
std::shared_ptr<ScheduleRule> createInlineConstantScalars();

/// TVM's reuse configuration of MultiLevelTiling: "no", "may" or "must"
/// reuse through a cache of `scope` at the tile `levels` (1-based).
struct ReuseConfig {
  enum class Kind { No, May, Must };
  Kind req = Kind::No;
  std::vector<int64_t> levels;
  std::string scope;
};

/// TVM's MultiLevelTiling: a block that needs tiling (Analysis.h) is
/// tiled as `structure` says ("SSRSRS": spatial and reduction tile
/// levels), each loop split by a sampled perfect tiling, the tiles
/// reordered level by level, the first levels fused and bound to
/// `tileBinds`; with read and write reuse, caches computed at the given
/// levels.
struct MultiLevelTilingOptions {
  std::string structure = "SSRSRS";
  std::vector<std::string> tileBinds;
  int64_t maxInnermostFactor = 64;
  std::vector<int64_t> vectorLoadLens;
  ReuseConfig reuseRead, reuseWrite;
  /// Which blocks to tile instead of those that need it (TVM's filter_fn).
  std::function<FailureOr<bool>(const Schedule &, Value block, std::string &)>
      filter;
};
/// Fails for a structure of other letters than S and R.
FailureOr<std::shared_ptr<ScheduleRule>>
createMultiLevelTiling(MultiLevelTilingOptions options, std::string &error);

/// TVM's MultiLevelTilingWithIntrin: MultiLevelTiling of a block the
/// tensor intrinsic `intrinName` matches (get_auto_tensorize_mapping_info),
/// its inner loops first tiled to the intrinsic's shape and blockized, the
/// outer block annotated "meta_schedule.auto_tensorize" for
/// RewriteTensorize. Fails for an intrinsic not registered.
FailureOr<std::shared_ptr<ScheduleRule>>
createMultiLevelTilingWithIntrin(std::string intrinName,
                                 MultiLevelTilingOptions options,
                                 std::string &error);

/// TVM's MultiLevelTilingWideVector: MultiLevelTiling whose loop over the
/// innermost dimension of the block's output always ends in a tile of one
/// whole vector of `vectorLengthInBits` (Hexagon's HVX). Fails for a
/// length below 1.
FailureOr<std::shared_ptr<ScheduleRule>>
createMultiLevelTilingWideVector(int64_t vectorLengthInBits,
                                 MultiLevelTilingOptions options,
                                 std::string &error);

/// The intrinsics of one tensor-core configuration (TVM's
/// TensorCoreIntrinGroup, get_wmma_intrin_group's names).
struct TensorCoreIntrinGroup {
  std::string init, loadA, loadB, compute, store;
};

/// TVM's MultiLevelTilingTensorCore: MultiLevelTiling of a block one of
/// `groups` matches onto tensor cores (WMMA): reindexed into the
/// intrinsic's layout, tiled to fragments, with shared-memory and fragment
/// caches whose moves are annotated for RewriteTensorize; with
/// `useSoftwarePipeline`, the reduction loops annotated for pipelining.
/// Fails for an intrinsic not registered, an mma.sync group (not supported
/// yet), a binding to threadIdx.x, or a write reuse that is not "must" in
/// shared memory.
FailureOr<std::shared_ptr<ScheduleRule>>
createMultiLevelTilingTensorCore(std::vector<TensorCoreIntrinGroup> groups,
                                 MultiLevelTilingOptions options,
                                 bool useSoftwarePipeline, std::string &error);

/// TVM's ParallelizeVectorizeUnroll: the root block is annotated with the
/// parallel extent (cores x `maxJobsPerCore`), the vectorization limit and
/// an unroll depth sampled from `unrollMaxSteps`, which the postprocessor
/// RewriteParallelVectorizeUnroll turns into loop kinds. -1 / empty
/// disable each.
struct ParallelizeVectorizeUnrollOptions {
  int64_t maxJobsPerCore = 16;
  int64_t maxVectorizeExtent = 16;
  std::vector<int64_t> unrollMaxSteps;
  bool unrollExplicit = true;
};
std::shared_ptr<ScheduleRule>
createParallelizeVectorizeUnroll(ParallelizeVectorizeUnrollOptions options);

/// TVM's RandomComputeLocation: a block directly under the root, with
/// loops, not tiled, with consumers, is computed at a sampled location.
std::shared_ptr<ScheduleRule> createRandomComputeLocation();

/// TVM's AddRFactor: a reduction that needs it (Analysis.h) gets, beside
/// itself, an alternative per half of its split reduction loop factored
/// out by rfactor (the parallelism cores x `maxJobsPerCore`).
std::shared_ptr<ScheduleRule> createAddRFactor(int64_t maxJobsPerCore,
                                               int64_t maxInnermostFactor);

/// TVM's CrossThreadReduction (GPU targets): a reduction that needs it
/// (Analysis.h) gets, beside itself, an alternative in which its fused
/// reduction loop is split and the inner part bound to threadIdx.x, with
/// an extent sampled from `threadExtents`; the block is computed at its
/// consumer's loops when it has one that allows it (a target's
/// "max_threads_per_block" and "thread_warp_size" bound the extents).
/// Fails for a thread count below 1.
FailureOr<std::shared_ptr<ScheduleRule>>
createCrossThreadReduction(std::vector<int64_t> threadExtents,
                           std::string &error);

/// TVM's AutoBind (GPU targets): a block whose loops are not bound to
/// threads gets its outer spatial loops fused, split and bound to
/// blockIdx.x / threadIdx.x (bindBlockThreadIdx, ThreadBind.h), the thread
/// count sampled from `threadExtents`, at most `maxThreadblocks` blocks.
/// As TVM's, initializing it with a task reads the target's
/// "max_threads_per_block" (required), which replaces `maxThreadsPerBlock`.
std::shared_ptr<ScheduleRule> createAutoBind(int64_t maxThreadblocks,
                                             std::vector<int64_t> threadExtents,
                                             int64_t maxThreadsPerBlock = -1);

/// TVM's default rules for `ruleKind` ("llvm", ...); fails with `error`
/// for kinds whose rules are not there yet.
FailureOr<std::vector<std::shared_ptr<ScheduleRule>>>
getDefaultScheduleRules(StringRef ruleKind, std::string &error);

/// The number of cores parallel work is planned for: the target's
/// "num-cores" (TVM's GetTargetNumCores), or for an llvm target without
/// one this machine's physical cores; fails, saying so, otherwise.
FailureOr<int64_t> getTargetNumCores(const TuneContext &context,
                                     std::string &error);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_SCHEDULERULES_H
