//===- ComputeInline.cpp - TVM's compute_inline and reverse_compute_inline ===//
//
// compute_inline removes a producer block `B[f(v)] = g(v)` and puts `g`
// where its buffer is read; reverse_compute_inline removes a consumer
// block `C[h(u)] = k(B[f(u)], u)` and makes its producer write `C`
// directly. The parts, in the order they run:
//   1. TVM's rules (no tir.init, one buffer written or read, a stage
//      pipeline, complete blocks, not an output block, the body pattern);
//   2. the index map inverted (InlineUtils: which iteration of the removed
//      block a load or store means);
//   3. the rewrite: the removed block's computation cloned to each place,
//      its iteration variables replaced; the block, its empty loops and
//      its buffer erased; the listed regions (and, for the reverse, the
//      producer's predicate) updated.
//
//===----------------------------------------------------------------------===//

#include "InlineUtils.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

struct Ctx {
  StringRef primitive;
  BlockOp block;
  ScheduleError &error;

  LogicalResult fail(Operation *culprit, const Twine &why) {
    return refuse(error, culprit, primitive + " " + why);
  }
  std::string name() { return ("'" + block.getBlockName() + "'").str(); }
};

/// The extents of `block`'s iteration variables (nullopt: runtime) and the
/// mask of those that are not of extent 1.
void getExtents(BlockOp block, SmallVectorImpl<std::optional<int64_t>> &extents,
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

/// The rule both primitives check first: no tir.init.
LogicalResult checkNoInit(Ctx &c) {
  if (c.block.getInitOp())
    return c.fail(c.block, "needs a block without tir.init, but block " +
                               c.name() +
                               " has one (TVM: the block has init "
                               "statement)");
  return success();
}

/// TVM's LeafBlockRemovalPlan: the removed block may not be the only one of
/// its scope.
LogicalResult checkNotOnlyLeaf(Ctx &c, const BlockDependences &scope) {
  if (scope.getBlocks().size() == 1)
    return c.fail(c.block, "cannot remove block " + c.name() +
                               ", the only block of its scope (TVM: the "
                               "block is the only leaf in the scope)");
  return success();
}

/// Every value from outside `source` that its body uses must be available
/// at `place`.
LogicalResult checkValuesAvailable(Ctx &c, BlockOp source, Operation *place,
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

//===----------------------------------------------------------------------===//
// compute_inline
//===----------------------------------------------------------------------===//

FailureOr<StoreOp> checkComputeInline(Ctx &c, Operation *root,
                                      const BlockDependences &scope,
                                      IndexInverse &inverse) {
  if (failed(checkNoInit(c)))
    return failure();
  ArrayRef<Value> writes = scope.getWrites(c.block);
  if (writes.size() != 1)
    return c.fail(c.block, "needs a block that writes a single buffer, but "
                           "block " +
                               c.name() + " writes " + Twine(writes.size()) +
                               " (TVM: the block is only allowed to write a "
                               "single buffer region)");
  if (failed(checkStagePipeline(c.primitive, scope, c.error)))
    return failure();
  Value buffer = writes.front();
  if (!isAllocatedIn(buffer, root))
    return c.fail(c.block, "needs a block that is not an output block, but "
                           "block " +
                               c.name() +
                               " writes a buffer not allocated in its scope");
  if (int rule = getCompleteBlockViolation(c.block, scope))
    return c.fail(c.block,
                  "needs a complete block, but block " + c.name() +
                      " is not: " + describeCompleteBlockViolation(rule));
  StoreOp store = getSingleStore(c.block);
  if (!store || store.getBuffer() != buffer)
    return c.fail(c.block,
                  "needs the body of block " + c.name() +
                      " to be one store `B[f(v)] = g(v)` (TVM: the body of "
                      "the inlined block should be in form of 'A[f(i, j, k, "
                      "...)] = g(i, j, k, ...)')");
  // TVM's trivial store: index k is variable k (or 0 for a unit variable
  // k from 0): variable k is the load's index k, also for a unit variable.
  unsigned numVars = c.block.getNumIterVars();
  if (store.getIndices().size() == numVars) {
    SmallVector<AffineExpr> exprs = getExprsOverInputs(store.getMap());
    bool trivial = true;
    for (unsigned k = 0; k < numVars && trivial; ++k) {
      auto d = dyn_cast<AffineDimExpr>(exprs[k]);
      auto zero = dyn_cast<AffineConstantExpr>(exprs[k]);
      trivial =
          (d && store.getIndices()[d.getPosition()] == c.block.getIterVar(k)) ||
          (zero && zero.getValue() == 0 &&
           c.block.getConstantDomainLower(k) == 0 &&
           c.block.getConstantDomainUpper(k) == 1);
    }
    if (trivial) {
      for (unsigned k = 0; k < numVars; ++k)
        inverse.vars.push_back(getAffineDimExpr(k, store.getContext()));
      if (failed(checkNoOpaqueUse(c.primitive, buffer, c.error)))
        return failure();
      return store;
    }
  }
  std::optional<SmallVector<AffineExpr>> indices =
      indicesOverIterVars(store, c.block);
  SmallVector<std::optional<int64_t>> extents;
  llvm::SmallBitVector needed;
  getExtents(c.block, extents, needed);
  Refusal why;
  FailureOr<IndexInverse> inv = failure();
  if (indices)
    inv = invertIndices(*indices, extents, needed, why);
  else
    why.message =
        "an index uses a value other than the block's iteration variables";
  // Indices that re-split a sum (B[v floordiv 4, v mod 4]) need a load's
  // index within its part: the buffer's dimension must not be larger.
  if (succeeded(inv)) {
    ArrayRef<int64_t> shape = cast<MemRefType>(buffer.getType()).getShape();
    for (auto [k, bound] : inv->bounded)
      if (ShapedType::isDynamic(shape[k]) || shape[k] > bound) {
        inv = failure();
        why.message = "index " + std::to_string(k) +
                      " takes a part of a fused sum smaller than the buffer's "
                      "dimension";
        break;
      }
  }
  if (failed(inv))
    return c.fail(c.block, "needs the store of block " + c.name() +
                               " to be a bijective affine map of its "
                               "iteration variables, but " +
                               why.message);
  inverse = *inv;
  if (failed(checkNoOpaqueUse(c.primitive, buffer, c.error)))
    return failure();
  return store;
}

} // namespace

namespace {
/// What compute_inline found: the block's store, its variables over the
/// store's indices, and the loads that get the stored value.
struct InlinePlan {
  Operation *root;
  StoreOp store;
  IndexInverse inverse;
  SmallVector<LoadOp> loads;
};

/// Every rule of compute_inline, nothing changed.
FailureOr<InlinePlan> planInline(Ctx &c) {
  BlockOp block = c.block;
  InlinePlan plan;
  plan.root = getScopeRoot(block);
  BlockDependences scope(getScopeBlocks(plan.root));
  FailureOr<StoreOp> store =
      checkComputeInline(c, plan.root, scope, plan.inverse);
  if (failed(store) || failed(checkNotOnlyLeaf(c, scope)))
    return failure();
  plan.store = *store;
  Value buffer = store->getBuffer();
  plan.root->walk([&](LoadOp load) {
    if (load.getBuffer() == buffer && !block->isAncestor(load))
      plan.loads.push_back(load);
  });
  DominanceInfo dominance(plan.root);
  for (LoadOp load : plan.loads)
    if (failed(checkValuesAvailable(c, block, load, dominance)))
      return failure();
  return plan;
}
} // namespace

bool mlir::tir::canComputeInline(BlockOp block) {
  ScheduleError ignored;
  Ctx c{"compute_inline", block, ignored};
  return succeeded(planInline(c));
}

LogicalResult mlir::tir::computeInline(RewriterBase &rewriter, BlockOp block,
                                       ScheduleError &error) {
  Ctx c{"compute_inline", block, error};
  FailureOr<InlinePlan> plan = planInline(c);
  if (failed(plan))
    return failure();
  Operation *root = plan->root;
  FailureOr<StoreOp> store = plan->store;
  IndexInverse &inverse = plan->inverse;
  ArrayRef<LoadOp> loads = plan->loads;
  Value buffer = plan->store.getBuffer();

  // Each load becomes the stored value, computed at the load with the
  // producer's iteration variables given by the load's indices.
  MLIRContext *ctx = block.getContext();
  for (LoadOp load : loads) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(load);
    ExprInputs in{ctx, {}};
    for (Value v : load.getIndices())
      in.dimOf(v);
    SmallVector<AffineExpr> loadIndices = getExprsOverInputs(load.getMap());
    SmallVector<AffineExpr> vars;
    for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
      AffineExpr v = inverse.vars[i];
      if (!v) // a unit variable
        v = getAffineConstantExpr(*block.getConstantDomainLower(i), ctx);
      vars.push_back(
          simplifyIndexExpr(v.replaceDims(loadIndices), in.values.size(), 0));
    }
    IRMapping mapping;
    cloneWithIterVars(rewriter, block, *store, vars, in.values, mapping);
    rewriter.replaceOp(load, mapping.lookupOrDefault(store->getValue()));
  }

  // The regions that listed the buffer, innermost blocks first.
  SmallVector<BlockOp> listing;
  root->walk([&](BlockOp b) {
    if (b != block && b != root &&
        (llvm::is_contained(b.getReadBuffers(), buffer) ||
         llvm::is_contained(b.getWriteBuffers(), buffer)))
      listing.push_back(b);
  });
  eraseBlockAndEmptyLoops(rewriter, block, root);
  for (BlockOp b : listing)
    updateListedRegions(rewriter, b, buffer);
  if (Operation *alloc = buffer.getDefiningOp(); alloc && buffer.use_empty())
    rewriter.eraseOp(alloc);
  return success();
}

