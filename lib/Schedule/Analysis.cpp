//===- Analysis.cpp - analyses the schedule primitives share --------------===//

#include "TensorIR/Schedule/Analysis.h"

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

void mlir::tir::getAccessedBuffers(BlockOp block, SmallVectorImpl<Value> &reads,
                                   SmallVectorImpl<Value> &writes) {
  if (block.hasAccessRegions()) {
    reads.append(block.getReadBuffers().begin(), block.getReadBuffers().end());
    writes.append(block.getWriteBuffers().begin(),
                  block.getWriteBuffers().end());
    return;
  }
  SmallVector<Value> read, written;
  block.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto nested = dyn_cast<BlockOp>(op)) {
      getAccessedBuffers(nested, read, written);
      return WalkResult::skip();
    }
    if (auto load = dyn_cast<LoadOp>(op))
      read.push_back(load.getBuffer());
    else if (auto store = dyn_cast<StoreOp>(op))
      written.push_back(store.getBuffer());
    return WalkResult::advance();
  });
  // As TVMScript infers them: a block with a tir.init (a reduction) does not
  // count the reads of the buffers it writes.
  // Buffers allocated inside the block are its own business.
  bool reduction = static_cast<bool>(block.getInitOp());
  auto local = [&](Value b) {
    Operation *def = b.getDefiningOp();
    return def && block->isProperAncestor(def);
  };
  for (Value b : read)
    if (!local(b) && !(reduction && llvm::is_contained(written, b)))
      reads.push_back(b);
  for (Value b : written)
    if (!local(b))
      writes.push_back(b);
}

bool mlir::tir::dependsOnAny(Value value, ValueRange vars) {
  SmallVector<Value> worklist{value};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (llvm::is_contained(vars, v))
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

static bool intersects(ArrayRef<Value> a, ArrayRef<Value> b) {
  return llvm::any_of(a, [&](Value v) { return llvm::is_contained(b, v); });
}

static bool writesShared(BlockOp block, ArrayRef<BlockOp> scope,
                         ArrayRef<Value> writes) {
  for (BlockOp other : scope) {
    if (other == block)
      continue;
    SmallVector<Value> otherReads, otherWrites;
    getAccessedBuffers(other, otherReads, otherWrites);
    if (intersects(otherWrites, writes))
      return true;
  }
  return false;
}

int mlir::tir::getCompleteBlockViolation(BlockOp block,
                                         ArrayRef<BlockOp> scope) {
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    if (block.getIterType(i) != IterType::Spatial)
      return 1;
  SmallVector<Value> reads, writes;
  getAccessedBuffers(block, reads, writes);
  if (writesShared(block, scope, writes))
    return 2;
  if (intersects(reads, writes))
    return 3;
  return 0;
}

int mlir::tir::getReductionBlockViolation(BlockOp block,
                                          ArrayRef<BlockOp> scope) {
  if (!block.getInitOp())
    return 1;
  SmallVector<Value> loops =
      llvm::filter_to_vector(block.getBindingValues(), isLoopVar);
  llvm::SmallBitVector loopVars = bindingInputMask(block, loops);
  for (AffineExpr e : block.getBindingExprs())
    if (!isAffineIn(e, loopVars))
      return 2;
  SmallVector<Value> reduceVars;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    IterType type = block.getIterType(i);
    if (type != IterType::Spatial && type != IterType::Reduce)
      return 3;
    if (type == IterType::Reduce)
      reduceVars.push_back(block.getIterVar(i));
  }
  SmallVector<Value> reads, writes;
  getAccessedBuffers(block, reads, writes);
  if (writesShared(block, scope, writes))
    return 4;
  WalkResult indexed = block.getBody()->walk([&](StoreOp store) {
    if (!llvm::is_contained(writes, store.getBuffer()))
      return WalkResult::advance();
    for (Value index : store.getIndices())
      if (dependsOnAny(index, reduceVars))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return indexed.wasInterrupted() ? 5 : 0;
}

LogicalResult mlir::tir::checkCompactDataflow(ForOp loop, StringRef primitive,
                                              ScheduleError &error) {
  SmallVector<BlockOp> blocks = collectChildBlocks(loop);
  for (BlockOp block : blocks) {
    int complete = getCompleteBlockViolation(block, blocks);
    if (complete == 0)
      continue;
    int reduction = getReductionBlockViolation(block, blocks);
    if (reduction == 0)
      continue;
    static const char *completeRules[] = {
        "", "all its iteration variables are spatial",
        "no other block under the loop writes its outputs",
        "it does not read the buffers it writes"};
    static const char *reductionRules[] = {
        "", "it has a tir.init",
        "its bindings are quasi-affine in the loops",
        "its iteration variables are spatial or reduce",
        "no other block under the loop writes its outputs",
        "no reduce variable indexes the buffers it writes"};
    return refuse(error, loop,
                  primitive + " needs compact data flow under loop " +
                      loopName(loop) + ", but block '" + block.getBlockName() +
                      "' is neither a complete block (one where " +
                      completeRules[complete] +
                      ") nor a reduction block (one where " +
                      reductionRules[reduction] + ")");
  }
  return success();
}

namespace {
using Terms = SmallVector<std::pair<AffineExpr, int64_t>>;

/// The terms of `e` that involve the inputs set in `vars`, sorted.
Terms loopTerms(AffineExpr e, const llvm::SmallBitVector &vars) {
  Terms all, out;
  linearTerms(e, 1, all);
  for (auto [term, k] : all) {
    bool involves = false;
    term.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        involves |= d.getPosition() < vars.size() && vars.test(d.getPosition());
    });
    if (involves && k != 0)
      out.push_back({term, k});
  }
  llvm::sort(out, [](auto &a, auto &b) {
    if (a.first != b.first)
      return a.first.getImpl() < b.first.getImpl();
    return a.second < b.second;
  });
  return out;
}

Terms negated(Terms terms) {
  for (auto &t : terms)
    t.second = -t.second;
  return terms;
}
} // namespace

