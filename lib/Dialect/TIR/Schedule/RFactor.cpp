//===- RFactor.cpp - TVM's rfactor ----------------------------------------===//
//
// Factors a reduction by one of its loops: the reduction block B under
// loop `rf` becomes two blocks,
//   - the rfactor block `B_rf`, under copies of all of B's loops placed
//     before them, which reduces into `B_rf` buffers that have one more
//     dimension (at `factor_axis`), indexed by a new spatial variable bound
//     to `rf`: each iteration of `rf` gets a partial result of its own;
//   - the write-back block (B itself, so handles to it stay valid) under
//     B's loops less those that fed a reduce variable, `rf` excepted, which
//     reduces the partial results into B's buffers: a reduce variable bound
//     to `rf` and B's spatial variables.
// A reduce variable whose binding uses `rf` is replaced in B_rf by new
// reduce variables, one per other loop its binding uses (`vk = ko * 4 +
// ki` with rf = ki: a spatial `vki`, a reduce `vko`, and `vk` is `vko * 4 +
// vki`). When no reduce variable is left, B_rf stores the new values
// without an init.
//
// The parts: TVM's legality (one block under the loop, a stage-pipeline
// scope, a reduction block, a serial loop, TVM's four loop properties, a
// reducer of the registry in Reducer.h, factor_axis in range), what a
// correct rewrite needs beyond it (a loop that feeds a reduce variable,
// values the copied nest can use, no predicate: the write-back would read
// partial results never initialized; a loop from 0; runtime sizes it can
// read), then
// the rewrite.
//
//===----------------------------------------------------------------------===//

#include "CacheStage.h"
#include "InlineUtils.h"
#include "Reducer.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "mlir/IR/IRMapping.h"

#include <deque>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

constexpr StringLiteral kPrimitive = "rfactor";

/// One call: the loop, the block, the loops above the block in its scope
/// and what the legality found.
struct Ctx {
  ForOp rf;
  BlockOp block;
  ScheduleError &error;
  SmallVector<ForOp> loops;
  /// The loops that feed a spatial / reduce variable of the block.
  DenseSet<Operation *> spatialLoops, reduceLoops;
  std::optional<Reduction> reduction;
  int64_t factorAxis = 0;

  LogicalResult fail(Operation *culprit, const Twine &why) {
    return refuse(error, culprit, kPrimitive + " " + why);
  }
  std::string name() { return ("'" + block.getBlockName() + "'").str(); }
};

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

/// TVM's four loop properties, in its order.
LogicalResult checkLoopProperties(Ctx &c) {
  SmallVector<BlockOp> first = collectChildBlocks(c.loops.front());
  if (first.front() != c.block)
    return c.fail(c.loops.front(),
                  "needs block " + c.name() +
                      " to be the first block under the outermost loop " +
                      loopName(c.loops.front()) +
                      " above it (TVM: the reduction block should be the first "
                      "child block of the outermost loop outside of it)");
  bool metReduction = false;
  for (ForOp loop : c.loops) {
    bool spatial = c.spatialLoops.contains(loop);
    bool reduce = c.reduceLoops.contains(loop);
    if (spatial && reduce)
      return c.fail(loop, "needs every loop above block " + c.name() +
                              " to feed spatial or reduce variables, not "
                              "both, but loop " +
                              loopName(loop) + " feeds both");
    if (spatial) {
      if (loop == c.rf)
        return c.fail(loop, "needs a loop that feeds only reduce variables, "
                            "but loop " +
                                loopName(loop) +
                                " feeds a spatial variable of block " +
                                c.name());
      continue;
    }
    if (reduce) {
      if (!metReduction && collectChildBlocks(loop).size() != 1)
        return c.fail(loop, "needs the outermost loop that feeds a reduce "
                            "variable of block " +
                                c.name() + " to hold only that block, but " +
                                loopName(loop) + " holds others");
      metReduction = true;
      continue;
    }
    std::optional<int64_t> extent = loop.getConstantExtent();
    if (metReduction && (!extent || *extent != 1))
      return c.fail(loop, "needs every loop under a reduction loop to feed "
                          "a variable of block " +
                              c.name() + " or to run once, but loop " +
                              loopName(loop) + " does neither");
  }
  return success();
}

