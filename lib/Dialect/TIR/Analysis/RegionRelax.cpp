//===- RegionRelax.cpp - buffer regions relaxed over loops ----------------===//

#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <list>

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// Cover
//===----------------------------------------------------------------------===//

bool mlir::tir::coverBound(AffineExpr &acc, AffineExpr e, bool upper,
                           unsigned numDims, bool *differed) {
  if (!acc) {
    acc = e;
    return true;
  }
  std::optional<int64_t> diff = getConstantDifference(e, acc, numDims);
  if (!diff)
    return false;
  if (*diff != 0 && differed)
    *differed = true;
  if (upper ? *diff > 0 : *diff < 0)
    acc = e;
  return true;
}

//===----------------------------------------------------------------------===//
// A block's region from outside it
//===----------------------------------------------------------------------===//

FailureOr<Box>
mlir::tir::relaxBlockRegion(BlockOp block, const RegionExprs &region,
                            ValueRange regionValues, RelaxedInputs &inputs,
                            ValueMapper mapValue, unsigned *unbounded) {
  MLIRContext *ctx = block.getContext();
  // The region over the block's operands (binding values, then region
  // values): iteration variables replaced by their bindings.
  SmallVector<Value> operands(block.getBindingValues());
  SmallVector<AffineExpr> repl = block.getBindingExprs();
  for (Value v : regionValues) {
    repl.push_back(getAffineDimExpr(operands.size(), ctx));
    operands.push_back(v);
  }
  // Operands are mapped on first use, in operand order.
  SmallVector<AffineExpr> mapped(operands.size());
  auto mapUsed = [&](AffineExpr e) -> LogicalResult {
    for (auto [k, v] : llvm::enumerate(operands)) {
      if (mapped[k] || !e.isFunctionOfDim(k))
        continue;
      FailureOr<AffineExpr> m = mapValue(v);
      if (failed(m))
        return failure();
      mapped[k] = *m;
    }
    return success();
  };
  auto outer = [&](AffineExpr e) {
    SmallVector<AffineExpr> dims;
    for (AffineExpr m : mapped)
      dims.push_back(m ? m : getAffineConstantExpr(0, ctx));
    return e.replaceDims(dims);
  };

  Box box;
  llvm::SmallDenseSet<unsigned> seen;
  // Exactness by TVM's iterator maps, when the rules below are too coarse.
  bool wasExact = inputs.isExact();
  SmallVector<AffineExpr> starts;
  SmallVector<int64_t> widths;
  for (unsigned d = 0, e = region.starts.size(); d < e; ++d) {
    AffineExpr start = region.starts[d].replaceDims(repl);
    AffineExpr last =
        (region.starts[d] + region.extents[d] - 1).replaceDims(repl);
    if (failed(mapUsed(start)) || failed(mapUsed(last)))
      return failure();
    AffineExpr outerStart = outer(start);
    // A relaxed variable in two dimensions leaves holes in the box.
    outerStart.walk([&](AffineExpr sub) {
      if (auto v = dyn_cast<AffineDimExpr>(sub))
        if (inputs.isRelaxed(v.getPosition()) &&
            !seen.insert(v.getPosition()).second)
          inputs.setInexact();
    });
    // Holes between the steps of a scaled variable (`i * 16` alone), unless
    // the region's extent or smaller terms fill them (`i * 16 + j`).
    auto width = dyn_cast<AffineConstantExpr>(region.extents[d]);
    starts.push_back(outerStart);
    widths.push_back(width ? width.getValue() : 0);
    if (!width || !inputs.isDense(outerStart, width.getValue() - 1))
      if (inputs.involvesRelaxed(outerStart))
        inputs.setInexact();
    AffineExpr lo = inputs.bound(outerStart, /*upper=*/false);
    AffineExpr hi = inputs.bound(outer(last), /*upper=*/true);
    if (!lo || !hi) {
      if (unbounded)
        *unbounded = d;
      return failure();
    }
    box.lows.push_back(simplifyIndexExpr(lo, inputs.size(), 0));
    box.highs.push_back(simplifyIndexExpr(hi, inputs.size(), 0));
  }
  // (Not under a predicate: the predicate's cut is judged on its own, by
  // the rules for the box of the bindings.)
  if (wasExact && !inputs.isExact() && !block.getPredicate() &&
      inputs.isSurjectiveIterMap(starts, widths))
    inputs.restoreExact();
  return box;
}

