//===- CacheRead.cpp - TVM's cache_read -----------------------------------===//
//
// A stage that copies the part of a buffer that a block reads into a new
// buffer of another storage scope, and the consumers reading the copy:
// the copy goes just before the first consumer of the producer (or, for a
// buffer nobody in the scope writes, at the start of the scope), covering
// what the producer writes there (or, for an input, the whole buffer or
// what the scope block reads of it). CacheStage.cpp does the shared work.
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

static constexpr StringLiteral kCacheRead = "cache_read";

/// Whether `block` writes `buffer`.
static bool writesBuffer(BlockOp block, Value buffer) {
  SmallVector<Value> reads, writes;
  getAccessedBuffers(block, reads, writes);
  return llvm::is_contained(writes, buffer);
}

/// The region of an input buffer to copy: what the scope block lists for
/// it, else the whole buffer (its runtime sizes read at the function's
/// entry).
static FailureOr<LoopRegion> inputRegion(RewriterBase &rewriter,
                                         Operation *scope, Value buffer,
                                         BlockOp block, ScheduleError &error) {
  MLIRContext *ctx = block.getContext();
  LoopRegion region;
  if (auto scopeBlock = dyn_cast<BlockOp>(scope);
      scopeBlock && scopeBlock.hasAccessRegions()) {
    Refusal ignored;
    FailureOr<BlockAccessRegions> regions =
        getAccessRegions(scopeBlock, ignored);
    if (succeeded(regions))
      for (auto &[b, r] : regions->reads)
        if (b == buffer) {
          region.lowers = r.starts;
          region.extents = r.extents;
          region.inputs = regions->inputs;
          return region;
        }
  }
  for (auto [d, size] :
       llvm::enumerate(cast<MemRefType>(buffer.getType()).getShape())) {
    region.lowers.push_back(getAffineConstantExpr(0, ctx));
    if (!ShapedType::isDynamic(size)) {
      region.extents.push_back(getAffineConstantExpr(size, ctx));
      continue;
    }
    if (!isa<BlockArgument>(buffer) && !buffer.getDefiningOp<AllocBufferOp>())
      return refuse(error, block,
                    Twine(kCacheRead) + " of buffer '" +
                        getCachedBufferName(buffer) +
                        "' of a runtime shape needs it to be a parameter of "
                        "the function or allocated in it (the copy takes "
                        "its sizes)");
    Value sizeValue = getDynamicSizeValue(rewriter, buffer, d);
    region.extents.push_back(getAffineDimExpr(region.inputs.size(), ctx));
    region.inputs.push_back(sizeValue);
  }
  return region;
}

FailureOr<BlockOp> mlir::tir::cacheRead(RewriterBase &rewriter, BlockOp block,
                                        int64_t bufferIndex,
                                        StringRef storageScope,
                                        ArrayRef<BlockOp> consumerBlocks,
                                        ScheduleError &error) {
  FailureOr<Value> cached = getCachedBuffer(block, bufferIndex, storageScope,
                                            /*reads=*/true, kCacheRead, error);
  if (failed(cached))
    return mlir::failure();
  Value buffer = *cached;
  Operation *root = getScopeRoot(block);
  SmallVector<BlockOp> scopeBlocks = getScopeBlocks(root);
  BlockDependences deps(scopeBlocks);
  SmallVector<BlockOp> writers(deps.getWriters(buffer));
  if (writers.size() > 1)
    return refuse(error, writers[1],
                  Twine(kCacheRead) +
                      " needs at most one block writing "
                      "buffer '" +
                      getCachedBufferName(buffer) +
                      "' in the scope, but blocks '" +
                      writers[0].getBlockName() + "' and '" +
                      writers[1].getBlockName() + "' both write it");
  llvm::SetVector<Operation *> consumers = withChildBlocks(consumerBlocks);

  CachePlace place;
  LoopRegion region;
  if (writers.empty()) {
    place = startOfScope(root);
    FailureOr<LoopRegion> r = inputRegion(rewriter, root, buffer, block, error);
    if (failed(r))
      return failure();
    region = *r;
  } else {
    BlockOp writer = writers.front();
    // Given consumers that do not read the buffer do not place the copy.
    llvm::SetVector<Operation *> related;
    for (Operation *c : consumers) {
      // By the consumer's own lists (an opaque wrapper lists nothing).
      auto consumer = cast<BlockOp>(c);
      SmallVector<Value> r, w;
      if (consumer.hasAccessRegions())
        llvm::append_range(r, consumer.getReadBuffers());
      else
        getAccessedBuffers(consumer, r, w);
      if (!llvm::is_contained(r, buffer))
        continue;
      // A consumer nested in a block of the scope (the inner block of a
      // blockize) places the copy by that block.
      Operation *inScope = c;
      while (inScope && !llvm::is_contained(scopeBlocks, inScope))
        inScope = inScope->getParentOfType<BlockOp>();
      if (inScope)
        related.insert(inScope);
    }
    if (consumers.empty())
      for (BlockOp b : deps.getConsumers(writer))
        related.insert(b);
    place = findCachePlace(root, scopeBlocks, writer, related);
    // An opaque writer that does not list the buffer (TVM's wrappers, as
    // loop_partition's) writes it through the blocks inside: their regions.
    SmallVector<BlockOp> writerBlocks{writer};
    if (writer.getNumIterVars() == 0 && writer.hasAccessRegions() &&
        !llvm::is_contained(writer.getWriteBuffers(), buffer)) {
      writerBlocks.clear();
      writer.getBody()->walk([&](BlockOp inner) {
        if (inner.hasAccessRegions() &&
            llvm::is_contained(inner.getWriteBuffers(), buffer))
          writerBlocks.push_back(inner);
      });
    }
    Refusal failure;
    FailureOr<LoopRegion> r = relaxRegionUnder(
        place.owner, buffer, /*writes=*/true, writerBlocks, failure);
    if (failed(r))
      return refuse(error, failure.culprit,
                    Twine(kCacheRead) + " " + failure.message);
    region = *r;
  }
  bool full = place.insideLoop();
  FailureOr<SmallVector<int64_t>> shape =
      getCacheShape(place, region, buffer, block, kCacheRead, error);
  if (failed(shape))
    return mlir::failure();

  // The blocks to point at the cache: every block of the scope's tree that
  // accesses the buffer and neither writes it nor sits in a block that
  // does; with consumer blocks given, only those (and their children).
  SmallVector<BlockOp> readers;
  root->walk<WalkOrder::PreOrder>([&](BlockOp b) {
    if (b.getOperation() == root)
      return WalkResult::advance();
    if (writesBuffer(b, buffer))
      return WalkResult::skip();
    if (!consumers.empty() && !consumers.contains(b))
      return WalkResult::advance();
    readers.push_back(b);
    return WalkResult::advance();
  });

  if (failed(checkViewScopes(readers, buffer, storageScope, kCacheRead, error)))
    return mlir::failure();

  std::string name = getCachedBufferName(buffer) + "_" + storageScope.str();
  Value cache = createCacheBuffer(rewriter, root, buffer, *shape, storageScope,
                                  name, &region);
  BlockOp stage =
      createCacheStage(rewriter, place, name, buffer, cache, buffer, region);
  for (BlockOp b : readers)
    retargetAccesses(rewriter, b, buffer, cache, region, /*shift=*/!full);
  updateEnclosingRegions(rewriter, readers, root, buffer);
  return stage;
}
