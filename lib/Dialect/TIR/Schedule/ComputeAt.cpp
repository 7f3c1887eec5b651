//===- ComputeAt.cpp - TVM's compute_at and reverse_compute_at ------------===//
//
// Moves a block under a loop of its consumers (compute_at) or producers
// (reverse_compute_at) and regenerates its loops so that one iteration of
// the loop computes exactly the part of the block the other blocks need
// there. The parts, in the order they run:
//   1. legality: scope, block kind, placement of producers and consumers,
//      producers under the loop finished, loops whose iterations run at
//      once (a reduction moved under them must not race);
//   2. the iteration domain (solveDomain): the region the consumers read
//      (producers write) in one iteration of the loop, relaxed over the
//      loops inside it, inverted through the block's own access;
//   3. the rewrite: new loops `ax0, ax1, ...`, the block moved under them,
//      its bindings (and, where the domain leaves the block's bounds, a
//      predicate) set, and the loops it leaves empty erased.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

#include "ComputeAt.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Digits.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

using namespace mlir::tir::sched::computeat;

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

/// TVM's first rules: the block is complete or a reduction block in its
/// scope; the loop is in the same scope (only loops between it and the
/// scope root) and does not contain the block.
LogicalResult checkScope(Ctx &c, Operation *root,
                         const BlockDependences &scope) {
  int complete = getCompleteBlockViolation(c.block, scope);
  int reduction = complete ? getReductionBlockViolation(c.block, scope) : 0;
  if (complete && reduction) {
    return c.fail(c.block,
                  "needs a complete block or reduction block, but block " +
                      c.name() + " is neither (not complete: " +
                      describeCompleteBlockViolation(complete) +
                      "; not a reduction: " +
                      describeReductionBlockViolation(reduction) + ")");
  }
  for (Operation *p = c.loop->getParentOp(); p != root; p = p->getParentOp())
    if (!p || !isa<ForOp>(p))
      return c.fail(c.loop, "needs the block and the loop in the same scope, "
                            "but loop " +
                                loopName(c.loop) +
                                " is not in the scope of "
                                "block " +
                                c.name() +
                                " (TVM: the block and loop must be "
                                "under the same block scope)");
  if (c.loop->isAncestor(c.block))
    return c.fail(c.loop, "needs a loop that is not an ancestor of the block, "
                          "but loop " +
                              loopName(c.loop) + " contains block " + c.name() +
                              " (TVM: the loop must not be the "
                              "ancestor of block)");
  return success();
}

/// The position among the loop body's ops where the block goes, with TVM's
/// `index` (-1: before the first consumer, -2: after the last producer).
/// Every producer of the block must run before it and every consumer after
/// it, under the loop or outside it; and a producer (for compute_at) or
/// consumer (for reverse_compute_at) under the loop would have finished
/// only part of its work when the block runs, so it is refused.
FailureOr<unsigned> findPosition(Ctx &c, Operation *root,
                                 ArrayRef<BlockOp> producers,
                                 ArrayRef<BlockOp> consumers, bool computeAt,
                                 int64_t index) {
  SmallVector<Operation *> subtrees;
  for (Operation &op : *c.loop.getBody())
    subtrees.push_back(&op);
  auto subtreeOf = [&](BlockOp b) -> int {
    for (auto [i, op] : llvm::enumerate(subtrees))
      if (op->isAncestor(b))
        return i;
    return -1;
  };
  DenseMap<Operation *, unsigned> order;
  root->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { order.try_emplace(op, order.size()); });
  int lastProducer = -1, firstConsumer = subtrees.size();
  for (BlockOp p : producers) {
    int i = subtreeOf(p);
    if (i < 0 && order.lookup(p) > order.lookup(c.loop))
      return c.fail(p, "would move block " + c.name() + " before block '" +
                           p.getBlockName() +
                           "', which writes a buffer it reads");
    if (i >= 0 && computeAt)
      return c.fail(p, "needs the producers of block " + c.name() +
                           " outside loop " + loopName(c.loop) +
                           ", but block '" + p.getBlockName() +
                           "' is under it (it would have written only part "
                           "of its output)");
    lastProducer = std::max(lastProducer, i);
  }
  for (BlockOp b : consumers) {
    int i = subtreeOf(b);
    if (i < 0 && order.lookup(b) < order.lookup(c.loop))
      return c.fail(b, "would move block " + c.name() + " after block '" +
                           b.getBlockName() +
                           "', which reads a buffer it writes");
    if (i >= 0 && !computeAt)
      return c.fail(b, "needs the consumers of block " + c.name() +
                           " outside loop " + loopName(c.loop) +
                           ", but block '" + b.getBlockName() +
                           "' is under it (it would read only part of the "
                           "block's output)");
    if (i >= 0)
      firstConsumer = std::min(firstConsumer, i);
  }
  if (lastProducer >= firstConsumer)
    return c.fail(c.loop, "finds no place under loop " + loopName(c.loop) +
                              " after the producers and before the "
                              "consumers of block " +
                              c.name());
  if (index == -1)
    return firstConsumer;
  if (index == -2)
    return lastProducer + 1;
  if (index < lastProducer + 1 || index > firstConsumer)
    return c.fail(c.loop, "got index " + Twine(index) +
                              "; the valid ones are -1, -2 and [" +
                              Twine(lastProducer + 1) + ", " +
                              Twine(firstConsumer) + "]");
  return static_cast<unsigned>(index);
}

