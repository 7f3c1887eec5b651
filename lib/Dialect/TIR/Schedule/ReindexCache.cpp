//===- ReindexCache.cpp - TVM's reindex_cache_read / reindex_cache_write --===//
//
// cache_read / cache_write whose cache is laid out by the block's own
// iteration space: the block reads (or writes) one element of the buffer
// per iteration, at indices of some of its variables; the cache holds that
// element at `index_map(variables)`. The copy stage repeats the block's
// iteration over those variables (their bindings, and the loops between
// the copy's place and the block that feed them) and copies between the
// two indexings. The copy goes where cache_read / cache_write put theirs.
//
//===----------------------------------------------------------------------===//

#include "CacheStage.h"
#include "IndexMap.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {
/// What both primitives work out before changing anything.
struct ReindexCachePlan {
  Value buffer;
  Operation *root;
  CachePlace place;
  /// The block's single-point indices of the buffer, over `inputs` (its
  /// variables, then its region values).
  SmallVector<AffineExpr> oldIndices;
  SmallVector<Value> inputs;
  /// The variables the indices use, in block order.
  SmallVector<unsigned> used;
  SmallVector<int64_t> cacheShape;
};
} // namespace

/// The checks and the plan shared by both primitives; `place` is decided
/// by the caller's rule, given the buffer.
static FailureOr<ReindexCachePlan>
planReindexCache(BlockOp block, int64_t bufferIndex, StringRef storageScope,
                 AffineMap indexMap, bool isRead, StringRef primitive,
                 function_ref<FailureOr<CachePlace>(ReindexCachePlan &)> place,
                 ScheduleError &error) {
  MLIRContext *ctx = block.getContext();
  ReindexCachePlan plan;
  FailureOr<Value> cached = getCachedBuffer(block, bufferIndex, storageScope,
                                            /*reads=*/isRead, primitive, error);
  if (failed(cached))
    return failure();
  plan.buffer = *cached;
  std::string name = getCachedBufferName(plan.buffer);
  plan.root = getScopeRoot(block);
  if (failed(
          checkScopeAccesses(plan.root, plan.buffer, block, primitive, error)))
    return failure();
  if (failed(checkStagePipeline(
          primitive, BlockDependences(getScopeBlocks(plan.root)), error)))
    return failure();
  unsigned numVars = block.getNumIterVars();
  if (indexMap.getNumDims() != numVars || indexMap.getNumSymbols() != 0)
    return refuse(error, block,
                  primitive + ": the index map takes " +
                      Twine(indexMap.getNumDims()) + " indices, but block '" +
                      block.getBlockName() + "' has " + Twine(numVars) +
                      " iteration variables");

  // The block accesses one element of the buffer per iteration.
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, error);
  if (failed(regions))
    return failure();
  plan.inputs = regions->inputs;
  const RegionExprs *region = nullptr;
  for (const auto &[b, r] : isRead ? regions->reads : regions->writes)
    if (b == plan.buffer)
      region = &r;
  if (!region || llvm::any_of(region->extents, [&](AffineExpr e) {
        return e != getAffineConstantExpr(1, ctx);
      }))
    return refuse(error, block,
                  primitive + ": block '" + block.getBlockName() +
                      "' accesses more than one element of buffer '" + name +
                      "' per iteration; the cache needs a single point");
  plan.oldIndices = region->starts;

  // The variables both indexings use must be the same.
  for (unsigned i = 0; i < numVars; ++i) {
    bool inOld = llvm::any_of(
        plan.oldIndices, [&](AffineExpr e) { return e.isFunctionOfDim(i); });
    bool inNew = llvm::any_of(indexMap.getResults(), [&](AffineExpr e) {
      return e.isFunctionOfDim(i);
    });
    if (inOld != inNew)
      return refuse(error, block,
                    primitive + ": iteration variable " +
                        iterVarLabel(block, i) + " is used by " +
                        (inOld ? "the buffer's indices but not the index map"
                               : "the index map but not the buffer's indices") +
                        "; both must index by the same variables");
    if (inOld)
      plan.used.push_back(i);
  }
  for (unsigned k = numVars; k < plan.inputs.size(); ++k)
    if (llvm::any_of(plan.oldIndices,
                     [&](AffineExpr e) { return e.isFunctionOfDim(k); }))
      return refuse(error, block,
                    primitive + ": block '" + block.getBlockName() +
                        "' indexes buffer '" + name +
                        "' with values other than its iteration variables");
  // The cache's shape over the variables' domains; each used variable's
  // point must have its own element (an injective map).
  FailureOr<SmallVector<int64_t>> extents =
      getZeroBasedExtents(block, primitive, error);
  if (failed(extents))
    return failure();
  for (unsigned i = 0; i < numVars; ++i)
    if (!llvm::is_contained(plan.used, i))
      (*extents)[i] = 1;
  Refusal why;
  FailureOr<IndexMapAnalysis> analysis =
      analyzeIndexMap(indexMap, *extents, why);
  if (failed(analysis))
    return refuse(error, block,
                  primitive +
                      ": the index map is not an injective affine map "
                      "of block '" +
                      block.getBlockName() + "''s variables (" + why.message +
                      ")");
  plan.cacheShape = analysis->shape;
  FailureOr<CachePlace> where = place(plan);
  if (failed(where))
    return failure();
  plan.place = *where;
  return plan;
}

