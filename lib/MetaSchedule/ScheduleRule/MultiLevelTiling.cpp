//===- MultiLevelTiling.cpp - TVM's MultiLevelTiling ----------------------===//
//
// The rule that makes the tiled loop nests of compute-heavy blocks (GEMMs,
// convolutions): each loop of the block is split into as many tiles as
// the structure has letters of its kind ("SSRSRS": spatial loops into
// four, reduction loops into two), by a sampled perfect tiling; the tiles
// are reordered level by level; the first levels are fused and bound to
// threads where tile_binds asks; then the sub-rules add a write cache
// (computed at a tile level), read caches, as TVM's, each alternative a
// schedule of its own.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// One alternative being built: its schedule, the block's handle in it,
/// the loops of each tile level (outermost first) and the caches added.
struct TilingState {
  Schedule sch;
  Value block;
  std::vector<SmallVector<Value>> tiles;
  std::vector<std::pair<int64_t, Value>> readReuse, writeReuse;

  /// A copy of the schedule with the handles carried over.
  TilingState copy() const {
    TilingState other;
    other.sch = Schedule(sch->copy());
    auto carry = [&](Value v) { return translateHandle(*sch, v, *other.sch); };
    other.block = carry(block);
    for (const SmallVector<Value> &level : tiles) {
      SmallVector<Value> carried;
      for (Value loop : level)
        carried.push_back(carry(loop));
      other.tiles.push_back(std::move(carried));
    }
    for (auto &[index, cache] : readReuse)
      other.readReuse.emplace_back(index, carry(cache));
    for (auto &[index, cache] : writeReuse)
      other.writeReuse.emplace_back(index, carry(cache));
    return other;
  }
};

/// TVM's IsWriteCache: a block that writes one buffer, each read mapping
/// injectively and in order to the write (a copy).
bool isWriteCache(BlockOp block) {
  Refusal why;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, why);
  if (failed(regions) || regions->writes.size() != 1)
    return false;
  for (auto &read : regions->reads) {
    ReadWritePattern pattern = analyzeReadWritePattern(
        read.second.starts, regions->writes.front().second.starts);
    if (!pattern.injective || !pattern.ordered)
      return false;
  }
  return true;
}

class MultiLevelTiling : public ScheduleRule {
public:
  explicit MultiLevelTiling(MultiLevelTilingOptions options)
      : options(std::move(options)) {
    for (auto [index, c] : llvm::enumerate(this->options.structure))
      (c == 'S' ? spatialLevels : reductionLevels)
          .push_back(static_cast<int64_t>(index));
  }

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &) override {
    if (!context.target)
      return success();
    if (std::optional<int64_t> threads =
            context.target->getInt("max_threads_per_block")) {
      maxThreadsPerBlock = *threads;
      if (std::optional<int64_t> warp =
              context.target->getInt("thread_warp_size"))
        threadWarpSize = *warp;
    }
    return success();
  }

  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override {
    ScheduleSteps steps(*sch, error);
    BlockOp op = steps.getBlockOp(block);
    if (!op)
      return std::vector<Schedule>{sch};
    if (options.filter) {
      FailureOr<bool> chosen = options.filter(sch, block, error);
      if (failed(chosen))
        return failure();
      if (!*chosen && !needsMultiLevelTiling(op))
        return std::vector<Schedule>{sch};
    } else if (!needsMultiLevelTiling(op)) {
      return std::vector<Schedule>{sch};
    }
    if (failed(steps.annotate(
            block, "meta_schedule.tiling_structure",
            Builder(sch->getContext()).getStringAttr(options.structure))))
      return failure();
    std::vector<TilingState> states(1);
    states.front().sch = sch;
    states.front().block = block;
    for (auto subRule :
         {&MultiLevelTiling::tileLoopNest, &MultiLevelTiling::addWriteReuse,
          &MultiLevelTiling::addReadReuse}) {
      std::vector<TilingState> next;
      for (TilingState &state : states) {
        FailureOr<std::vector<TilingState>> made =
            (this->*subRule)(std::move(state), error);
        if (failed(made))
          return failure();
        for (TilingState &s : *made)
          next.push_back(std::move(s));
      }
      states = std::move(next);
    }
    std::vector<Schedule> results;
    for (TilingState &state : states)
      results.push_back(std::move(state.sch));
    return results;
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(
        std::make_shared<MultiLevelTiling>(*this));
  }
  std::string str() const override {
    return defaultRepr("MultiLevelTiling", this);
  }

