//===- Primitives.h - TVM's loop schedule primitives on tir -----*- C++ -*-===//
//
// TVM's Schedule primitives as C++ functions over tir IR, with TVM's legality
// rules. Shared by the transform.tir ops, passes and the Python Schedule.
//
// Every primitive checks all of its rules before it changes anything: when
// it refuses, it returns failure with `error` set (the rule, and the loop or
// block at fault) and the IR is as it was. Block ops are never replaced, so
// anything that refers to a block stays valid; loops that a primitive
// replaces are erased, and the new loops are returned.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_SCHEDULE_PRIMITIVES_H
#define TENSORIR_DIALECT_TIR_SCHEDULE_PRIMITIVES_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/ScheduleError.h"
#include "TensorIR/Dialect/TIR/Schedule/TensorIntrin.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::tir {

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

/// TVM's get_block: the one block named `name` in `scopes` (one function
/// or module; with `funcName`, the function of that name in it). Refuses
/// when there is none, or when the name is ambiguous (naming each
/// candidate's function and location). "root", when no block has that
/// name, is TVM's root block: the function (which must then be known).
FailureOr<Operation *> getBlockIn(ArrayRef<Operation *> scopes, StringRef name,
                                  std::optional<StringRef> funcName,
                                  ScheduleError &error);

/// The blocks directly under `parent` (a tir.block, a tir.for or a function):
/// nested in loops, but not inside another block (TVM's get_child_blocks).
SmallVector<BlockOp> getChildBlocks(Operation *parent);

/// The blocks of `block`'s scope that come before it and write a buffer it
/// reads (TVM's get_producers).
SmallVector<BlockOp> getProducers(BlockOp block);

/// The blocks of `block`'s scope that come after it and read a buffer it
/// writes (TVM's get_consumers).
SmallVector<BlockOp> getConsumers(BlockOp block);

/// A place TVM's sample_compute_location may pick for a block: `index` -2
/// (inlined), -1 (at the root) or k, the k-th loop above the block's first
/// consumer (`loop`).
struct ComputeLocation {
  int64_t index;
  ForOp loop;
};

/// TVM's CollectComputeLocation: the places a block may be computed, in
/// TVM's order (ComputeLocation.cpp): -2 when compute_inline would apply,
/// -1, then the loops above its first consumer, down to the lowest loop
/// holding every consumer, where compute_at would apply, without unit
/// loops, spatial loops after one that is not, and trailing loops that are
/// not spatial.
SmallVector<ComputeLocation> collectComputeLocations(BlockOp block);

//===----------------------------------------------------------------------===//
// Loop transformations
//===----------------------------------------------------------------------===//

/// One factor of a split: a positive constant, a scalable expression (an
/// affine expression of symbol 0, which stands for `vector.vscale`, e.g.
/// `s0 * 4`), or inferred (TVM's None).
struct SplitFactor {
  std::optional<int64_t> constant;
  AffineExpr scalable;

  static SplitFactor inferred() { return {}; }
  static SplitFactor of(int64_t c) { return {c, AffineExpr()}; }
  static SplitFactor ofScalable(AffineExpr e) { return {std::nullopt, e}; }
  bool isInferred() const { return !constant && !scalable; }
};

struct SplitOptions {
  /// With false, a new loop of extent 1 does not appear in the bindings.
  bool preserveUnitIters = true;
  /// TVM's disable_predication: no `fused < extent` predicate, the caller
  /// asserts the factors divide the extent.
  bool disablePredication = false;
  /// The values vscale may take on the target (empty: not a scalable-vector
  /// target); a product of scalable factors is proven to cover the extent
  /// by trying each.
  SmallVector<int64_t> vscaleValues;
};

/// Splits `loop` (starting at 0; its extent a constant or a runtime value)
/// into nested loops with the given extents, outermost first. At most one
/// factor may be inferred: the ceiling of the extent over the others (a
/// runtime value when the extent or a factor is one). Without an inferred
/// factor the product must be proven to cover the extent. Unless the
/// product is known to equal the extent (or `disablePredication`), every
/// block directly under the loop gets the predicate `fused < extent`. Uses
/// of the loop variable outside block bindings get the fused expression.
FailureOr<SmallVector<ForOp>> split(RewriterBase &rewriter, ForOp loop,
                                    ArrayRef<SplitFactor> factors,
                                    const SplitOptions &options,
                                    ScheduleError &error);