/// The copy stage at `plan.place`: the loops between the place and the
/// block that feed the used variables' bindings (recreated, same bounds and
/// names), a block with those variables (same names and domains, spatial,
/// same bindings) copying `from[...]` to `to[...]`, the buffer at its old
/// indices and the cache at `indexMap`'s.
static BlockOp createStage(RewriterBase &rewriter, BlockOp block,
                           const ReindexCachePlan &plan, AffineMap indexMap,
                           Value cache, bool isRead, StringRef name) {
  MLIRContext *ctx = block.getContext();
  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(plan.place.body, plan.place.before);
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  ValueRange values = block.getBindingValues();
  llvm::SmallBitVector usedValues(values.size());
  for (unsigned i : plan.used)
    for (unsigned k = 0; k < values.size(); ++k)
      if (bindings[i].isFunctionOfDim(k))
        usedValues.set(k);
  // Loops strictly inside the place's owner that hold the block.
  SmallVector<ForOp> between;
  for (Operation *op = block->getParentOp(); op && op != plan.place.owner;
       op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op))
      between.push_back(loop);
  std::reverse(between.begin(), between.end());
  SmallVector<ForOp> feeding;
  for (ForOp loop : between)
    if (llvm::any_of(llvm::seq<unsigned>(0, values.size()), [&](unsigned k) {
          return usedValues.test(k) && values[k] == loop.getInductionVar();
        }))
      feeding.push_back(loop);
  IRMapping loopMap;
  copyLoops(rewriter, feeding, loopMap, /*suffix=*/"", /*serial=*/true,
            /*unnamed=*/"ax");
  // The binding values the used variables read (the others, such as a
  // reduction's loop, are not visible at the copy).
  SmallVector<Value> newValues;
  SmallVector<AffineExpr> valueDims;
  for (unsigned k = 0; k < values.size(); ++k) {
    valueDims.push_back(getAffineDimExpr(newValues.size(), ctx));
    if (usedValues.test(k))
      newValues.push_back(loopMap.lookupOrDefault(values[k]));
  }
  SmallVector<IterVarSpec> vars;
  SmallVector<std::string> names;
  for (unsigned i : plan.used)
    names.push_back(iterVarName(block, i));
  for (auto [d, i] : llvm::enumerate(plan.used))
    vars.push_back({IterType::Spatial, block.getMixedDomainLower(i),
                    block.getMixedDomainUpper(i),
                    bindings[i].replaceDims(valueDims), names[d]});
  // Over the stage's variables: dimension i of the block is the stage's
  // position of i (unused ones do not appear).
  SmallVector<AffineExpr> toStage;
  for (unsigned i = 0; i < block.getNumIterVars(); ++i) {
    auto it = llvm::find(plan.used, i);
    toStage.push_back(it == plan.used.end()
                          ? getAffineConstantExpr(0, ctx)
                          : getAffineDimExpr(it - plan.used.begin(), ctx));
  }
  unsigned n = plan.used.size();
  // The copy runs where the block's variables lie in their domains (a
  // split's overshoot is cut off, as the block's predicate cuts it).
  SmallVector<std::optional<Interval>> ranges = getValueRanges(newValues);
  Conjunction inDomain;
  for (auto [d, i] : llvm::enumerate(plan.used)) {
    AffineExpr b = vars[d].binding;
    std::optional<Interval> range = evaluateRange(b, ranges);
    std::optional<int64_t> lo = block.getConstantDomainLower(i);
    std::optional<int64_t> hi = block.getConstantDomainUpper(i);
    if (!range || range->lo < *lo) {
      inDomain.constraints.push_back(b - *lo);
      inDomain.eqFlags.push_back(false);
    }
    if (!range || range->hi > *hi - 1) {
      inDomain.constraints.push_back(*hi - 1 - b);
      inDomain.eqFlags.push_back(false);
    }
  }
  // A read copy spans every point, where the block may read the buffer
  // only under a condition (padding): guard it to the buffer.
  SmallVector<AffineExpr> oldAt, newAt;
  for (AffineExpr e : plan.oldIndices)
    oldAt.push_back(e.replaceDims(toStage));
  for (AffineExpr e : indexMap.getResults())
    newAt.push_back(e.replaceDims(toStage));
  if (isRead) {
    SmallVector<AffineExpr> stageBindings;
    for (const IterVarSpec &v : vars)
      stageBindings.push_back(v.binding);
    SmallVector<AffineExpr> atValues;
    for (AffineExpr e : oldAt)
      atValues.push_back(
          simplifyIndexExpr(e.replaceDims(stageBindings), newValues.size(), 0));
    auto shape = cast<MemRefType>(plan.buffer.getType()).getShape();
    for (Conjunction &c : getInBufferGuard(atValues, newValues, shape)) {
      llvm::append_range(inDomain.constraints, c.constraints);
      llvm::append_range(inDomain.eqFlags, c.eqFlags);
    }
  }
  SmallVector<Conjunction> predicate;
  if (!inDomain.constraints.empty())
    predicate.push_back(inDomain);
  auto stage = BlockOp::create(
      rewriter, loc, name, vars, newValues,
      [&](OpBuilder &b, Location l, ValueRange v) {
        AffineMap oldMap = makeInputMap(n, oldAt, ctx);
        AffineMap newMap = makeInputMap(n, newAt, ctx);
        if (isRead) {
          Value x = LoadOp::create(b, l, plan.buffer, oldMap, v);
          StoreOp::create(b, l, x, cache, newMap, v);
        } else {
          Value x = LoadOp::create(b, l, cache, newMap, v);
          StoreOp::create(b, l, x, plan.buffer, oldMap, v);
        }
      },
      predicate);
  setInferredRegions(stage);
  return stage;
}

