//===- RegionRelax.h - buffer regions relaxed over loops --------*- C++ -*-===//
//
// TVM's region relaxation: the part of a buffer that accesses touch while
// some loop variables run over their ranges, as bounds over the values that
// stay fixed; and the cover of several such boxes. Region inference uses it
// for the loops and nested blocks inside a block, compute_at for the loops
// inside the target loop.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_REGIONRELAX_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_REGIONRELAX_H

#include "TensorIR/Dialect/TIR/Analysis/Refusal.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::tir {

/// Index expressions over a growing list of values (dimension k stands for
/// `getValues()[k]`), some of which are relaxed: they run over an interval
/// (constant, or bounds over the other values: a loop to a runtime `n`)
/// and bounds are taken over them.
class RelaxedInputs {
public:
  explicit RelaxedInputs(MLIRContext *ctx, ValueRange initial = {});

  /// The dimension standing for `v` (added on first use).
  AffineExpr dimOf(Value v);
  /// The dimension standing for `v`, relaxed over `range`.
  AffineExpr relax(Value v, Interval range);
  /// The same over [lo, hi] (inclusive, over the dimensions; they may use
  /// other relaxed dimensions, an inner loop's bound an outer variable).
  AffineExpr relax(Value v, AffineExpr lo, AffineExpr hi);
  bool isRelaxed(unsigned pos) const { return ranges.count(pos); }
  /// Whether `e` uses a relaxed dimension.
  bool involvesRelaxed(AffineExpr e) const;
  ArrayRef<Value> getValues() const { return values; }
  unsigned size() const { return values.size(); }
  MLIRContext *getContext() const { return ctx; }

  /// The least (`upper` false) or greatest value of `e` as the relaxed
  /// dimensions run over their ranges: an expression of the other
  /// dimensions, not simplified; null when none can be written (a relaxed
  /// dimension in a product of non-constants, or divided by one).
  AffineExpr bound(AffineExpr e, bool upper);
  /// bound() of both sides, simplified; failure when either is null.
  FailureOr<std::pair<AffineExpr, AffineExpr>> bounds(AffineExpr e);

  /// Whether every value between the bounds taken so far is reached (no
  /// holes): false once a relaxed dimension was scaled, divided or taken
  /// modulo, or setInexact() was called.
  bool isExact() const { return exact; }
  void setInexact() { exact = false; }
  /// Whether `e + [0, span]` reaches every value between its bounds as
  /// the relaxed dimensions run over their (constant) ranges: its relaxed
  /// terms form a mixed radix (`i * 16 + j` for j in [0, 16)), each
  /// coefficient at most one more than what the smaller terms span.
  bool isDense(AffineExpr e, int64_t span = 0) const;
  /// TVM's DetectIterMap (IterMapLevel::Surjective) as EstimateRegionLowerBound
  /// uses it: whether the box `starts[d] + [0, widths[d])` is reached whole as
  /// the relaxed dimensions (constant ranges from 0) run: each start's
  /// relaxed terms are pieces `(x floordiv f) mod e` with positive
  /// coefficients forming a mixed radix (isDense's rule over pieces; the
  /// smallest coefficient at most the width), and the pieces of one
  /// dimension x, over all starts, are disjoint digits of x (`x floordiv 8`
  /// and `x mod 8`; skipped digits allowed) whose product divides x's range.
  bool isSurjectiveIterMap(ArrayRef<AffineExpr> starts,
                           ArrayRef<int64_t> widths) const;
  void restoreExact() { exact = true; }

private:
  MLIRContext *ctx;
  SmallVector<Value> values;
  llvm::DenseMap<unsigned, std::pair<AffineExpr, AffineExpr>> ranges;
  AffineExpr bound(AffineExpr e, bool upper, unsigned depth);
  bool exact = true;
};

/// A box: per dimension the inclusive bounds [lows[d], highs[d]].
struct Box {
  SmallVector<AffineExpr> lows, highs;
  unsigned getRank() const { return lows.size(); }
};

