//===- DecomposeReduction.cpp - TVM's decompose_reduction -----------------===//
//
// Splits a reduction block in two: an init block, made of the block's
// tir.init and its spatial iteration variables, placed right before a loop
// above the block under copies of the loops that feed those variables; and
// the update block, the block itself without its init (renamed
// `<name>_update`). The parts, in the order they run:
//   1. legality: TVM's rules (the loop is above the block in its scope, the
//      block is a reduction block, no loop above the given one feeds a
//      reduce variable), then what TVM leaves unchecked but a correct
//      rewrite needs (see checkSound);
//   2. the plan: which loops between the given loop and the block the init
//      needs (those feeding a spatial variable), which it drops, and the
//      predicate it keeps;
//   3. the rewrite: the new loops and init block, then the update block.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "Utils.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

constexpr StringLiteral kPrimitive = "decompose_reduction";

/// One call: the block, the loop, the loops between them and the refusal
/// helper.
struct Ctx {
  BlockOp block;
  ForOp loop;
  ScheduleError &error;
  /// The loops from `loop` (first) down to the block.
  SmallVector<ForOp> inner;
  /// The loops of the scope above `loop`, outermost first.
  SmallVector<ForOp> outer;

  LogicalResult fail(Operation *culprit, const Twine &why) {
    return refuse(error, culprit, kPrimitive + " " + why);
  }
  std::string name() { return ("'" + block.getBlockName() + "'").str(); }
};

/// What the rewrite does.
struct Plan {
  /// The loops of Ctx::inner copied above the init block, outermost first.
  SmallVector<ForOp> chosen;
  /// The predicate of the init block, over the block's binding_values.
  SmallVector<Conjunction> predicate;
  /// The block's regions (inferred where it leaves them out, as TVMScript
  /// does: without the reads of what it writes); none when they cannot be.
  std::optional<BlockAccessRegions> regions;
};

/// Whether `value` is defined outside `op` (so it is available before it).
bool definedOutside(Value value, Operation *op) {
  Operation *owner = isa<BlockArgument>(value)
                         ? cast<BlockArgument>(value).getOwner()->getParentOp()
                         : value.getDefiningOp();
  return !op->isAncestor(owner);
}

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

/// TVM's rules, in TVM's order.
LogicalResult checkTVMRules(Ctx &c) {
  SmallVector<ForOp> loops = getLoops(c.block);
  auto *it = llvm::find(loops, c.loop);
  if (it == loops.end())
    return c.fail(c.loop, "needs loop " + loopName(c.loop) +
                              " to be an ancestor of block " + c.name() +
                              " in its scope (TVM: the input loop of "
                              "decompose_reduction is required to be an "
                              "ancestor of block)");
  c.outer.assign(loops.begin(), it);
  c.inner.assign(it, loops.end());

  Operation *root = getScopeRoot(c.block);
  int violation = getReductionBlockViolation(c.block, getScopeBlocks(root));
  if (violation) {
    static const char *rules[] = {
        "",
        "it has no tir.init",
        "a binding is not quasi-affine in the loops",
        "an iteration variable is neither spatial nor reduce",
        "another block of its scope writes its outputs",
        "a reduce variable indexes a buffer it writes"};
    return c.fail(c.block, "needs a reduction block, but block " + c.name() +
                               " is not one: " + rules[violation] +
                               " (TVM: not a reduction block, condition #" +
                               Twine(violation) + ")");
  }

  SmallVector<AffineExpr> bindings = c.block.getBindingExprs();
  for (unsigned i = 0, e = c.block.getNumIterVars(); i < e; ++i) {
    if (c.block.getIterType(i) != IterType::Reduce)
      continue;
    for (ForOp above : c.outer)
      if (bindingUses(c.block, bindings, i, above.getInductionVar())) {
        ScheduleError &err = c.error;
        LogicalResult r = c.fail(
            c.loop, "needs loop " + loopName(c.loop) +
                        " to be higher than every loop that feeds a reduce "
                        "variable of block " +
                        c.name() + ", but loop " + loopName(above) +
                        " above it feeds " + iterVarLabel(c.block, i) +
                        " (TVM: decompose_reduction expect the loop to be "
                        "higher than all the loops related to reduce block "
                        "var)");
        err.notes.push_back({above, "the loop that feeds the reduce variable"});
        return r;
      }
  }
  return success();
}