/// The cache, its copy stage (returned) and the block pointed at the
/// cache: what both primitives do once planned.
static BlockOp applyPlan(RewriterBase &rewriter, BlockOp block,
                         const ReindexCachePlan &plan, AffineMap indexMap,
                         StringRef storageScope, bool isRead) {
  std::string name =
      getCachedBufferName(plan.buffer) + "_" + storageScope.str();
  Value cache = createCacheBuffer(rewriter, plan.root, plan.buffer,
                                  plan.cacheShape, storageScope, name);
  BlockOp stage =
      createStage(rewriter, block, plan, indexMap, cache, isRead, name);
  retargetToPoint(rewriter, block, plan.buffer, cache, indexMap.getResults());
  updateEnclosingRegions(rewriter, {block}, plan.root, plan.buffer);
  return stage;
}

FailureOr<BlockOp>
mlir::tir::reindexCacheRead(RewriterBase &rewriter, BlockOp block,
                            int64_t bufferIndex, StringRef storageScope,
                            AffineMap indexMap, ScheduleError &error) {
  static constexpr StringLiteral kPrimitive = "reindex_cache_read";
  FailureOr<ReindexCachePlan> plan = planReindexCache(
      block, bufferIndex, storageScope, indexMap, /*isRead=*/true, kPrimitive,
      [&](ReindexCachePlan &p) -> FailureOr<CachePlace> {
        // cache_read's place, with the block as the only consumer.
        SmallVector<BlockOp> scopeBlocks = getScopeBlocks(p.root);
        BlockDependences deps(scopeBlocks);
        SmallVector<BlockOp> writers(deps.getWriters(p.buffer));
        if (writers.size() > 1)
          return refuse(error, writers[1],
                        Twine(kPrimitive) +
                            " needs at most one block writing buffer '" +
                            getCachedBufferName(p.buffer) + "' in the scope");
        if (writers.empty())
          return startOfScope(p.root);
        llvm::SetVector<Operation *> related;
        related.insert(block);
        return findCachePlace(p.root, scopeBlocks, writers.front(), related);
      },
      error);
  if (failed(plan))
    return failure();
  return applyPlan(rewriter, block, *plan, indexMap, storageScope,
                   /*isRead=*/true);
}

