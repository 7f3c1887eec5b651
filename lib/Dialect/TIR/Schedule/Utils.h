//===- Utils.h - helpers shared by the schedule primitives ------*- C++ -*-===//

#ifndef TENSORIR_LIB_SCHEDULE_UTILS_H
#define TENSORIR_LIB_SCHEDULE_UTILS_H

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Analysis/Refusal.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::tir::sched {

/// Fails with `message` about `culprit`.
LogicalResult refuse(ScheduleError &error, Operation *culprit,
                     const Twine &message);

/// Lists on `block` (a block a primitive built) the regions its body
/// accesses, as --tir-infer-access-regions infers them; leaves it as it
/// is when they cannot be inferred.
void setInferredRegions(BlockOp block);

/// `e` (dimension k stands for `inputs[k]`) simplified with the inputs'
/// ranges, unless that makes it a constant (TVM's SimplifyNonTrivialExpr:
/// an index of a unit variable keeps the variable).
AffineExpr simplifyNonTrivial(AffineExpr e, ArrayRef<Value> inputs);

/// Sorts `ops` innermost first (deeper nesting before shallower, stable),
/// as updating listed regions needs: an outer block's listing is inferred
/// from its inner blocks'.
inline Operation *asOperation(Operation *op) { return op; }
inline Operation *asOperation(OpState op) { return op.getOperation(); }
template <typename OpT> void sortInnermostFirst(SmallVectorImpl<OpT> &ops) {
  auto depth = [](Operation *op) {
    unsigned d = 0;
    for (; op; op = op->getParentOp())
      ++d;
    return d;
  };
  llvm::stable_sort(ops, [&](OpT a, OpT b) {
    return depth(asOperation(a)) > depth(asOperation(b));
  });
}

/// The extents of `block`'s iteration domains, which must be constant and
/// start at 0; refuses for `primitive` naming the first that is not.
FailureOr<SmallVector<int64_t>>
getZeroBasedExtents(BlockOp block, StringRef primitive, ScheduleError &error);

/// TVM's GetNthAccessBuffer: the `index`-th buffer the block writes
/// (`isWrite`) or reads; refuses an index out of range for `primitive`.
FailureOr<Value> getNthAccessBuffer(BlockOp block, int64_t index, bool isWrite,
                                    StringRef primitive, ScheduleError &error);

/// The statement list that holds `buffer`'s definition and the scope its
/// accesses live in: the op holding its tir.alloc_buffer, or the function
/// of a parameter. Refuses, for `primitive`, a buffer matched on a region
/// of another (TVM's BufferIsSubregionError).
FailureOr<Operation *> getBufferScope(Value buffer, BlockOp culprit,
                                      StringRef primitive,
                                      ScheduleError &error);

/// A display name for a loop ("i", or "the loop" when it has none).
std::string loopName(ForOp loop);

/// Whether binding `i` of `block` (`bindings`: its binding expressions)
/// depends on `value`, through the binding values it uses.
bool bindingUses(BlockOp block, ArrayRef<AffineExpr> bindings, unsigned i,
                 Value value);

/// Copies of `loops` (bounds through `map`; kind, thread binding and
/// annotations unless `serial`; variables named as theirs, or `unnamed`,
/// plus `suffix`),
/// nested at the insertion point, which is left at the start of the
/// innermost; maps their variables in `map`. The one cloner of loop nests.
void copyLoops(RewriterBase &rewriter, ArrayRef<ForOp> loops, IRMapping &map,
               StringRef suffix = "", bool serial = false,
               StringRef unnamed = "i");

/// New loops over [lowers[k], uppers[k]) (constant or runtime bounds),
/// named `<prefix><k>`, nested at the insertion point, which is left at
/// the start of the innermost; returns their variables, outermost first.
SmallVector<Value> buildLoopNest(RewriterBase &rewriter, Location loc,
                                 ArrayRef<OpFoldResult> lowers,
                                 ArrayRef<OpFoldResult> uppers,
                                 StringRef prefix);

/// Compresses `exprs` (over `values`, input space) to the values they use:
/// each position first used gets the next dimension in `compress` (which
/// starts as constants, one per value) and its value appended to `used`.
void compressInputs(ArrayRef<AffineExpr> exprs, ValueRange values,
                    SmallVectorImpl<AffineExpr> &compress,
                    SmallVectorImpl<Value> &used);

/// Whether `v` is the induction variable of a tir.for.
bool isLoopVar(Value v);
/// The loop whose induction variable `v` is (null for any other value).
ForOp getLoopOfVar(Value v);

/// The binding inputs of `block` that are among `vars`, as a mask over
/// binding_values (input space dimensions).
llvm::SmallBitVector bindingInputMask(BlockOp block, ValueRange vars);

/// Iteration variable `i` of `block` for messages: its name, or `#i`.
std::string iterVarName(BlockOp block, unsigned i);
/// The same, quoted when it is a name: `'vk'`, or `#i`.
std::string iterVarLabel(BlockOp block, unsigned i);

/// The uses of a loop variable that a loop transformation rewrites:
/// blocks that bind it, and every other use (operand number of an op).
struct LoopVarUses {
  llvm::SetVector<BlockOp> binders;
  SmallVector<std::pair<Operation *, unsigned>> opaque;

  /// Points the other uses at `value`.
  void replaceOpaque(Value value) const;
};
LoopVarUses collectLoopVarUses(Value iv);

/// Checks that the loop variable of `loop` is used only as a binding value
/// of blocks (the only place TensorIR lets loop variables appear).
LogicalResult checkOnlyBindingUses(ForOp loop, ScheduleError &error);

/// Checks that `loop` has no annotations and is not bound to a thread
/// (TVM's rule for split and fuse).
LogicalResult checkPlainLoop(ForOp loop, StringRef primitive,
                             ScheduleError &error);

/// Checks that every binding of `block` is quasi-affine in `loopVars`;
/// refuses naming `culprit` otherwise.
LogicalResult checkAffineBindings(BlockOp block, ValueRange loopVars,
                                  StringRef primitive, ForOp culprit,
                                  ScheduleError &error);

/// Checks that `loop` starts at 0 (TVM's rule for split and fuse);
/// `primitive` names the caller in the message.
LogicalResult checkStartsAtZero(ForOp loop, StringRef primitive,
                                ScheduleError &error);

/// Checks that no loop at or under `root` has a constant extent of 0 and no
/// block there a constant empty domain: `primitive` (which divides
/// iteration spaces by their extents) refuses such nests, naming the
/// empty loop or block. A nest of extent 0 runs nothing.
LogicalResult checkNoEmptyNest(Operation *root, StringRef primitive,
                               ScheduleError &error);
/// checkNoEmptyNest over `block`'s whole nest: from its outermost loop in
/// its scope (the block itself when it has none).
LogicalResult checkNoEmptyNestAround(BlockOp block, StringRef primitive,
                                     ScheduleError &error);

/// Replaces, in the bindings and predicate of `block`, the binding value
/// `old` by `expr`, an affine expression whose dimension k stands for
/// `exprValues[k]`. `extraConstraints` (over the same dimensions, each
/// meaning `c >= 0`) are added to the predicate. Bindings are simplified
/// with what is known of the values' ranges.
void substituteBindingValue(BlockOp block, Value old, AffineExpr expr,
                            ValueRange exprValues,
                            ArrayRef<AffineExpr> extraConstraints = {});

/// Sets the bounds of `loop`, or the domain of `block`'s iteration
/// variable `i`, to `[lower, upper)` (constants or index values).
void setLoopBounds(ForOp loop, OpFoldResult lower, OpFoldResult upper);
void setIterVarDomain(BlockOp block, unsigned i, OpFoldResult lower,
                      OpFoldResult upper);

/// `block`'s predicate as a disjunction of conjunctions over its binding
/// values (none: no predicate).
SmallVector<Conjunction> getPredicateDisjuncts(BlockOp block);

/// Conjoins `condition` (a disjunction of conjunctions whose dimension k
/// stands for `values[k]`) with `block`'s predicate, distributing it over
/// the predicate's disjuncts; values not among the block's binding values
/// join them.
void conjoinPredicate(BlockOp block, ArrayRef<Conjunction> condition,
                      ValueRange values);

/// Sets `block`'s bindings and predicate (a disjunction of conjunctions;
/// none: no predicate) to expressions whose dimension k stands for
/// `values[k]`; only the values they use become the binding values.
void setBindingsAndPredicate(BlockOp block, ArrayRef<Value> values,
                             ArrayRef<AffineExpr> bindings,
                             ArrayRef<Conjunction> disjuncts);

/// `expr` (dimension k stands for `inputs[k]`) as an index value at the
/// insertion point: a constant, the input itself, or one `affine.apply`
/// (its map in tir's storage form, so non-affine expressions keep their
/// inputs as symbols).
OpFoldResult materializeIndex(OpBuilder &builder, Location loc, AffineExpr expr,
                              ValueRange inputs);
Value materializeIndexValue(OpBuilder &builder, Location loc, AffineExpr expr,
                            ValueRange inputs);

/// Whether `buffer` is defined inside `root` (allocated in the scope; a
/// function's parameters are not).
bool definedInside(Value buffer, Operation *root);

/// `block` takes the iteration variables, bindings, predicate, operands and
/// body of `rebuilt` (a block built beside it), which is erased with the
/// old body: the block op itself stays, so handles to it remain valid;
/// handles to ops of the old body are emptied.
void adoptRebuiltBlock(RewriterBase &rewriter, BlockOp block, BlockOp rebuilt);

/// Whether `use` is one of a block's binding values.
bool isBindingUse(OpOperand &use);

/// An index-expression builder over values: `dimOf(v)` is the dimension
/// standing for `v` (added on first use); `values` lists them in order.
struct ExprInputs {
  MLIRContext *ctx;
  SmallVector<Value> values;
  AffineExpr dimOf(Value v);
  /// A constant for a constant, else the value's dimension.
  AffineExpr of(OpFoldResult v);
  /// The index expression `v` computes (getIndexExprOf), over dimensions
  /// of `values`: `n * 32` for a loop bound computed so.
  AffineExpr exprOf(OpFoldResult v);
  /// Whether `e` (over `values`) is >= 0 wherever it is evaluated: from
  /// the inputs' constant ranges, else with loop variables replaced by
  /// their runtime bounds (`n - 1 - i >= 0` for `i` in [0, n)) and
  /// divisions and remainders by theirs (`31 - f floordiv n` for `f` in
  /// [0, n * 32), `n - 1 - f mod n`).
  bool isKnownNonNegative(AffineExpr e);

private:
  bool isKnownNonNegative(AffineExpr e, unsigned depth);
};

/// A runtime value of a function that an index map can name: a scalar
/// parameter (by its tir.name) or a shape variable (a dimension of a
/// buffer parameter that tir.dim_vars names). `value` where the function
/// already has it, else the parameter `buffer` and dimension `dim` to read
/// it from (materializeFunctionVariable).
struct FunctionVariable {
  Value value;
  BlockArgument buffer;
  unsigned dim = 0;
};
/// The variable `name` of `func`; nullopt when it has none of that name.
std::optional<FunctionVariable> findFunctionVariable(FunctionOpInterface func,
                                                     StringRef name);
/// Its index value, read (memref.dim) at the function's entry when nothing
/// reads it yet.
Value materializeFunctionVariable(RewriterBase &rewriter,
                                  const FunctionVariable &variable);

/// Where a scope's new allocation goes in its statement list `body`: after
/// its allocations, and after the definitions of `after` made there.
Block::iterator getAllocationPoint(Block *body, ValueRange after);

/// The runtime size of dimension `dim` of `buffer` (a parameter of the
/// function, or a buffer allocated in it) as a value at the function's
/// entry: the allocation's size operand, the shape variable that names the
/// dimension, else a memref.dim read there.
Value getDynamicSizeValue(RewriterBase &rewriter, Value buffer, unsigned dim);

/// Sets the read and write regions of `block` (over its iteration
/// variables, then region values).
void setRegions(BlockOp block, const BlockAccessRegions &regions);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_UTILS_H
