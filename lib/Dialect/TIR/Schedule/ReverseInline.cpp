//===- ReverseInline.cpp - the plan of a reverse inline -------------------===//
//
// See ReverseInline.h.
//
//===----------------------------------------------------------------------===//

#include "ReverseInline.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// The extents of `block`'s iteration variables (nullopt: runtime) and the
/// mask of those that are not of extent 1.
void mlir::tir::sched::getExtents(
    BlockOp block, SmallVectorImpl<std::optional<int64_t>> &extents,
    llvm::SmallBitVector &needed) {
  unsigned n = block.getNumIterVars();
  needed.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    auto lo = block.getConstantDomainLower(i);
    auto hi = block.getConstantDomainUpper(i);
    std::optional<int64_t> extent;
    if (lo && hi)
      extent = *hi - *lo;
    extents.push_back(extent);
    needed[i] = !extent || *extent != 1;
  }
}

/// Every value from outside `source` that its body uses must be available
/// at `place`.
LogicalResult mlir::tir::sched::checkValuesAvailable(InlineCtx &c,
                                                     BlockOp source,
                                                     Operation *place,
                                                     DominanceInfo &dominance) {
  WalkResult r = source.getBody()->walk([&](Operation *op) {
    for (Value v : op->getOperands()) {
      Operation *owner = isa<BlockArgument>(v)
                             ? cast<BlockArgument>(v).getOwner()->getParentOp()
                             : v.getDefiningOp();
      if (owner && source->isAncestor(owner))
        continue;
      if (!dominance.properlyDominates(v, place))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return c.fail(place, "cannot move the computation of block '" +
                             source.getBlockName() +
                             "' here: it uses a value that is not available "
                             "at this place");
  return success();
}

FailureOr<ReversePlan> mlir::tir::sched::planReverseInline(InlineCtx &c,
                                                           Operation *root,
                                                           Value buffer,
                                                           BlockOp producer) {
  ReversePlan plan;
  plan.buffer = buffer;
  plan.producer = producer;
  // The body pattern.
  auto bodyError = [&](const Twine &why) {
    return c.fail(c.block,
                  "needs the body of block " + c.name() +
                      " to be `C[...] = g(B[f(u)], ...)` with one index map f "
                      "of its iteration variables that the producer covers, "
                      "and no predicate, but " +
                      why);
  };
  if (c.block.getPredicate() || c.block.getCondition())
    return bodyError("it has a predicate");
  plan.consumerStore = getSingleStore(c.block);
  if (!plan.consumerStore)
    return bodyError("it is not a single store");
  plan.producerStore = getSingleStore(plan.producer);
  if (!plan.producerStore || plan.producerStore.getBuffer() != buffer)
    return c.fail(plan.producer, "needs the body of the producer '" +
                                     plan.producer.getBlockName() +
                                     "' to be one store of the buffer");
  c.block.getBody()->walk([&](LoadOp load) {
    if (load.getBuffer() == buffer)
      plan.consumerLoads.push_back(load);
  });
  if (plan.consumerLoads.empty())
    return bodyError("it does not load the buffer itself");
  LoadOp first = plan.consumerLoads.front();
  for (LoadOp load : plan.consumerLoads)
    if (load.getMap() != first.getMap() ||
        !llvm::equal(load.getIndices(), first.getIndices()))
      return bodyError("it loads the buffer at different indices");
  std::optional<SmallVector<AffineExpr>> indices =
      indicesOverIterVars(first, c.block, /*keepUnitVars=*/true);
  if (!indices)
    return bodyError("an index uses a value other than its iteration "
                     "variables");
  SmallVector<std::optional<int64_t>> extents;
  llvm::SmallBitVector needed;
  getExtents(c.block, extents, needed);
  Refusal why;
  FailureOr<IndexInverse> inverse =
      invertIndices(*indices, extents, needed, why);
  if (failed(inverse))
    return bodyError(why.message);

  // The consumer's variables over the producer's store indices.
  MLIRContext *ctx = c.block.getContext();
  ExprInputs in{ctx, {}};
  for (Value v : plan.producerStore.getIndices())
    in.dimOf(v);
  SmallVector<AffineExpr> stored =
      getExprsOverInputs(plan.producerStore.getMap());
  SmallVector<std::optional<Interval>> ranges = getValueRanges(in.values);
  for (auto [k, bound] : inverse->bounded) {
    auto r = evaluateRange(stored[k], ranges);
    if (!r || r->lo < 0 || r->hi >= bound)
      return bodyError("the producer's index " + Twine(k) + " may leave [0, " +
                       Twine(bound) + "), where the consumer reads it");
  }
  for (auto [k, value] : inverse->constants) {
    auto r = evaluateRange(stored[k], ranges);
    if (!r || !r->isPoint() || r->lo != value)
      return bodyError("it reads only index " + Twine(value) +
                       " of dimension " + Twine(k) +
                       ", which the producer iterates");
  }
  for (unsigned i = 0, e = c.block.getNumIterVars(); i < e; ++i) {
    if (!inverse->vars[i]) {
      plan.vars.push_back(
          getAffineConstantExpr(*c.block.getConstantDomainLower(i), ctx));
      continue;
    }
    AffineExpr v = simplifyIndexExpr(inverse->vars[i].replaceDims(stored),
                                     in.values.size(), 0);
    plan.vars.push_back(v);
    // A producer variable of the same domain covers it exactly (also for a
    // runtime domain).
    if (auto d = dyn_cast<AffineDimExpr>(v)) {
      auto arg = dyn_cast<BlockArgument>(in.values[d.getPosition()]);
      if (arg && arg.getOwner() == plan.producer.getBody()) {
        unsigned j = arg.getArgNumber();
        if (isEqualConstantIntOrValue(plan.producer.getMixedDomainLower(j),
                                      c.block.getMixedDomainLower(i)) &&
            isEqualConstantIntOrValue(plan.producer.getMixedDomainUpper(j),
                                      c.block.getMixedDomainUpper(i)))
          continue;
      }
    }
    // TVM's coverage rule, then the domain as a predicate where the
    // producer's domain does not imply it.
    std::optional<int64_t> lo = c.block.getConstantDomainLower(i);
    std::optional<int64_t> hi = c.block.getConstantDomainUpper(i);
    std::optional<Interval> r = evaluateRange(v, ranges);
    if (r && ((lo && r->lo > *lo) || (hi && r->hi < *hi - 1)))
      return bodyError("the producer does not cover its iteration variable " +
                       iterVarLabel(c.block, i));
    if (!lo || !hi)
      return bodyError("iteration variable " + iterVarLabel(c.block, i) +
                       " has a runtime domain");
    if (!r || r->lo < *lo)
      plan.inBounds.push_back(v - *lo);
    if (!r || r->hi > *hi - 1)
      plan.inBounds.push_back(getAffineConstantExpr(*hi - 1, ctx) - v);
  }
  plan.inputs = in.values;
  if (failed(checkNoOpaqueUse(c.primitive, buffer, c.error)))
    return failure();
  DominanceInfo dominance(root);
  if (failed(checkValuesAvailable(c, c.block, plan.producer, dominance)))
    return failure();
  // The consumer's variables are computed from the producer store's
  // indices at each store of the buffer (the init's too), and the
  // predicate is written over the producer's bindings: the indices may use
  // its iteration variables and values from outside it.
  for (Value v : plan.inputs) {
    auto arg = dyn_cast<BlockArgument>(v);
    bool iterVar = arg && arg.getOwner() == plan.producer.getBody();
    Operation *owner = arg ? arg.getOwner()->getParentOp() : v.getDefiningOp();
    if ((!iterVar && owner && plan.producer->isAncestor(owner)) ||
        (!iterVar && !plan.inBounds.empty()))
      return bodyError("the producer's store uses a value other than its "
                       "iteration variables");
  }
  return plan;
}

/// Adds the consumer's domain to the producer's predicate, over its
/// bindings (constraints already there are not repeated).
void mlir::tir::sched::addInBoundsPredicate(RewriterBase &rewriter,
                                            const ReversePlan &plan) {
  if (plan.inBounds.empty())
    return;
  BlockOp producer = plan.producer;
  MLIRContext *ctx = producer.getContext();
  SmallVector<AffineExpr> bindings = producer.getBindingExprs();
  ValueRange bindingValues = producer.getBindingValues();
  SmallVector<AffineExpr> replacements;
  for (Value v : plan.inputs)
    replacements.push_back(bindings[cast<BlockArgument>(v).getArgNumber()]);
  unsigned n = bindingValues.size();
  SmallVector<Value> values(bindingValues);
  SmallVector<AffineExpr> added;
  for (AffineExpr e : plan.inBounds) {
    AffineExpr over = simplifyOverValues(e.replaceDims(replacements), values);
    if (auto k = dyn_cast<AffineConstantExpr>(over); k && k.getValue() >= 0)
      continue;
    added.push_back(over);
  }
  tightenDivisionBounds(added);
  if (added.empty())
    return;
  SmallVector<Conjunction> disjuncts;
  for (IntegerSet set : producer.getPredicateSets()) {
    Conjunction conj;
    conj.constraints = getConstraintsOverInputs(set);
    for (unsigned i = 0; i < set.getNumConstraints(); ++i)
      conj.eqFlags.push_back(set.isEq(i));
    disjuncts.push_back(conj);
  }
  if (disjuncts.empty())
    disjuncts.emplace_back();
  SmallVector<Attribute> sets;
  for (Conjunction &conj : disjuncts) {
    for (AffineExpr e : added) {
      bool present = false;
      for (auto [c, eq] : llvm::zip(conj.constraints, conj.eqFlags))
        present |= !eq && c == e;
      if (!present) {
        conj.constraints.push_back(e);
        conj.eqFlags.push_back(false);
      }
    }
    sets.push_back(IntegerSetAttr::get(
        makeInputSet(n, conj.constraints, conj.eqFlags, ctx)));
  }
  rewriter.modifyOpInPlace(
      producer, [&] { producer.setPredicateAttr(ArrayAttr::get(ctx, sets)); });
}

StoreOp mlir::tir::sched::cloneConsumerStore(RewriterBase &rewriter,
                                             const ReversePlan &plan,
                                             BlockOp consumer) {
  IRMapping mapping;
  SmallVector<Operation *> clones;
  Operation *store = StoreOp(plan.consumerStore).getOperation();
  cloneWithIterVars(
      rewriter, consumer, /*skip=*/nullptr, plan.vars, plan.inputs, mapping,
      [&](Operation *op) { return op != store; }, &clones);
  return cast<StoreOp>(clones.front());
}

void mlir::tir::sched::redirectProducerLoads(RewriterBase &rewriter,
                                             const ReversePlan &plan,
                                             BlockOp consumer) {
  SmallVector<LoadOp> ownLoads;
  BlockOp(plan.producer).getBody()->walk([&](LoadOp load) {
    if (load.getBuffer() == plan.buffer)
      ownLoads.push_back(load);
  });
  for (LoadOp load : ownLoads) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(load);
    // Only the store's indices are needed: clone it alone, then read
    // where it writes.
    StoreOp at = cloneConsumerStore(rewriter, plan, consumer);
    auto newLoad = LoadOp::create(rewriter, load.getLoc(), at.getBuffer(),
                                  at.getMap(), at.getIndices());
    rewriter.eraseOp(at);
    rewriter.replaceOp(load, newLoad.getResult());
  }
}