FailureOr<BlockOp>
mlir::tir::reindexCacheWrite(RewriterBase &rewriter, BlockOp block,
                             int64_t bufferIndex, StringRef storageScope,
                             AffineMap indexMap, ScheduleError &error) {
  static constexpr StringLiteral kPrimitive = "reindex_cache_write";
  // A write through an empty nest writes nothing the copy back could take.
  if (failed(checkNoEmptyNestAround(block, kPrimitive, error)))
    return failure();
  FailureOr<ReindexCachePlan> plan = planReindexCache(
      block, bufferIndex, storageScope, indexMap, /*isRead=*/false, kPrimitive,
      [&](ReindexCachePlan &p) -> FailureOr<CachePlace> {
        SmallVector<BlockOp> scopeBlocks = getScopeBlocks(p.root);
        BlockDependences deps(scopeBlocks);
        SmallVector<BlockOp> writers(deps.getWriters(p.buffer));
        if (writers.size() > 1)
          return refuse(error, block,
                        Twine(kPrimitive) + " needs block '" +
                            block.getBlockName() +
                            "' to be the only block writing buffer '" +
                            getCachedBufferName(p.buffer) + "' in the scope");
        // The copy out covers every point of the iteration space, and the
        // cache starts empty (as for reindex and cache_write).
        if (llvm::is_contained(deps.getReads(block), p.buffer) &&
            !block.getInitOp())
          return refuse(error, block,
                        Twine(kPrimitive) + ": block '" + block.getBlockName() +
                            "' reads buffer '" + getCachedBufferName(p.buffer) +
                            "' before writing it and has no tir.init; the "
                            "cache would start uninitialized");
        if (!isPredicateImpliedByDomains(block))
          return refuse(error, block,
                        Twine(kPrimitive) + ": block '" + block.getBlockName() +
                            "' has a predicate that skips points of its "
                            "iteration domain; the copy out would store "
                            "what it never wrote");
        llvm::SetVector<Operation *> related;
        for (BlockOp b : deps.getConsumers(block))
          related.insert(b);
        return findCachePlace(p.root, scopeBlocks, block, related);
      },
      error);
  if (failed(plan))
    return failure();
  return applyPlan(rewriter, block, *plan, indexMap, storageScope,
                   /*isRead=*/false);
}
