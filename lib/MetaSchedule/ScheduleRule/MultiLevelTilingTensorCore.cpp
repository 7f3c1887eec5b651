//===- MultiLevelTilingTensorCore.cpp - TVM's MultiLevelTilingTensorCore --===//
//
// MultiLevelTiling onto tensor cores (WMMA), for a block one group of
// intrinsics (fill, load A, load B, multiply-accumulate, store) matches:
//  - the block's buffers are reindexed and laid out as the intrinsic's
//    iteration space (get_auto_tensorize_mapping_info), the block's inner
//    loops tiled to the fragment shape and blockized;
//  - the outer block is tiled (only its two innermost spatial loops: the
//    others join the first bound level), its accumulator laid out per warp
//    as [..., warp_m, warp_n, frag_m, frag_n, elem_m, elem_n];
//  - a shared-memory write cache fed by a wmma.accumulator cache (one row
//    of fragments at a time, bound to the warps), shared-memory read caches
//    and wmma.matrix_a / matrix_b caches, every fragment move blockized and
//    annotated with its intrinsic for RewriteTensorize;
//  - optionally, the reduction loops annotated for software pipelining.
// As TVM's, each group that matches gives its own alternatives; a block no
// group matches is left as it is.
//
//===----------------------------------------------------------------------===//

#include "MultiLevelTiling.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/TensorIntrin.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleTransforms.h"
#include "TensorIR/MetaSchedule/Analysis.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// The state's extra handles (TilingState::extra).
enum ExtraHandle { ReindexStore = 0, ReindexA = 1, ReindexB = 2 };

/// A buffer's indices (dimension positions of the block's variables) as
/// `block` accesses it: `write` picks the writes; nullopt where an index is
/// not a plain variable.
std::optional<SmallVector<unsigned>> accessVarsOf(BlockOp block, Value buffer,
                                                  bool write) {
  Refusal why;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, why);
  if (failed(regions))
    return std::nullopt;
  for (auto &[b, region] : write ? regions->writes : regions->reads) {
    if (b != buffer)
      continue;
    SmallVector<unsigned> vars;
    for (auto [start, extent] : llvm::zip(region.starts, region.extents)) {
      auto d = dyn_cast<AffineDimExpr>(start);
      auto one = dyn_cast<AffineConstantExpr>(extent);
      if (!d || !one || one.getValue() != 1 ||
          d.getPosition() >= block.getNumIterVars())
        return std::nullopt;
      vars.push_back(d.getPosition());
    }
    return vars;
  }
  return std::nullopt;
}

/// The `n`-th read (or write) buffer of `block`, as its regions list it.
Value nthBuffer(BlockOp block, int64_t n, bool write) {
  Refusal why;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, why);
  if (failed(regions))
    return Value();
  auto &list = write ? regions->writes : regions->reads;
  return n < static_cast<int64_t>(list.size()) ? list[n].first : Value();
}