//===----------------------------------------------------------------------===//
// A buffer's region under a loop
//===----------------------------------------------------------------------===//

/// Whether `e` is `d` times a positive constant.
static bool isPositiveMultiple(AffineExpr e, AffineExpr d) {
  AffineTerms te = AffineTerms::get(e).sorted();
  AffineTerms td = AffineTerms::get(d).sorted();
  if (td.terms.empty() || te.terms.size() != td.terms.size())
    return false;
  int64_t num = te.terms.front().second, den = td.terms.front().second;
  if (den == 0 || num % den != 0 || num / den <= 0)
    return false;
  AffineTerms scaled;
  scaled.add(td, num / den);
  return scaled.sorted() == te;
}

/// The constant bound constraint `c >= 0` puts on `binding` where `c` is a
/// positive multiple of `B - binding` (upper: binding <= B, returned as
/// B + 1, exclusive) or of `binding - B` (lower: binding >= B) plus a
/// constant; nullopt otherwise.
static std::optional<int64_t> getBindingBound(AffineExpr c, AffineExpr binding,
                                              bool upper) {
  AffineTerms tc = AffineTerms::get(c);
  AffineTerms tb = AffineTerms::get(binding);
  if (tb.terms.empty())
    return std::nullopt;
  AffineTerms direction; // the binding's terms, negated for an upper bound
  direction.add(tb.filter([](AffineExpr) { return true; }), upper ? -1 : 1);
  AffineTerms cTerms = tc.filter([](AffineExpr) { return true; });
  MLIRContext *ctx = c.getContext();
  if (!isPositiveMultiple(cTerms.toExpr(ctx), direction.toExpr(ctx)))
    return std::nullopt;
  int64_t k = cTerms.sorted().terms.front().second /
              direction.sorted().terms.front().second;
  // c = k * (±(binding - tb.constant)) + tc.constant >= 0.
  if (upper) // binding <= tb.constant + tc.constant / k
    return tb.constant + llvm::divideFloorSigned(tc.constant, k) + 1;
  return tb.constant - llvm::divideFloorSigned(tc.constant, k);
}

/// Whether `block`'s predicate leaves every element of `region` (one of its
/// accesses, over its iteration variables then region values) accessed
/// where its loops inside `loop` run over their ranges. Each constraint
/// must either
///   - keep an iteration variable within its domain (`v <= hi` for a
///     variable at `v + c` in the region: the elements it cuts off are
///     never accessed by the block at all), or
///   - use only loops inside `loop` that feed no variable of the region
///     (a bound on the reduction of a split `k`), all such constraints
///     holding where those loops start.
/// Whether every instance with iteration variable `i` cut off by a domain
/// bound (above `hi - 1` when `upper`, below `lo` otherwise) accesses, in
/// some dimension of `region`, only indices outside the buffer (`shape`):
/// then the elements it would have touched are no elements, and the box
/// (within the buffer) loses nothing by the cut.
static bool cutOutsideBuffer(const RegionExprs &region, ArrayRef<int64_t> shape,
                             unsigned i, int64_t lo, int64_t hi, bool upper) {
  for (auto [d, start] : llvm::enumerate(region.starts)) {
    if (!start.isFunctionOfDim(i) || d >= shape.size() ||
        ShapedType::isDynamic(shape[d]))
      continue;
    AffineTerms terms = AffineTerms::get(start);
    auto width = dyn_cast<AffineConstantExpr>(region.extents[d]);
    if (!width || terms.terms.size() != 1)
      continue;
    std::optional<int64_t> k = terms.getDimCoefficient(i);
    if (!k || std::abs(*k) != 1)
      continue;
    int64_t c = terms.constant, w = width.getValue();
    // The indices of the cut instances in dimension d.
    bool outside =
        upper ? (*k == 1 ? hi + c >= shape[d] : -hi + c + w - 1 < 0)
              : (*k == 1 ? lo - 1 + c + w - 1 < 0 : -(lo - 1) + c >= shape[d]);
    if (outside)
      return true;
  }
  return false;
}