LogicalResult mlir::tir::checkAffineBinding(BlockOp block, ValueRange loopVars,
                                            StringRef primitive,
                                            Operation *culprit,
                                            ScheduleError &error) {
  llvm::SmallBitVector vars = bindingInputMask(block, loopVars);
  auto fail = [&](const Twine &why) {
    return refuse(error, culprit,
                  primitive + " needs affine bindings of the loops it "
                              "changes, but block '" +
                      block.getBlockName() + "' " + why);
  };
  SmallVector<Terms> bindingTerms;
  for (auto [i, e] : llvm::enumerate(block.getBindingExprs())) {
    std::string var = iterVarLabel(block, i);
    if (!isAffineIn(e, vars))
      return fail("binds " + var + " to an expression that is not "
                  "quasi-affine in them");
    Terms terms = loopTerms(e, vars);
    if (!terms.empty() &&
        llvm::none_of(terms, [](auto &t) { return std::abs(t.second) == 1; }))
      return fail("binds " + var + " with a stride other than 1 over them");
    bindingTerms.push_back(std::move(terms));
  }
  for (IntegerSet set : block.getPredicateSets())
    for (AffineExpr c : getConstraintsOverInputs(set)) {
      Terms terms = loopTerms(c, vars);
      if (terms.empty())
        continue;
      Terms minus = negated(terms);
      llvm::sort(minus, [](auto &a, auto &b) {
        if (a.first != b.first)
          return a.first.getImpl() < b.first.getImpl();
        return a.second < b.second;
      });
      if (!llvm::is_contained(bindingTerms, terms) &&
          !llvm::is_contained(bindingTerms, minus))
        return fail("has a predicate over them that bounds none of its "
                    "bindings");
    }
  return success();
}

//===----------------------------------------------------------------------===//
// Scopes and data flow
//===----------------------------------------------------------------------===//

Operation *mlir::tir::getScopeRoot(Operation *op) {
  Operation *scope = op->getParentOp();
  while (scope && !isa<BlockOp>(scope) &&
         !scope->hasTrait<OpTrait::IsIsolatedFromAbove>())
    scope = scope->getParentOp();
  return scope;
}

