//===- MultiLevelTiling.cpp - TVM's MultiLevelTiling ----------------------===//
//
// The rule that makes the tiled loop nests of compute-heavy blocks (GEMMs,
// convolutions): each loop of the block is split into as many tiles as
// the structure has letters of its kind ("SSRSRS": spatial loops into
// four, reduction loops into two), by a sampled perfect tiling; the tiles
// are reordered level by level; the first levels are fused and bound to
// threads where tile_binds asks; then the sub-rules add a write cache
// (computed at a tile level), read caches and, on GPUs with asynchronous
// copies, a software pipeline, as TVM's, each alternative a schedule of
// its own.
//
//===----------------------------------------------------------------------===//

#include "MultiLevelTiling.h"

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

TilingState TilingState::copy() const {
  TilingState other;
  other.sch = Schedule(sch->copy());
  auto carry = [&](Value v) {
    return v ? translateHandle(*sch, v, *other.sch) : Value();
  };
  auto carryLevels = [&](const std::vector<SmallVector<Value>> &levels) {
    std::vector<SmallVector<Value>> carried;
    for (const SmallVector<Value> &level : levels) {
      SmallVector<Value> values;
      for (Value v : level)
        values.push_back(carry(v));
      carried.push_back(std::move(values));
    }
    return carried;
  };
  other.block = carry(block);
  other.tiles = carryLevels(tiles);
  other.tileFactors = carryLevels(tileFactors);
  for (auto &[index, cache] : readReuse)
    other.readReuse.emplace_back(index, carry(cache));
  for (auto &[index, cache] : writeReuse)
    other.writeReuse.emplace_back(index, carry(cache));
  for (Value v : extra)
    other.extra.push_back(carry(v));
  other.variant = variant;
  return other;
}

Value TilingState::readCache(int64_t index) const {
  for (auto &[i, cache] : readReuse)
    if (i == index)
      return cache;
  return Value();
}

