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
#include "ReverseInline.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

/// The rule both primitives check first: no tir.init.
LogicalResult checkNoInit(InlineCtx &c) {
  if (c.block.getInitOp())
    return c.fail(c.block, "needs a block without tir.init, but block " +
                               c.name() +
                               " has one (TVM: the block has init "
                               "statement)");
  return success();
}

/// TVM's LeafBlockRemovalPlan: the removed block may not be the only one of
/// its scope.
LogicalResult checkNotOnlyLeaf(InlineCtx &c, const BlockDependences &scope) {
  if (scope.getBlocks().size() == 1)
    return c.fail(c.block, "cannot remove block " + c.name() +
                               ", the only block of its scope (TVM: the "
                               "block is the only leaf in the scope)");
  return success();
}

//===----------------------------------------------------------------------===//
// compute_inline
//===----------------------------------------------------------------------===//

FailureOr<StoreOp> checkComputeInline(InlineCtx &c, Operation *root,
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
FailureOr<InlinePlan> planInline(InlineCtx &c) {
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
  InlineCtx c{"compute_inline", block, ignored};
  return succeeded(planInline(c));
}

LogicalResult mlir::tir::computeInline(RewriterBase &rewriter, BlockOp block,
                                       ScheduleError &error) {
  InlineCtx c{"compute_inline", block, error};
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

/// The one buffer `block` reads that some block of the scope writes.
FailureOr<Value> getSingleRead(InlineCtx &c, const BlockDependences &scope) {
  SmallVector<Value> written;
  auto reads = scope.getReads(c.block);
  for (Value b : reads)
    if (!scope.getWriters(b).empty() && !llvm::is_contained(written, b))
      written.push_back(b);
  if (written.size() != 1)
    return c.fail(c.block, "needs a block that reads a single buffer written "
                           "in its scope, but block " +
                               c.name() + " reads " + Twine(written.size()) +
                               " (TVM: The block is only allowed to read a "
                               "single buffer region, but it reads " +
                               Twine(llvm::size(reads)) + " region(s))");
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

FailureOr<ReversePlan> checkReverseInline(InlineCtx &c, Operation *root,
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
  BlockOp producer = writers.front();
  if (!isAllocatedIn(*buffer, root))
    return c.fail(producer,
                  "needs a producer that is not an output block, but block '" +
                      producer.getBlockName() +
                      "' writes a buffer not allocated in its scope");
  // TVM assumes the consumer is the buffer's only reader; another would
  // read nothing after the inline.
  WalkResult other = root->walk([&](LoadOp load) {
    if (load.getBuffer() == *buffer && !c.block->isAncestor(load) &&
        !producer->isAncestor(load))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (other.wasInterrupted())
    return c.fail(c.block, "needs block " + c.name() +
                               " to be the only reader of what its producer "
                               "writes, but another place reads it");
  return planReverseInline(c, root, *buffer, producer);
}

} // namespace

LogicalResult mlir::tir::reverseComputeInline(RewriterBase &rewriter,
                                              BlockOp block,
                                              ScheduleError &error) {
  InlineCtx c{"reverse_compute_inline", block, error};
  Operation *root = getScopeRoot(block);
  BlockDependences scope(getScopeBlocks(root));
  FailureOr<ReversePlan> plan = checkReverseInline(c, root, scope);
  if (failed(plan) || failed(checkNotOnlyLeaf(c, scope)))
    return failure();
  BlockOp producer = plan->producer;
  Value buffer = plan->buffer;
  auto isBufferLoad = [&](Operation *op) {
    auto load = dyn_cast<LoadOp>(op);
    return load && load.getBuffer() == buffer;
  };

  // The producer's own loads of the buffer (a reduction's update) read
  // what the consumer would have written.
  redirectProducerLoads(rewriter, *plan, block);
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