/// The rfactor nest copies the block's loops and re-expresses the reduce
/// variables fed by the rfactor loop over new variables: refuses values it
/// could not carry over, those computed between the loops (a binding, a
/// loop bound, a value the body uses) and, in the binding of such a reduce
/// variable, inputs other than the block's loops.
/// The reduce variables the rfactor block expresses over new variables
/// (one per loop) instead of keeping: those whose binding uses the rfactor
/// loop, as TVM's, and those sharing a loop with one of them. TVM decides
/// on its bindings as written (`(i0 * 16 + i1) floordiv 256` uses i1); ours
/// are simplified with the loops' ranges (`i0 floordiv 16`), so a variable
/// split together with the rfactor loop is found through the loops it
/// shares; keeping it would also feed one loop into two variables.
SmallVector<bool>
getReplacedReduceVars(BlockOp block, ArrayRef<AffineExpr> bindings, ForOp rf) {
  unsigned n = block.getNumIterVars();
  ValueRange values = block.getBindingValues();
  SmallVector<bool> replaced(n, false);
  DenseSet<unsigned> loopsOfReplaced;
  auto replace = [&](unsigned i) {
    replaced[i] = true;
    for (unsigned pos = 0; pos < values.size(); ++pos)
      if (bindings[i].isFunctionOfDim(pos))
        loopsOfReplaced.insert(pos);
  };
  for (unsigned i = 0; i < n; ++i)
    if (block.getIterType(i) == IterType::Reduce &&
        bindingUses(block, bindings, i, rf.getInductionVar()))
      replace(i);
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned i = 0; i < n; ++i) {
      if (replaced[i] || block.getIterType(i) != IterType::Reduce)
        continue;
      for (unsigned pos = 0; pos < values.size(); ++pos)
        if (bindings[i].isFunctionOfDim(pos) && loopsOfReplaced.count(pos)) {
          replace(i);
          changed = true;
          break;
        }
    }
  }
  return replaced;
}