private:
  /// TVM's TileLoopNest: every spatial and reduction loop split into its
  /// levels (trivial binding: loop k iterates variable k), reordered,
  /// the first levels bound.
  FailureOr<std::vector<TilingState>> tileLoopNest(TilingState state,
                                                   std::string &error) const {
    ScheduleSteps steps(*state.sch, error);
    BlockOp op = steps.getBlockOp(state.block);
    FailureOr<SmallVector<Value>> loops = steps.getLoops(state.block);
    if (failed(loops))
      return failure();
    if (loops->size() != op.getNumIterVars()) {
      error = "MultiLevelTiling: block '" + op.getBlockName().str() +
              "' has other loops than its iteration variables";
      return failure();
    }
    std::vector<SmallVector<Value>> tiles(options.structure.size());
    int64_t spatialProduct = 1;
    for (auto [k, loop] : llvm::enumerate(*loops)) {
      const std::vector<int64_t> *levels;
      IterType type = op.getIterType(k);
      if (type == IterType::Spatial) {
        levels = &spatialLevels;
        std::optional<int64_t> extent =
            spatialProduct == -1 ? std::nullopt
                                 : steps.getForOp(loop).getConstantExtent();
        spatialProduct = extent ? spatialProduct * *extent : -1;
      } else if (type == IterType::Reduce) {
        levels = &reductionLevels;
      } else {
        continue;
      }
      if (levels->size() == 1) {
        tiles[levels->front()].push_back(loop);
        continue;
      }
      FailureOr<SmallVector<Value>> factors =
          steps.samplePerfectTile(loop, static_cast<int64_t>(levels->size()),
                                  options.maxInnermostFactor);
      if (failed(factors))
        return failure();
      FailureOr<SmallVector<Value>> split = steps.split(loop, *factors);
      if (failed(split))
        return failure();
      for (auto [level, part] : llvm::zip(*levels, *split))
        tiles[level].push_back(part);
    }
    SmallVector<Value> order;
    for (const SmallVector<Value> &level : tiles)
      llvm::append_range(order, level);
    if (failed(steps.reorder(order)))
      return failure();
    size_t bound = std::min(options.tileBinds.size(), tiles.size());
    for (size_t i = 0; i < bound; ++i) {
      FailureOr<Value> fused = steps.fuse(tiles[i]);
      if (failed(fused) || failed(steps.bind(*fused, options.tileBinds[i])))
        return failure();
      tiles[i] = {*fused};
    }
    state.tiles = std::move(tiles);
    if (threadWarpSize != -1) {
      int64_t low = spatialProduct > 2 * threadWarpSize ? threadWarpSize : 1;
      if (failed(steps.annotate(
              state.block, "meta_schedule.thread_extent_low_inclusive", low)) ||
          failed(steps.annotate(state.block,
                                "meta_schedule.thread_extent_high_inclusive",
                                maxThreadsPerBlock)))
        return failure();
    }
    std::vector<TilingState> result;
    result.push_back(std::move(state));
    return result;
  }

  /// TVM's AddWriteReuse: a cache of the block's write, written back at
  /// each reuse level; with "may", the alternative without one too, and a
  /// write cache already there (a consumer that copies) moved instead.
  FailureOr<std::vector<TilingState>> addWriteReuse(TilingState state,
                                                    std::string &error) const {
    ReuseConfig::Kind req = options.reuseWrite.req;
    std::vector<int64_t> levels = options.reuseWrite.levels;
    std::vector<TilingState> results;
    if (req == ReuseConfig::Kind::No) {
      results.push_back(std::move(state));
      return results;
    }
    ScheduleSteps steps(*state.sch, error);
    BlockOp op = steps.getBlockOp(state.block);
    if (auto forced = dyn_cast_if_present<ArrayAttr>(
            getAnnotation(op, "meta_schedule.write_cache_level"))) {
      req = ReuseConfig::Kind::Must;
      levels.clear();
      for (Attribute level : forced)
        if (auto i = dyn_cast<IntegerAttr>(level))
          levels.push_back(i.getInt());
    } else if (auto dense = dyn_cast_if_present<DenseI64ArrayAttr>(
                   getAnnotation(op, "meta_schedule.write_cache_level"))) {
      req = ReuseConfig::Kind::Must;
      levels.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
    }
    auto atLevels = [&](TilingState &from, Value cache) -> LogicalResult {
      for (int64_t level : levels) {
        if (level < 1 || level > static_cast<int64_t>(from.tiles.size()) ||
            from.tiles[level - 1].empty()) {
          error = "MultiLevelTiling: no tile level " + std::to_string(level) +
                  " to write the cache back at";
          return failure();
        }
        TilingState copy = from.copy();
        ScheduleSteps copySteps(*copy.sch, error);
        if (failed(copySteps.reverseComputeAt(
                translateHandle(*from.sch, cache, *copy.sch),
                copy.tiles[level - 1].back(), /*preserveUnitLoops=*/true)))
          return failure();
        results.push_back(std::move(copy));
      }
      return success();
    };
    if (req == ReuseConfig::Kind::May) {
      SmallVector<BlockOp> consumers =
          getConsumersIn(op, getScopeBlocks(getScopeRoot(op)));
      if (consumers.size() == 1 && isWriteCache(consumers.front())) {
        FailureOr<SmallVector<Value>> found = steps.getConsumers(state.block);
        if (failed(found))
          return failure();
        Value cache = found->front();
        if (failed(atLevels(state, cache)))
          return failure();
        state.writeReuse.emplace_back(0, cache);
        results.push_back(std::move(state));
        return results;
      }
      // The alternative without a cache.
      results.push_back(state.copy());
    }
    FailureOr<Value> cache =
        steps.cacheWrite(state.block, 0, options.reuseWrite.scope);
    if (failed(cache))
      return failure();
    state.writeReuse.emplace_back(0, *cache);
    if (failed(atLevels(state, *cache)))
      return failure();
    return results;
  }

  /// TVM's AddReadReuse ("must" only): for each reuse level, every buffer
  /// the block reads (but the one it writes) is cached there, its loops
  /// fused for cooperative fetching.
  FailureOr<std::vector<TilingState>> addReadReuse(TilingState state,
                                                   std::string &error) const {
    std::vector<TilingState> results;
    if (options.reuseRead.req == ReuseConfig::Kind::No) {
      results.push_back(std::move(state));
      return results;
    }
    for (int64_t level : options.reuseRead.levels) {
      TilingState copy = state.copy();
      ScheduleSteps steps(*copy.sch, error);
      if (level < 1 || level > static_cast<int64_t>(copy.tiles.size()) ||
          copy.tiles[level - 1].empty()) {
        error = "MultiLevelTiling: no tile level " + std::to_string(level) +
                " to read the caches at";
        return failure();
      }
      Value at = copy.tiles[level - 1].back();
      Refusal why;
      FailureOr<BlockAccessRegions> regions =
          getAccessRegions(steps.getBlockOp(copy.block), why);
      if (failed(regions) || regions->writes.size() != 1) {
        error = "MultiLevelTiling: the block's regions are not known";
        return failure();
      }
      Value written = regions->writes.front().first;
      for (auto [index, read] : llvm::enumerate(regions->reads)) {
        if (read.first == written)
          continue;
        int64_t rank = cast<MemRefType>(read.first.getType()).getRank();
        FailureOr<Value> cache =
            steps.cacheRead(copy.block, static_cast<int64_t>(index),
                            options.reuseRead.scope, {copy.block});
        if (failed(cache) ||
            failed(steps.computeAt(*cache, at, /*preserveUnitLoops=*/true)))
          return failure();
        FailureOr<SmallVector<Value>> loops = steps.getLoops(*cache);
        if (failed(loops) || static_cast<int64_t>(loops->size()) < rank)
          return failure();
        if (failed(steps.fuse(ArrayRef<Value>(*loops).take_back(rank))))
          return failure();
        if (failed(annotateCooperativeFetching(steps, *cache)))
          return failure();
        copy.readReuse.emplace_back(static_cast<int64_t>(index), *cache);
      }
      results.push_back(std::move(copy));
    }
    return results;
  }

  /// TVM's AnnotateCooperativeFetching: a vector length sampled from those
  /// the cache's element type allows.
  LogicalResult annotateCooperativeFetching(ScheduleSteps &steps,
                                            Value cache) const {
    if (options.vectorLoadLens.empty())
      return success();
    Refusal why;
    FailureOr<BlockAccessRegions> regions =
        getAccessRegions(steps.getBlockOp(cache), why);
    Type element =
        succeeded(regions) && regions->writes.size() == 1
            ? cast<MemRefType>(regions->writes.front().first.getType())
                  .getElementType()
            : Type();
    std::vector<int64_t> lens;
    for (int64_t len : options.vectorLoadLens) {
      bool ok = true;
      if (element && element.isF32())
        ok = len <= 4;
      else if (element && element.isF16())
        ok = (len == 1 || len % 2 == 0) && len <= 8;
      else if (element && element.isInteger(8))
        ok = len <= 16;
      if (ok)
        lens.push_back(len);
    }
    if (lens.empty())
      return success();
    // TVM's probabilities are float32.
    double prob = static_cast<float>(1.0 / static_cast<double>(lens.size()));
    std::vector<double> probs(lens.size(), prob);
    FailureOr<Value> len = steps.sampleCategorical(lens, probs);
    if (failed(len))
      return failure();
    return steps.annotate(cache, "meta_schedule.cooperative_fetch", *len);
  }

  MultiLevelTilingOptions options;
  std::vector<int64_t> spatialLevels, reductionLevels;
  int64_t threadWarpSize = -1;
  int64_t maxThreadsPerBlock = -1;
};

} // namespace

FailureOr<std::shared_ptr<ScheduleRule>>
mlir::tir::ms::createMultiLevelTiling(MultiLevelTilingOptions options,
                                      std::string &error) {
  if (options.structure.empty() ||
      options.structure.find_first_not_of("SR") != std::string::npos) {
    error = "MultiLevelTiling: the structure is a string of S (spatial) and "
            "R (reduction) tile levels, got '" +
            options.structure + "'";
    return failure();
  }
  if (options.tileBinds.size() > options.structure.size()) {
    error = "MultiLevelTiling: more tile_binds than tile levels";
    return failure();
  }
  return std::shared_ptr<ScheduleRule>(
      std::make_shared<MultiLevelTiling>(std::move(options)));
}
