//===- Analysis.h - analyses the schedule primitives share ------*- C++ -*-===//
//
// The questions TVM's primitives ask about blocks and loops, answered once
// here instead of per primitive: whether a block is a complete or a
// reduction block (TVM's definitions), whether the blocks under a loop have
// compact data flow, whether bindings are affine, whether a value depends
// on a loop variable; and the dialect's analyses (scopes, producers and
// consumers, access regions, region relaxation, range simplification: see
// TensorIR/Dialect/TIR/Analysis/) worded as refusals of a primitive.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_SCHEDULE_ANALYSIS_H
#define TENSORIR_DIALECT_TIR_SCHEDULE_ANALYSIS_H

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tir {

/// Whether `value` is one of `vars` or computed from one of them (through
/// the operands of the ops that define it, within the enclosing function).
bool dependsOnAny(Value value, ValueRange vars);

/// Why `block` is not a complete block among the blocks of its scope
/// (TVM's definition; 0 when it is one):
///   1. an iteration variable is not spatial;
///   2. another block of the scope writes a buffer it writes (not dominant);
///   3. it reads a buffer it writes.
int getCompleteBlockViolation(BlockOp block, const BlockDependences &scope);
int getCompleteBlockViolation(BlockOp block, ArrayRef<BlockOp> scope);

/// Why `block` is not a reduction block among the blocks of its scope
/// (TVM's definition; 0 when it is one):
///   1. it has no tir.init;
///   2. a binding is not quasi-affine in the loops;
///   3. an iteration variable is neither spatial nor reduce;
///   4. another block of the scope writes a buffer it writes (not dominant);
///   5. a reduce variable indexes a buffer it writes.
int getReductionBlockViolation(BlockOp block, const BlockDependences &scope);
int getReductionBlockViolation(BlockOp block, ArrayRef<BlockOp> scope);

/// The rule a violation number of getCompleteBlockViolation /
/// getReductionBlockViolation names, worded as what the block does ("it
/// reads a buffer it writes"); "" for 0.
StringRef describeCompleteBlockViolation(int rule);
StringRef describeReductionBlockViolation(int rule);

/// TVM's affine binding of `block` in the loop variables `loopVars` (the
/// other inputs act as parameters): each binding is a quasi-affine sum whose
/// smallest stride over the loops is 1 (`i * 16 + j`, `f floordiv 4`; not
/// `l * 16`), and each predicate bounds the loop part of some binding (as
/// split's `i0 * 16 + i1 < 100` does), not a mix of them. Refuses for
/// `primitive` naming `culprit` and the block otherwise.
LogicalResult checkAffineBinding(BlockOp block, ValueRange loopVars,
                                 StringRef primitive, Operation *culprit,
                                 ScheduleError &error);

/// TVM's compact data flow: every block directly under `loop` is a complete
/// or a reduction block among the blocks directly under it. Refuses for
/// `primitive`, naming the first block that is neither and both reasons.
LogicalResult checkCompactDataflow(ForOp loop, StringRef primitive,
                                   ScheduleError &error);

/// TVM's stage pipeline (GetScopeRoot's require_stage_pipeline, which
/// compute_at / reverse_compute_at, the inline primitives, some of
/// cache_read / cache_write, read_at / write_at, rfactor and pad_einsum ask
/// of their scope; not reorder): no block of `scope` writes a
/// buffer that an earlier block reads (a write-after-read dependence).
/// Refuses for `primitive`, naming the later block.
LogicalResult checkStagePipeline(StringRef primitive,
                                 const BlockDependences &scope,
                                 ScheduleError &error);

/// Whether the iterations of `loop`, run by threads at once (parallel, or
/// bound to a thread axis other than a virtual thread), write apart as
/// `block` (a block under it) sees them: a block that none of the loop's
/// iterations feeds writes the same elements in each of them, a race on a
/// buffer they share (one not allocated under the loop, not `local`). TVM
/// allows it (the writes store the same values); decompose_padding refuses
/// it, naming the block: its fill and copy store different values in turn,
/// and one thread's fill could land after another's copy. (`parallel` over
/// the fill and the copy is refused by TVM's compact data flow.)
LogicalResult checkWritesApart(ForOp loop, BlockOp block, StringRef primitive,
                               ScheduleError &error);

/// The only block under `loop` (TVM's
/// CheckGetSingleChildBlockRealizeOnSRefTree, which rfactor, blockize and
/// tensorize ask); refuses for `primitive` when it holds none or several.
FailureOr<BlockOp> getSingleChildBlock(ForOp loop, StringRef primitive,
                                       ScheduleError &error);

/// TVM's region cover, the other half of its stage pipeline (which rfactor
/// asks of its scope): every block of `scope` reads, of what earlier blocks
/// write, only elements they write, as seen at their lowest common
/// ancestor (the writers' regions relaxed below it must cover the reader's,
/// cut to the buffer; a writer region with holes covers nothing). Refuses
/// for `primitive`, naming the reader.
LogicalResult checkRegionCover(StringRef primitive,
                               const BlockDependences &scope,
                               ScheduleError &error);

/// Whether `consumer` reads, of what earlier blocks of `scope` write, only
/// elements they write (checkRegionCover for one block).
bool isRegionCovered(BlockOp consumer, const BlockDependences &scope);

/// TVM's cached flags of a block (ScheduleState's BlockInfo, which its
/// primitives consult): whether its bindings are affine in the loops
/// between it and its scope root (true without such loops), whether it is
/// region-covered among the blocks of its scope, and whether the scope it is
/// the root of is a stage pipeline (no write-after-read among its child
/// blocks, each of them region-covered; true without child blocks). The
/// function, TVM's root block, has affine bindings and is covered.
struct BlockFlags {
  bool affineBinding = true, regionCover = true, stagePipeline = true;
};
BlockFlags getBlockFlags(Operation *blockOrFunction);

/// Whether `block`'s predicate holds wherever its bindings lie in their
/// iteration domains (split's `i0 * 16 + i1 < 100` for a variable of domain
/// 100), so that it excludes no point of the iteration space: true without
/// a predicate, false where it cannot tell (a predicate or binding that is
/// not affine, a runtime domain).
bool isPredicateImpliedByDomains(BlockOp block);

/// relaxRegionUnderLoop (TensorIR/Dialect/TIR/Analysis/RegionRelax.h) as a
/// refusal of `primitive`.
FailureOr<LoopRegion> relaxRegionUnderLoop(ForOp loop, Value buffer,
                                           bool writes,
                                           ArrayRef<BlockOp> blocks,
                                           StringRef primitive,
                                           ScheduleError &error);

/// TVM's TensorizeInfo: how the loops above a block line up with the
/// loops of a tensor intrinsic's description.
struct TensorizeLoopMapping {
  /// Each workload loop taken and the description loop it stands for (its
  /// position among the description's loops, outermost first), from the
  /// description's last iteration variable to its first, as TVM orders
  /// them.
  SmallVector<std::pair<ForOp, unsigned>> loopMap;
  /// The description's loops, outermost first.
  SmallVector<ForOp> descLoops;
  /// Per iteration variable of the block, the multiple its extent is
  /// padded to (1: none), when some extent is not a multiple of its
  /// description loop's and padding was allowed.
  std::optional<SmallVector<int64_t>> blockIterPaddings;
};

/// TVM's get_tensorize_loop_mapping: the description's iteration variables,
/// from the last, each take the block's nearest earlier iteration variable
/// of the same kind (spatial, reduce), and that variable's loop is the
/// loop its binding is (the loop's variable plus what no other loop
/// feeds); each such loop's extent is a multiple of its description loop's
/// (else, with `allowPadding` and bindings that are the loops themselves, a
/// padding). Considers the loops nested directly above the block, one per
/// iteration variable, starting at 0. Failure (TVM's None) where no
/// mapping exists; `why` says what failed. Unlike TVM, a description
/// variable whose variable or loop is not found fails (TVM leaves it out
/// and tile_with_tensor_intrin then reads past its list), and so do
/// nests with another number of loops than iteration variables (TVM
/// aborts).
FailureOr<TensorizeLoopMapping> getTensorizeLoopMapping(BlockOp block,
                                                        func::FuncOp desc,
                                                        bool allowPadding,
                                                        Refusal &why);

/// TVM's AutoTensorizeMappingInfo: how a block's iteration space folds
/// into a tensor intrinsic's, whatever the block's loops and shapes.
struct AutoTensorizeMapping {
  /// Over the block's iteration variables (dimension i: variable i): the
  /// variables that index no buffer of the description's, then one fused
  /// index per description variable, in its order.
  AffineMap mapping;
  /// Each buffer of the block that stands for one of the description's,
  /// with that buffer (a parameter of the description's function).
  SmallVector<std::pair<Value, Value>> bufferMap;
  /// The description's compute block.
  BlockOp descBlock;
};

/// TVM's get_auto_tensorize_mapping_info: the block's body must compute
/// what the description's does (the same operations over buffers of the
/// same element types, constants of the same values; conversions may
/// differ in width; indices are not compared, but each buffer is indexed
/// the same way wherever it is read or written), with spatial and reduce
/// variables only. Each block variable then goes to the description
/// variable indexing the same buffers (of the same kind); the variables
/// going to one are fused, outer first. Failure (TVM's None), with `why`,
/// where the bodies differ, a variable could go to two, or a description
/// variable gets none. TVM aborts where a description index is not a
/// variable; this fails.
FailureOr<AutoTensorizeMapping>
getAutoTensorizeMapping(BlockOp block, func::FuncOp desc, Refusal &why);

/// TVM's SuggestIndexMap: a layout for a buffer of `shape` (with
/// `strides`, row-major when empty) in which the access `indices` (over
/// dimensions: the loops, loop k ranging over [0, loopExtents[k])) walks
/// the buffer in loop order: the flattened access is decomposed into
/// splits of the loops (`(i floordiv 16) mod 2`, digits of a mixed-radix
/// number; adjacent digits of one loop merged), and the new dimensions are
/// those splits ordered by loop, outer digits first. `forward` maps the
/// buffer's indices to the new ones, `inverse` back. Failure where the
/// access is not such a sum (a digit of no single loop, gaps between the
/// digits, a constant access).
struct SuggestedLayout {
  AffineMap forward, inverse;
};
FailureOr<SuggestedLayout> suggestIndexMap(ArrayRef<int64_t> shape,
                                           ArrayRef<int64_t> strides,
                                           ArrayRef<AffineExpr> indices,
                                           ArrayRef<int64_t> loopExtents);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_SCHEDULE_ANALYSIS_H