LogicalResult checkNestValues(Ctx &c, ArrayRef<AffineExpr> bindings) {
  Operation *outermost = c.loops.front();
  auto inNest = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && outermost->isAncestor(def) && !c.block->isAncestor(def);
  };
  auto refuseValue = [&](Operation *culprit, StringRef what) {
    return c.fail(culprit, "needs the " + what + " of block " + c.name() +
                               " to be its loops or values from outside "
                               "them, but one is computed between the loops");
  };
  for (ForOp loop : c.loops)
    if (llvm::any_of(loop.getDynamicBounds(), inNest))
      return refuseValue(loop, "loop bounds");
  if (llvm::any_of(c.block.getBindingValues(), inNest))
    return refuseValue(c.block, "bindings");
  WalkResult walk = c.block->walk([&](Operation *op) {
    return llvm::any_of(op->getOperands(), inNest) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return refuseValue(c.block, "values used by the body");
  ValueRange values = c.block.getBindingValues();
  SmallVector<bool> replaced = getReplacedReduceVars(c.block, bindings, c.rf);
  for (unsigned i = 0, e = c.block.getNumIterVars(); i < e; ++i) {
    if (!replaced[i])
      continue;
    for (auto [pos, v] : llvm::enumerate(values)) {
      if (!bindings[i].isFunctionOfDim(pos))
        continue;
      ForOp loop = getLoopOfVar(v);
      if (!loop || !llvm::is_contained(c.loops, loop))
        return c.fail(c.block,
                      "needs the binding of " + iterVarLabel(c.block, i) +
                          ", which loop " + loopName(c.rf) +
                          " feeds, to use only the loops above block " +
                          c.name() + " in its scope");
    }
  }
  return success();
}

LogicalResult checkLegality(Ctx &c) {
  FailureOr<BlockOp> child = getSingleChildBlock(c.rf, kPrimitive, c.error);
  if (failed(child))
    return failure();
  c.block = *child;
  // Under an empty loop the block never runs its init; the write-back block
  // would run it over the rfactor loop.
  if (failed(checkNoEmptyNestAround(c.block, kPrimitive, c.error)))
    return failure();
  Operation *root = getScopeRoot(c.block);
  BlockDependences deps(getScopeBlocks(root));
  if (failed(checkStagePipeline(kPrimitive, deps, c.error)) ||
      failed(checkRegionCover(kPrimitive, deps, c.error)))
    return failure();
  if (int v = getReductionBlockViolation(c.block, deps))
    return c.fail(c.block,
                  "needs a reduction block, but block " + c.name() +
                      " is not one: " + describeReductionBlockViolation(v));
  if (c.rf.getKind() != ForKind::Serial)
    return c.fail(c.rf, "needs a serial loop, but loop " + loopName(c.rf) +
                            " is " + stringifyForKind(c.rf.getKind()));

  c.loops = getLoops(c.block);
  SmallVector<AffineExpr> bindings = c.block.getBindingExprs();
  for (ForOp loop : c.loops)
    for (unsigned i = 0, e = c.block.getNumIterVars(); i < e; ++i)
      if (bindingUses(c.block, bindings, i, loop.getInductionVar()))
        (c.block.getIterType(i) == IterType::Spatial ? c.spatialLoops
                                                     : c.reduceLoops)
            .insert(loop);
  if (failed(checkLoopProperties(c)))
    return failure();
  // A loop that feeds nothing would repeat the whole reduction once per
  // iteration, and the write-back block would combine the repetitions
  // (TVM does not check it).
  std::optional<int64_t> rfExtent = c.rf.getConstantExtent();
  if (!c.reduceLoops.contains(c.rf) && (!rfExtent || *rfExtent != 1))
    return c.fail(c.rf, "needs a loop that feeds a reduce variable of block " +
                            c.name() + " (or runs once), but loop " +
                            loopName(c.rf) + " feeds none");
  if (failed(checkNestValues(c, bindings)))
    return failure();

  FailureOr<Reduction> reduction = matchReduction(c.block, kPrimitive, c.error);
  if (failed(reduction))
    return failure();
  c.reduction = std::move(*reduction);

  StoreOp update = c.reduction->updates.front();
  int64_t ndim = update.getBufferType().getRank();
  if (c.factorAxis < -(ndim + 1) || c.factorAxis > ndim)
    return c.fail(c.block, "needs factor_axis in [" + Twine(-(ndim + 1)) +
                               ", " + Twine(ndim) + "] for buffer '" +
                               getBufferName(update.getBuffer()) + "' of " +
                               Twine(ndim) + " dimension(s), but it is " +
                               Twine(c.factorAxis));
  if (c.factorAxis < 0)
    c.factorAxis += ndim + 1;

  // What TVM does not check but the rewrite needs.
  if (c.block.getCondition())
    return c.fail(c.block,
                  "does not support block " + c.name() + "'s value condition");
  if (c.block.getPredicate())
    return c.fail(c.block,
                  "does not support the predicate of block " + c.name() +
                      " (as TVM, whose test of it expects a "
                      "refusal): the write-back block runs every partial "
                      "result, whether or not the predicate let the rfactor "
                      "block initialize it");
  if (failed(checkStartsAtZero(c.rf, kPrimitive, c.error)))
    return failure();
  if (!c.rf.getConstantExtent())
    return c.fail(c.rf, "needs a loop of constant extent (the partial "
                        "results' dimension)");
  for (StoreOp s : c.reduction->updates) {
    if (!s.getBufferType().hasStaticShape() &&
        !isa<BlockArgument>(s.getBuffer()) &&
        !s.getBuffer().getDefiningOp<AllocBufferOp>())
      return c.fail(s, "needs buffer '" + getBufferName(s.getBuffer()) +
                           "' of a runtime shape to be a parameter of the "
                           "function or allocated in it (the partial "
                           "results take its sizes)");
    for (Value index : s.getIndices())
      if (Operation *def = index.getDefiningOp();
          def && c.block->isAncestor(def))
        return c.fail(s, "needs the indices of block " + c.name() +
                             "'s stores to be its iteration variables or "
                             "values from outside it");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Rewrite
//===----------------------------------------------------------------------===//

/// `store`'s indices (map and operands) with `extra` inserted at `axis`
/// (when given), the block's variables mapped by `mapVar`.
std::pair<AffineMap, SmallVector<Value>>
accessIndices(StoreOp store, BlockOp block,
              function_ref<Value(unsigned)> mapVar, Value extra, int64_t axis) {
  SmallVector<Value> operands;
  for (Value v : store.getIndices()) {
    auto arg = dyn_cast<BlockArgument>(v);
    operands.push_back(arg && arg.getOwner() == block.getBody()
                           ? mapVar(arg.getArgNumber())
                           : v);
  }
  AffineMap map = store.getMap();
  if (!extra)
    return {map, operands};
  SmallVector<AffineExpr> results = llvm::to_vector(map.getResults());
  results.insert(results.begin() + axis,
                 getAffineDimExpr(map.getNumDims(), map.getContext()));
  operands.push_back(extra);
  return {AffineMap::get(map.getNumDims() + 1, map.getNumSymbols(), results,
                         map.getContext()),
          operands};
}

/// The values of the block's body that computing `roots` needs.
DenseSet<Operation *> backwardSlice(Block *body, ArrayRef<Value> roots) {
  DenseSet<Operation *> needed;
  SmallVector<Value> work(roots);
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !needed.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return needed;
}

/// Adds a tir.init to `block` that stores `reduction`'s identities at the
/// given indices of `buffers`.
void addInit(OpBuilder &b, Location loc, const Reduction &reduction,
             ArrayRef<Value> buffers, AffineMap map, ValueRange operands) {
  auto init = InitOp::create(b, loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&init->getRegion(0).emplaceBlock());
  for (auto [value, buffer] :
       llvm::zip(reduction.buildIdentities(b, loc), buffers))
    StoreOp::create(b, loc, value, buffer, map, operands);
}

/// Lists on `block` (built by rfactor) the regions its body accesses, as
/// TVM lists them: reads in the order of `readOrder`, writes in the order
/// of `writeOrder` (buffers not in them last).
void listRegions(BlockOp block, ArrayRef<Value> readOrder,
                 ArrayRef<Value> writeOrder) {
  Refusal failure;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, failure);
  if (failed(regions))
    return;
  auto order = [&](ArrayRef<Value> listed,
                   SmallVector<std::pair<Value, RegionExprs>> &entries) {
    SmallVector<std::pair<size_t, size_t>> keys;
    for (auto [k, entry] : llvm::enumerate(entries))
      keys.push_back({llvm::find(listed, entry.first) - listed.begin(), k});
    llvm::sort(keys);
    SmallVector<std::pair<Value, RegionExprs>> sorted;
    for (auto [rank, k] : keys)
      sorted.push_back(entries[k]);
    entries = std::move(sorted);
  };
  order(readOrder, regions->reads);
  order(writeOrder, regions->writes);
  setRegions(block, *regions);
}

std::string varNameOf(ForOp loop) {
  return ("v" + loop.getVarName().value_or("i")).str();
}

/// The rfactor block, under copies of the loops before them.
BlockOp buildRFactorBlock(RewriterBase &rewriter, Ctx &c,
                          ArrayRef<Value> rfBuffers) {
  MLIRContext *ctx = rewriter.getContext();
  BlockOp block = c.block;
  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(c.loops.front());
  IRMapping loopMap;
  copyLoops(rewriter, c.loops, loopMap);

  // The binding values (loops mapped to their copies), with the rfactor
  // loop's variable added when no binding used it.
  SmallVector<Value> values =
      llvm::map_to_vector(block.getBindingValues(),
                          [&](Value v) { return loopMap.lookupOrDefault(v); });
  Value rfVar = loopMap.lookup(c.rf.getInductionVar());
  unsigned rfPos = llvm::find(values, rfVar) - values.begin();
  if (rfPos == values.size())
    values.push_back(rfVar);

  SmallVector<IterVarSpec> specs;
  // (A deque: the specs keep references to the names.)
  std::deque<std::string> names;
  // A new variable's domain: its loop's copy's bounds.
  auto domainOf = [&](ForOp l) {
    ForOp copy = getLoopOfVar(loopMap.lookup(l.getInductionVar()));
    return std::make_pair(copy.getMixedLowerBound(), copy.getMixedUpperBound());
  };
  names.push_back(varNameOf(c.rf));
  auto [rfLo, rfHi] = domainOf(c.rf);
  specs.push_back({IterType::Spatial, rfLo, rfHi, getAffineDimExpr(rfPos, ctx),
                   names.back()});

  // Each old variable: kept, or (a reduce variable getReplacedReduceVars
  // gives) an expression over new reduce variables, one per loop, and the
  // rfactor variable (checkNestValues refused bindings of such variables
  // that use other inputs). `varExprs` are over the new variables.
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  ValueRange oldValues = block.getBindingValues();
  SmallVector<AffineExpr> varExprs(block.getNumIterVars());
  DenseMap<unsigned, unsigned> newVarOfPos{{rfPos, 0}};
  SmallVector<bool> replaced = getReplacedReduceVars(block, bindings, c.rf);
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    IterType type = block.getIterType(i);
    if (!replaced[i]) {
      names.push_back(block.getVarNames() ? iterVarName(block, i) : "");
      varExprs[i] = getAffineDimExpr(specs.size(), ctx);
      specs.push_back({type, block.getMixedDomainLower(i),
                       block.getMixedDomainUpper(i), bindings[i],
                       names.back()});
      continue;
    }
    SmallVector<AffineExpr> dims;
    for (unsigned pos = 0; pos < oldValues.size(); ++pos) {
      if (!bindings[i].isFunctionOfDim(pos)) {
        dims.push_back(getAffineConstantExpr(0, ctx));
        continue;
      }
      if (!newVarOfPos.count(pos)) {
        ForOp loop = getLoopOfVar(oldValues[pos]);
        names.push_back(varNameOf(loop));
        auto [lo, hi] = domainOf(loop);
        newVarOfPos[pos] = specs.size();
        specs.push_back({IterType::Reduce, lo, hi, getAffineDimExpr(pos, ctx),
                         names.back()});
      }
      dims.push_back(getAffineDimExpr(newVarOfPos[pos], ctx));
    }
    varExprs[i] = bindings[i].replaceDims(dims);
  }
  bool hasReduce = llvm::any_of(
      specs, [](const IterVarSpec &s) { return s.type == IterType::Reduce; });

  auto rfBlock = BlockOp::create(
      rewriter, loc, (block.getBlockName() + "_rf").str(), specs, values);
  if (auto annotations = block.getAnnotationsAttr())
    rfBlock.setAnnotationsAttr(annotations);

  Block *body = rfBlock.getBody();
  rewriter.setInsertionPointToEnd(body);
  SmallVector<Value> inputs(body->getArguments().begin(),
                            body->getArguments().end());
  const Reduction &red = *c.reduction;
  StoreOp update = red.updates.front();
  // Only kept (spatial) variables index the stores: reduce ones never do.
  std::pair<AffineMap, SmallVector<Value>> at = accessIndices(
      update, block,
      [&](unsigned i) -> Value {
        return materializeIndexValue(rewriter, loc, varExprs[i], inputs);
      },
      body->getArgument(0), c.factorAxis);
  AffineMap map = at.first;
  SmallVector<Value> &operands = at.second;
  if (hasReduce)
    addInit(rewriter, loc, red, rfBuffers, map, operands);

  // The new values, cloned with the variables replaced.
  DenseSet<Operation *> needed = backwardSlice(block.getBody(), red.rhs);
  IRMapping mapping;
  cloneWithIterVars(rewriter, block, block.getInitOp(), varExprs, inputs,
                    mapping,
                    [&](Operation *op) { return !needed.contains(op); });
  SmallVector<Value> y = llvm::map_to_vector(
      red.rhs, [&](Value v) { return mapping.lookupOrDefault(v); });
  // rhs that are the block's variables themselves.
  for (auto [k, v] : llvm::enumerate(red.rhs))
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && arg.getOwner() == block.getBody())
      y[k] = materializeIndexValue(rewriter, loc, varExprs[arg.getArgNumber()],
                                   inputs);
  SmallVector<Value> stored = y;
  if (hasReduce) {
    SmallVector<Value> x =
        llvm::map_to_vector(rfBuffers, [&](Value b) -> Value {
          return LoadOp::create(rewriter, loc, b, map, operands);
        });
    stored = red.combine(rewriter, x, y);
  }
  for (auto [value, buffer] : llvm::zip(stored, rfBuffers))
    StoreOp::create(rewriter, loc, value, buffer, map, operands);
  // TVM's regions: the block's reads (as listed, or inferred), the
  // partial results written.
  SmallVector<Value> reads;
  Refusal failure;
  if (FailureOr<BlockAccessRegions> old = getAccessRegions(block, failure);
      succeeded(old))
    for (auto &entry : old->reads)
      reads.push_back(entry.first);
  listRegions(rfBlock, reads, rfBuffers);
  return rfBlock;
}