SmallVector<BlockOp> mlir::tir::getScopeBlocks(Operation *root) {
  return root ? collectChildBlocks(root) : SmallVector<BlockOp>{};
}

/// The blocks of `scope` before `block` that write what it reads
/// (producers), or after it that read what it writes (consumers).
static SmallVector<BlockOp> dataNeighbours(BlockOp block,
                                           ArrayRef<BlockOp> scope,
                                           bool producers) {
  SmallVector<Value> reads, writes;
  getAccessedBuffers(block, reads, writes);
  const BlockOp *self = llvm::find(scope, block);
  auto side = producers ? llvm::make_range(scope.begin(), self)
                        : llvm::make_range(self == scope.end() ? self
                                                               : self + 1,
                                           scope.end());
  SmallVector<BlockOp> found;
  for (BlockOp other : side) {
    SmallVector<Value> otherReads, otherWrites;
    getAccessedBuffers(other, otherReads, otherWrites);
    if (producers ? intersects(otherWrites, reads)
                  : intersects(otherReads, writes))
      found.push_back(other);
  }
  return found;
}

SmallVector<BlockOp> mlir::tir::getProducersIn(BlockOp block,
                                               ArrayRef<BlockOp> scope) {
  return dataNeighbours(block, scope, /*producers=*/true);
}

SmallVector<BlockOp> mlir::tir::getConsumersIn(BlockOp block,
                                               ArrayRef<BlockOp> scope) {
  return dataNeighbours(block, scope, /*producers=*/false);
}

//===----------------------------------------------------------------------===//
// Buffer regions
//===----------------------------------------------------------------------===//

FailureOr<BlockAccessRegions> mlir::tir::getAccessRegions(BlockOp block,
                                                          ScheduleError &error) {
  BlockOp source = block;
  OwningOpRef<BlockOp> copy;
  if (!block.hasAccessRegions()) {
    copy = cast<BlockOp>(block->clone());
    ScopedDiagnosticHandler silence(block.getContext(),
                                    [](Diagnostic &) { return success(); });
    if (failed(inferAccessRegions(*copy)))
      return refuse(error, block,
                    "cannot infer the regions that block '" +
                        block.getBlockName() + "' reads and writes");
    source = *copy;
  }
  BlockAccessRegions result;
  // Region maps range over the iteration variables (those of `block`, also
  // for the copy), then region values.
  llvm::append_range(result.inputs, block.getBody()->getArguments());
  llvm::append_range(result.inputs, source.getRegionValues());
  for (auto [buffer, map] :
       llvm::zip(source.getReadBuffers(), *source.getReadRegions()))
    result.reads.push_back(
        {buffer, splitRegionMap(cast<AffineMapAttr>(map).getValue())});
  for (auto [buffer, map] :
       llvm::zip(source.getWriteBuffers(), *source.getWriteRegions()))
    result.writes.push_back(
        {buffer, splitRegionMap(cast<AffineMapAttr>(map).getValue())});
  return result;
}

AffineExpr mlir::tir::simplifyOverValues(AffineExpr e, ArrayRef<Value> inputs) {
  MLIRContext *ctx = e.getContext();
  SmallVector<std::optional<Interval>> ranges;
  SmallVector<AffineExpr> points;
  for (auto [i, v] : llvm::enumerate(inputs)) {
    std::optional<Interval> r = getValueRange(v);
    ranges.push_back(r);
    points.push_back(r && r->lo == r->hi ? getAffineConstantExpr(r->lo, ctx)
                                         : getAffineDimExpr(i, ctx));
  }
  return simplifyWithRanges(e.replaceDims(points), ranges, inputs.size(), 0);
}

namespace {
/// Bounds of index expressions whose inner-loop dimensions range over
/// constant intervals and whose other dimensions stay symbolic.
struct Relaxer {
  DenseMap<unsigned, Interval> inner;
  /// Cleared when a bound skips values (a scaled, divided or modulo inner
  /// variable).
  mutable bool exact = true;