/// Fuses perfectly nested loops (outermost first; constant or runtime
/// extents that do not depend on the fused loops) into one loop; each old
/// variable becomes `(fused mod (e_i * inner)) floordiv inner` (a loop of
/// extent 1 becomes 0, as in TVM, so TVM's preserve_unit_iters changes
/// nothing here). Uses outside block bindings get that expression too.
FailureOr<ForOp> fuse(RewriterBase &rewriter, ArrayRef<ForOp> loops,
                      ScheduleError &error);

/// TVM's merge: loops of several nests (the same depth below the nests'
/// common ancestor, the same extents level by level, each nest a chain of
/// only children starting at 0, no annotations or thread bindings) become
/// one nest `<name>_m`, where the last nest was, whose innermost body runs
/// the given loops' bodies in the given order. Also refuses (TVM does not)
/// nests, and statements between them, that share a buffer one of them
/// writes: their iterations would interleave. Returns the innermost merged
/// loop.
FailureOr<ForOp> merge(RewriterBase &rewriter, ArrayRef<ForOp> loops,
                       ScheduleError &error);

/// Reorders loops of one single-branch chain into the given order (the
/// outermost position gets loops[0]). Returns the loops in the given order.
FailureOr<SmallVector<ForOp>>
reorder(RewriterBase &rewriter, ArrayRef<ForOp> loops, ScheduleError &error);

/// TVM's reorder_block_iter_var: `block`'s iteration variables in the
/// order `newOrder` gives (the k-th is old variable newOrder[k]; a
/// permutation of all of them), with their domains, kinds and bindings;
/// the computation is unchanged.
LogicalResult reorderBlockIterVar(RewriterBase &rewriter, BlockOp block,
                                  ArrayRef<int64_t> newOrder,
                                  ScheduleError &error);

/// Wraps `target` (a tir.block or tir.for) in a new loop of extent 1.
FailureOr<ForOp> addUnitLoop(RewriterBase &rewriter, Operation *target,
                             ScheduleError &error);

//===----------------------------------------------------------------------===//
// Block placement
//===----------------------------------------------------------------------===//

/// TVM's compute_at: moves `block` (a complete or reduction block that is
/// not an output block) under `loop`, which must hold all its consumers
/// and none of its producers, and regenerates its loops (`ax0`, `ax1`, ...,
/// one per iteration variable; with `preserveUnitLoops` false none of
/// extent 1) so that one iteration of `loop` computes the region of its
/// output that the consumers read there. Where that region may leave the
/// block's bounds, the block gets a predicate. `index` is TVM's: -1 puts
/// it before the first consumer under the loop, -2 after the last
/// producer, n before the n-th statement of the loop body. Loops the block
/// leaves empty are erased. Returns the block.
FailureOr<BlockOp> computeAt(RewriterBase &rewriter, BlockOp block, ForOp loop,
                             bool preserveUnitLoops, int64_t index,
                             ScheduleError &error);

/// TVM's CanComputeAt: whether computeAt(block, loop, preserveUnitLoops)
/// would apply (every rule checked, nothing changed).
bool canComputeAt(BlockOp block, ForOp loop, bool preserveUnitLoops);

/// TVM's reverse_compute_at: the same for a consumer, moved under a loop
/// that holds all its producers (and none of its consumers), computing the
/// part that reads what the producers write in one iteration.
FailureOr<BlockOp> reverseComputeAt(RewriterBase &rewriter, BlockOp block,
                                    ForOp loop, bool preserveUnitLoops,
                                    int64_t index, ScheduleError &error);

/// Whether reverseComputeAt(block, loop, preserveUnitLoops) would apply.
bool canReverseComputeAt(BlockOp block, ForOp loop, bool preserveUnitLoops);