/// The write-back block, built beside the block, which then takes it over.
void buildWriteBackBlock(RewriterBase &rewriter, Ctx &c,
                         ArrayRef<Value> rfBuffers) {
  MLIRContext *ctx = rewriter.getContext();
  BlockOp block = c.block;
  Location loc = block.getLoc();
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  ValueRange oldValues = block.getBindingValues();

  // The binding values: the rfactor loop's variable, then those the
  // spatial bindings use.
  // (The rfactor loop feeds no spatial variable.)
  SmallVector<Value> values = {c.rf.getInductionVar()};
  SmallVector<AffineExpr> dims(oldValues.size(), getAffineConstantExpr(0, ctx));
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    if (block.getIterType(i) == IterType::Spatial)
      compressInputs(bindings[i], oldValues, dims, values);
  // (A deque: the specs keep references to the names.)
  std::deque<std::string> names;
  names.push_back(varNameOf(c.rf));
  SmallVector<IterVarSpec> specs = {
      {IterType::Reduce, c.rf.getMixedLowerBound(), c.rf.getMixedUpperBound(),
       getAffineDimExpr(0, ctx), names.front()}};
  SmallVector<int> newVarOf(block.getNumIterVars(), -1);
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    if (block.getIterType(i) != IterType::Spatial)
      continue;
    newVarOf[i] = specs.size();
    names.push_back(block.getVarNames() ? iterVarName(block, i) : "");
    specs.push_back({IterType::Spatial, block.getMixedDomainLower(i),
                     block.getMixedDomainUpper(i),
                     bindings[i].replaceDims(dims), names.back()});
  }

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(block);
  auto wb = BlockOp::create(rewriter, loc, block.getBlockName(), specs, values);
  if (auto annotations = block.getAnnotationsAttr())
    wb.setAnnotationsAttr(annotations);
  Block *body = wb.getBody();
  rewriter.setInsertionPointToEnd(body);
  const Reduction &red = *c.reduction;
  auto mapVar = [&](unsigned i) -> Value {
    return body->getArgument(newVarOf[i]);
  };
  std::pair<AffineMap, SmallVector<Value>> at =
      accessIndices(red.updates.front(), block, mapVar, Value(), 0);
  std::pair<AffineMap, SmallVector<Value>> rfAt = accessIndices(
      red.updates.front(), block, mapVar, body->getArgument(0), c.factorAxis);
  AffineMap map = at.first, rfMap = rfAt.first;
  SmallVector<Value> &operands = at.second, &rfOperands = rfAt.second;
  SmallVector<Value> buffers = red.getBuffers();
  addInit(rewriter, loc, red, buffers, map, operands);
  SmallVector<Value> x = llvm::map_to_vector(buffers, [&](Value b) -> Value {
    return LoadOp::create(rewriter, loc, b, map, operands);
  });
  SmallVector<Value> y = llvm::map_to_vector(rfBuffers, [&](Value b) -> Value {
    return LoadOp::create(rewriter, loc, b, rfMap, rfOperands);
  });
  for (auto [value, buffer] : llvm::zip(red.combine(rewriter, x, y), buffers))
    StoreOp::create(rewriter, loc, value, buffer, map, operands);
  adoptRebuiltBlock(rewriter, block, wb);
  listRegions(block, rfBuffers, buffers);
}

