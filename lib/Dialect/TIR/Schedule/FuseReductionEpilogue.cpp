//===- FuseReductionEpilogue.cpp - TVM's fuse_reduction_epilogue ----------===//
//
// Folds an epilogue `D[h(u)] = B[f(u)] + C[...]` into the reduction that
// writes B: the reduction accumulates into D, starting from its init value
// plus the bias (`D = C` for a zero init), and the epilogue goes. The bias
// is added once per output element, as before, so the program computes
// the same values (up to the order of floating-point additions).
//
// TVM also fuses `max(B + C, 0)` and `min(max(B, lo), hi)` by applying them
// at every step of the reduction, which computes something else (a ReLU of
// each partial sum is not the ReLU of the sum); those forms are refused
// here, as is an epilogue whose reduction output other blocks still read
// (TVM leaves them reading a buffer nothing writes any more).
//
//===----------------------------------------------------------------------===//

#include "ReverseInline.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

/// The epilogue's value `B[...] + addend`: the add and the addend.
struct BiasForm {
  Operation *add;
  Value addend;
};

/// Whether `v` is the load of `buffer` itself.
bool isLoadOf(Value v, Value buffer) {
  auto load = v.getDefiningOp<LoadOp>();
  return load && load.getBuffer() == buffer;
}

/// Whether computing `v` reads `buffer` (through the ops that define it).
bool readsBuffer(Value v, Value buffer, BlockOp within) {
  Operation *def = v.getDefiningOp();
  if (!def || !within->isAncestor(def))
    return false;
  bool found = false;
  def->walk([&](LoadOp load) { found |= load.getBuffer() == buffer; });
  if (found)
    return true;
  for (Value operand : def->getOperands())
    if (readsBuffer(operand, buffer, within))
      return true;
  return false;
}

/// The epilogue's stored value as `B[...] + addend`; refuses any other
/// form, naming why.
FailureOr<BiasForm> matchBias(InlineCtx &c, Value stored, Value buffer) {
  Operation *def = stored.getDefiningOp();
  auto isMinMax = [](Operation *op) {
    return isa_and_nonnull<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp,
                           arith::MaxUIOp, arith::MinimumFOp, arith::MinNumFOp,
                           arith::MinSIOp, arith::MinUIOp>(op);
  };
  if (isMinMax(def))
    return c.fail(c.block,
                  "cannot fuse epilogue " + c.name() +
                      ": it clips or rectifies the reduction's result "
                      "(T.max / T.min), which does not commute with the "
                      "reduction: applied to each partial sum, as TVM does, "
                      "it computes another function; only a bias "
                      "(`D = B + C`) folds into the reduction's init");
  if (isa_and_nonnull<arith::AddIOp, arith::AddFOp>(def)) {
    Value lhs = def->getOperand(0), rhs = def->getOperand(1);
    if (isLoadOf(lhs, buffer) && !readsBuffer(rhs, buffer, c.block))
      return BiasForm{def, rhs};
    if (isLoadOf(rhs, buffer) && !readsBuffer(lhs, buffer, c.block))
      return BiasForm{def, lhs};
  }
  return c.fail(c.block,
                "cannot fuse epilogue " + c.name() +
                    ": its body is not `D[...] = B[...] + bias` over the "
                    "reduction's output B (read once, the bias not reading "
                    "it), the one form that folds into the reduction's init");
}

/// No block between `reduction` and `epilogue` (in the scope's order)
/// touches what moving the epilogue's computation up would reorder: the
/// buffer the epilogue writes, or a buffer it reads that such a block
/// writes.
LogicalResult checkNothingBetween(InlineCtx &c, const BlockDependences &scope,
                                  BlockOp reduction, Value out) {
  ArrayRef<BlockOp> blocks = scope.getBlocks();
  auto from = llvm::find(blocks, reduction), to = llvm::find(blocks, c.block);
  if (from == blocks.end() || to == blocks.end() || from > to)
    return c.fail(c.block,
                  "needs epilogue " + c.name() + " to come after reduction '" +
                      reduction.getBlockName() + "' in the same scope");
  ArrayRef<Value> epilogueReads = scope.getReads(c.block);
  for (auto it = std::next(from); it != to; ++it) {
    BlockOp between = *it;
    bool clash = llvm::is_contained(scope.getReads(between), out) ||
                 llvm::is_contained(scope.getWrites(between), out);
    for (Value w : scope.getWrites(between))
      clash |= llvm::is_contained(epilogueReads, w);
    if (clash)
      return c.fail(between,
                    "cannot move the computation of epilogue " + c.name() +
                        " before block '" + between.getBlockName() +
                        "', which accesses what the epilogue writes or "
                        "writes what it reads");
  }
  return success();
}

} // namespace