//===----------------------------------------------------------------------===//
// Reduction
//===----------------------------------------------------------------------===//

/// TVM's decompose_reduction: splits the reduction `block` into an init
/// block (its tir.init over its spatial variables, named `<name>_init`)
/// placed right before `loop`, under copies of the loops between `loop` and
/// the block that feed a spatial variable (variables `<var>_init`; kind,
/// thread and annotations kept), and the update block: `block` itself,
/// renamed `<name>_update`, without its init, its writes added to its
/// reads. The init block keeps the predicate's constraints that do not
/// involve the loops it leaves out. `loop` must be above the block in its
/// scope, with no loop above `loop` feeding a reduce variable. Returns the
/// init block.
FailureOr<BlockOp> decomposeReduction(RewriterBase &rewriter, BlockOp block,
                                      ForOp loop, ScheduleError &error);

/// TVM's blockize of a loop: the subtree under `loop` (whose only block is
/// B) becomes an outer block `<B>_o` holding `loop`: B's bindings divided
/// into a part over the loops above `loop` (the outer block's variables,
/// `<var>_o`) and one over `loop` and below (B's variables, `<var>_i`, for
/// the parts that are not a single point). With `preserveUnitIters` false,
/// loops that run once count as their start. Returns the outer block; B's
/// handle holds the inner block.
FailureOr<BlockOp> blockize(RewriterBase &rewriter, ForOp loop,
                            bool preserveUnitIters, ScheduleError &error);
/// TVM's blockize of a list of blocks: the consecutive statements of their
/// lowest common ancestor that hold them (one block each) become an outer
/// block `outer_<B>_<C>_`, each block divided at that ancestor; the outer
/// parts of their variables must agree. Blocks with a tir.init are refused
/// (TVM drops their init).
FailureOr<BlockOp> blockize(RewriterBase &rewriter, ArrayRef<BlockOp> blocks,
                            bool preserveUnitIters, ScheduleError &error);

/// TVM's loop_partition: `loop` (constant bounds, no annotation or thread
/// binding) is cut into consecutive partitions of sizes `factors` (at most
/// one empty: inferred; without one, the rest is one more partition), each a
/// copy of the loop in an opaque block `<B>_<i><k>_partition`, all in an opaque
/// block `<B>_<i>_common` (LoopPartition.cpp). Returns the partition loops.
FailureOr<SmallVector<ForOp>>
loopPartition(RewriterBase &rewriter, ForOp loop,
              ArrayRef<std::optional<int64_t>> factors, ScheduleError &error);

/// TVM's tensorize: `target` (a block, or a loop blockized first) gets the
/// body of `intrin`'s implementation, its parameters matched
/// (tir.match_buffer) to the regions of the block's buffers that stand for
/// them, when the block computes what `intrin`'s description computes
/// (Tensorize.cpp, TensorizeMatch.h). Returns the tensorized block; a
/// refusal (a mismatch, named by `intrinName`) leaves the IR unchanged.
FailureOr<BlockOp> tensorize(RewriterBase &rewriter, Operation *target,
                             const TensorIntrin &intrin, StringRef intrinName,
                             bool preserveUnitIters, ScheduleError &error);

/// TVM's rfactor: factors the reduction block under `loop` (its only block)
/// by that loop. A new rfactor block `<name>_rf`, under copies of the
/// block's loops placed before them, reduces into new buffers `<buffer>_rf`
/// that have the loop's extent inserted at `factorAxis` (negative: counted
/// from the end, as TVM), one partial result per iteration of `loop`; the
/// block itself becomes the write-back block, which reduces the partial
/// results into its buffers under its loops less those that fed only
/// reduce variables (`loop` kept). The reducer is one of Reducer.h's.
/// Returns the rfactor block.
FailureOr<BlockOp> rfactor(RewriterBase &rewriter, ForOp loop,
                           int64_t factorAxis, ScheduleError &error);