std::string rfBufferName(Value buffer) {
  std::string name = getBufferName(buffer);
  return name.empty() ? "rf" : name + "_rf";
}

BlockOp rewrite(RewriterBase &rewriter, Ctx &c) {
  // The partial results: each reduction buffer with the rfactor loop's
  // extent inserted at factor_axis.
  Operation *root = getScopeRoot(c.block);
  int64_t extent = *c.rf.getConstantExtent();
  SmallVector<Value> rfBuffers;
  for (StoreOp s : c.reduction->updates) {
    MemRefType type = s.getBufferType();
    SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
    shape.insert(shape.begin() + c.factorAxis, extent);
    SmallVector<Value> sizes;
    for (unsigned d = 0, e = type.getRank(); d < e; ++d)
      if (type.isDynamicDim(d))
        sizes.push_back(getDynamicSizeValue(rewriter, s.getBuffer(), d));
    rfBuffers.push_back(createBufferLike(rewriter, root, s.getBuffer(), shape,
                                         type.getMemorySpace(),
                                         rfBufferName(s.getBuffer()), sizes));
  }
  BlockOp rfBlock = buildRFactorBlock(rewriter, c, rfBuffers);
  buildWriteBackBlock(rewriter, c, rfBuffers);

  // The loops that fed only reduce variables go (their body takes their
  // place), the rfactor loop excepted.
  for (ForOp loop : llvm::reverse(c.loops)) {
    if (loop == c.rf || !c.reduceLoops.contains(loop))
      continue;
    for (Operation &op : llvm::make_early_inc_range(*loop.getBody()))
      rewriter.moveOpBefore(&op, loop);
    rewriter.eraseOp(loop);
  }
  return rfBlock;
}

} // namespace

FailureOr<BlockOp> mlir::tir::rfactor(RewriterBase &rewriter, ForOp loop,
                                      int64_t factorAxis,
                                      ScheduleError &error) {
  Ctx c{loop, BlockOp(), error, {}, {}, {}, std::nullopt, factorAxis};
  if (failed(checkLegality(c)))
    return failure();
  return rewrite(rewriter, c);
}