class MultiLevelTilingTensorCore : public MultiLevelTiling {
public:
  MultiLevelTilingTensorCore(std::vector<TensorCoreIntrinGroup> groups,
                             MultiLevelTilingOptions options,
                             bool useSoftwarePipeline)
      : MultiLevelTiling(std::move(options)), groups(std::move(groups)),
        useSoftwarePipeline(useSoftwarePipeline) {}

  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override {
    ScheduleSteps steps(*sch, error);
    BlockOp op = steps.getBlockOp(block);
    if (!op || !needsMultiLevelTiling(op))
      return std::vector<Schedule>{sch};
    TilingStates states;
    Builder b(sch->getContext());
    for (auto [index, group] : llvm::enumerate(groups)) {
      FailureOr<func::FuncOp> desc =
          getTensorIntrinDesc(steps, block, group.compute, error);
      if (failed(desc))
        return failure();
      Refusal why;
      if (failed(getAutoTensorizeMapping(op, *desc, why)))
        continue;
      TilingState state;
      state.sch = Schedule(sch->copy());
      state.block = translateHandle(*sch, block, *state.sch);
      state.variant = static_cast<int64_t>(index);
      ScheduleSteps copySteps(*state.sch, error);
      if (failed(copySteps.annotate(state.block,
                                    "meta_schedule.tiling_structure",
                                    b.getStringAttr(options.structure))))
        return failure();
      state.extra = {Value(), Value(), Value()};
      states.push_back(std::move(state));
    }
    if (states.empty())
      return std::vector<Schedule>{sch};
    FailureOr<TilingStates> made = applySubRules(std::move(states), error);
    if (failed(made))
      return failure();
    if (made->empty())
      return std::vector<Schedule>{sch};
    std::vector<Schedule> results;
    for (TilingState &state : *made)
      results.push_back(std::move(state.sch));
    return results;
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(
        std::make_shared<MultiLevelTilingTensorCore>(*this));
  }
  std::string str() const override {
    return defaultRepr("MultiLevelTilingTensorCore", this);
  }

protected:
  FailureOr<TilingStates> applySubRules(TilingStates states,
                                        std::string &error) override {
    std::vector<SubRule> rules = {
        [this](TilingState s, std::string &e) {
          return transformForTensorization(std::move(s), e);
        },
        [this](TilingState s, std::string &e) {
          return tileLoopNest(std::move(s), e, /*innerSpatialLoops=*/2);
        },
        [this](TilingState s, std::string &e) {
          return transformIntermediateOutputLayout(std::move(s), e);
        },
        [this](TilingState s, std::string &e) {
          return addWriteReuse(std::move(s), e);
        },
        [this](TilingState s, std::string &e) {
          return addWriteReuseTensorCore(std::move(s), e);
        },
        [this](TilingState s, std::string &e) {
          return addReadReuse(std::move(s), e);
        },
        [this](TilingState s, std::string &e) {
          return addReadReuseTensorCore(std::move(s), e);
        },
        [this](TilingState s, std::string &e) {
          return addSoftwarePipeline(std::move(s), e);
        }};
    return runSubRules(std::move(states), rules, error);
  }

private:
  const TensorCoreIntrinGroup &groupOf(const TilingState &state) const {
    return groups[state.variant];
  }

  static TilingStates one(TilingState state) {
    TilingStates result;
    result.push_back(std::move(state));
    return result;
  }

  /// The layout of one buffer of the block as the intrinsic's: over the
  /// reindexed buffer's dimensions (the block variables `vars` it is
  /// indexed by), the variables no description variable takes, then the
  /// fused index of each description variable indexing `descBuffer`.
  static FailureOr<AffineMap> subIndexMap(const AutoTensorizeMapping &m,
                                          BlockOp block,
                                          ArrayRef<unsigned> vars,
                                          Value descBuffer, bool write,
                                          std::string &error) {
    MLIRContext *ctx = m.mapping.getContext();
    BlockOp descBlock = m.descBlock;
    unsigned numDesc = descBlock.getNumIterVars();
    unsigned numUnmapped = m.mapping.getNumResults() - numDesc;
    std::optional<SmallVector<unsigned>> descVars =
        accessVarsOf(descBlock, descBuffer, write);
    if (!descVars) {
      error = "MultiLevelTilingTensorCore: the intrinsic's description "
              "indexes a buffer other than by its variables";
      return failure();
    }
    // Block variable -> buffer dimension; a variable of one value the
    // buffer is not indexed by (reindex left it out) is that value.
    SmallVector<AffineExpr> toDims(m.mapping.getNumDims(), AffineExpr());
    for (unsigned v = 0; v < m.mapping.getNumDims(); ++v)
      if (std::optional<int64_t> point = block.getSingleDomainValue(v))
        toDims[v] = getAffineConstantExpr(*point, ctx);
    for (auto [k, v] : llvm::enumerate(vars))
      toDims[v] = getAffineDimExpr(k, ctx);
    SmallVector<AffineExpr> results;
    for (auto [k, v] : llvm::enumerate(vars))
      for (unsigned r = 0; r < numUnmapped; ++r)
        if (m.mapping.getResult(r) == getAffineDimExpr(v, ctx))
          results.push_back(getAffineDimExpr(k, ctx));
    for (unsigned p : *descVars) {
      AffineExpr fused = m.mapping.getResult(numUnmapped + p);
      for (unsigned pos = 0; pos < m.mapping.getNumDims(); ++pos)
        if (fused.isFunctionOfDim(pos) && !toDims[pos]) {
          error = "MultiLevelTilingTensorCore: a fused index uses a variable "
                  "the buffer is not indexed by";
          return failure();
        }
      results.push_back(fused.replaceDims(toDims));
    }
    return AffineMap::get(vars.size(), 0, results, ctx);
  }