  bool involvesInner(AffineExpr e) const {
    bool found = false;
    e.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        found |= inner.count(d.getPosition()) > 0;
    });
    return found;
  }

  /// The least (or greatest) value of `e`; null when it has none we can
  /// write down.
  AffineExpr bound(AffineExpr e, bool upper) const {
    if (!involvesInner(e))
      return e;
    MLIRContext *ctx = e.getContext();
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      Interval r = inner.lookup(d.getPosition());
      return getAffineConstantExpr(upper ? r.hi : r.lo, ctx);
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return AffineExpr();
    auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
    switch (e.getKind()) {
    case AffineExprKind::Add: {
      AffineExpr l = bound(bin.getLHS(), upper), r = bound(bin.getRHS(), upper);
      return l && r ? l + r : AffineExpr();
    }
    case AffineExprKind::Mul: {
      if (!c)
        return AffineExpr();
      exact &= std::abs(c.getValue()) == 1;
      AffineExpr l = bound(bin.getLHS(), c.getValue() >= 0 ? upper : !upper);
      return l ? l * c.getValue() : AffineExpr();
    }
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv: {
      if (!c || c.getValue() <= 0)
        return AffineExpr();
      exact = false;
      AffineExpr l = bound(bin.getLHS(), upper);
      if (!l)
        return l;
      return e.getKind() == AffineExprKind::FloorDiv ? l.floorDiv(c)
                                                     : l.ceilDiv(c);
    }
    case AffineExprKind::Mod:
      if (!c || c.getValue() <= 0)
        return AffineExpr();
      exact = false;
      return getAffineConstantExpr(upper ? c.getValue() - 1 : 0, ctx);
    default:
      return AffineExpr();
    }
  }
};
} // namespace

