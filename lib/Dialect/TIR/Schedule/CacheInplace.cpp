//===- CacheInplace.cpp - TVM's cache_inplace -----------------------------===//
//
// A block that updates a buffer in place (reads and writes it, an external
// call on its data, say) works on a cache instead: a copy in right before
// the block, the block on the cache, a copy back right after it. The
// copies are cache_read's and cache_write's stages, placed around the block
// in the statement list that holds it.
//
//===----------------------------------------------------------------------===//

#include "CacheStage.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kCacheInplace = "cache_inplace";

FailureOr<SmallVector<BlockOp>> mlir::tir::cacheInplace(RewriterBase &rewriter,
                                                        BlockOp block,
                                                        int64_t bufferIndex,
                                                        StringRef storageScope,
                                                        ScheduleError &error) {
  FailureOr<Value> cached =
      getCachedBuffer(block, bufferIndex, storageScope,
                      /*reads=*/true, kCacheInplace, error);
  if (failed(cached))
    return mlir::failure();
  Value buffer = *cached;
  SmallVector<Value> reads, writes;
  getAccessedBuffers(block, reads, writes);
  if (!llvm::is_contained(writes, buffer))
    return refuse(error, block,
                  Twine(kCacheInplace) + " needs block '" +
                      block.getBlockName() + "' to write buffer '" +
                      getCachedBufferName(buffer) +
                      "' as well as read it (an in-place update)");

  // Only the block's own accesses move to the cache; a block inside it
  // that accesses the buffer would keep the original, which the copy back
  // then overwrites.
  BlockOp nested;
  block.getBody()->walk([&](BlockOp inner) {
    SmallVector<Value> innerReads, innerWrites;
    getAccessedBuffers(inner, innerReads, innerWrites);
    if (!nested && (llvm::is_contained(innerReads, buffer) ||
                    llvm::is_contained(innerWrites, buffer)))
      nested = inner;
  });
  if (nested)
    return refuse(error, nested,
                  Twine(kCacheInplace) + " needs block '" +
                      block.getBlockName() + "' to access buffer '" +
                      getCachedBufferName(buffer) + "' itself, but block '" +
                      nested.getBlockName() +
                      "' inside it does (blockize's outer block: apply "
                      "cache_inplace to the inner block)");

  // The copies go right before and after the block, over what it accesses
  // of the buffer there (the cover of its reads and writes).
  Operation *root = getScopeRoot(block);
  Operation *owner = block->getParentOp();
  CachePlace before{block->getBlock(), Block::iterator(block), owner};
  Refusal failure;
  FailureOr<LoopRegion> read =
      relaxRegionUnder(owner, buffer, /*writes=*/false, {block}, failure);
  FailureOr<LoopRegion> written =
      succeeded(read)
          ? relaxRegionUnder(owner, buffer, /*writes=*/true, {block}, failure)
          : FailureOr<LoopRegion>(mlir::failure());
  if (failed(read) || failed(written))
    return refuse(error, failure.culprit,
                  Twine(kCacheInplace) + " " + failure.message);
  if (read->lowers != written->lowers || read->extents != written->extents ||
      read->inputs != written->inputs)
    return refuse(error, block,
                  Twine(kCacheInplace) + " needs block '" +
                      block.getBlockName() +
                      "' to read and write the same "
                      "region of buffer '" +
                      getCachedBufferName(buffer) + "'");
  if (!written->exact || listsMoreThanItWrites(block, buffer))
    return refuse(
        error, block,
        Twine(kCacheInplace) + " needs block '" + block.getBlockName() +
            "' to write a dense box of buffer '" + getCachedBufferName(buffer) +
            "' (every element of the region it lists), which "
            "the copy back writes whole");
  LoopRegion region = *written;
  FailureOr<SmallVector<int64_t>> shape =
      getCacheShape(before, region, buffer, block, kCacheInplace, error);
  if (failed(shape))
    return mlir::failure();

  if (failed(
          checkViewScopes({block}, buffer, storageScope, kCacheInplace, error)))
    return mlir::failure();

  std::string name = getCachedBufferName(buffer) + "_" + storageScope.str();
  Value cache = createCacheBuffer(rewriter, root, buffer, *shape, storageScope,
                                  name, &region);
  BlockOp copyIn =
      createCacheStage(rewriter, before, name, buffer, cache, buffer, region);
  CachePlace after{block->getBlock(), std::next(Block::iterator(block)), owner};
  BlockOp copyOut =
      createCacheStage(rewriter, after, name, cache, buffer, buffer, region);
  retargetAccesses(rewriter, block, buffer, cache, region,
                   /*shift=*/!before.insideLoop());
  updateEnclosingRegions(rewriter, {block}, root, buffer);
  return SmallVector<BlockOp>{copyIn, copyOut};
}