  /// TVM's TransformWithTensorIntrin then blockize: reindex stages for the
  /// output and both inputs, each laid out as the intrinsic's iteration
  /// space, the block's loops tiled to the fragment. No alternative where
  /// the block is not a matmul-like one (two reads, one write) or does not
  /// tile.
  FailureOr<TilingStates> transformForTensorization(TilingState state,
                                                    std::string &error) const {
    ScheduleSteps steps(*state.sch, error);
    BlockOp op = steps.getBlockOp(state.block);
    const TensorCoreIntrinGroup &group = groupOf(state);
    FailureOr<func::FuncOp> desc =
        getTensorIntrinDesc(steps, state.block, group.compute, error);
    if (failed(desc))
      return failure();
    Refusal why;
    FailureOr<AutoTensorizeMapping> mapping =
        getAutoTensorizeMapping(op, *desc, why);
    if (failed(mapping))
      return TilingStates();
    const AutoTensorizeMapping &m = *mapping;
    FailureOr<BlockAccessRegions> regions = getAccessRegions(op, why);
    if (failed(regions) || regions->reads.size() != 2 ||
        regions->writes.size() != 1)
      return TilingStates();
    // The buffers before reindexing, as the mapping knows them.
    SmallVector<std::pair<Value, bool>> original = {
        {regions->reads[0].first, false},
        {regions->reads[1].first, false},
        {regions->writes[0].first, true}};
    SmallVector<int64_t> indexOf = {0, 1, 0};
    FailureOr<Value> store = steps.reindex(state.block, 0, true);
    if (failed(store))
      return failure();
    FailureOr<Value> a = steps.reindex(state.block, 0, false);
    if (failed(a))
      return failure();
    FailureOr<Value> b = steps.reindex(state.block, 1, false);
    if (failed(b))
      return failure();
    state.extra[ReindexStore] = *store;
    state.extra[ReindexA] = *a;
    state.extra[ReindexB] = *b;

    auto descOf = [&](Value buffer) -> Value {
      for (auto [lhs, rhs] : m.bufferMap)
        if (lhs == buffer)
          return rhs;
      return Value();
    };
    // The map each distinct buffer's layout took.
    llvm::SmallDenseMap<Value, AffineMap, 4> maps;
    for (auto [k, entry] : llvm::enumerate(original)) {
      Value buffer = entry.first;
      bool write = entry.second;
      if (maps.contains(buffer))
        continue;
      Value desc = descOf(buffer);
      op = steps.getBlockOp(state.block);
      Value reindexed = nthBuffer(op, indexOf[k], write);
      std::optional<SmallVector<unsigned>> vars =
          reindexed ? accessVarsOf(op, reindexed, write) : std::nullopt;
      if (!desc || !vars) {
        error = "MultiLevelTilingTensorCore: the reindexed buffers of block '" +
                op.getBlockName().str() + "' are not the mapping's";
        return failure();
      }
      FailureOr<AffineMap> map = subIndexMap(m, op, *vars, desc, write, error);
      if (failed(map) ||
          failed(steps.transformLayout(state.block, indexOf[k], write, *map,
                                       /*assumeInjective=*/true)))
        return failure();
      maps[buffer] = *map;
    }
    if (failed(steps.transformBlockLayout(*store,
                                          maps.lookup(original[2].first))) ||
        failed(
            steps.transformBlockLayout(*a, maps.lookup(original[0].first))) ||
        failed(
            steps.transformBlockLayout(*b, maps.lookup(original[1].first))) ||
        failed(steps.transformBlockLayout(state.block, m.mapping)))
      return failure();
    FailureOr<std::optional<Value>> loop = tileWithTensorIntrin(
        *state.sch, state.block, group.compute, /*allowPadding=*/true, error);
    if (failed(loop))
      return failure();
    if (!*loop)
      return TilingStates();
    FailureOr<Value> outer = steps.blockize(**loop);
    if (failed(outer))
      return failure();
    state.block = *outer;
    Builder builder(state.sch->getContext());
    if (failed(steps.annotate(state.block, "meta_schedule.auto_tensorize",
                              builder.getStringAttr(group.compute))) ||
        failed(steps.annotate(state.block, "meta_schedule.auto_tensorize_init",
                              builder.getStringAttr(group.init))) ||
        failed(steps.annotate(state.block, "warp_execution", int64_t(1))))
      return failure();
    return one(std::move(state));
  }