/// The block's values from outside it (other than its bindings, which are
/// replaced) must be available where it goes: defined before the loop.
LogicalResult checkOperandsAvailable(Ctx &c) {
  ValueRange bindings = c.block.getBindingValues();
  auto available = [&](Value v) {
    Block *owner = isa<BlockArgument>(v) ? cast<BlockArgument>(v).getOwner()
                                         : v.getDefiningOp()->getBlock();
    Operation *anchor = owner->findAncestorOpInBlock(*c.loop);
    if (!anchor)
      return false;
    return isa<BlockArgument>(v) || v.getDefiningOp()->isBeforeInBlock(anchor);
  };
  for (OpOperand &use : c.block->getOpOperands())
    if (!isBindingUse(use) && !available(use.get()))
      return c.fail(c.block, "cannot move block " + c.name() +
                                 ": one of its operands is defined inside "
                                 "the loops it leaves");
  WalkResult r = c.block.getBody()->walk([&](Operation *op) {
    for (Value v : op->getOperands()) {
      Operation *owner = isa<BlockArgument>(v)
                             ? cast<BlockArgument>(v).getOwner()->getParentOp()
                             : v.getDefiningOp();
      if (owner && c.block->isAncestor(owner))
        continue;
      if (!available(v))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return c.fail(c.block, "cannot move block " + c.name() +
                               ": its body uses a value defined inside the "
                               "loops it leaves (an opaque use of a loop "
                               "variable)");
  (void)bindings;
  return success();
}

/// TVM replaces the block's predicate; here it may only go when it says no
/// more than the iteration domains (each constraint bounds one binding, as
/// a split's `i0 * 4 + i1 < 10` does, within the variable's domain).
LogicalResult checkPredicateDroppable(Ctx &c) {
  SmallVector<AffineExpr> bindings = c.block.getBindingExprs();
  unsigned n = c.block.getBindingValues().size();
  for (IntegerSet set : c.block.getPredicateSets())
    for (auto [k, e] : llvm::enumerate(getConstraintsOverInputs(set))) {
      bool implied = false;
      for (auto [i, b] : llvm::enumerate(bindings)) {
        auto lo = c.block.getConstantDomainLower(i);
        auto hi = c.block.getConstantDomainUpper(i);
        if (!lo || !hi)
          continue;
        for (int64_t s : {1, -1}) {
          std::optional<int64_t> rest = getConstantDifference(e, b * s, n);
          if (!rest)
            continue;
          // e == s * v + r: over v in [lo, hi), e >= 0 (== 0) always holds?
          int64_t a = s * *lo + *rest;
          int64_t z = s * (*hi - 1) + *rest;
          bool always = set.isEq(k) ? (a == 0 && z == 0) : std::min(a, z) >= 0;
          implied |= always;
        }
      }
      if (!implied)
        return c.fail(c.block,
                      "would drop the predicate of block " + c.name() +
                          ", which says more than its iteration domains");
    }
  return success();
}

/// reverse_compute_at reads what the producers under the loop wrote in one
/// of its iterations; a reduction among them whose reduce variable is fed
/// by the loop, or by a loop around it, has then done only part of its
/// reduction (the block would read partial sums).
LogicalResult checkProducersFinished(Ctx &c, ArrayRef<BlockOp> producers,
                                     Operation *root) {
  SmallVector<Value> outer;
  for (Operation *op = c.loop; op != root; op = op->getParentOp())
    outer.push_back(cast<ForOp>(op).getInductionVar());
  for (BlockOp p : producers) {
    if (!c.loop->isAncestor(p))
      continue;
    SmallVector<AffineExpr> bindings = p.getBindingExprs();
    for (unsigned i = 0, e = p.getNumIterVars(); i < e; ++i) {
      if (p.getIterType(i) != IterType::Reduce)
        continue;
      for (auto [pos, value] : llvm::enumerate(p.getBindingValues()))
        if (bindings[i].isFunctionOfDim(pos) && dependsOnAny(value, outer))
          return c.fail(
              p, "needs the producers under loop " + loopName(c.loop) +
                     " to finish what block " + c.name() +
                     " reads in one of its iterations, "
                     "but reduce variable " +
                     iterVarLabel(p, i) + " of block '" + p.getBlockName() +
                     "' runs across iterations of loop " + loopName(c.loop) +
                     " or a loop around it (the block would read "
                     "a partial reduction)");
    }
  }
  return success();
}

/// Loops whose iterations run at once (parallel, vectorized, thread-bound
/// but for virtual threads) around the block's new place, when the block is
/// a reduction:
///  - its reduction may not run across their iterations (the verifier's
///    rule: a race), threadIdx loops excepted (a cross-thread reduction),
///    nor across virtual threads (TVM's rule for bound loops);
///  - otherwise each iteration must reduce into other elements: a spatial
///    variable that indexes what the block writes advances by more than
///    it spans within one iteration (see `digits`); a fused loop's
///    iterations may be told apart by several variables.
///    Without one, iterations running at once would each run the whole
///    reduction (init included) of the same elements.
LogicalResult checkLoopsRunningAtOnce(Ctx &c, const Plan &plan,
                                      Operation *root) {
  unsigned numVars = c.block.getNumIterVars();
  bool reduction = false;
  for (unsigned i = 0; i < numVars; ++i)
    reduction |= c.block.getIterType(i) == IterType::Reduce;
  if (!reduction)
    return success();
  FailureOr<BlockAccessRegions> own = getAccessRegions(c.block, c.error);
  if (failed(own))
    return failure();
  auto indexesWrites = [&](unsigned var) {
    for (auto &[buffer, region] : own->writes)
      for (AffineExpr start : region.starts)
        if (auto d = dyn_cast<AffineDimExpr>(start);
            d && d.getPosition() == var)
          return true;
    return false;
  };
  for (Operation *op = c.loop; op != root; op = op->getParentOp()) {
    auto loop = cast<ForOp>(op);
    bool atOnce = loop.runsIterationsAtOnce();
    if (!atOnce && loop.mayReduceAcrossIterations())
      continue;
    const Value *at = llvm::find(plan.inputs, loop.getInductionVar());
    std::optional<unsigned> dim;
    if (at != plan.inputs.end())
      dim = at - plan.inputs.begin();
    // The digits of `loop`'s value that variable `v` tells apart, as a
    // range [lo, hi) of place values (hi 0: unbounded): `lower` is
    // `c * t + inner + outer` where `t` is `loop` ([1, 0)), `loop floordiv
    // q` ([q, 0)), `loop mod m` ([1, m)) or `(loop floordiv q) mod m`
    // ([q, q * m)), and `inner` (terms over loops inside `loop`) plus the
    // extent spans at most |c|: then iterations of `loop` that differ in
    // those digits cover disjoint ranges (`outer` is the same for the
    // iterations that run at once). A fused loop's digits are told apart
    // by the variables of the loops fused.
    SmallVector<std::optional<Interval>> ranges = getValueRanges(plan.inputs);
    auto digits =
        [&](const VarDomain &v) -> std::optional<std::pair<int64_t, int64_t>> {
      llvm::SmallBitVector inner(plan.inputs.size());
      for (auto [j, value] : llvm::enumerate(ArrayRef<Value>(plan.inputs)))
        inner[j] = isLoopVar(value) &&
                   loop->isProperAncestor(
                       Value(value).getParentBlock()->getParentOp());
      llvm::SmallBitVector self(plan.inputs.size());
      self.set(*dim);
      AffineTerms terms = AffineTerms::get(v.lower);
      std::optional<std::pair<AffineExpr, int64_t>> digitTerm;
      for (auto [term, k] : terms.terms) {
        if (!involvesDims(term, self))
          continue;
        if (digitTerm)
          return std::nullopt;
        digitTerm = {term, k};
      }
      if (!digitTerm)
        return std::nullopt;
      auto [term, coefficient] = *digitTerm;
      IndexDigit digit = getIndexDigit(term);
      auto base = dyn_cast<AffineDimExpr>(digit.base);
      if (!base || base.getPosition() != *dim)
        return std::nullopt;
      std::pair<int64_t, int64_t> place{
          digit.divisor, digit.extent ? digit.divisor * *digit.extent : 0};
      llvm::SmallBitVector outer = inner;
      outer.flip();
      outer.reset(*dim);
      AffineTerms innerPart =
          terms.filter([&](AffineExpr t) { return involvesDims(t, inner); });
      for (auto [t, k] : innerPart.terms)
        if (involvesDims(t, outer) || involvesDims(t, self))
          return std::nullopt;
      std::optional<Interval> span =
          evaluateRange(innerPart.toExpr(c.block.getContext()), ranges);
      std::optional<int64_t> extent = v.getConstantExtent();
      if (!span || !extent ||
          span->hi - span->lo + *extent > std::abs(coefficient))
        return std::nullopt;
      return place;
    };
    std::string kind = loop.getKind() == ForKind::ThreadBinding
                           ? "bound to " + loop.getThread()->str()
                           : stringifyForKind(loop.getKind()).str();
    SmallVector<std::pair<int64_t, int64_t>> told;
    bool separated = false;
    for (unsigned i = 0; dim && i < numVars; ++i) {
      const VarDomain &v = plan.vars[i];
      if (!v.lower.isFunctionOfDim(*dim))
        continue;
      if (c.block.getIterType(i) == IterType::Reduce) {
        if (!loop.mayReduceAcrossIterations())
          return c.fail(loop, "would put block " + c.name() + " under loop " +
                                  loopName(loop) + ", which is " + kind +
                                  " (no reduction may run across its "
                                  "iterations), and feed it reduce variable " +
                                  iterVarLabel(c.block, i) +
                                  " (a race where they run at once)");
        separated = true; // a cross-thread reduction
        continue;
      }
      if (c.block.getIterType(i) == IterType::Spatial && indexesWrites(i))
        if (std::optional<std::pair<int64_t, int64_t>> d = digits(v))
          told.push_back(*d);
    }
    // Separated when the digits told apart chain from the units to the
    // loop's extent (or beyond every digit).
    std::optional<int64_t> loopExtent = loop.getConstantExtent();
    // (One iteration runs with no other.)
    separated |= loopExtent && *loopExtent <= 1;
    for (int64_t place = 1; !separated;) {
      const auto *next =
          llvm::find_if(told, [&](const auto &d) { return d.first == place; });
      if (next == told.end() || (next->second != 0 && next->second <= place))
        break;
      place = next->second;
      separated = place == 0 || (loopExtent && place >= *loopExtent);
    }
    if (atOnce && !separated)
      return c.fail(loop, "would put reduction block " + c.name() +
                              " under loop " + loopName(loop) + ", which is " +
                              kind +
                              " (its iterations run at once), but the "
                              "iterations would not write apart: each "
                              "would run the reduction of the same "
                              "elements");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

void rewrite(RewriterBase &rewriter, Ctx &c, const Plan &plan,
             unsigned position, bool preserveUnitLoops, Operation *root) {
  MLIRContext *ctx = c.block.getContext();
  Location loc = c.block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  Block *body = c.loop.getBody();
  if (position < body->getOperations().size())
    rewriter.setInsertionPoint(&*std::next(body->begin(), position));
  else
    rewriter.setInsertionPointToEnd(body);

  // The new loops, outermost first, and the bindings over (outer values,
  // new loop variables).
  SmallVector<Value> inputs(plan.inputs);
  SmallVector<AffineExpr> bindings;
  SmallVector<AffineExpr> constraints;
  unsigned created = 0;
  for (const VarDomain &dom : plan.vars) {
    AffineExpr value = dom.lower;
    if (preserveUnitLoops || dom.getConstantExtent() != 1) {
      OpFoldResult extent =
          materializeIndex(rewriter, loc, dom.extent, plan.inputs);
      auto loop = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0), extent,
                                ("ax" + Twine(created++)).str());
      rewriter.setInsertionPointToStart(loop.getBody());
      inputs.push_back(loop.getInductionVar());
      value = value + getAffineDimExpr(inputs.size() - 1, ctx);
    }
    if (dom.guardLo)
      constraints.push_back(value - dom.guardLo);
    if (dom.guardHi)
      constraints.push_back(dom.guardHi - value);
    bindings.push_back(value);
  }
  Operation *oldParent = c.block->getParentOp();
  rewriter.moveOpBefore(c.block, rewriter.getInsertionBlock(),
                        rewriter.getInsertionPoint());

  // Simplify with the ranges of the inputs, then keep the used ones.
  unsigned n = inputs.size();
  // As TVM, `lower + ax` stays as written, also for a unit loop (its lower
  // bound is already simplified).
  for (AffineExpr &e : bindings)
    e = simplifyIndexExpr(e, n, 0);
  for (AffineExpr &e : constraints)
    e = simplifyOverValues(e, inputs);
  llvm::SmallBitVector used(n);
  for (ArrayRef<AffineExpr> list :
       {ArrayRef<AffineExpr>(bindings), ArrayRef<AffineExpr>(constraints)})
    for (AffineExpr e : list)
      e.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          used.set(d.getPosition());
      });
  SmallVector<Value> operands;
  SmallVector<AffineExpr> compress;
  for (unsigned i = 0; i < n; ++i) {
    compress.push_back(getAffineDimExpr(operands.size(), ctx));
    if (used.test(i))
      operands.push_back(inputs[i]);
  }
  for (AffineExpr &e : bindings)
    e = e.replaceDims(compress);
  for (AffineExpr &e : constraints)
    e = e.replaceDims(compress);
  rewriter.modifyOpInPlace(c.block, [&] {
    c.block.setBindingsAttr(
        AffineMapAttr::get(makeInputMap(operands.size(), bindings, ctx)));
    if (constraints.empty()) {
      c.block.removePredicateAttr();
    } else {
      SmallVector<bool> eq(constraints.size(), false);
      c.block.setPredicateAttr(
          ArrayAttr::get(ctx, {IntegerSetAttr::get(makeInputSet(
                                  operands.size(), constraints, eq, ctx))}));
    }
    c.block.getBindingValuesMutable().assign(operands);
  });
  eraseEmptyLoops(rewriter, oldParent, root);
}

/// Where and how compute_at / reverse_compute_at would move the block: every
/// rule checked, nothing changed.
struct Placement {
  Plan plan;
  unsigned position;
  Operation *root;
};

FailureOr<Placement> planPlacement(Ctx &c, bool preserveUnitLoops,
                                   int64_t index, bool computeAt) {
  BlockOp block = c.block;
  ForOp loop = c.loop;
  Operation *root = getScopeRoot(block);
  BlockDependences scope(getScopeBlocks(root));
  if (failed(checkStagePipeline(c.primitive, scope, c.error)) ||
      failed(checkScope(c, root, scope)))
    return failure();
  if (computeAt) {
    for (Value b : scope.getWrites(block))
      if (!definedInside(b, root))
        return c.fail(block, "needs a block that is not an output block, but "
                             "block " +
                                 c.name() +
                                 " writes a buffer of its scope's caller "
                                 "(not allocated in the scope)");
  }
  SmallVector<BlockOp> producers = scope.getProducers(block);
  SmallVector<BlockOp> consumers = scope.getConsumers(block);
  SmallVector<BlockOp> &required = computeAt ? consumers : producers;
  for (BlockOp b : required)
    if (!loop->isAncestor(b))
      return c.fail(b, Twine("needs all the ") +
                           (computeAt ? "consumers" : "producers") +
                           " of block " + c.name() + " under loop " +
                           loopName(loop) + ", but block '" + b.getBlockName() +
                           "' is not (TVM: requires all the " +
                           (computeAt ? "consumer" : "producer") +
                           "(s) of the given block to be present under the "
                           "target loop)");
  FailureOr<unsigned> position =
      findPosition(c, root, producers, consumers, computeAt, index);
  if (failed(position))
    return failure();
  if (failed(checkPredicateDroppable(c)) || failed(checkOperandsAvailable(c)))
    return failure();
  if (!computeAt && failed(checkProducersFinished(c, producers, root)))
    return failure();
  FailureOr<Plan> plan = solveDomain(c, required, computeAt, preserveUnitLoops);
  if (failed(plan) || failed(checkLoopsRunningAtOnce(c, *plan, root)))
    return failure();
  return Placement{std::move(*plan), *position, root};
}

FailureOr<BlockOp> computeAtImpl(RewriterBase &rewriter, BlockOp block,
                                 ForOp loop, bool preserveUnitLoops,
                                 int64_t index, bool computeAt,
                                 ScheduleError &error) {
  Ctx c{computeAt ? "compute_at" : "reverse_compute_at", block, loop, error};
  FailureOr<Placement> placement =
      planPlacement(c, preserveUnitLoops, index, computeAt);
  if (failed(placement))
    return failure();
  rewrite(rewriter, c, placement->plan, placement->position, preserveUnitLoops,
          placement->root);
  return block;
}

} // namespace