/// Another block under the loop that reads `buffer`, which the init
/// writes: in the original program it sees an element initialized once the
/// reduction first reaches it; with the init hoisted, from the start. The
/// two agree when the block comes after the reduction block under their
/// innermost common loop and reads, in one iteration of that loop, only
/// elements the reduction writes there (a dense box, no predicate).
LogicalResult checkLaterReader(Ctx &c, BlockOp other, Value buffer) {
  auto refuseReader = [&](const Twine &why) {
    return c.fail(other, "needs every other block under loop " +
                             loopName(c.loop) +
                             " that accesses what the init "
                             "of block " +
                             c.name() +
                             " writes to read, after the reduction, only "
                             "what it has reached, but block '" +
                             other.getBlockName() + "' " + why +
                             " (it would see the init's values earlier)");
  };
  ForOp common;
  for (Operation *p = other->getParentOp(); p; p = p->getParentOp())
    if (auto l = dyn_cast<ForOp>(p); l && l->isAncestor(c.block)) {
      common = l;
      break;
    }
  Block *body = common.getBody();
  Operation *mine = body->findAncestorOpInBlock(*c.block);
  Operation *theirs = body->findAncestorOpInBlock(*other);
  if (!mine->isBeforeInBlock(theirs))
    return refuseReader("comes before it");
  ScheduleError ignored;
  SmallVector<BlockOp> writer{c.block}, reader{other};
  FailureOr<LoopRegion> w =
      relaxRegionUnderLoop(common, buffer, true, writer, kPrimitive, ignored);
  FailureOr<LoopRegion> r =
      relaxRegionUnderLoop(common, buffer, false, reader, kPrimitive, ignored);
  FailureOr<LoopRegion> rw =
      relaxRegionUnderLoop(common, buffer, true, reader, kPrimitive, ignored);
  if (failed(w) || failed(r) || failed(rw) || !w->exact)
    return refuseReader("accesses it where the regions cannot be compared");
  if (!rw->lowers.empty())
    return refuseReader("writes it");
  // The reader's box inside the writer's, dimension by dimension, over one
  // list of inputs.
  SmallVector<Value> inputs(w->inputs);
  SmallVector<AffineExpr> remap;
  MLIRContext *ctx = c.block.getContext();
  for (Value v : r->inputs) {
    auto *it = llvm::find(inputs, v);
    remap.push_back(getAffineDimExpr(it - inputs.begin(), ctx));
    if (it == inputs.end())
      inputs.push_back(v);
  }
  for (unsigned d = 0, e = w->lowers.size(); d < e; ++d) {
    AffineExpr rLo = r->lowers[d].replaceDims(remap);
    AffineExpr rHi = rLo + r->extents[d].replaceDims(remap);
    AffineExpr wLo = w->lowers[d], wHi = wLo + w->extents[d];
    for (AffineExpr diff : {rLo - wLo, wHi - rHi}) {
      auto k = dyn_cast<AffineConstantExpr>(simplifyOverValues(diff, inputs));
      if (!k || k.getValue() < 0)
        return refuseReader("reads more than it writes there");
    }
  }
  return success();
}