  /// TVM's TransformIntermediateOutputLayout: the accumulator laid out as
  /// [..., m / frag / warp_m, n / frag / warp_n, (m / frag) % warp_m,
  /// (n / frag) % warp_n, m % frag, n % frag], warp_m / warp_n the
  /// fragments of one warp (the sampled factors of the levels inside the
  /// one bound to threadIdx.y).
  FailureOr<TilingStates>
  transformIntermediateOutputLayout(TilingState state,
                                    std::string &error) const {
    ScheduleSteps steps(*state.sch, error);
    auto warpLevel = llvm::find(options.tileBinds, "threadIdx.y");
    if (warpLevel == options.tileBinds.end()) {
      error = "MultiLevelTilingTensorCore: no tile level is bound to "
              "threadIdx.y (the warps)";
      return failure();
    }
    size_t warp = warpLevel - options.tileBinds.begin();
    // The fragments of one warp: the product of the sampled factors of the
    // spatial levels inside the warp level, of the row (`back` 2) and of
    // the column (`back` 1) loop. They stay parameters of the step (the
    // map's symbols), so a replay with other tile sizes follows them.
    MLIRContext *ctx = state.sch->getContext();
    SmallVector<Value> params;
    auto innerProduct = [&](int back) -> AffineExpr {
      AffineExpr product;
      for (size_t i = warp + 1; i < spatialLevels.size(); ++i) {
        const SmallVector<Value> &factors = state.tileFactors[spatialLevels[i]];
        if (static_cast<int>(factors.size()) < back)
          return AffineExpr();
        AffineExpr symbol = getAffineSymbolExpr(params.size(), ctx);
        params.push_back(factors[factors.size() - back]);
        product = product ? product * symbol : symbol;
      }
      return product;
    };
    AffineExpr warpM = innerProduct(2), warpN = innerProduct(1);
    if (!warpM || !warpN) {
      error = "MultiLevelTilingTensorCore: the tiles inside the warp level "
              "are not known";
      return failure();
    }
    FailureOr<std::pair<int64_t, int64_t>> frag = fragmentShape(state, error);
    if (failed(frag))
      return failure();
    BlockOp op = steps.getBlockOp(state.block);
    Value written = nthBuffer(op, 0, true);
    if (!written) {
      error = "MultiLevelTilingTensorCore: the block writes no buffer";
      return failure();
    }
    int64_t rank = cast<MemRefType>(written.getType()).getRank();
    if (rank < 2) {
      error = "MultiLevelTilingTensorCore: the accumulator has fewer than two "
              "dimensions";
      return failure();
    }
    SmallVector<AffineExpr> results;
    for (int64_t i = 0; i < rank - 2; ++i)
      results.push_back(getAffineDimExpr(i, ctx));
    AffineExpr row = getAffineDimExpr(rank - 2, ctx);
    AffineExpr col = getAffineDimExpr(rank - 1, ctx);
    AffineExpr outerRow = row.floorDiv(frag->first);
    AffineExpr outerCol = col.floorDiv(frag->second);
    results.push_back(outerRow.floorDiv(warpM));
    results.push_back(outerCol.floorDiv(warpN));
    results.push_back(outerRow % warpM);
    results.push_back(outerCol % warpN);
    results.push_back(row % frag->first);
    results.push_back(col % frag->second);
    if (failed(steps.transformLayout(
            state.block, 0, /*write=*/true,
            AffineMap::get(rank, params.size(), results, ctx),
            /*assumeInjective=*/true, params)))
      return failure();
    return one(std::move(state));
  }