/// Whether runtime value `size` is the size of dimension `d` of `buffer`:
/// the size it was allocated with, or a memref.dim of it.
static bool isRuntimeSizeOf(Value size, Value buffer, unsigned d) {
  if (auto dim = size.getDefiningOp<memref::DimOp>();
      dim && dim.getSource() == buffer &&
      getConstantIntValue(dim.getIndex()) == static_cast<int64_t>(d))
    return true;
  auto alloc = buffer.getDefiningOp<AllocBufferOp>();
  auto type = cast<MemRefType>(buffer.getType());
  if (!alloc || d >= type.getRank() || !type.isDynamicDim(d))
    return false;
  return alloc.getDynamicSizes()[type.getDynamicDimIndex(d)] == size;
}

/// cutOutsideBuffer for a runtime domain `[0, upper)` of variable `i`: the
/// instances a bound above `upper - 1` cuts off access, in some dimension
/// of `region` indexed by the variable alone (`v`, extent 1), a dimension of
/// `buffer` whose size is `upper`: indices outside it.
static bool cutOutsideRuntimeBuffer(const RegionExprs &region, Value buffer,
                                    unsigned i, Value upper) {
  for (auto [d, start] : llvm::enumerate(region.starts)) {
    auto v = dyn_cast<AffineDimExpr>(start);
    auto width = dyn_cast<AffineConstantExpr>(region.extents[d]);
    if (v && v.getPosition() == i && width && width.getValue() == 1 &&
        isRuntimeSizeOf(upper, buffer, d))
      return true;
  }
  return false;
}

static bool predicateKeepsRegion(BlockOp block, const RegionExprs &region,
                                 Value buffer, Operation *loop) {
  ArrayRef<int64_t> shape = cast<MemRefType>(buffer.getType()).getShape();
  SmallVector<IntegerSet> sets = block.getPredicateSets();
  if (sets.size() != 1)
    return false;
  IntegerSet set = sets.front();
  unsigned numVars = block.getNumIterVars();
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  SmallVector<Value> values(block.getBindingValues());
  // The variables the region uses, and those it uses only at `±v + c`.
  llvm::SmallBitVector used(numVars), unit(numVars, true);
  for (AffineExpr start : region.starts) {
    AffineTerms terms = AffineTerms::get(start);
    for (unsigned i = 0; i < numVars; ++i) {
      if (!start.isFunctionOfDim(i))
        continue;
      used.set(i);
      // Alone among the variables in that index, with coefficient 1 or -1:
      // then no other iteration reaches the elements it cuts off.
      std::optional<int64_t> k = terms.getDimCoefficient(i);
      bool alone = llvm::all_of(terms.terms, [&](auto &term) {
        return term.first == getAffineDimExpr(i, start.getContext()) ||
               !llvm::any_of(llvm::seq(0u, numVars), [&](unsigned j) {
                 return term.first.isFunctionOfDim(j);
               });
      });
      if (!k || std::abs(*k) != 1 || !alone)
        unit.reset(i);
    }
  }
  llvm::SmallBitVector feeding(values.size());
  for (unsigned i = 0; i < numVars; ++i)
    if (used.test(i))
      for (unsigned v = 0; v < values.size(); ++v)
        if (bindings[i].isFunctionOfDim(v))
          feeding.set(v);
  MLIRContext *ctx = block.getContext();
  SmallVector<AffineExpr> atStart; // each value where its loop starts
  for (Value v : values) {
    auto arg = dyn_cast<BlockArgument>(v);
    auto inner = arg ? dyn_cast<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
    std::optional<int64_t> lo = inner && loop->isProperAncestor(inner)
                                    ? inner.getConstantLowerBound()
                                    : std::nullopt;
    atStart.push_back(lo ? getAffineConstantExpr(*lo, ctx) : AffineExpr());
  }
  for (unsigned k = 0, e = set.getNumConstraints(); k < e; ++k) {
    AffineExpr c = set.getConstraint(k);
    bool independent = true, inside = true;
    SmallVector<AffineExpr> point;
    for (unsigned v = 0; v < values.size(); ++v) {
      point.push_back(atStart[v] ? atStart[v] : getAffineDimExpr(v, ctx));
      if (!c.isFunctionOfDim(v))
        continue;
      independent &= !feeding.test(v);
      inside &= static_cast<bool>(atStart[v]);
    }
    if (independent && inside) {
      auto at = dyn_cast<AffineConstantExpr>(
          simplifyIndexExpr(c.replaceDims(point), values.size(), 0));
      if (!at || (set.isEq(k) ? at.getValue() != 0 : at.getValue() < 0))
        return false;
      continue;
    }
    if (set.isEq(k))
      return false;
    bool domainBound = false;
    for (unsigned i = 0; i < numVars && !domainBound; ++i) {
      std::optional<int64_t> lo = block.getConstantDomainLower(i);
      std::optional<int64_t> hi = block.getConstantDomainUpper(i);
      if (!used.test(i) || !unit.test(i))
        continue;
      // A runtime domain [0, n) over a dimension of n (a dynamic split's
      // predicate, `fused < n`).
      auto upper = dyn_cast_if_present<Value>(block.getMixedDomainUpper(i));
      const Value *at = upper ? llvm::find(values, upper) : values.end();
      if (lo == 0 && !hi && at != values.end()) {
        AffineExpr n = getAffineDimExpr(at - values.begin(), ctx);
        domainBound = isPositiveMultiple(c, (n - 1) - bindings[i]) &&
                      cutOutsideRuntimeBuffer(region, buffer, i, upper);
        continue;
      }
      if (!lo || !hi)
        continue;
      // A bound at the domain's edge cuts off instances whose elements
      // must lie outside the buffer (the box is within it).
      domainBound = (isPositiveMultiple(c, bindings[i] - *lo) &&
                     cutOutsideBuffer(region, shape, i, *lo, *hi, false)) ||
                    (isPositiveMultiple(c, (*hi - 1) - bindings[i]) &&
                     cutOutsideBuffer(region, shape, i, *lo, *hi, true));
      // A bound inside the domain where the instances it cuts off would
      // access only indices outside the buffer (`v < 12` over a domain of
      // 16, v indexing a dimension of 12): those are no elements either.
      if (!domainBound)
        if (std::optional<int64_t> b =
                getBindingBound(c, bindings[i], /*upper=*/true))
          domainBound = cutOutsideBuffer(region, shape, i, *lo, *b, true);
      if (!domainBound)
        if (std::optional<int64_t> b =
                getBindingBound(c, bindings[i], /*upper=*/false))
          domainBound = cutOutsideBuffer(region, shape, i, *b, *hi, false);
    }
    if (!domainBound)
      return false;
  }
  return true;
}