/// TVM's compute_inline: removes `block` (a complete block, not an output
/// block, without tir.init, whose body is one store `B[f(v)] = g(v)` with f
/// a bijective affine map of its iteration variables) and computes `g`
/// wherever B is read in its scope, v given by the load's indices. The
/// block, the loops it leaves empty and B's allocation are erased; blocks
/// that list B in their regions list what they now read instead.
LogicalResult computeInline(RewriterBase &rewriter, BlockOp block,
                            ScheduleError &error);

/// TVM's CanComputeInline: whether computeInline(block) would apply.
bool canComputeInline(BlockOp block);

/// TVM's reverse_compute_inline: removes `block` (a complete consumer
/// `C[h(u)] = k(B[f(u)], u)`, without predicate or tir.init, reading one
/// buffer B written in its scope, at one affine index map f that its single
/// complete producer covers) and makes the producer store `k` to C
/// directly, u given by the producer's store indices. Where the producer
/// iterates beyond the consumer's domain it gets a predicate.
LogicalResult reverseComputeInline(RewriterBase &rewriter, BlockOp block,
                                   ScheduleError &error);

/// TVM's fuse_reduction_epilogue, for the form it keeps the program's
/// meaning in: removes `epilogue` (`D[h(u)] = B[f(u)] + bias`, complete,
/// reading B once) and makes `reduction` (the reduction writing B)
/// accumulate into D from its init value plus the bias. Refuses TVM's
/// cases, and clipping / rectifying epilogues (which do not commute with
/// the reduction), another reader of B, a block between the two that
/// accesses D or writes what the epilogue reads.
LogicalResult fuseReductionEpilogue(RewriterBase &rewriter, BlockOp reduction,
                                    BlockOp epilogue, ScheduleError &error);

//===----------------------------------------------------------------------===//
// Loop kinds and annotations
//===----------------------------------------------------------------------===//

/// Marks `loop` parallel (TVM's parallel): no block under it may bind a
/// reduce (or other non-spatial) iteration variable to it.
LogicalResult parallel(ForOp loop, ScheduleError &error);
/// Marks `loop` vectorized, under the same rule as parallel.
LogicalResult vectorize(ForOp loop, ScheduleError &error);
/// Marks `loop` unrolled.
LogicalResult unroll(ForOp loop, ScheduleError &error);
/// Binds `loop` to a GPU thread axis ("blockIdx.x", "threadIdx.y", ...),
/// under the same rule as parallel.
LogicalResult bind(ForOp loop, StringRef thread, ScheduleError &error);

/// Sets annotation `key` of a tir.for or tir.block, or of a tir function's
/// root block (written out as a block "root" around its body).
LogicalResult annotate(Operation *target, StringRef key, Attribute value,
                       ScheduleError &error, RewriterBase *rewriter = nullptr);
/// TVM's storage_align: records in `block`'s `buffer_dim_align`
/// annotation that dimension `axis` (negative: from the end) of its
/// `bufferIndex`-th write buffer is to be laid out with a stride s such that
/// s mod factor == offset (replacing an earlier entry for that dimension).
/// Refuses an out-of-range buffer index or axis, a factor below 1, a buffer
/// the function does not allocate (a parameter or a matched buffer), and a
/// `buffer_dim_align` annotation of another shape.
LogicalResult storageAlign(BlockOp block, int64_t bufferIndex, int64_t axis,
                           int64_t factor, int64_t offset,
                           ScheduleError &error);

/// TVM's set_scope: the block's `bufferIndex`-th write buffer (allocated in
/// the function) moves to storage scope `scope`, with the buffers matched
/// on it. The scope it has already is no change. Refuses an out-of-range
/// index, an unknown scope, and a buffer the function does not allocate.
LogicalResult setScope(BlockOp block, int64_t bufferIndex, StringRef scope,
                       ScheduleError &error);