  /// The accumulator fragment's shape: the loop extents of the fill
  /// intrinsic's description.
  FailureOr<std::pair<int64_t, int64_t>>
  fragmentShape(const TilingState &state, std::string &error) const {
    ScheduleSteps steps(*state.sch, error);
    FailureOr<func::FuncOp> desc =
        getTensorIntrinDesc(steps, state.block, groupOf(state).init, error);
    if (failed(desc))
      return failure();
    SmallVector<int64_t> extents;
    desc->walk([&](ForOp loop) {
      if (std::optional<int64_t> e = loop.getConstantExtent())
        extents.push_back(*e);
    });
    if (extents.size() != 2) {
      error = "MultiLevelTilingTensorCore: the fill intrinsic '" +
              groupOf(state).init + "' is not a nest of two loops";
      return failure();
    }
    return std::make_pair(extents[0], extents[1]);
  }

  /// TVM's AddWriteReuseTensorCore: the accumulator cached in
  /// wmma.accumulator, one row of warp fragments written to the shared
  /// cache at a time (the row loop outermost, the warps bound to
  /// threadIdx.y), the fragment store blockized for the store intrinsic;
  /// the shared cache's loops fused for cooperative fetching.
  FailureOr<TilingStates> addWriteReuseTensorCore(TilingState state,
                                                  std::string &error) const {
    ScheduleSteps steps(*state.sch, error);
    if (state.writeReuse.empty()) {
      error = "MultiLevelTilingTensorCore: no shared-memory write cache";
      return failure();
    }
    Value shared = state.writeReuse.front().second;
    FailureOr<Value> accumulator =
        steps.cacheWrite(state.block, 0, "wmma.accumulator");
    if (failed(accumulator))
      return failure();
    auto lastLoops = [&](Value block,
                         size_t n) -> FailureOr<SmallVector<Value>> {
      FailureOr<SmallVector<Value>> loops = steps.getLoops(block);
      if (failed(loops))
        return failure();
      if (loops->size() < n) {
        error = "MultiLevelTilingTensorCore: the write cache has fewer than " +
                std::to_string(n) + " loops";
        return failure();
      }
      return SmallVector<Value>(ArrayRef<Value>(*loops).take_back(n));
    };
    FailureOr<SmallVector<Value>> loops = lastLoops(shared, 7);
    if (failed(loops))
      return failure();
    // [i0, j0, i1, j1, m, n] are the last six.
    Value i0 = (*loops)[1], j0 = (*loops)[2], i1 = (*loops)[3],
          j1 = (*loops)[4];
    if (failed(steps.reorder({i1, i0, j0, j1})) ||
        failed(steps.computeAt(*accumulator, i1, /*preserveUnitLoops=*/true)))
      return failure();
    FailureOr<SmallVector<Value>> accLoops = lastLoops(*accumulator, 6);
    if (failed(accLoops))
      return failure();
    FailureOr<Value> warps = steps.fuse({(*accLoops)[0], (*accLoops)[1]});
    if (failed(warps) || failed(steps.bind(*warps, "threadIdx.y")) ||
        failed(steps.reverseComputeInline(state.extra[ReindexStore])))
      return failure();
    accLoops = lastLoops(*accumulator, 2);
    if (failed(accLoops))
      return failure();
    FailureOr<Value> fragmentStore = steps.blockize(accLoops->front());
    Builder b(state.sch->getContext());
    if (failed(fragmentStore) ||
        failed(steps.annotate(*fragmentStore, "meta_schedule.auto_tensorize",
                              b.getStringAttr(groupOf(state).store))))
      return failure();
    FailureOr<SmallVector<Value>> sharedLoops = lastLoops(shared, 5);
    if (failed(sharedLoops) || failed(steps.fuse(*sharedLoops)) ||
        failed(annotateCooperativeFetching(steps, shared)))
      return failure();
    return one(std::move(state));
  }