/// Widens the bound `acc` to also cover `e`: a lower bound (`upper` false)
/// becomes the least of the two, an upper bound the greatest, when they
/// differ by a constant; a null `acc` becomes `e`. Returns false, leaving
/// `acc` as it was, when they differ by a runtime amount. `differed` is set
/// when both were there and not equal.
bool coverBound(AffineExpr &acc, AffineExpr e, bool upper, unsigned numDims,
                bool *differed = nullptr);

/// Maps a value that a block's bindings or regions use to its expression
/// over the caller's RelaxedInputs (a dimension, relaxed or not, or a
/// constant); failure refuses the value (the mapper records why).
using ValueMapper = function_ref<FailureOr<AffineExpr>(Value)>;

/// The box that a region of `block` (`region`, over the block's iteration
/// variables then `regionValues`) covers as seen from outside the block:
/// iteration variables replaced by their bindings, each value the region
/// uses mapped by `mapValue` (values it does not use are not asked),
/// relaxed dimensions relaxed; bounds simplified. A relaxed dimension in two
/// dimensions of the box makes `inputs` inexact. Fails when `mapValue` does,
/// or when dimension `*unbounded` has no bound that can be written.
FailureOr<Box> relaxBlockRegion(BlockOp block, const RegionExprs &region,
                                ValueRange regionValues, RelaxedInputs &inputs,
                                ValueMapper mapValue,
                                unsigned *unbounded = nullptr);

/// A region of a buffer over values outside a loop: per dimension a lower
/// bound and an extent (simplified; a constant where it is one), as index
/// expressions whose dimension k stands for `inputs[k]`.
struct LoopRegion {
  SmallVector<AffineExpr> lowers, extents;
  SmallVector<Value> inputs;
  /// Whether every element of the box is accessed (no holes): false when a
  /// block has a predicate, an inner loop variable is scaled, divided, taken
  /// modulo or used in two dimensions, or accesses of different extents
  /// were joined.
  bool exact = true;
};

/// The region of `buffer` that `blocks` (blocks under `loop`, nested in
/// loops inside it, not inside another block) read (`writes` false) or
/// write, relaxed over the loops between each block and `loop`: TVM's
/// RelaxBufferRegions. Bindings are substituted into the blocks' regions
/// (inferred on a copy where a block leaves them out); predicates are
/// ignored (the result may cover more, never less). Regions of several
/// blocks (or accesses) are covered when their bounds differ by constants.
/// Fails, saying why in `failure`, on what it cannot bound: an inner loop
/// with runtime bounds, a value computed inside `loop`, products of inner
/// loop variables, bounds of a cover that differ by a runtime amount.
/// An empty `lowers` means no block accesses the buffer.
FailureOr<LoopRegion> relaxRegionUnderLoop(ForOp loop, Value buffer,
                                           bool writes,
                                           ArrayRef<BlockOp> blocks,
                                           Refusal &failure);

/// The same under any op that holds the blocks: a loop, a scope's block or
/// function; every loop between a block and `boundary` is relaxed, the
/// boundary's own values (a loop's variable, a block's iteration
/// variables) stay symbolic. With `sameThreadIsPoint`, a loop inside
/// bound to a thread tag the buffer is not shared across, which a loop
/// around `boundary` is bound to as well, is not relaxed: it runs in the
/// same thread as that loop, so its variable is that loop's (plus the
/// difference of their lower bounds). A kernel's local buffer then is the
/// part one thread touches, where the thread's copies re-bind the loops.
FailureOr<LoopRegion> relaxRegionUnder(Operation *boundary, Value buffer,
                                       bool writes, ArrayRef<BlockOp> blocks,
                                       Refusal &failure,
                                       bool sameThreadIsPoint = false);

/// The union of `a` and `b` (each over its own inputs), over the inputs of
/// both (a's first); failure when a bound differs by a runtime amount. An
/// empty region (no lowers) is the other one.
FailureOr<LoopRegion> uniteLoopRegions(const LoopRegion &a,
                                       const LoopRegion &b);

/// The blocks that access `buffer`: the nearest block around each load or
/// store, and blocks that list it in their regions; with `viewsAccess`, the
/// block a view of it (tir.match_buffer, which the block's regions cover)
/// is made in as well. Empty when some use is anything else, or an access
/// outside every block.
SmallVector<BlockOp> getAccessingBlocks(Value buffer, bool viewsAccess = false);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_REGIONRELAX_H