FailureOr<LoopRegion> mlir::tir::relaxRegionUnderLoop(ForOp loop, Value buffer,
                                                      bool writes,
                                                      ArrayRef<BlockOp> blocks,
                                                      Refusal &failure) {
  return relaxRegionUnder(loop, buffer, writes, blocks, failure);
}

/// The loop around `boundary` (or `boundary` itself) bound to the thread
/// tag `inner` is bound to, when both have constant lower bounds: `inner`
/// runs in that loop's thread. Null otherwise.
static ForOp sameThreadLoopAround(ForOp inner, Operation *boundary) {
  if (inner.getKind() != ForKind::ThreadBinding ||
      !inner.getConstantLowerBound())
    return ForOp();
  for (Operation *op = boundary; op; op = op->getParentOp())
    if (auto outer = dyn_cast<ForOp>(op);
        outer && outer.getKind() == ForKind::ThreadBinding &&
        outer.getThread() == inner.getThread())
      return outer.getConstantLowerBound() ? outer : ForOp();
  return ForOp();
}

/// Whether the box around `a` and `b` (inclusive bounds over `numDims`
/// inputs) is their union: they are equal but in at most one dimension,
/// where their intervals overlap or touch (TVM's union of producer regions,
/// which merges `[0, 63]` and `[64, 127]`).
static bool isExactUnion(const Box &a, const Box &b, unsigned numDims) {
  auto constantDiff = [&](AffineExpr x,
                          AffineExpr y) -> std::optional<int64_t> {
    auto k = dyn_cast<AffineConstantExpr>(simplifyIndexExpr(x - y, numDims, 0));
    return k ? std::optional<int64_t>(k.getValue()) : std::nullopt;
  };
  int differing = -1;
  for (unsigned d = 0, e = a.getRank(); d < e; ++d) {
    if (a.lows[d] == b.lows[d] && a.highs[d] == b.highs[d])
      continue;
    if (differing != -1)
      return false;
    differing = d;
  }
  if (differing == -1)
    return true;
  // b starts at most one past a's end, and a at most one past b's.
  std::optional<int64_t> gapAB =
      constantDiff(b.lows[differing], a.highs[differing]);
  std::optional<int64_t> gapBA =
      constantDiff(a.lows[differing], b.highs[differing]);
  return gapAB && gapBA && *gapAB <= 1 && *gapBA <= 1;
}