  /// TVM's AddReadReuseTensorCore: both inputs cached in the wmma operand
  /// scopes at the inner reduction tile, tiled and blockized for the load
  /// intrinsics; the reindex stages inlined into the shared caches, whose
  /// rows are padded against bank conflicts.
  FailureOr<TilingStates> addReadReuseTensorCore(TilingState state,
                                                 std::string &error) const {
    ScheduleSteps steps(*state.sch, error);
    if (reductionLevels.size() < 2 || state.tiles[reductionLevels[1]].empty()) {
      error = "MultiLevelTilingTensorCore: no inner reduction tile to load "
              "the fragments at";
      return failure();
    }
    Value at = state.tiles[reductionLevels[1]].back();
    const TensorCoreIntrinGroup &group = groupOf(state);
    Builder b(state.sch->getContext());
    for (auto [index, scope, intrin] :
         {std::make_tuple(int64_t(0), StringRef("wmma.matrix_a"),
                          StringRef(group.loadA)),
          std::make_tuple(int64_t(1), StringRef("wmma.matrix_b"),
                          StringRef(group.loadB))}) {
      FailureOr<Value> cache = steps.cacheRead(state.block, index, scope);
      if (failed(cache) ||
          failed(steps.computeAt(*cache, at, /*preserveUnitLoops=*/true)))
        return failure();
      FailureOr<Value> tiled = tileForIntrin(steps, *cache, intrin,
                                             /*allowPadding=*/false, error);
      if (failed(tiled))
        return failure();
      if (!*tiled) {
        error = "MultiLevelTilingTensorCore: the fragment load does not tile "
                "to '" +
                intrin.str() + "'";
        return failure();
      }
    }
    for (int64_t index : {0, 1}) {
      Value cache = state.readCache(index);
      if (!cache) {
        error = "MultiLevelTilingTensorCore: no shared-memory read cache of "
                "input " +
                std::to_string(index);
        return failure();
      }
      FailureOr<SmallVector<Value>> producers = steps.getProducers(cache);
      if (failed(producers) || producers->empty() ||
          failed(steps.computeInline(producers->front())))
        return failure();
      Value buffer = nthBuffer(steps.getBlockOp(cache), 0, true);
      Type element =
          buffer ? cast<MemRefType>(buffer.getType()).getElementType() : Type();
      int64_t offset = 0;
      if (element && element.isF16())
        offset = 8;
      else if (element && element.isInteger(8))
        offset = 16;
      // TVM aligns only these (and warns for the others).
      if (offset && failed(steps.storageAlign(cache, 0, -2, 32, offset)))
        return failure();
    }
    return one(std::move(state));
  }