FailureOr<LoopRegion> mlir::tir::relaxRegionUnderLoop(
    ForOp loop, Value buffer, bool writes, ArrayRef<BlockOp> blocks,
    StringRef primitive, ScheduleError &error) {
  MLIRContext *ctx = loop.getContext();
  ExprInputs in{ctx, {}};
  Relaxer relaxer;
  auto fail = [&](Operation *culprit, const Twine &why) {
    return refuse(error, culprit,
                  primitive + " cannot bound the region of a buffer under "
                              "loop " +
                      loopName(loop) + ": " + why);
  };
  // The dimension standing for `v`: inner loop variables range over their
  // loop; values from outside `loop` (and its own variable) stay symbolic.
  auto dimFor = [&](Value v, BlockOp user) -> FailureOr<AffineExpr> {
    AffineExpr d = in.dimOf(v);
    unsigned pos = cast<AffineDimExpr>(d).getPosition();
    if (relaxer.inner.count(pos))
      return d;
    Operation *owner = isa<BlockArgument>(v)
                           ? cast<BlockArgument>(v).getOwner()->getParentOp()
                           : v.getDefiningOp();
    if (!owner || owner == loop.getOperation() || !loop->isAncestor(owner))
      return d;
    auto inner = dyn_cast<ForOp>(owner);
    if (!inner || !isa<BlockArgument>(v)) {
      fail(user, "block '" + user.getBlockName() +
                     "' uses an index computed inside the loop");
      return failure();
    }
    std::optional<int64_t> lo = inner.getConstantLowerBound();
    std::optional<int64_t> up = inner.getConstantUpperBound();
    if (!lo || !up || *up <= *lo) {
      fail(inner, "loop " + loopName(inner) +
                      " inside it has runtime (or empty) bounds");
      return failure();
    }
    relaxer.inner[pos] = Interval{*lo, *up - 1};
    return d;
  };

  SmallVector<AffineExpr> lows, highs; // inclusive bounds over `in`
  bool exact = true;
  auto join = [&](AffineExpr &acc, AffineExpr e, bool upper) {
    if (!acc) {
      acc = e;
      return true;
    }
    AffineExpr diff = simplifyAffineExpr(e - acc, in.values.size(), 0);
    auto c = dyn_cast<AffineConstantExpr>(diff);
    if (!c)
      return false;
    if (c.getValue() != 0)
      exact = false;
    if (upper ? c.getValue() > 0 : c.getValue() < 0)
      acc = e;
    return true;
  };
  for (BlockOp block : blocks) {
    FailureOr<BlockAccessRegions> regions = getAccessRegions(block, error);
    if (failed(regions))
      return failure();
    auto &list = writes ? regions->writes : regions->reads;
    if (llvm::none_of(list, [&](auto &r) { return r.first == buffer; }))
      continue;
    if (block.getPredicate())
      exact = false;
    // Region inputs over `in`: iteration variables by their bindings,
    // region values as themselves.
    SmallVector<AffineExpr> bindingDims;
    for (Value v : block.getBindingValues()) {
      FailureOr<AffineExpr> d = dimFor(v, block);
      if (failed(d))
        return failure();
      bindingDims.push_back(*d);
    }
    SmallVector<AffineExpr> repl;
    for (AffineExpr b : block.getBindingExprs())
      repl.push_back(b.replaceDims(bindingDims));
    for (Value v : ArrayRef<Value>(regions->inputs).drop_front(
             block.getNumIterVars())) {
      FailureOr<AffineExpr> d = dimFor(v, block);
      if (failed(d))
        return failure();
      repl.push_back(*d);
    }
    for (auto &[b, region] : list) {
      if (b != buffer)
        continue;
      if (lows.empty()) {
        lows.resize(region.starts.size());
        highs.resize(region.starts.size());
      }
      llvm::SmallDenseSet<unsigned> seen;
      for (unsigned d = 0, e = region.starts.size(); d < e; ++d) {
        // An inner variable in two dimensions leaves holes in the box.
        region.starts[d].replaceDims(repl).walk([&](AffineExpr sub) {
          if (auto v = dyn_cast<AffineDimExpr>(sub))
            if (relaxer.inner.count(v.getPosition()) &&
                !seen.insert(v.getPosition()).second)
              exact = false;
        });
        AffineExpr start = region.starts[d].replaceDims(repl);
        AffineExpr last = start + region.extents[d].replaceDims(repl) - 1;
        AffineExpr lo = relaxer.bound(start, false);
        AffineExpr hi = relaxer.bound(last, true);
        if (!lo || !hi)
          return fail(block, "block '" + block.getBlockName() +
                                 "' accesses it at an index that cannot be "
                                 "bounded over the loops inside (a product "
                                 "of loop variables or a runtime divisor)");
        unsigned n = in.values.size();
        if (!join(lows[d], simplifyAffineExpr(lo, n, 0), false) ||
            !join(highs[d], simplifyAffineExpr(hi, n, 0), true))
          return fail(block, "the regions of its accesses in dimension " +
                                 Twine(d) +
                                 " differ by a runtime amount, so their "
                                 "union has no bound");
      }
    }
  }

  // Simplify with what is known of the outer values, then keep only the
  // inputs still used.
  LoopRegion result;
  result.exact = exact && relaxer.exact;
  SmallVector<AffineExpr> all;
  for (auto [lo, hi] : llvm::zip(lows, highs)) {
    AffineExpr low = simplifyOverValues(lo, in.values);
    all.push_back(low);
    all.push_back(simplifyOverValues(hi - lo + 1, in.values));
  }
  llvm::SmallBitVector used(in.values.size());
  for (AffineExpr e : all)
    e.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        used.set(d.getPosition());
    });
  SmallVector<AffineExpr> compress;
  for (unsigned i = 0, n = in.values.size(); i < n; ++i) {
    compress.push_back(getAffineDimExpr(result.inputs.size(), ctx));
    if (used.test(i))
      result.inputs.push_back(in.values[i]);
  }
  for (unsigned i = 0; i < all.size(); i += 2) {
    result.lowers.push_back(all[i].replaceDims(compress));
    result.extents.push_back(all[i + 1].replaceDims(compress));
  }
  return result;
}