/// TVM's read_at (`isRead`) and write_at: the statements of `loop`'s body
/// from the first that reads the block's `bufferIndex`-th read buffer
/// (read_at), or up to the last that writes its write buffer (write_at),
/// access a copy of it in storage scope `scope` (allocated in the scope
/// with the buffer's shape, named "<buffer>_<scope>"); a copy block
/// annotated `auto_copy` fills it before them or writes it back after
/// them, over the region they access relaxed below the loop (and over the
/// threads that share `scope` memory). Returns the copy block. Refuses an
/// out-of-range index, an unknown scope, a block not under the loop, a
/// scope that is not a stage pipeline, statements in an order the copy
/// cannot serve, and a region that depends on values other than loops
/// from `loop` out to the scope.
FailureOr<BlockOp> readWriteAt(RewriterBase &rewriter, ForOp loop,
                               BlockOp block, int64_t bufferIndex,
                               StringRef scope, bool isRead,
                               ScheduleError &error);

/// TVM's annotate_buffer_access: the region of the block's `bufferIndex`-th
/// write (`isWrite`) or read buffer is the one `ranges` gives, a map of
/// the block's iteration variables to (begin, end) per dimension; the block
/// lists its regions from then on, and its `explicit_read_region` /
/// `explicit_write_region` annotation holds the buffer's index. Refuses an
/// out-of-range index, ranges of another shape or empty, a write region
/// that does not hold the block's stores.
LogicalResult annotateBufferAccess(RewriterBase &rewriter, BlockOp block,
                                   int64_t bufferIndex, bool isWrite,
                                   AffineMap ranges, ScheduleError &error);

/// TVM's unsafe_set_dtype: the block's `bufferIndex`-th write buffer
/// (allocated in the function) and the buffers matched on it get element
/// type `dtype`; stores convert their values to it, loads convert back to
/// the old type. The dtype it has already is no change. Refuses an
/// out-of-range index, a name that is no scalar dtype, a buffer the function
/// does not allocate, and a buffer used other than by loads and stores.
LogicalResult unsafeSetDType(RewriterBase &rewriter, BlockOp block,
                             int64_t bufferIndex, StringRef dtype,
                             ScheduleError &error);

/// TVM's cache_read: a cache of the block's `bufferIndex`-th read buffer in
/// storage scope `scope`, filled by a copy stage (returned) that TVM's
/// rules place; the consumers (all readers, or `consumerBlocks` and their
/// child blocks) read the cache.
FailureOr<BlockOp> cacheRead(RewriterBase &rewriter, BlockOp block,
                             int64_t bufferIndex, StringRef scope,
                             ArrayRef<BlockOp> consumerBlocks,
                             ScheduleError &error);

/// TVM's cache_inplace: `block` reads and writes (in place) its
/// `bufferIndex`-th read buffer; it works on a cache in storage scope
/// `scope` instead, copied in right before it and back right after it
/// (both copies returned, in that order). Refused: a block that does not
/// also write the buffer, reads and writes of different regions, writes
/// that leave holes in the copied box.
FailureOr<SmallVector<BlockOp>> cacheInplace(RewriterBase &rewriter,
                                             BlockOp block, int64_t bufferIndex,
                                             StringRef scope,
                                             ScheduleError &error);

/// TVM's cache_index: the pure computations of `block`'s iteration
/// variables in what it stores (index arithmetic, interpolation weights)
/// each get a buffer in storage scope `scope`, indexed by the variables
/// they use and filled by a stage (returned, in buffer order) just before
/// the block's loop nest; the block loads them instead. With `cseThresh`
/// above 1, only computations occurring that many times are cached (those
/// occurring fewer times give way to the computations inside them). A
/// block with nothing to cache is left as it is. With `numStages`, refuses
/// (changing nothing) when the number of computations differs. Refused: an
/// unknown storage scope, a negative threshold, an empty nest, a variable
/// of non-constant domain in a computation to cache.
FailureOr<SmallVector<BlockOp>> cacheIndex(RewriterBase &rewriter,
                                           BlockOp block, StringRef scope,
                                           int64_t cseThresh,
                                           std::optional<unsigned> numStages,
                                           ScheduleError &error);