LogicalResult mlir::tir::fuseReductionEpilogue(RewriterBase &rewriter,
                                               BlockOp reduction,
                                               BlockOp epilogue,
                                               ScheduleError &error) {
  InlineCtx c{"fuse_reduction_epilogue", epilogue, error};
  Operation *root = getScopeRoot(epilogue);
  if (getScopeRoot(reduction) != root)
    return c.fail(epilogue, "needs reduction '" + reduction.getBlockName() +
                                "' and epilogue " + c.name() +
                                " in the same scope");
  BlockDependences scope(getScopeBlocks(root));
  if (failed(checkStagePipeline(c.primitive, scope, error)))
    return failure();
  ArrayRef<Value> writes = scope.getWrites(reduction);
  if (writes.size() != 1)
    return c.fail(reduction, "needs reduction '" + reduction.getBlockName() +
                                 "' to write a single buffer, but it writes " +
                                 Twine(writes.size()));
  Value buffer = writes.front();
  if (int rule = getReductionBlockViolation(reduction, scope))
    return c.fail(reduction, "needs a reduction block, but block '" +
                                 reduction.getBlockName() + "' is not: " +
                                 describeReductionBlockViolation(rule));
  if (int rule = getCompleteBlockViolation(epilogue, scope))
    return c.fail(epilogue,
                  "needs a complete epilogue block, but block " + c.name() +
                      " is not: " + describeCompleteBlockViolation(rule));
  if (!isAllocatedIn(buffer, root))
    return c.fail(reduction,
                  "needs a reduction that is not an output block, but block '" +
                      reduction.getBlockName() +
                      "' writes a buffer not allocated in its scope");
  WalkResult other = root->walk([&](LoadOp load) {
    if (load.getBuffer() == buffer && !epilogue->isAncestor(load) &&
        !reduction->isAncestor(load))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (other.wasInterrupted())
    return c.fail(epilogue, "needs epilogue " + c.name() +
                                " to be the only reader of what reduction '" +
                                reduction.getBlockName() +
                                "' writes: another block reads it, and "
                                "would read nothing once the reduction "
                                "writes the epilogue's buffer instead");
  FailureOr<ReversePlan> plan = planReverseInline(c, root, buffer, reduction);
  if (failed(plan))
    return failure();
  if (plan->consumerLoads.size() != 1)
    return c.fail(epilogue, "needs epilogue " + c.name() +
                                " to read the reduction's output once");
  // The bias folds into the init only of a sum: the update stores
  // `B + x` (a max or product reduction would lose or scale it).
  {
    Operation *update = plan->producerStore.getValue().getDefiningOp();
    bool sum = isa_and_nonnull<arith::AddFOp, arith::AddIOp>(update) &&
               (isLoadOf(update->getOperand(0), buffer) ||
                isLoadOf(update->getOperand(1), buffer));
    if (!sum)
      return c.fail(reduction,
                    "needs reduction '" + reduction.getBlockName() +
                        "' to be a sum (its update storing `B + x`): a bias "
                        "folds into the init of a sum only");
  }
  FailureOr<BiasForm> bias =
      matchBias(c, plan->consumerStore.getValue(), buffer);
  if (failed(bias))
    return failure();
  Value out = plan->consumerStore.getBuffer();
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  if (cast<MemRefType>(out.getType()).getElementType() != element)
    return c.fail(epilogue, "needs epilogue " + c.name() +
                                " to store the reduction's element type");
  if (failed(checkNothingBetween(c, scope, reduction, out)))
    return failure();

  // The reduction's reads of its output read the epilogue's buffer.
  redirectProducerLoads(rewriter, *plan, epilogue);
  // Its stores store there: the update what it stored, the init its value
  // plus the bias.
  SmallVector<StoreOp> stores;
  reduction->walk([&](StoreOp store) {
    if (store.getBuffer() == buffer)
      stores.push_back(store);
  });
  InitOp init = reduction.getInitOp();
  for (StoreOp store : stores) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(store);
    Value stored = store.getValue();
    if (init && init->isAncestor(store)) {
      // The epilogue's computation with the output read as the init value.
      IRMapping mapping;
      mapping.map(plan->consumerLoads.front().getResult(), stored);
      SmallVector<Operation *> clones;
      cloneWithIterVars(
          rewriter, epilogue, /*skip=*/nullptr, plan->vars, plan->inputs,
          mapping,
          [&](Operation *op) {
            auto load = dyn_cast<LoadOp>(op);
            return load && load.getBuffer() == buffer;
          },
          &clones);
      StoreOp copy;
      for (Operation *clone : clones)
        if (auto s = dyn_cast<StoreOp>(clone))
          copy = s;
      // A zero init adds nothing: the init is the bias itself.
      if (matchPattern(stored, m_Zero()) ||
          matchPattern(stored, m_AnyZeroFloat())) {
        Operation *add =
            mapping.lookup(bias->add->getResult(0)).getDefiningOp();
        Value addend = mapping.lookupOrDefault(bias->addend);
        rewriter.modifyOpInPlace(
            copy, [&] { copy.getValueMutable().assign(addend); });
        if (add->use_empty())
          rewriter.eraseOp(add);
      }
      rewriter.eraseOp(store);
      if (Operation *def = stored.getDefiningOp();
          def && init->isAncestor(def) && isOpTriviallyDead(def))
        rewriter.eraseOp(def);
      continue;
    }
    StoreOp at = cloneConsumerStore(rewriter, *plan, epilogue);
    StoreOp::create(rewriter, store.getLoc(), stored, at.getBuffer(),
                    at.getMap(), at.getIndices());
    rewriter.eraseOp(at);
    rewriter.eraseOp(store);
  }
  addInBoundsPredicate(rewriter, *plan);
  eraseBlockAndEmptyLoops(rewriter, epilogue, root);
  for (Operation *p = reduction; p && p != root; p = p->getParentOp())
    if (auto b = dyn_cast<BlockOp>(p))
      updateListedRegions(rewriter, b, buffer);
  return success();
}