bool mlir::tir::ms::isWriteCache(BlockOp block) {
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

MultiLevelTiling::MultiLevelTiling(MultiLevelTilingOptions options)
    : options(std::move(options)) {
  for (auto [index, c] : llvm::enumerate(this->options.structure))
    (c == 'S' ? spatialLevels : reductionLevels)
        .push_back(static_cast<int64_t>(index));
}

LogicalResult
MultiLevelTiling::initializeWithTuneContext(const TuneContext &context,
                                            std::string &) {
  if (!context.target)
    return success();
  if (std::optional<int64_t> threads =
          context.target->getInt("max_threads_per_block")) {
    maxThreadsPerBlock = *threads;
    if (std::optional<int64_t> warp =
            context.target->getInt("thread_warp_size"))
      threadWarpSize = *warp;
  }
  // Asynchronous copies from global to shared memory: sm_80 and later.
  StringRef arch = context.target->getString("arch").value_or("");
  int64_t sm = 0;
  if (arch.consume_front("sm_") && !arch.getAsInteger(10, sm) && sm >= 80)
    stages = {4, 5};
  return success();
}

FailureOr<std::vector<Schedule>>
MultiLevelTiling::apply(const Schedule &sch, Value block, std::string &error) {
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
  TilingStates states(1);
  states.front().sch = sch;
  states.front().block = block;
  FailureOr<TilingStates> made = applySubRules(std::move(states), error);
  if (failed(made))
    return failure();
  std::vector<Schedule> results;
  for (TilingState &state : *made)
    results.push_back(std::move(state.sch));
  return results;
}

FailureOr<std::shared_ptr<ScheduleRule>>
MultiLevelTiling::clone(std::string &) const {
  return std::shared_ptr<ScheduleRule>(
      std::make_shared<MultiLevelTiling>(*this));
}

std::string MultiLevelTiling::str() const {
  return defaultRepr("MultiLevelTiling", this);
}

FailureOr<TilingStates> MultiLevelTiling::forEach(TilingStates states,
                                                  const SubRule &rule,
                                                  std::string &error) {
  TilingStates next;
  for (TilingState &state : states) {
    FailureOr<TilingStates> made = rule(std::move(state), error);
    if (failed(made))
      return failure();
    for (TilingState &s : *made)
      next.push_back(std::move(s));
  }
  return next;
}

FailureOr<TilingStates> MultiLevelTiling::applySubRules(TilingStates states,
                                                        std::string &error) {
  std::vector<SubRule> rules = {[this](TilingState s, std::string &e) {
                                  return tileLoopNest(std::move(s), e);
                                },
                                [this](TilingState s, std::string &e) {
                                  return addWriteReuse(std::move(s), e);
                                },
                                [this](TilingState s, std::string &e) {
                                  return addReadReuse(std::move(s), e);
                                },
                                [this](TilingState s, std::string &e) {
                                  return addAsyncPipeline(std::move(s), e);
                                }};
  return runSubRules(std::move(states), rules, error);
}

FailureOr<TilingStates> MultiLevelTiling::runSubRules(TilingStates states,
                                                      ArrayRef<SubRule> rules,
                                                      std::string &error) {
  for (const SubRule &rule : rules) {
    FailureOr<TilingStates> made = forEach(std::move(states), rule, error);
    if (failed(made))
      return failure();
    states = std::move(*made);
  }
  return states;
}

FailureOr<TilingStates>
MultiLevelTiling::tileLoopNest(TilingState state, std::string &error,
                               int64_t innerSpatialLoops) const {
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
  int64_t spatialLoops = 0;
  for (unsigned k = 0; k < op.getNumIterVars(); ++k)
    spatialLoops += op.getIterType(k) == IterType::Spatial;
  if (innerSpatialLoops > spatialLoops) {
    error = "MultiLevelTiling: block '" + op.getBlockName().str() + "' has " +
            std::to_string(spatialLoops) + " spatial loops, fewer than the " +
            std::to_string(innerSpatialLoops) + " to tile";
    return failure();
  }
  int64_t skipped =
      innerSpatialLoops < 0 ? 0 : spatialLoops - innerSpatialLoops;
  SmallVector<Value> skippedLoops;
  std::vector<SmallVector<Value>> tiles(options.structure.size());
  std::vector<SmallVector<Value>> factorsOf(options.structure.size());
  int64_t spatialProduct = 1;
  for (auto [k, loop] : llvm::enumerate(*loops)) {
    const std::vector<int64_t> *levels;
    IterType type = op.getIterType(k);
    if (type == IterType::Spatial) {
      if (skipped > 0) {
        skippedLoops.push_back(loop);
        --skipped;
        continue;
      }
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
    auto made = splitLoop(steps, state.block, loop,
                          static_cast<int64_t>(levels->size()));
    if (failed(made))
      return failure();
    auto &[factors, split] = *made;
    for (auto [level, part, factor] : llvm::zip(*levels, split, factors)) {
      tiles[level].push_back(part);
      factorsOf[level].push_back(factor);
    }
  }
  SmallVector<Value> order;
  for (const SmallVector<Value> &level : tiles)
    llvm::append_range(order, level);
  if (failed(steps.reorder(order)))
    return failure();
  size_t bound = std::min(options.tileBinds.size(), tiles.size());
  if (!skippedLoops.empty() && bound > 0)
    tiles[0].insert(tiles[0].begin(), skippedLoops.begin(), skippedLoops.end());
  for (size_t i = 0; i < bound; ++i) {
    FailureOr<Value> fused = steps.fuse(tiles[i]);
    if (failed(fused) || failed(steps.bind(*fused, options.tileBinds[i])))
      return failure();
    tiles[i] = {*fused};
  }
  state.tiles = std::move(tiles);
  state.tileFactors = std::move(factorsOf);
  if (threadWarpSize != -1) {
    int64_t low = spatialProduct > 2 * threadWarpSize ? threadWarpSize : 1;
    if (failed(steps.annotate(
            state.block, "meta_schedule.thread_extent_low_inclusive", low)) ||
        failed(steps.annotate(state.block,
                              "meta_schedule.thread_extent_high_inclusive",
                              maxThreadsPerBlock)))
      return failure();
  }
  TilingStates result;
  result.push_back(std::move(state));
  return result;
}

FailureOr<std::pair<SmallVector<Value>, SmallVector<Value>>>
MultiLevelTiling::splitLoop(ScheduleSteps &steps, Value, Value loop,
                            int64_t n) const {
  FailureOr<SmallVector<Value>> factors =
      steps.samplePerfectTile(loop, n, options.maxInnermostFactor);
  if (failed(factors))
    return failure();
  FailureOr<SmallVector<Value>> split = steps.split(loop, *factors);
  if (failed(split))
    return failure();
  return std::make_pair(std::move(*factors), std::move(*split));
}

FailureOr<TilingStates>
MultiLevelTiling::addWriteReuse(TilingState state, std::string &error) const {
  ReuseConfig::Kind req = options.reuseWrite.req;
  std::vector<int64_t> levels = options.reuseWrite.levels;
  TilingStates results;
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

FailureOr<TilingStates>
MultiLevelTiling::addReadReuse(TilingState state, std::string &error) const {
  TilingStates results;
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

FailureOr<TilingStates>
MultiLevelTiling::addAsyncPipeline(TilingState state,
                                   std::string &error) const {
  TilingStates results;
  if (reductionLevels.empty() || stages.empty() ||
      state.tiles[reductionLevels.front()].empty()) {
    results.push_back(std::move(state));
    return results;
  }
  // TVM pipelines the outer reduction loop only when its body is the two
  // read caches and the rest of the nest: three loops.
  ScheduleSteps steps(*state.sch, error);
  ForOp loop = steps.getForOp(state.tiles[reductionLevels.front()].back());
  SmallVector<Operation *> statements =
      loop ? getLoopStatements(loop) : SmallVector<Operation *>();
  if (statements.size() != 3 ||
      !llvm::all_of(statements, [](Operation *op) { return isa<ForOp>(op); })) {
    results.push_back(std::move(state));
    return results;
  }
  Builder b(state.sch->getContext());
  for (int64_t stage : stages) {
    TilingState copy = state.copy();
    ScheduleSteps copySteps(*copy.sch, error);
    FailureOr<Value> fused =
        copySteps.fuse(copy.tiles[reductionLevels.front()]);
    if (failed(fused) ||
        failed(copySteps.annotate(*fused, "software_pipeline_stage",
                                  b.getI64ArrayAttr({0, 0, stage - 2}))) ||
        failed(copySteps.annotate(*fused, "software_pipeline_order",
                                  b.getI64ArrayAttr({0, 1, 2}))) ||
        failed(copySteps.annotate(*fused, "software_pipeline_async_stages",
                                  b.getI64ArrayAttr({0}))))
      return failure();
    results.push_back(std::move(copy));
  }
  results.insert(results.begin(), std::move(state));
  return results;
}

LogicalResult
MultiLevelTiling::annotateCooperativeFetching(ScheduleSteps &steps,
                                              Value cache) const {
  if (options.vectorLoadLens.empty())
    return success();
  Refusal why;
  FailureOr<BlockAccessRegions> regions =
      getAccessRegions(steps.getBlockOp(cache), why);
  Type element = succeeded(regions) && regions->writes.size() == 1
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