/// TVM's cache_write: the block writes a cache of its `bufferIndex`-th
/// write buffer in storage scope `scope`; a copy stage (returned) writes it
/// back; `consumerBlocks` read the cache directly.
FailureOr<BlockOp> cacheWrite(RewriterBase &rewriter, BlockOp block,
                              int64_t bufferIndex, StringRef scope,
                              ArrayRef<BlockOp> consumerBlocks,
                              ScheduleError &error);

/// TVM's reindex: the block's `bufferIndex`-th read (or, with `isWrite`,
/// write) buffer, which it accesses at a single index list, gets a copy
/// `<buffer>_reindex` indexed by the iteration variables those indices use
/// (in block order); the block accesses the copy there, and a stage
/// (returned) just before (read) or after (write) the block's loop nest
/// copies between the two over the variables' domains. Refuses a block
/// with blocks inside it, a buffer accessed at two index lists or other
/// than by loads and stores, a gather index, a block that is not alone in
/// its loop nest, a read copy of a buffer the block also writes, a write
/// copy of a buffer the block reads without a tir.init, and a scope that is
/// not a stage pipeline.
FailureOr<BlockOp> reindex(RewriterBase &rewriter, BlockOp block,
                           int64_t bufferIndex, bool isWrite,
                           ScheduleError &error);

/// Whether reindex would apply (its analysis alone; nothing changes).
bool canReindex(BlockOp block, int64_t bufferIndex, bool isWrite);

/// TVM's reindex_cache_read: cache_read (same checks and place, the block
/// the only consumer) of a buffer the block reads at one element per
/// iteration, the cache laid out by `indexMap` over the block's variables;
/// the copy stage repeats the block's iteration over the variables the
/// indices use. Refuses, beyond cache_read's rules, a region that is not a
/// single point, an index map using other variables than the buffer's
/// indices, and one that is not injective.
FailureOr<BlockOp> reindexCacheRead(RewriterBase &rewriter, BlockOp block,
                                    int64_t bufferIndex, StringRef scope,
                                    AffineMap indexMap, ScheduleError &error);

/// TVM's reindex_cache_write: the write side of reindexCacheRead, placed
/// as cache_write places its copy. Refuses, as reindex, a block reading
/// the buffer without a tir.init and a predicate skipping domain points.
FailureOr<BlockOp> reindexCacheWrite(RewriterBase &rewriter, BlockOp block,
                                     int64_t bufferIndex, StringRef scope,
                                     AffineMap indexMap, ScheduleError &error);

/// TVM's transform_block_layout: the block's iteration space remapped by
/// `indexMap` (over its variables): one new loop and variable per result,
/// the body reading the old variables through the map's inverse. Refuses a
/// map that is not a bijection of the iteration space, a new variable made
/// of variables of different kinds, a block whose variables are not each
/// bound to their own loop of a chain (TVM's trivial binding), a block with
/// a predicate or blocks inside it, and domains that are not constant from
/// 0. Returns the block (the same op).
FailureOr<BlockOp> transformBlockLayout(RewriterBase &rewriter, BlockOp block,
                                        AffineMap indexMap,
                                        ScheduleError &error);

/// TVM's transform_layout: the block's `bufferIndex`-th write (`isWrite`)
/// or read buffer, an allocation or a parameter, gets the layout
/// `indexMap` gives (its shape: the results' extents), and every access to
/// it in the function goes through the map, simplified with the domains;
/// blocks listing its region get the new one. `padValue` (a constant of
/// the buffer's element type, or an AffineMapAttr computing an integer
/// from the new indices) is what a padding map leaves uncovered holds, by
/// TVM's plans (LayoutPadding.h): assumed for an input, written by a
/// row-major writer rewritten over the new shape, else filled after the
/// last writer. `assumeInjective` skips the map's analysis. Refuses a map
/// of the wrong arity or that is not an injective affine map, a map that
/// pads without a pad value, a pad value of another type, and a matched
/// buffer. The map's symbols are runtime values of the function, named by
/// `symbolNames` (scalar parameters, shape variables); such a map, and a
/// buffer of runtime shape, need `assumeInjective` and a parameter (its
/// runtime extents become `?`). Not yet supported: padding where a
/// result's terms leave gaps or with runtime values, an allocation of
/// runtime shape, a buffer used other than by loads, stores and block
/// regions.
LogicalResult transformLayout(RewriterBase &rewriter, BlockOp block,
                              int64_t bufferIndex, bool isWrite,
                              AffineMap indexMap,
                              ArrayRef<StringRef> symbolNames,
                              Attribute padValue, bool assumeInjective,
                              ScheduleError &error);

