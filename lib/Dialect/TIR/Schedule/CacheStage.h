//===- CacheStage.h - what cache_read and cache_write share -----*- C++ -*-===//
//
// TVM's cache primitives add a stage that copies a buffer into a new one
// (cache_read) or back out of it (cache_write). Both find the place of the
// copy the same way, size it from the region the producer writes there,
// build the copy's loops and block, and point accesses at the cache.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_CACHESTAGE_H
#define TENSORIR_LIB_SCHEDULE_CACHESTAGE_H

#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/ScheduleError.h"

#include "llvm/ADT/SetVector.h"

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace mlir::tir::sched {

/// Where a copy stage goes: before `before` in `body`, the statement list
/// of `owner` (a tir.for, or the scope: a tir.block or the function).
struct CachePlace {
  Block *body;
  Block::iterator before;
  Operation *owner;
  /// TVM's full-region mode: a copy inside a loop keeps the buffer's
  /// shape; one directly in the scope gets the region's (compact).
  bool insideLoop() const { return isa<ForOp>(owner); }
};

/// The statement list of a scope (a tir.block's body, a function's entry).
Block *getScopeBody(Operation *scope);

/// Where TVM inserts at index 0 of the scope (after its allocations and
/// matched buffers), and where it appends.
CachePlace startOfScope(Operation *scope);
CachePlace endOfScope(Operation *scope);

/// TVM's CacheLocDetector: with no `related` block, the end of the scope;
/// when the first related block (in program order among `scopeBlocks`)
/// comes before `writer`, the start of the scope; otherwise just before
/// the statement holding that block in the innermost statement list that
/// holds both it and `writer`.
CachePlace findCachePlace(Operation *scope, ArrayRef<BlockOp> scopeBlocks,
                          BlockOp writer,
                          const llvm::SetVector<Operation *> &related);

/// getBufferName, or "buffer" for one without a name (in messages and the
/// cache's name).
std::string getCachedBufferName(Value buffer);

/// The blocks `given` and the blocks directly under each of them (TVM adds
/// a consumer's child blocks).
llvm::SetVector<Operation *> withChildBlocks(ArrayRef<BlockOp> given);

/// Allocates the cache of `buffer` in `scope` after its last allocation:
/// `shape` (the buffer's, or the region's), the buffer's element type,
/// memory space `storageScope` ("global": none), named `name`. Its runtime
/// dimensions take the extents of `region` (over its inputs, computed
/// before the allocation).
Value createCacheBuffer(RewriterBase &rewriter, Operation *scope, Value buffer,
                        ArrayRef<int64_t> shape, StringRef storageScope,
                        StringRef name, const LoopRegion *region = nullptr);

/// Allocates a buffer of `type` named `name` in `scope`, after its last
/// allocation; `dynamicSizes` (values defined before the scope) give its
/// runtime dimensions.
Value createBuffer(RewriterBase &rewriter, Operation *scope, MemRefType type,
                   Location loc, StringRef name, ValueRange dynamicSizes = {});

/// Allocates a buffer of `shape` with `buffer`'s element type in memory
/// space `memorySpace` (null: global) in `scope`, after its last
/// allocation, named `name`; `dynamicSizes` give its runtime dimensions.
Value createBufferLike(RewriterBase &rewriter, Operation *scope, Value buffer,
                       ArrayRef<int64_t> shape, Attribute memorySpace,
                       StringRef name, ValueRange dynamicSizes = {});

/// The predicate (none, or one conjunction) that keeps indices `at` (over
/// `values`) inside a buffer of `shape` where their ranges may leave it.
SmallVector<Conjunction> getInBufferGuard(ArrayRef<AffineExpr> at,
                                          ValueRange values,
                                          ArrayRef<int64_t> shape);

/// The copy stage at `place`: loops `ax0..` over the region's extents and a
/// block `name` with spatial variables `v0..` that stores `to[...]` =
/// `from[...]`. `original` (the buffer cached, `from` or `to`) is indexed
/// at `lower + v` in compact mode, at `v` in full mode (where the binding
/// is `lower + ax`); the cache at `v`.
BlockOp createCacheStage(RewriterBase &rewriter, const CachePlace &place,
                         StringRef name, Value from, Value to, Value original,
                         const LoopRegion &region);

/// Refuses, for `primitive`, where one of `blocks` views `buffer` through
/// a match_buffer in a storage scope other than `storageScope`, the scope
/// of the cache retargetAccesses would point it at.
LogicalResult checkViewScopes(ArrayRef<BlockOp> blocks, Value buffer,
                              StringRef storageScope, StringRef primitive,
                              ScheduleError &error);

/// Points `block`'s own accesses of `buffer` (loads, stores, matched
/// buffers and its read / write regions; not those of blocks inside it) at
/// `cache`; with `shift` (compact mode) their indices lose the region's
/// lower bounds.
void retargetAccesses(RewriterBase &rewriter, BlockOp block, Value buffer,
                      Value cache, const LoopRegion &region, bool shift);

/// After `retargeted` (blocks of `scope`'s tree) were pointed from `buffer`
/// at a cache, the blocks around them inside the scope that list regions
/// list what they now access (InlineUtils' updateListedRegions), innermost
/// first; a stale listing would hide the cache's uses from later
/// primitives.
void updateEnclosingRegions(RewriterBase &rewriter,
                            ArrayRef<BlockOp> retargeted, Operation *scope,
                            Value buffer);

/// Points `block`'s own loads and stores of `buffer` (not those of blocks
/// inside it) at `cache[at]`, `at` one index per dimension of `cache` over
/// the block's iteration variables, and its listed regions of `buffer` at
/// that point of `cache` (reindex and the reindex caches).
void retargetToPoint(RewriterBase &rewriter, BlockOp block, Value buffer,
                     Value cache, ArrayRef<AffineExpr> at);

/// The buffer a cache primitive names: checks the storage scope, then
/// that `bufferIndex` is a position among the block's reads (`reads`) or
/// writes.
FailureOr<Value> getCachedBuffer(BlockOp block, int64_t bufferIndex,
                                 StringRef storageScope, bool reads,
                                 StringRef primitive, ScheduleError &error);

/// The cache's shape at `place`: the buffer's inside a loop (full mode),
/// the region's extents directly in the scope (compact; the region is first
/// cut to the buffer's bounds, as TVM's cache region is: a predicated tile
/// that runs past the end covers no more than the buffer), dynamic where an
/// extent is a runtime amount of values outside the loops (`n * 32`).
/// Refuses a buffer of runtime dimensions in full mode, and in compact mode
/// a region whose extents or lower bounds use loop variables (an index in a
/// block body may not).
FailureOr<SmallVector<int64_t>>
getCacheShape(const CachePlace &place, LoopRegion &region, Value buffer,
              BlockOp culprit, StringRef primitive, ScheduleError &error);

/// Refuses a scope other than the function's (a cache allocated in a
/// block lives for one execution of it; not supported yet).
LogicalResult checkScopeAccesses(Operation *scope, Value buffer,
                                 BlockOp culprit, StringRef primitive,
                                 ScheduleError &error);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_CACHESTAGE_H