FailureOr<BlockOp> mlir::tir::computeAt(RewriterBase &rewriter, BlockOp block,
                                        ForOp loop, bool preserveUnitLoops,
                                        int64_t index, ScheduleError &error) {
  return computeAtImpl(rewriter, block, loop, preserveUnitLoops, index,
                       /*computeAt=*/true, error);
}

bool mlir::tir::canComputeAt(BlockOp block, ForOp loop,
                             bool preserveUnitLoops) {
  ScheduleError ignored;
  Ctx c{"compute_at", block, loop, ignored};
  return succeeded(planPlacement(c, preserveUnitLoops, /*index=*/-1,
                                 /*computeAt=*/true));
}

bool mlir::tir::canReverseComputeAt(BlockOp block, ForOp loop,
                                    bool preserveUnitLoops) {
  ScheduleError ignored;
  Ctx c{"reverse_compute_at", block, loop, ignored};
  return succeeded(planPlacement(c, preserveUnitLoops, /*index=*/-1,
                                 /*computeAt=*/false));
}

FailureOr<BlockOp> mlir::tir::reverseComputeAt(RewriterBase &rewriter,
                                               BlockOp block, ForOp loop,
                                               bool preserveUnitLoops,
                                               int64_t index,
                                               ScheduleError &error) {
  return computeAtImpl(rewriter, block, loop, preserveUnitLoops, index,
                       /*computeAt=*/false, error);
}