/// Whether each iteration of the loops `c.inner` runs the block at another
/// point (spatial and reduce variables together): otherwise the block
/// repeats a reduction, re-initialized each time (after compute_at under a
/// fused loop whose other part feeds no variable, say), and the hoisted
/// init would run once for all the repetitions. And each point's first
/// iteration must be the one where the reduce variables start their
/// domains, where the original runs the init (not so for a reduction bound
/// backwards, `3 - k`). Decided with Presburger sets over the loop bounds
/// and the predicate: no two iterations l before l' with the same bindings,
/// none with the same spatial bindings and l' at the start.
LogicalResult checkRunsOnce(Ctx &c) {
  MLIRContext *ctx = c.block.getContext();
  unsigned m = c.inner.size();
  SmallVector<Value> params;
  auto paramDim = [&](Value v) {
    auto *it = llvm::find(params, v);
    if (it == params.end()) {
      params.push_back(v);
      it = std::prev(params.end());
    }
    return 2 * m + (it - params.begin());
  };
  // Dimension j (copy 0) or m + j (copy 1) for the j-th loop, 2m + p for
  // the other values; `nullopt` for a value computed inside the loops.
  auto dimOf = [&](Value v, unsigned copy) -> std::optional<unsigned> {
    for (auto [j, l] : llvm::enumerate(c.inner))
      if (l.getInductionVar() == v)
        return copy * m + j;
    if (!definedOutside(v, c.loop))
      return std::nullopt;
    return paramDim(v);
  };
  auto cannot = [&]() {
    return c.fail(c.block, "cannot prove that the iterations of the loops "
                           "from loop " +
                               loopName(c.loop) + " down to block " + c.name() +
                               " run it at distinct points (quasi-affine "
                               "bindings with constant divisors needed)");
  };
  // Expressions over (copy 0, copy 1, params).
  SmallVector<AffineExpr> eqs, ineqs;
  ValueRange values = c.block.getBindingValues();
  auto over = [&](AffineExpr e, unsigned copy) -> std::optional<AffineExpr> {
    SmallVector<AffineExpr> repl;
    for (auto [pos, v] : llvm::enumerate(values)) {
      std::optional<unsigned> d;
      if (e.isFunctionOfDim(pos) && !(d = dimOf(v, copy)))
        return std::nullopt;
      repl.push_back(d ? getAffineDimExpr(*d, ctx)
                       : getAffineConstantExpr(0, ctx));
    }
    return e.replaceDims(repl);
  };
  // Equalities of both systems (spatial bindings, predicate equalities),
  // and the reduce variables at the start of their domains in copy 1.
  SmallVector<AffineExpr> spatialEqs, atStart;
  for (auto [i, b] : llvm::enumerate(c.block.getBindingExprs())) {
    std::optional<AffineExpr> x = over(b, 0), y = over(b, 1);
    if (!x || !y)
      return cannot();
    bool reduce = c.block.getIterType(i) == IterType::Reduce;
    (reduce ? eqs : spatialEqs).push_back(*x - *y);
    if (!reduce)
      continue;
    OpFoldResult lower = c.block.getMixedDomainLower(i);
    AffineExpr start;
    if (auto v = dyn_cast<Value>(lower)) {
      std::optional<unsigned> d = dimOf(v, 1);
      if (!d)
        return cannot();
      start = getAffineDimExpr(*d, ctx);
    } else {
      start = getAffineConstantExpr(
          cast<IntegerAttr>(cast<Attribute>(lower)).getInt(), ctx);
    }
    atStart.push_back(*y - start);
  }
  SmallVector<IntegerSet> sets = c.block.getPredicateSets();
  if (sets.size() == 1)
    for (auto [k, e] : llvm::enumerate(getConstraintsOverInputs(sets[0])))
      for (unsigned copy : {0u, 1u}) {
        std::optional<AffineExpr> x = over(e, copy);
        if (!x)
          return cannot();
        (sets[0].isEq(k) ? spatialEqs : ineqs).push_back(*x);
      }
  for (auto [j, l] : llvm::enumerate(c.inner))
    for (unsigned copy : {0u, 1u}) {
      AffineExpr iv = getAffineDimExpr(copy * m + j, ctx);
      for (auto [bound, lower] : {std::pair(l.getMixedLowerBound(), true),
                                  std::pair(l.getMixedUpperBound(), false)}) {
        AffineExpr b;
        if (auto v = dyn_cast<Value>(bound)) {
          std::optional<unsigned> d = dimOf(v, copy);
          if (!d)
            return cannot();
          b = getAffineDimExpr(*d, ctx);
        } else {
          b = getAffineConstantExpr(
              cast<IntegerAttr>(cast<Attribute>(bound)).getInt(), ctx);
        }
        ineqs.push_back(lower ? iv - b : b - iv - 1);
      }
    }
  // One flattening for every expression, so that the systems below share
  // the local variables of floordiv / mod.
  unsigned numDims = 2 * m + params.size();
  SmallVector<AffineExpr> all(spatialEqs);
  unsigned numSpatial = all.size();
  llvm::append_range(all, eqs); // reduce bindings, predicate equalities
  unsigned numEqs = all.size();
  llvm::append_range(all, atStart);
  unsigned numAtStart = all.size();
  llvm::append_range(all, ineqs);
  for (AffineExpr e : all)
    if (!e.isPureAffine())
      return cannot();
  auto map = AffineMap::get(numDims, 0, all, ctx);
  std::vector<SmallVector<int64_t, 8>> flat;
  FlatLinearConstraints base;
  if (failed(getFlattenedAffineExprs(map, &flat, &base)))
    return cannot();
  for (unsigned k = 0; k < numSpatial; ++k)
    base.addEquality(flat[k]);
  for (unsigned k = numAtStart; k < flat.size(); ++k)
    base.addInequality(flat[k]);
  // l_k == l'_k for k < j and l_j < l'_j: copy 0 runs before copy 1, first
  // differing in loop j.
  auto before = [&](FlatLinearConstraints &cst, unsigned j) {
    for (unsigned k = 0; k <= j; ++k) {
      SmallVector<int64_t> row(cst.getNumCols(), 0);
      row[m + k] = 1;
      row[k] = -1;
      if (k == j) {
        row.back() = -1;
        cst.addInequality(row);
      } else {
        cst.addEquality(row);
      }
    }
  };
  for (unsigned j = 0; j < m; ++j) {
    FlatLinearConstraints pair(base);
    for (unsigned k = numSpatial; k < numEqs; ++k)
      pair.addEquality(flat[k]);
    before(pair, j);
    if (!pair.isIntegerEmpty())
      return c.fail(c.inner[j],
                    "needs each iteration of the loops from loop " +
                        loopName(c.loop) + " down to block " + c.name() +
                        " to run it at another point, but iterations of "
                        "loop " +
                        loopName(c.inner[j]) +
                        " repeat one: each repetition restarts the "
                        "reduction from its init, which would run once");
  }
  // The original runs the init where the reduce variables start their
  // domains; hoisted, it runs before every update of its point, so that
  // must be the first visit of the point.
  for (unsigned j = 0; j < m; ++j) {
    FlatLinearConstraints pair(base);
    for (unsigned k = numEqs; k < numAtStart; ++k)
      pair.addEquality(flat[k]);
    before(pair, j);
    if (!pair.isIntegerEmpty())
      return c.fail(c.inner[j],
                    "needs the iterations from loop " + loopName(c.loop) +
                        " down to block " + c.name() +
                        " to reach each point first where the reduce "
                        "variables start their domains (where its init "
                        "runs), but loop " +
                        loopName(c.inner[j]) +
                        " updates a point before that: the hoisted init "
                        "would run before those updates instead of after");
  }
  return success();
}