//===----------------------------------------------------------------------===//
// reverse_compute_inline
//===----------------------------------------------------------------------===//

namespace {

/// What reverse_compute_inline found: the producer and its store, the
/// consumer's store and its loads of the buffer, and each consumer
/// iteration variable over the producer store's indices.
struct ReversePlan {
  Value buffer;
  BlockOp producer;
  StoreOp producerStore, consumerStore;
  SmallVector<LoadOp> consumerLoads;
  /// Inputs: the producer store's index operands first.
  SmallVector<Value> inputs;
  SmallVector<AffineExpr> vars;
  /// The consumer's domain as constraints over the inputs (each `c >= 0`)
  /// that the producer's domain does not already imply.
  SmallVector<AffineExpr> inBounds;
};

/// The one buffer `block` reads that some block of the scope writes.
FailureOr<Value> getSingleRead(Ctx &c, const BlockDependences &scope) {
  SmallVector<Value> written;
  for (Value b : scope.getReads(c.block))
    if (!scope.getWriters(b).empty() && !llvm::is_contained(written, b))
      written.push_back(b);
  if (written.size() != 1)
    return c.fail(c.block, "needs a block that reads a single buffer written "
                           "in its scope, but block " +
                               c.name() + " reads " + Twine(written.size()) +
                               " (TVM: the block is only allowed to read a "
                               "single buffer region)");
  return written.front();
}

/// The leaf blocks under `root` that write `buffer`: TVM's producers of a
/// consumer being inlined, looked for across nested scopes.
SmallVector<BlockOp> getLeafWriters(Operation *root, Value buffer) {
  SmallVector<BlockOp> writers;
  root->walk([&](BlockOp b) {
    if (b == root)
      return;
    bool leaf = true;
    b.getBody()->walk([&](BlockOp) { leaf = false; });
    SmallVector<Value> reads, writes;
    getAccessedBuffers(b, reads, writes);
    if (leaf && llvm::is_contained(writes, buffer))
      writers.push_back(b);
  });
  return writers;
}

FailureOr<ReversePlan> checkReverseInline(Ctx &c, Operation *root,
                                          const BlockDependences &scope) {
  if (failed(checkNoInit(c)) ||
      failed(checkStagePipeline(c.primitive, scope, c.error)))
    return failure();
  FailureOr<Value> buffer = getSingleRead(c, scope);
  if (failed(buffer))
    return failure();
  if (int rule = getCompleteBlockViolation(c.block, scope))
    return c.fail(c.block,
                  "needs a complete block, but block " + c.name() +
                      " is not: " + describeCompleteBlockViolation(rule));
  SmallVector<BlockOp> writers = getLeafWriters(root, *buffer);
  for (BlockOp w : writers) {
    Operation *wroot = getScopeRoot(w);
    BlockDependences wscope(getScopeBlocks(wroot));
    if (int rule = getCompleteBlockViolation(w, wscope))
      return c.fail(w, "needs the producer of block " + c.name() +
                           " to be a complete block, but block '" +
                           w.getBlockName() +
                           "' is not: " + describeCompleteBlockViolation(rule));
  }
  if (writers.size() != 1)
    return c.fail(c.block, "needs a single producer of block " + c.name() +
                               ", but it has " + Twine(writers.size()) +
                               " (TVM: the consumer block to be inlined is "
                               "required to have only a single producer "
                               "block)");
  ReversePlan plan;
  plan.buffer = *buffer;
  plan.producer = writers.front();
  if (!isAllocatedIn(*buffer, root))
    return c.fail(plan.producer,
                  "needs a producer that is not an output block, but block '" +
                      plan.producer.getBlockName() +
                      "' writes a buffer not allocated in its scope");
  // TVM assumes the consumer is the buffer's only reader; another would
  // read nothing after the inline.
  WalkResult other = root->walk([&](LoadOp load) {
    if (load.getBuffer() == *buffer && !c.block->isAncestor(load) &&
        !plan.producer->isAncestor(load))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (other.wasInterrupted())
    return c.fail(c.block, "needs block " + c.name() +
                               " to be the only reader of what its producer "
                               "writes, but another place reads it");

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
  if (!plan.producerStore || plan.producerStore.getBuffer() != *buffer)
    return c.fail(plan.producer, "needs the body of the producer '" +
                                     plan.producer.getBlockName() +
                                     "' to be one store of the buffer");
  c.block.getBody()->walk([&](LoadOp load) {
    if (load.getBuffer() == *buffer)
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
  if (failed(checkNoOpaqueUse(c.primitive, *buffer, c.error)))
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
void addInBoundsPredicate(RewriterBase &rewriter, const ReversePlan &plan) {
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

} // namespace

LogicalResult mlir::tir::reverseComputeInline(RewriterBase &rewriter,
                                              BlockOp block,
                                              ScheduleError &error) {
  Ctx c{"reverse_compute_inline", block, error};
  Operation *root = getScopeRoot(block);
  BlockDependences scope(getScopeBlocks(root));
  FailureOr<ReversePlan> plan = checkReverseInline(c, root, scope);
  if (failed(plan) || failed(checkNotOnlyLeaf(c, scope)))
    return failure();
  BlockOp producer = plan->producer;
  StoreOp out = plan->consumerStore;
  Value buffer = plan->buffer;
  auto isBufferLoad = [&](Operation *op) {
    auto load = dyn_cast<LoadOp>(op);
    return load && load.getBuffer() == buffer;
  };

  // The producer's own loads of the buffer (a reduction's update) read
  // what the consumer would have written.
  SmallVector<LoadOp> ownLoads;
  producer.getBody()->walk([&](LoadOp load) {
    if (load.getBuffer() == buffer)
      ownLoads.push_back(load);
  });
  for (LoadOp load : ownLoads) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(load);
    // Only the store's indices are needed: clone it alone, then read
    // where it writes.
    IRMapping mapping;
    SmallVector<Operation *> clones;
    cloneWithIterVars(
        rewriter, block, /*skip=*/nullptr, plan->vars, plan->inputs, mapping,
        [&](Operation *op) { return op != out.getOperation(); }, &clones);
    auto copy = cast<StoreOp>(clones.front());
    auto newLoad = LoadOp::create(rewriter, load.getLoc(), copy.getBuffer(),
                                  copy.getMap(), copy.getIndices());
    rewriter.eraseOp(copy);
    rewriter.replaceOp(load, newLoad.getResult());
  }
  // Each store of the buffer (the body's, the init's) becomes the
  // consumer's store of what it stored.
  SmallVector<StoreOp> stores;
  producer->walk([&](StoreOp store) {
    if (store.getBuffer() == buffer)
      stores.push_back(store);
  });
  for (StoreOp store : stores) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(store);
    Value stored = store.getValue();
    // Loads of the buffer become the stored value: those in the body are
    // not cloned, those nested in cloned regions (scf.if) are replaced.
    IRMapping mapping;
    for (LoadOp load : plan->consumerLoads)
      mapping.map(load.getResult(), stored);
    SmallVector<Operation *> clones;
    cloneWithIterVars(rewriter, block, /*skip=*/nullptr, plan->vars,
                      plan->inputs, mapping, isBufferLoad, &clones);
    for (Operation *clone : clones) {
      SmallVector<LoadOp> inner;
      clone->walk([&](LoadOp load) {
        if (load.getBuffer() == buffer)
          inner.push_back(load);
      });
      for (LoadOp load : inner)
        rewriter.replaceOp(load, stored);
    }
    rewriter.eraseOp(store);
  }
  addInBoundsPredicate(rewriter, *plan);
  eraseBlockAndEmptyLoops(rewriter, block, root);
  for (Operation *p = producer; p && p != root; p = p->getParentOp())
    if (auto b = dyn_cast<BlockOp>(p))
      updateListedRegions(rewriter, b, buffer);
  if (Operation *alloc = buffer.getDefiningOp(); alloc && buffer.use_empty())
    rewriter.eraseOp(alloc);
  return success();
}