/// TVM's decompose_padding: `block` (a complete block whose body stores
/// `if_then_else(in bounds, value, constant)`, the condition comparisons of
/// index expressions joined by `and`) becomes two: `<name>_pad_const`,
/// storing the constant over the whole domain in copies of the loops from
/// `loop` inwards, placed before `loop` (returned), and the block itself
/// storing the value over the in-bound region only: each variable's domain
/// is its region's extent; a variable bound directly to a loop of the
/// single-child nest up to `loop` shrinks and shifts that loop, any other
/// is bounded by the block's predicate. Refused: a block that is not
/// complete, a loop not above it in its scope, a body that does not match,
/// a trivial condition, comparisons that do not each bound one binding.
FailureOr<BlockOp> decomposePadding(RewriterBase &rewriter, BlockOp block,
                                    ForOp loop, ScheduleError &error);

/// TVM's can_decompose_padding: whether decomposePadding would apply.
bool canDecomposePadding(BlockOp block, ForOp loop);

/// TVM's pad_einsum: `block`, an einsum (each buffer accessed once, at
/// indices that are its iteration variables or constants; the scope a
/// stage pipeline), iterates over extents rounded up to multiples of
/// `padding` (one positive size per iteration variable): each buffer
/// indexed by a padded variable is replaced in the block's statement by
/// `<name>_pad`, allocated in the scope; read ones are copied in before it
/// (zero past the buffer's end), written ones copied back after it over
/// what the block covered. Loops bound directly to a padded variable take
/// the padded extent. Refused: a scope that is not a stage pipeline, a
/// padding of the wrong length or not positive, a block that is not an
/// einsum; and where the rewrite would be wrong: a padded loop holding
/// other blocks, a runtime extent computed inside the nest.
LogicalResult padEinsum(RewriterBase &rewriter, BlockOp block,
                        ArrayRef<int64_t> padding, ScheduleError &error);

/// Whether padEinsum would apply (its analysis alone; nothing changes).
bool canPadEinsum(BlockOp block, ArrayRef<int64_t> padding);

/// TVM's rolling_buffer: the `bufferIndex`-th buffer `block` writes, which
/// its scope allocates and which it computes in overlapping windows under a
/// loop it shares with its consumers (after compute_at), keeps one window:
/// its rolling axis shrinks to the window's extent, accesses on it go
/// modulo that extent, the block skips what the previous window computed,
/// and the spatial iteration variables the rolling loop feeds in the blocks
/// that access the buffer become opaque. Refused: an output block, dependences
/// other than read-after-write, no loop above the block and its consumers,
/// windows that do not start at `loop * stride` with constant extents, no
/// overlapping dimension.
LogicalResult rollingBuffer(RewriterBase &rewriter, BlockOp block,
                            int64_t bufferIndex, ScheduleError &error);

/// Whether rollingBuffer would apply (its analysis alone; nothing changes).
bool canRollingBuffer(BlockOp block, int64_t bufferIndex);

/// TVM's set_axis_separator: the block's `bufferIndex`-th write or read
/// buffer (an allocation or a parameter) is flattened in groups split
/// before the dimensions `separators` (ascending, inside the rank).
LogicalResult setAxisSeparator(BlockOp block, int64_t bufferIndex, bool isWrite,
                               ArrayRef<int64_t> separators,
                               ScheduleError &error);

/// Removes annotation `key`; refuses when there is none. A function's root
/// block left with none is erased (through `rewriter` when given), its body
/// the function's again.
LogicalResult unannotate(Operation *target, StringRef key, ScheduleError &error,
                         RewriterBase *rewriter = nullptr);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_SCHEDULE_PRIMITIVES_H
