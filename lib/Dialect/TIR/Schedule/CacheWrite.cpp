//===- CacheWrite.cpp - TVM's cache_write ---------------------------------===//
//
// The block writes a new buffer of another storage scope instead of its
// output, and a stage copies the part it writes back: just before the
// first consumer of the output (or at the end of the scope when every
// consumer reads the cache, or there is none). Consumers given in
// `consumer_blocks` read the cache directly. CacheStage.cpp does the
// shared work.
//
//===----------------------------------------------------------------------===//

#include "CacheStage.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kCacheWrite = "cache_write";

/// Whether every read of `buffer` under `block` (a block holding blocks)
/// comes after blocks under it that write a dense box covering it, within
/// one execution of `block`: then the cache holds what is read.
static bool readsOnlyWhatItWrote(BlockOp block, Value buffer) {
  SmallVector<BlockOp> children = getScopeBlocks(block);
  if (children.empty())
    return false;
  BlockDependences inner(children);
  SmallVector<BlockOp> writers;
  for (BlockOp child : children) {
    if (llvm::is_contained(inner.getReads(child), buffer)) {
      if (writers.empty())
        return false;
      Refusal ignored;
      FailureOr<LoopRegion> w =
          relaxRegionUnder(block, buffer, /*writes=*/true, writers, ignored);
      FailureOr<LoopRegion> r =
          relaxRegionUnder(block, buffer, /*writes=*/false, {child}, ignored);
      if (failed(w) || failed(r) || !w->exact)
        return false;
      // Both over the block's own values: compare on a common input list.
      ExprInputs inputs{block.getContext(), w->inputs};
      SmallVector<AffineExpr> at;
      for (Value v : r->inputs)
        at.push_back(inputs.dimOf(v));
      for (unsigned d = 0; d < w->lowers.size(); ++d) {
        AffineExpr rl = r->lowers[d].replaceDims(at);
        AffineExpr rh = rl + r->extents[d].replaceDims(at);
        std::optional<int64_t> below =
            getConstantDifference(rl, w->lowers[d], inputs.values.size());
        std::optional<int64_t> above = getConstantDifference(
            w->lowers[d] + w->extents[d], rh, inputs.values.size());
        if (!below || !above || *below < 0 || *above < 0)
          return false;
      }
    }
    if (llvm::is_contained(inner.getWrites(child), buffer))
      writers.push_back(child);
  }
  return true;
}

FailureOr<BlockOp> mlir::tir::cacheWrite(RewriterBase &rewriter, BlockOp block,
                                         int64_t bufferIndex,
                                         StringRef storageScope,
                                         ArrayRef<BlockOp> consumerBlocks,
                                         ScheduleError &error) {
  FailureOr<Value> cached =
      getCachedBuffer(block, bufferIndex, storageScope,
                      /*reads=*/false, kCacheWrite, error);
  if (failed(cached))
    return mlir::failure();
  Value buffer = *cached;
  Operation *root = getScopeRoot(block);
  SmallVector<BlockOp> scopeBlocks = getScopeBlocks(root);
  BlockDependences deps(scopeBlocks);
  SmallVector<BlockOp> writers(deps.getWriters(buffer));
  if (writers.size() > 1) {
    BlockOp other = writers[0] == block ? writers[1] : writers[0];
    return refuse(error, block,
                  Twine(kCacheWrite) + " needs block '" + block.getBlockName() +
                      "' to be the only block writing buffer '" +
                      getCachedBufferName(buffer) +
                      "' in the scope, but block '" + other.getBlockName() +
                      "' writes it too");
  }
  // The cache starts empty: a block that reads the buffer must write what
  // it reads first (a reduction with its own init), or it would read the
  // cache where it read values written before it.
  if (llvm::is_contained(deps.getReads(block), buffer) && !block.getInitOp() &&
      !readsOnlyWhatItWrote(block, buffer))
    return refuse(error, block,
                  Twine(kCacheWrite) + " needs block '" + block.getBlockName() +
                      "' to not read buffer '" + getCachedBufferName(buffer) +
                      "' before writing it (only a reduction with its own "
                      "init may read what it writes), since the cache does "
                      "not hold the buffer's earlier values");
  // A consumer given must read the buffer by its own lists: an opaque
  // block wrapping others (loop_partition's, listing nothing) is not one.
  for (BlockOp c : consumerBlocks)
    if (c.hasAccessRegions() && !llvm::is_contained(c.getReadBuffers(), buffer))
      return refuse(error, c,
                    Twine(kCacheWrite) + " needs consumer block '" +
                        c.getBlockName() + "' to list buffer '" +
                        getCachedBufferName(buffer) +
                        "' among its reads (give the blocks inside it)");
  llvm::SetVector<Operation *> consumers = withChildBlocks(consumerBlocks);
  llvm::SetVector<Operation *> related;
  for (BlockOp b : deps.getConsumers(block))
    if (!consumers.contains(b))
      related.insert(b);
  CachePlace place = findCachePlace(root, scopeBlocks, block, related);
  Refusal failure;
  FailureOr<LoopRegion> region =
      relaxRegionUnder(place.owner, buffer, /*writes=*/true, {block}, failure);
  if (failed(region))
    return refuse(error, failure.culprit,
                  Twine(kCacheWrite) + " " + failure.message);
  // The copy writes back every element of the region: one the block does
  // not write (a predicate or a stride leaves holes) would be overwritten
  // with what the cache holds there. TVM copies the box anyway.
  if (listsMoreThanItWrites(block, buffer))
    return refuse(error, block,
                  Twine(kCacheWrite) + " needs block '" + block.getBlockName() +
                      "' to list the region of buffer '" +
                      getCachedBufferName(buffer) +
                      "' its body writes, but it lists a wider one (as "
                      "loop_partition leaves them): the copy back of the "
                      "listed region would overwrite elements the block "
                      "never wrote");
  if (!region->exact)
    return refuse(error, block,
                  Twine(kCacheWrite) + " needs block '" + block.getBlockName() +
                      "' to write a dense box of buffer '" +
                      getCachedBufferName(buffer) +
                      "' where the copy goes, but its predicate or strides "
                      "leave elements of the box unwritten, which the copy "
                      "back would overwrite");
  bool full = place.insideLoop();
  FailureOr<SmallVector<int64_t>> shape =
      getCacheShape(place, *region, buffer, block, kCacheWrite, error);
  if (failed(shape))
    return mlir::failure();

  // The block and the blocks inside it write (and read back) the cache;
  // the consumers given read it.
  SmallVector<BlockOp> retarget;
  block->walk([&](BlockOp b) { retarget.push_back(b); });
  root->walk([&](BlockOp b) {
    if (consumers.contains(b) && !block->isAncestor(b))
      retarget.push_back(b);
  });

  if (failed(
          checkViewScopes(retarget, buffer, storageScope, kCacheWrite, error)))
    return mlir::failure();

  std::string name = getCachedBufferName(buffer) + "_" + storageScope.str();
  Value cache = createCacheBuffer(rewriter, root, buffer, *shape, storageScope,
                                  name, &*region);
  BlockOp stage =
      createCacheStage(rewriter, place, name, cache, buffer, buffer, *region);
  for (BlockOp b : retarget)
    retargetAccesses(rewriter, b, buffer, cache, *region, /*shift=*/!full);
  updateEnclosingRegions(rewriter, retarget, root, buffer);
  return stage;
}