FailureOr<LoopRegion> mlir::tir::relaxRegionUnder(Operation *loop, Value buffer,
                                                  bool writes,
                                                  ArrayRef<BlockOp> blocks,
                                                  Refusal &failure,
                                                  bool sameThreadIsPoint) {
  MLIRContext *ctx = loop->getContext();
  RelaxedInputs in(ctx);
  std::string where = "its scope";
  if (auto forOp = dyn_cast<ForOp>(loop))
    where = "loop " + getLoopDisplayName(forOp);
  else if (auto scopeBlock = dyn_cast<BlockOp>(loop))
    where = "block '" + scopeBlock.getBlockName().str() + "'";
  auto fail = [&](Operation *culprit, const Twine &why) {
    return failure.set(culprit, "cannot bound the region of a buffer under " +
                                    where + ": " + why);
  };
  // The loop and the loops around it bound to threads that share the
  // buffer (shared memory across threadIdx, say) are relaxed as well: the
  // region is what all those threads need (TVM's LoopDomainOfSRefTreePath
  // with the buffer's storage scope).
  StringRef scope = getStorageScope(cast<MemRefType>(buffer.getType()));
  auto isSharedAcross = [&](ForOp around) {
    return around.getKind() == ForKind::ThreadBinding &&
           isStorageSharedAcrossThread(scope, *around.getThread());
  };
  // Inner loop variables range over their loop; values from outside `loop`
  // (and its own variable) stay symbolic. `refused`: a value was refused
  // (and `failure` says why).
  bool refused = false;
  // One mapper per block, kept here: it calls itself for loop bounds.
  std::list<std::function<FailureOr<AffineExpr>(Value)>> mappers;
  auto mapperFor = [&](BlockOp user) -> ValueMapper {
    auto &map = mappers.emplace_back();
    map = [&, user](Value v) mutable -> FailureOr<AffineExpr> {
      AffineExpr d = in.dimOf(v);
      if (in.isRelaxed(cast<AffineDimExpr>(d).getPosition()))
        return d;
      Operation *owner = isa<BlockArgument>(v)
                             ? cast<BlockArgument>(v).getOwner()->getParentOp()
                             : v.getDefiningOp();
      if (auto around = dyn_cast_or_null<ForOp>(owner);
          around && isa<BlockArgument>(v) && around->isAncestor(loop) &&
          isSharedAcross(around)) {
        std::optional<int64_t> lo = around.getConstantLowerBound();
        std::optional<int64_t> up = around.getConstantUpperBound();
        if (lo && up && *up > *lo)
          return in.relax(v, Interval{*lo, *up - 1});
      }
      // A loop around `loop` of one iteration has one value.
      if (auto around = dyn_cast_or_null<ForOp>(owner);
          around && around != loop && isa<BlockArgument>(v) &&
          around->isAncestor(loop)) {
        std::optional<int64_t> lo = around.getConstantLowerBound();
        std::optional<int64_t> up = around.getConstantUpperBound();
        if (lo && up && *up == *lo + 1)
          return getAffineConstantExpr(*lo, ctx);
      }
      if (!owner || owner == loop || !loop->isAncestor(owner))
        return d;
      // A pure value the function computes once, outside its loops (a
      // runtime size read at its entry, `n * 32`), is read through to its
      // inputs, which stay symbolic.
      if (!isa<BlockArgument>(v) && owner->getParentOp() == loop &&
          isa<FunctionOpInterface>(loop) && isPure(owner)) {
        ValueIndexExpr traced = getIndexExprOf(v);
        if (traced.inputs.size() == 1 && traced.inputs.front() == v)
          return d;
        SmallVector<AffineExpr> dims;
        for (Value input : traced.inputs) {
          FailureOr<AffineExpr> mapped = map(input);
          if (failed(mapped))
            return mlir::failure();
          dims.push_back(*mapped);
        }
        return traced.expr.replaceDims(dims);
      }
      auto inner = dyn_cast<ForOp>(owner);
      if (!inner || !isa<BlockArgument>(v)) {
        refused = true;
        return fail(user, "block '" + user.getBlockName() +
                              "' uses an index computed inside the loop");
      }
      if (sameThreadIsPoint) {
        if (ForOp outer = sameThreadLoopAround(inner, loop);
            outer && !isSharedAcross(inner))
          return in.dimOf(outer.getInductionVar()) +
                 (*inner.getConstantLowerBound() -
                  *outer.getConstantLowerBound());
      }
      std::optional<int64_t> lo = inner.getConstantLowerBound();
      std::optional<int64_t> up = inner.getConstantUpperBound();
      if (lo && up && *up <= *lo) {
        refused = true;
        return fail(inner, "loop " + getLoopDisplayName(inner) +
                               " inside it is empty");
      }
      if (lo && up)
        return in.relax(v, Interval{*lo, *up - 1});
      // Runtime bounds: values from outside the loop stay symbolic, an
      // outer inner loop's variable is relaxed in turn; the region may be
      // empty where the loop runs no iteration.
      auto boundOf = [&](OpFoldResult b) -> FailureOr<AffineExpr> {
        if (std::optional<int64_t> k = getConstantIntValue(b))
          return getAffineConstantExpr(*k, ctx);
        return map(cast<Value>(b));
      };
      FailureOr<AffineExpr> l = boundOf(inner.getMixedLowerBound());
      if (failed(l))
        return mlir::failure();
      FailureOr<AffineExpr> u = boundOf(inner.getMixedUpperBound());
      if (failed(u))
        return mlir::failure();
      return in.relax(v, *l, *u - 1);
    };
    return map;
  };

  Box hull;
  bool exact = true;
  // coverBound, and where the bounds differ by a runtime amount, the outer
  // values' ranges ordering them (`i1` and 0 with i1 in [0, 256): 0 is the
  // lower bound), as TVM's union of integer sets does.
  auto cover = [&](AffineExpr &acc, AffineExpr e, bool upper) {
    if (coverBound(acc, e, upper, in.size()))
      return true;
    // Flattened first: terms both bounds share cancel (an interval
    // evaluation of d1 - (d0 + d1) would not).
    std::optional<Interval> diff =
        evaluateRange(simplifyAffineExpr(e - acc, in.size(), 0),
                      getValueRanges(in.getValues()));
    if (!diff || (diff->lo < 0 && diff->hi > 0))
      return false;
    if (upper ? diff->lo >= 0 : diff->hi <= 0)
      acc = e;
    return true;
  };
  for (BlockOp block : blocks) {
    FailureOr<BlockAccessRegions> regions = getAccessRegions(block, failure);
    if (mlir::failed(regions))
      return mlir::failure();
    auto &list = writes ? regions->writes : regions->reads;
    if (llvm::none_of(list, [&](auto &r) { return r.first == buffer; }))
      continue;
    // The block's values take dimensions in operand order.
    for (Value v : block.getBindingValues())
      in.dimOf(v);
    ValueRange regionValues =
        ValueRange(regions->inputs).drop_front(block.getNumIterVars());
    for (Value v : regionValues)
      in.dimOf(v);
    auto mapper = mapperFor(block);
    // Under an empty loop (or over an empty domain) the block runs no
    // instance: the box is an over-approximation of nothing.
    for (Operation *p = block; p && p != loop; p = p->getParentOp())
      if (auto l = dyn_cast<ForOp>(p); l && l.getConstantExtent() == 0)
        exact = false;
    for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
      if (block.getConstantDomainLower(i) &&
          block.getConstantDomainLower(i) == block.getConstantDomainUpper(i))
        exact = false;
    for (auto &[b, region] : list) {
      if (b != buffer)
        continue;
      if (block.getPredicate() && !predicateKeepsRegion(block, region, b, loop))
        exact = false;
      unsigned unbounded = 0;
      FailureOr<Box> box =
          relaxBlockRegion(block, region, regionValues, in, mapper, &unbounded);
      if (mlir::failed(box)) {
        if (refused)
          return mlir::failure();
        return fail(block, "block '" + block.getBlockName() +
                               "' accesses it at an index that cannot be "
                               "bounded over the loops inside (a product "
                               "of loop variables or a runtime divisor)");
      }
      if (hull.lows.empty()) {
        hull.lows.resize(box->getRank());
        hull.highs.resize(box->getRank());
      } else if (!isExactUnion(hull, *box, in.size())) {
        exact = false;
      }
      for (unsigned d = 0, e = box->getRank(); d < e; ++d) {
        if (!cover(hull.lows[d], box->lows[d], false) ||
            !cover(hull.highs[d], box->highs[d], true))
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
  result.exact = exact && in.isExact();
  SmallVector<AffineExpr> all;
  for (auto [lo, hi] : llvm::zip(hull.lows, hull.highs)) {
    all.push_back(simplifyOverValues(lo, in.getValues()));
    all.push_back(simplifyOverValues(hi - lo + 1, in.getValues()));
  }
  llvm::SmallBitVector used(in.size());
  for (AffineExpr e : all)
    e.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        used.set(d.getPosition());
    });
  SmallVector<AffineExpr> compress;
  for (unsigned i = 0, n = in.size(); i < n; ++i) {
    compress.push_back(getAffineDimExpr(result.inputs.size(), ctx));
    if (used.test(i))
      result.inputs.push_back(in.getValues()[i]);
  }
  for (unsigned i = 0; i < all.size(); i += 2) {
    result.lowers.push_back(all[i].replaceDims(compress));
    result.extents.push_back(all[i + 1].replaceDims(compress));
  }
  return result;
}

/// The blocks that access `buffer`: the nearest block around each load or
/// store (or view, with `viewsAccess`), and blocks that list it in their
/// regions. Empty when some use is anything else, or an access outside
/// every block.
SmallVector<BlockOp> mlir::tir::getAccessingBlocks(Value buffer,
                                                   bool viewsAccess) {
  llvm::SetVector<BlockOp> blocks;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (auto block = dyn_cast<BlockOp>(user)) {
      blocks.insert(block);
      continue;
    }
    bool isAccess =
        (isa<LoadOp>(user) && cast<LoadOp>(user).getBuffer() == buffer) ||
        (isa<StoreOp>(user) && cast<StoreOp>(user).getBuffer() == buffer) ||
        (viewsAccess && isa<MatchBufferOp>(user) &&
         cast<MatchBufferOp>(user).getSource() == buffer);
    auto block = user->getParentOfType<BlockOp>();
    if (!isAccess || !block)
      return {};
    blocks.insert(block);
  }
  return blocks.takeVector();
}