/// What a correct rewrite needs beyond TVM's rules. TVM would produce IR
/// that uses values out of scope, or that computes other numbers:
///   - the init may use only the spatial iteration variables, values
///     defined before the loop and pure values of the block (no buffer the
///     block allocates or matches);
///   - a loop between the given loop and the block that feeds no iteration
///     variable repeats the whole reduction, re-initialized each time: with
///     the init hoisted above it the repetitions would add up; so do loops
///     that feed variables but repeat points (checkRunsOnce);
///   - another block under the loop may read what the init writes only
///     where the reduction already reached it (checkLaterReader).
LogicalResult checkSound(Ctx &c) {
  Block *body = c.block.getBody();
  InitOp init = c.block.getInitOp();
  SmallVector<Value> reduceVars;
  for (unsigned i = 0, e = c.block.getNumIterVars(); i < e; ++i)
    if (c.block.getIterType(i) == IterType::Reduce)
      reduceVars.push_back(c.block.getIterVar(i));
  // Values the init uses, through the pure ops of the block it needs (whose
  // operands are checked as the init's).
  SmallVector<Operation *> pureDeps;
  auto check = [&](Operation *op) {
    for (Value v : op->getOperands()) {
      if (init->isAncestor(v.getParentBlock()->getParentOp()))
        continue;
      if (llvm::is_contained(reduceVars, v)) {
        (void)c.fail(
            op,
            "needs an init that uses no reduce variable, but "
            "the init of block " +
                c.name() + " uses " +
                iterVarLabel(c.block, cast<BlockArgument>(v).getArgNumber()));
        return WalkResult::interrupt();
      }
      if (v.getParentBlock() == body) {
        Operation *def = v.getDefiningOp();
        if (!def || (!isa<AllocBufferOp, MatchBufferOp>(def) &&
                     isMemoryEffectFree(def))) {
          if (def && !llvm::is_contained(pureDeps, def))
            pureDeps.push_back(def);
          continue; // An iteration variable, or a pure value (cloned).
        }
        (void)c.fail(op, "needs an init that uses no buffer block " + c.name() +
                             " allocates or matches, but its init uses "
                             "one (it would be out of scope)");
        return WalkResult::interrupt();
      }
      if (!definedOutside(v, c.loop)) {
        (void)c.fail(op, "needs the values the init of block " + c.name() +
                             " uses defined before loop " + loopName(c.loop) +
                             ", but one is defined inside it");
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  };
  if (init.walk(check).wasInterrupted())
    return failure();
  for (unsigned i = 0; i < pureDeps.size(); ++i)
    if (check(pureDeps[i]).wasInterrupted())
      return failure();

  SmallVector<AffineExpr> bindings = c.block.getBindingExprs();
  for (ForOp l : c.inner) {
    std::optional<int64_t> extent = l.getConstantExtent();
    if (extent && *extent == 1)
      continue;
    bool feeds = false;
    for (unsigned i = 0, e = c.block.getNumIterVars(); i < e && !feeds; ++i)
      feeds = bindingUses(c.block, bindings, i, l.getInductionVar());
    if (!feeds)
      return c.fail(l, "needs every loop between loop " + loopName(c.loop) +
                           " and block " + c.name() +
                           " to feed an iteration variable, but loop " +
                           loopName(l) +
                           " feeds none: each of its iterations repeats the "
                           "reduction from its init, which would run once");
  }

  if (failed(checkRunsOnce(c)))
    return failure();

  // Other blocks under the loop that access the init's buffers.
  Operation *root = getScopeRoot(c.block);
  BlockDependences scope(getScopeBlocks(root));
  ArrayRef<Value> written = scope.getWrites(c.block);
  for (BlockOp other : collectChildBlocks(c.loop)) {
    if (other == c.block)
      continue;
    for (Value b : written)
      if (llvm::is_contained(scope.getReads(other), b) ||
          llvm::is_contained(scope.getWrites(other), b))
        if (failed(checkLaterReader(c, other, b)))
          return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Plan
//===----------------------------------------------------------------------===//

FailureOr<Plan> makePlan(Ctx &c) {
  Plan plan;
  SmallVector<AffineExpr> bindings = c.block.getBindingExprs();
  ValueRange values = c.block.getBindingValues();
  unsigned numVars = c.block.getNumIterVars();
  // A loop of `inner` goes with the init when it feeds a spatial variable
  // (TVM's rule); the others are dropped.
  SmallVector<Value> dropped;
  for (ForOp l : c.inner) {
    bool feeds = false;
    for (unsigned i = 0; i < numVars && !feeds; ++i)
      feeds = c.block.getIterType(i) == IterType::Spatial &&
              bindingUses(c.block, bindings, i, l.getInductionVar());
    if (feeds)
      plan.chosen.push_back(l);
    else
      dropped.push_back(l.getInductionVar());
  }
  SmallVector<Value> kept;
  for (ForOp l : plan.chosen)
    kept.push_back(l.getInductionVar());

  // The inputs the init uses must be available above the loop: defined
  // before it, or the variable of a copied loop (whose bounds in turn
  // must be available).
  auto available = [&](Value v) {
    return definedOutside(v, c.loop) || llvm::is_contained(kept, v);
  };
  auto checkInput = [&](Value v, const Twine &what) -> LogicalResult {
    if (available(v))
      return success();
    return c.fail(c.block, "needs the " + what + " of the init of block " +
                               c.name() + " computed before loop " +
                               loopName(c.loop) +
                               ", but one is computed inside it");
  };
  for (unsigned i = 0; i < numVars; ++i) {
    if (c.block.getIterType(i) != IterType::Spatial)
      continue;
    for (auto [pos, v] : llvm::enumerate(values))
      if (bindings[i].isFunctionOfDim(pos) && failed(checkInput(v, "bindings")))
        return failure();
    for (OpFoldResult bound :
         {c.block.getMixedDomainLower(i), c.block.getMixedDomainUpper(i)})
      if (auto v = dyn_cast<Value>(bound);
          v && failed(checkInput(v, "domains")))
        return failure();
  }
  for (ForOp l : plan.chosen)
    for (Value v : l.getDynamicBounds())
      if (failed(checkInput(v, "loop bounds")))
        return failure();
  if (Value cond = c.block.getCondition();
      cond && !definedOutside(cond, c.loop))
    return c.fail(c.block, "needs the condition of block " + c.name() +
                               " computed before loop " + loopName(c.loop) +
                               ", but it is computed inside it");
  // The predicate: constraints over the dropped loops go (TVM's
  // RemakePredicate); a constraint mixing them with other values, or a
  // disjunction involving them, has no exact counterpart without them.
  llvm::SmallBitVector droppedDims(values.size());
  for (auto [pos, v] : llvm::enumerate(values))
    if (dependsOnAny(v, dropped))
      droppedDims.set(pos);
  auto involves = [&](AffineExpr e, bool wantDropped) {
    for (unsigned pos = 0; pos < values.size(); ++pos)
      if (e.isFunctionOfDim(pos) && droppedDims.test(pos) == wantDropped)
        return true;
    return false;
  };
  SmallVector<IntegerSet> sets = c.block.getPredicateSets();
  for (IntegerSet set : sets) {
    Conjunction conj;
    SmallVector<AffineExpr> constraints = getConstraintsOverInputs(set);
    for (auto [k, e] : llvm::enumerate(constraints)) {
      if (!involves(e, /*wantDropped=*/true)) {
        conj.constraints.push_back(e);
        conj.eqFlags.push_back(set.isEq(k));
        continue;
      }
      if (sets.size() > 1)
        return c.fail(c.block, "cannot drop the loops below loop " +
                                   loopName(c.loop) +
                                   " from the predicate of block " + c.name() +
                                   ", a disjunction (TVM: unexpected "
                                   "predicate for reduction block)");
      if (involves(e, /*wantDropped=*/false))
        return c.fail(c.block,
                      "cannot drop the loops below loop " + loopName(c.loop) +
                          " from the predicate of block " + c.name() +
                          ": a constraint relates them to the loops the "
                          "init keeps (TVM drops it, so the init would "
                          "write elements the reduction does not update)");
    }
    plan.predicate.push_back(std::move(conj));
  }
  Refusal noRegions;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(c.block, noRegions);
  if (succeeded(regions))
    plan.regions = std::move(*regions);
  // A conjunction left empty is `true`: the whole predicate goes.
  if (llvm::any_of(plan.predicate,
                   [](const Conjunction &j) { return j.constraints.empty(); }))
    plan.predicate.clear();
  for (const Conjunction &j : plan.predicate)
    for (AffineExpr e : j.constraints)
      for (auto [pos, v] : llvm::enumerate(values))
        if (e.isFunctionOfDim(pos) && failed(checkInput(v, "predicate")))
          return failure();
  return plan;
}

//===----------------------------------------------------------------------===//
// Rewrite
//===----------------------------------------------------------------------===//

/// Clones `op`'s operand definitions that are pure ops of `body` (before
/// the init), then `op`, into the insertion point.
void cloneWithPureDeps(OpBuilder &b, Operation *op, Block *body,
                       IRMapping &map) {
  for (Value v : op->getOperands())
    if (Operation *def = v.getDefiningOp();
        def && def->getBlock() == body && !map.contains(v))
      cloneWithPureDeps(b, def, body, map);
  op->walk([&](Operation *nested) {
    if (nested == op)
      return;
    for (Value v : nested->getOperands())
      if (Operation *def = v.getDefiningOp();
          def && def->getBlock() == body && !map.contains(v))
        cloneWithPureDeps(b, def, body, map);
  });
  b.clone(*op, map);
}

BlockOp rewrite(RewriterBase &rewriter, Ctx &c, const Plan &plan) {
  MLIRContext *ctx = c.block.getContext();
  Location loc = c.block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(c.loop);

  // Copies of the chosen loops (bounds, kind, thread, annotations), their
  // variables named `<name>_init`.
  IRMapping loopMap;
  copyLoops(rewriter, plan.chosen, loopMap, "_init");

  // The init block: the spatial variables, their bindings over the inputs
  // they use (copied loops mapped), the kept predicate, the write regions.
  ValueRange values = c.block.getBindingValues();
  SmallVector<AffineExpr> bindings = c.block.getBindingExprs();
  SmallVector<unsigned> spatial;
  for (unsigned i = 0, e = c.block.getNumIterVars(); i < e; ++i)
    if (c.block.getIterType(i) == IterType::Spatial)
      spatial.push_back(i);
  llvm::SmallBitVector used(values.size());
  auto markUsed = [&](AffineExpr e) {
    for (unsigned pos = 0; pos < values.size(); ++pos)
      if (e.isFunctionOfDim(pos))
        used.set(pos);
  };
  for (unsigned i : spatial)
    markUsed(bindings[i]);
  for (const Conjunction &j : plan.predicate)
    for (AffineExpr e : j.constraints)
      markUsed(e);
  SmallVector<Value> operands;
  SmallVector<AffineExpr> compress;
  for (unsigned pos = 0; pos < values.size(); ++pos) {
    compress.push_back(getAffineDimExpr(operands.size(), ctx));
    if (used.test(pos))
      operands.push_back(loopMap.lookupOrDefault(values[pos]));
  }
  SmallVector<std::string> names;
  for (unsigned i : spatial)
    names.push_back(c.block.getVarNames() ? iterVarName(c.block, i) : "");
  SmallVector<IterVarSpec> vars;
  for (auto [k, i] : llvm::enumerate(spatial))
    vars.push_back({IterType::Spatial, c.block.getMixedDomainLower(i),
                    c.block.getMixedDomainUpper(i),
                    bindings[i].replaceDims(compress), names[k]});
  SmallVector<Conjunction> predicate(plan.predicate);
  for (Conjunction &j : predicate)
    for (AffineExpr &e : j.constraints)
      e = e.replaceDims(compress);

  InitOp init = c.block.getInitOp();
  Block *body = c.block.getBody();
  auto initBlock = BlockOp::create(
      rewriter, loc, (c.block.getBlockName() + "_init").str(), vars, operands,
      [&](OpBuilder &b, Location, ValueRange args) {
        IRMapping map;
        for (auto [k, i] : llvm::enumerate(spatial))
          map.map(c.block.getIterVar(i), args[k]);
        for (Operation &op : *init.getBody())
          cloneWithPureDeps(b, &op, body, map);
      },
      predicate);
  if (auto annotations = c.block.getAnnotationsAttr())
    initBlock.setAnnotationsAttr(annotations);
  // Where the block lists its regions (or they were inferred), the init
  // block lists what its body accesses.
  if (plan.regions) {
    Refusal failure;
    FailureOr<BlockAccessRegions> regions =
        getAccessRegions(initBlock, failure);
    if (succeeded(regions))
      setRegions(initBlock, *regions);
  }
  if (Value cond = c.block.getCondition())
    initBlock.getConditionMutable().assign(cond);

  // The update block: no init, renamed, reading what it writes (TVM's
  // regions, where the block's own reads left out what it writes).
  rewriter.modifyOpInPlace(c.block, [&] {
    c.block.setBlockName((c.block.getBlockName() + "_update").str());
    if (plan.regions) {
      BlockAccessRegions regions = *plan.regions;
      SmallVector<std::pair<Value, RegionExprs>> reads;
      for (auto &write : regions.writes)
        if (llvm::none_of(regions.reads,
                          [&](auto &r) { return r.first == write.first; }) &&
            llvm::none_of(reads,
                          [&](auto &r) { return r.first == write.first; }))
          reads.push_back(write);
      llvm::append_range(reads, regions.reads);
      regions.reads = std::move(reads);
      setRegions(c.block, regions);
    }
  });
  // Pure values before the init that only the init used go with it.
  SmallVector<Operation *> before;
  for (Operation &op : *body) {
    if (&op == init.getOperation())
      break;
    before.push_back(&op);
  }
  rewriter.eraseOp(init);
  for (Operation *op : llvm::reverse(before))
    if (op->use_empty() && isMemoryEffectFree(op) && op->getNumRegions() == 0)
      rewriter.eraseOp(op);
  return initBlock;
}

} // namespace

FailureOr<BlockOp> mlir::tir::decomposeReduction(RewriterBase &rewriter,
                                                 BlockOp block, ForOp loop,
                                                 ScheduleError &error) {
  Ctx c{block, loop, error, {}, {}};
  if (failed(checkTVMRules(c)) || failed(checkSound(c)))
    return failure();
  // Under an empty loop the block runs no instance, so its init never runs;
  // the init block decomposed from it would.
  if (failed(checkNoEmptyNest(c.loop, kPrimitive, error)))
    return failure();
  FailureOr<Plan> plan = makePlan(c);
  if (failed(plan))
    return failure();
  return rewrite(rewriter, c, *plan);
}
