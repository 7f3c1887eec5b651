//===- InlineUtils.h - what compute_inline and its reverse share -*- C++
//-*-===//
//
// The parts of TVM's compute_inline and reverse_compute_inline that are
// the same in both directions: the body pattern (`B[f(v)] = g(v)`), the
// inverse of an index map (which iteration point reads or writes an
// element), the scope rule on opaque uses of the buffer (the stage
// pipeline is Analysis.h's),
// cloning a block's computation to another place with its iteration
// variables replaced, and the clean-up after the block is gone.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_INLINEUTILS_H
#define TENSORIR_LIB_SCHEDULE_INLINEUTILS_H

#include "Utils.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::tir::sched {

/// The one tir.store of `block` when its body is TVM's `B[f(v)] = g(v)`:
/// one store, and ops that compute its operands and write nothing (loads,
/// arithmetic, calls whose results are used, pure ops with regions such as
/// scf.if); no loops, nested blocks, tir.init, allocations or other
/// statements; a tir.init is not part of the body (the callers decide
/// about it). Null otherwise.
StoreOp getSingleStore(BlockOp block);

/// Whether `buffer` is allocated directly in the scope root `root` (TVM: a
/// block writing any other buffer is an output block).
bool isAllocatedIn(Value buffer, Operation *root);

/// Refuses a use of `buffer` other than its allocation, tir.load and
/// tir.store of it, and a block's reads/writes lists (TVM's opaque access:
/// a call taking the buffer, a match_buffer of it).
LogicalResult checkNoOpaqueUse(StringRef primitive, Value buffer,
                               ScheduleError &error);

/// TVM's DetectIterMap and its inverse for the index forms primitives meet.
/// `indices` are expressions over the iteration variables (dimension i is
/// variable i; unit variables already replaced by their value). Each index
/// is a constant, or `(S floordiv d) mod m` (either part optional) where S
/// is a positive mixed-radix sum of variables (`vi * 16 + vj` with vj in
/// [0, 16)) plus a constant; the indices sharing one S re-split it
/// (`S floordiv 128`, `S mod 128`). Every variable with `needed` set must
/// appear in exactly one S.
struct IndexInverse {
  /// Per variable, its value over placeholder dimensions (dimension k is
  /// index k); null for a variable that no index determines.
  SmallVector<AffineExpr> vars;
  /// Indices that must lie in [0, bound) for the inverse to hold (the
  /// inner parts of a re-split sum).
  SmallVector<std::pair<unsigned, int64_t>> bounded;
  /// Indices that are constants (k, value).
  SmallVector<std::pair<unsigned, int64_t>> constants;
};
FailureOr<IndexInverse> invertIndices(ArrayRef<AffineExpr> indices,
                                      ArrayRef<std::optional<int64_t>> extents,
                                      const llvm::SmallBitVector &needed,
                                      Refusal &why);

/// The expressions of `access` (a tir.load or tir.store) over its indices,
/// with operand positions that are iteration variables of `block` replaced
/// by dimension (variable number), a variable of extent 1 by its value
/// unless `keepUnitVars`; nullopt when an index uses another value.
std::optional<SmallVector<AffineExpr>>
indicesOverIterVars(Operation *access, BlockOp block,
                    bool keepUnitVars = false);

/// Clones the ops of `source`'s body other than `skip` (and those `drop`
/// accepts) before the builder's insertion point, its iteration variable i
/// replaced by `vars[i]` (an expression over `inputs`), into `mapping`
/// (which may map values of the source already). Loads and stores among
/// the clones get the expressions folded into their indices; a variable
/// used otherwise becomes an affine.apply. The clones are added to
/// `clones` when given.
void cloneWithIterVars(RewriterBase &rewriter, BlockOp source, Operation *skip,
                       ArrayRef<AffineExpr> vars, ValueRange inputs,
                       IRMapping &mapping,
                       function_ref<bool(Operation *)> drop = {},
                       SmallVectorImpl<Operation *> *clones = nullptr);

/// Gives `block` the iteration variables `vars` (their bindings over
/// `values`) and the predicate `disjuncts`; its body is rebuilt with old
/// variable i read as `oldVars[i]` (an expression of the new variables),
/// its regions inferred again when it lists them. The block op stays
/// (adoptRebuiltBlock), so handles to it remain valid; ops inside it are
/// new.
void rebuildIterVars(RewriterBase &rewriter, BlockOp block,
                     ArrayRef<IterVarSpec> vars, ArrayRef<Value> values,
                     ArrayRef<Conjunction> disjuncts,
                     ArrayRef<AffineExpr> oldVars);

/// Folds the affine.apply ops in `applies` (materialized iteration or loop
/// variables) into the indices of the loads and stores among `ops` and
/// their nested ops; erases those left unused.
void foldAppliesIntoAccesses(RewriterBase &rewriter, ArrayRef<Operation *> ops,
                             const DenseSet<Operation *> &applies);

/// `exprs` (over `operands`, input space) with each operand that
/// `substitute` maps (to an expression over `in`) replaced; other operands
/// become dimensions of `in`. Simplified.
SmallVector<AffineExpr>
substituteOperands(ArrayRef<AffineExpr> exprs, ValueRange operands,
                   function_ref<AffineExpr(Value)> substitute, ExprInputs &in);

/// Erases `block` and the loops it leaves empty, up to `root`.
void eraseBlockAndEmptyLoops(RewriterBase &rewriter, BlockOp block,
                             Operation *root);

/// After an inline changed what `block` accesses (`removed` is no longer
/// accessed; the accesses of the inlined computation are new), updates its
/// listed reads and writes as TVM re-infers them: `removed` is replaced in
/// place by the buffers the block now accesses that it did not list, a
/// listed buffer whose accesses grew gets its inferred region. A block that
/// lists no regions is left as it is (they are inferred when needed).
void updateListedRegions(RewriterBase &rewriter, BlockOp block, Value removed);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_INLINEUTILS_H