/// The union of `a` and `b` (each over its own inputs), over the inputs of
/// both; failure when a bound differs by a runtime amount.
FailureOr<LoopRegion> mlir::tir::uniteLoopRegions(const LoopRegion &a,
                                                  const LoopRegion &b) {
  if (a.lowers.empty())
    return b;
  if (b.lowers.empty())
    return a;
  LoopRegion result;
  result.inputs = a.inputs;
  MLIRContext *ctx = a.lowers.front().getContext();
  SmallVector<AffineExpr> remap;
  for (Value v : b.inputs) {
    auto it = llvm::find(result.inputs, v);
    if (it == result.inputs.end()) {
      result.inputs.push_back(v);
      it = std::prev(result.inputs.end());
    }
    remap.push_back(getAffineDimExpr(it - result.inputs.begin(), ctx));
  }
  unsigned n = result.inputs.size();
  for (unsigned d = 0, e = a.lowers.size(); d < e; ++d) {
    AffineExpr lo = a.lowers[d], hi = a.lowers[d] + a.extents[d] - 1;
    AffineExpr blo = b.lowers[d].replaceDims(remap);
    AffineExpr bhi = (b.lowers[d] + b.extents[d] - 1).replaceDims(remap);
    if (!coverBound(lo, blo, /*upper=*/false, n) ||
        !coverBound(hi, bhi, /*upper=*/true, n))
      return failure();
    result.lowers.push_back(simplifyIndexExpr(lo, n, 0));
    result.extents.push_back(simplifyIndexExpr(hi - lo + 1, n, 0));
  }
  return result;
}