  /// TVM's AddSoftwarePipeline: the shared caches double-buffered through a
  /// local stage, the inner reduction tile pipelined one fragment ahead and
  /// the outer one interleaved with it.
  FailureOr<TilingStates> addSoftwarePipeline(TilingState state,
                                              std::string &error) const {
    if (!useSoftwarePipeline || reductionLevels.size() < 2)
      return one(std::move(state));
    ScheduleSteps steps(*state.sch, error);
    int64_t length = 1;
    for (int64_t level : reductionLevels)
      for (Value loop : state.tiles[level]) {
        ForOp op = steps.getForOp(loop);
        std::optional<int64_t> extent =
            op ? op.getConstantExtent() : std::nullopt;
        if (!extent) {
          error = "MultiLevelTilingTensorCore: software pipelining needs "
                  "reduction loops of constant extent";
          return failure();
        }
        length *= *extent;
      }
    if (length <= 1)
      return one(std::move(state));
    for (int64_t index : {0, 1}) {
      Value cache = state.readCache(index);
      if (!cache ||
          failed(steps.annotate(cache, "tir.manifest_shared_memory_local_stage",
                                int64_t(1))) ||
          failed(steps.annotate(cache, "double_buffer_scope", int64_t(0))))
        return failure();
    }
    Builder b(state.sch->getContext());
    Value inner = state.tiles[reductionLevels[1]].back();
    Value outer = state.tiles[reductionLevels[0]].back();
    if (failed(steps.annotate(inner, "software_pipeline_stage",
                              b.getI64ArrayAttr({0, 0, 1}))) ||
        failed(steps.annotate(inner, "software_pipeline_order",
                              b.getI64ArrayAttr({0, 1, 2}))) ||
        failed(steps.annotate(outer, "software_pipeline_stage",
                              b.getI64ArrayAttr({0, 0, 0, 0, 0, 1, 1}))) ||
        failed(steps.annotate(outer, "software_pipeline_order",
                              b.getI64ArrayAttr({0, 3, 1, 4, 5, 2, 6}))))
      return failure();
    return one(std::move(state));
  }

  std::vector<TensorCoreIntrinGroup> groups;
  bool useSoftwarePipeline;
};

} // namespace

FailureOr<std::shared_ptr<ScheduleRule>>
mlir::tir::ms::createMultiLevelTilingTensorCore(
    std::vector<TensorCoreIntrinGroup> groups, MultiLevelTilingOptions options,
    bool useSoftwarePipeline, std::string &error) {
  if (groups.empty()) {
    error = "MultiLevelTilingTensorCore: no intrinsic group";
    return failure();
  }
  for (const std::string &bind : options.tileBinds)
    if (bind == "threadIdx.x") {
      error = "MultiLevelTilingTensorCore: cannot bind to threadIdx.x when "
              "using tensor cores";
      return failure();
    }
  for (const TensorCoreIntrinGroup &group : groups) {
    for (const std::string *name : {&group.init, &group.loadA, &group.loadB,
                                    &group.compute, &group.store})
      if (!isTensorIntrinRegistered(*name)) {
        error = "MultiLevelTilingTensorCore: the tensor intrinsic '" + *name +
                "' is not registered";
        return failure();
      }
    if (StringRef(group.compute).starts_with("mma")) {
      error = "MultiLevelTilingTensorCore: mma.sync intrinsic groups ('" +
              group.compute + "') are not supported yet; use a WMMA group";
      return failure();
    }
  }
  bool sharedWrite = options.reuseWrite.req == ReuseConfig::Kind::Must &&
                     StringRef(options.reuseWrite.scope).starts_with("shared");
  if (!sharedWrite) {
    error = "ValueError: Shared memory write reuse must be enabled for "
            "MultiLevelTilingTensorCore.";
    return failure();
  }
  if (failed(createMultiLevelTiling(options, error)))
    return failure();
  return std::shared_ptr<ScheduleRule>(
      std::make_shared<MultiLevelTilingTensorCore>(
          std::move(groups), std::move(options), useSoftwarePipeline));
}
