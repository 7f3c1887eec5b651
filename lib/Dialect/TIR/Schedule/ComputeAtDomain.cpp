//===- ComputeAtDomain.cpp - the iteration domain compute_at gives --------===//
//
// TVM's CalculateBlockVarDomain for compute_at and reverse_compute_at: for
// each buffer the block provides (writes for compute_at, reads for
// reverse_compute_at), the region the other blocks need of it under the
// loop in one iteration, inverted through the block's own access
// (AccessInverse.h: dimension by dimension, else as digits of its
// variables), joined over the buffers, then bounded by the block's domains
// and the buffers' shapes (a predicate where the bounds are not known to
// hold).
//
//===----------------------------------------------------------------------===//

#include "AccessInverse.h"
#include "ComputeAt.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;
using namespace mlir::tir::sched::computeat;

namespace {

/// The block's access of one buffer beside the region the other blocks
/// need of it: per dimension, [lo, hi] (inclusive, over the solver's
/// inputs).
struct Access {
  const RegionExprs &region;
  ArrayRef<int64_t> shape;
  SmallVector<AffineExpr> lo, hi;
};

/// The domains found so far: per iteration variable, the values
/// [lo, hi] (over `in`) that cover what the accesses seen need, and the
/// bounds [domLo, domHi] it must stay within.
struct DomainSolver {
  Ctx &c;
  bool computeAt;
  ExprInputs &in;
  SmallVectorImpl<AffineExpr> &lo, &hi;
  SmallVectorImpl<int64_t> &domLo, &domHi;

  LogicalResult join(unsigned var, AffineExpr l, AffineExpr h) {
    unsigned n = in.values.size();
    if (coverBound(lo[var], l, false, n) && coverBound(hi[var], h, true, n))
      return success();
    return c.fail(c.block, "cannot join the regions required of an "
                           "iteration variable of block " +
                               c.name() + " (they differ by a runtime amount)");
  }

  /// Narrows the bounds of `var` to [l, h].
  void bound(unsigned var, int64_t l, int64_t h) {
    domLo[var] = std::max(domLo[var], l);
    domHi[var] = std::min(domHi[var], h);
  }

  std::optional<Interval> rangeOf(AffineExpr e) {
    return evaluateRange(simplifyOverValues(e, in.values),
                         getValueRanges(in.values));
  }
  std::optional<int64_t> constantOf(AffineExpr e) {
    if (auto k = dyn_cast<AffineConstantExpr>(simplifyOverValues(e, in.values)))
      return k.getValue();
    return std::nullopt;
  }

  LogicalResult checkConstants(const Access &a);
  std::optional<LogicalResult> coverDimwise(const Access &a);
  LogicalResult coverDigits(const Access &a, const DigitAccess &digits);
};

} // namespace

/// A constant index provides one element: the other blocks must need just
/// that one there.
LogicalResult DomainSolver::checkConstants(const Access &a) {
  for (auto [d, start] : llvm::enumerate(a.region.starts)) {
    auto k = dyn_cast<AffineConstantExpr>(start);
    if (!k)
      continue;
    auto ext = dyn_cast<AffineConstantExpr>(a.region.extents[d]);
    std::optional<int64_t> l = constantOf(a.lo[d]), h = constantOf(a.hi[d]);
    if (!ext || ext.getValue() != 1 || l != k.getValue() || h != l)
      return c.fail(c.block, "needs the region required in dimension " +
                                 Twine(d) + " to be the constant " +
                                 Twine(k.getValue()) + " block " + c.name() +
                                 " provides there");
  }
  return success();
}

/// Dimension by dimension; nullopt (nothing changed) when an index is not
/// of the forms invertIndex knows.
std::optional<LogicalResult> DomainSolver::coverDimwise(const Access &a) {
  unsigned numVars = lo.size();
  SmallVector<std::pair<unsigned, Inverse>> inverses;
  for (auto [d, start] : llvm::enumerate(a.region.starts)) {
    if (isa<AffineConstantExpr>(start))
      continue;
    FailureOr<Inverse> inverse = invertIndex(
        start, dyn_cast<AffineConstantExpr>(a.region.extents[d]), numVars);
    if (failed(inverse))
      return std::nullopt;
    inverses.push_back({d, *inverse});
  }
  MLIRContext *ctx = c.block.getContext();
  for (auto &[d, inverse] : inverses) {
    AffineExpr rlo = a.lo[d], rhi = a.hi[d];
    // A tile read back must be aligned: reverse_compute_at may not read
    // the part of a tile its producers have not written.
    if (!computeAt && inverse.tile > 1) {
      int64_t tile = inverse.tile;
      auto aligned = [&](AffineExpr e) { return constantOf(e % tile) == 0; };
      if (!aligned(rlo - inverse.offset) || !aligned(rhi + 1 - rlo))
        return c.fail(c.block, "needs whole tiles of block " + c.name() +
                                   " in dimension " + Twine(d) +
                                   ", but the producers under loop " +
                                   loopName(c.loop) + " write a part of one");
    }
    if (failed(join(inverse.var, inverse.lowerOf(rlo, rhi),
                    inverse.upperOf(rlo, rhi))))
      return failure();
    if (d < a.shape.size() && !ShapedType::isDynamic(a.shape[d])) {
      auto value = [&](AffineExpr e) {
        return cast<AffineConstantExpr>(simplifyIndexExpr(e, 0, 0)).getValue();
      };
      AffineExpr first = getAffineConstantExpr(0, ctx);
      AffineExpr last = getAffineConstantExpr(a.shape[d] - 1, ctx);
      bound(inverse.var, value(inverse.lowerOf(first, last)),
            value(inverse.upperOf(first, last)));
    }
  }
  return success();
}

/// Through the digits of each source (TVM's inverse of a bijective iter
/// map): the source's values from the digits' lower ends to their upper
/// ends, then, for a fused source, its variables' values. These are exactly
/// the values whose elements lie in the region when, below the highest
/// digit (variable) whose region is more than one value, every digit's
/// region is its whole range (every variable's values all); otherwise they
/// are more. compute_at may compute more (the same values again);
/// reverse_compute_at would read elements the producers have not written,
/// and refuses.
LogicalResult DomainSolver::coverDigits(const Access &a,
                                        const DigitAccess &digits) {
  MLIRContext *ctx = c.block.getContext();
  auto constant = [&](int64_t v) { return getAffineConstantExpr(v, ctx); };
  for (const DigitSource &source : digits.sources) {
    AffineExpr l = constant(0), h = l;
    int64_t top = 0; // the largest value the shapes allow
    bool shaped = true;
    bool exact = true, above = false; // `above`: a wider digit seen
    for (const Digit &digit : llvm::reverse(source.digits)) {
      AffineExpr dl = a.lo[digit.dim], dh = a.hi[digit.dim];
      std::optional<Interval> lr = rangeOf(dl), hr = rangeOf(dh);
      bool within =
          !digit.extent || (lr && hr && lr->lo >= 0 && hr->hi < *digit.extent);
      if (!within) {
        exact = false;
        dl = constant(0);
        dh = constant(*digit.extent - 1);
      }
      bool whole = digit.extent && constantOf(dl) == 0 &&
                   constantOf(dh) == *digit.extent - 1;
      if (above && !whole)
        exact = false;
      if (constantOf(dh - dl) != 0)
        above = true;
      l = l + dl * digit.stride;
      h = h + dh * digit.stride;
      int64_t size = digit.extent.value_or(INT64_MAX);
      if (digit.dim < a.shape.size() &&
          !ShapedType::isDynamic(a.shape[digit.dim]))
        size = std::min(size, a.shape[digit.dim]);
      if (size == INT64_MAX)
        shaped = false;
      else
        top += (size - 1) * digit.stride;
    }
    // The fused variables, outermost first: while the source's range stays
    // within one value of a variable, the next one down takes the rest; a
    // variable that takes several values leaves the ones below whole.
    bool spanned = false;
    AffineExpr rl = l, rh = h;
    for (unsigned n = source.vars.size(), idx = n; idx-- > 0;) {
      auto [var, k] = source.vars[idx];
      int64_t varSize =
          (idx + 1 < n ? source.vars[idx + 1].second : source.size) / k;
      if (spanned) {
        if (failed(join(var, constant(0), constant(varSize - 1))))
          return failure();
        continue;
      }
      AffineExpr ql = simplifyOverValues(rl.floorDiv(k), in.values);
      AffineExpr qh = simplifyOverValues(rh.floorDiv(k), in.values);
      if (failed(join(var, ql, qh)))
        return failure();
      if (constantOf(qh - ql) == 0) {
        rl = simplifyOverValues(rl % k, in.values);
        rh = simplifyOverValues(rh % k, in.values);
        continue;
      }
      spanned = true;
      if (k > 1 && (constantOf(rl % k) != 0 || constantOf((rh + 1) % k) != 0))
        exact = false;
    }
    if (!computeAt && !exact) {
      std::string vars;
      for (auto [var, k] : llvm::reverse(source.vars))
        vars += (vars.empty() ? "" : ", ") + iterVarLabel(c.block, var);
      return c.fail(c.block,
                    "needs the producers under loop " + loopName(c.loop) +
                        " to write consecutive values of " +
                        (source.vars.size() > 1 ? "the fused iteration "
                                                  "variables "
                                                : "iteration variable ") +
                        vars + " of block " + c.name() +
                        " (its access reads digits of them); it would read "
                        "elements not yet written");
    }
    if (shaped && source.vars.size() == 1)
      bound(source.vars.front().first, 0, top);
  }
  return success();
}

FailureOr<Plan> computeat::solveDomain(Ctx &c, ArrayRef<BlockOp> required,
                                       bool computeAt, bool preserveUnitLoops) {
  MLIRContext *ctx = c.block.getContext();
  FailureOr<BlockAccessRegions> own = getAccessRegions(c.block, c.error);
  if (failed(own))
    return failure();
  unsigned numVars = c.block.getNumIterVars();
  // The block's domains, inclusive: constant ones (narrowed by the
  // buffers' shapes), and runtime ones as expressions.
  ExprInputs in{ctx, {}};
  SmallVector<int64_t> domLo, domHi;
  SmallVector<AffineExpr> runtimeLo(numVars), runtimeHi(numVars);
  for (unsigned i = 0; i < numVars; ++i) {
    auto lo = c.block.getConstantDomainLower(i);
    auto hi = c.block.getConstantDomainUpper(i);
    domLo.push_back(lo && hi ? *lo : INT64_MIN);
    domHi.push_back(lo && hi ? *hi - 1 : INT64_MAX);
    if (!lo || !hi) {
      // Read through their arithmetic (`n * 32`), so that a bound the
      // loops imply is known to hold.
      runtimeLo[i] = in.exprOf(c.block.getMixedDomainLower(i));
      runtimeHi[i] = in.exprOf(c.block.getMixedDomainUpper(i)) - 1;
    }
  }

  // The block's own domains, before the buffers' shapes narrow them (the
  // iterations reverse_compute_at must keep).
  SmallVector<int64_t> ownLo(domLo), ownHi(domHi);
  SmallVector<AffineExpr> lo(numVars), hi(numVars);
  DomainSolver s{c, computeAt, in, lo, hi, domLo, domHi};
  SmallVector<std::optional<int64_t>> sizes;
  for (unsigned i = 0; i < numVars; ++i)
    sizes.push_back(!runtimeLo[i] && domLo[i] == 0
                        ? std::optional<int64_t>(domHi[i] + 1)
                        : std::nullopt);

  auto &provided = computeAt ? own->writes : own->reads;
  SmallVector<Value> done;
  for (auto &[buffer, region] : provided) {
    if (llvm::is_contained(done, buffer))
      return c.fail(c.block, "needs one access per buffer in block " +
                                 c.name() + ", which has several of one");
    done.push_back(buffer);
    FailureOr<LoopRegion> req = relaxRegionUnderLoop(
        c.loop, buffer, /*writes=*/!computeAt, required, c.primitive, c.error);
    if (failed(req))
      return failure();
    if (req->lowers.empty())
      continue;
    if (!computeAt && !req->exact)
      return c.fail(c.loop,
                    "needs the producers under loop " + loopName(c.loop) +
                        " to write a dense box in one iteration (no "
                        "predicate, strides of 1); block " +
                        c.name() + " could read elements not yet written");
    SmallVector<AffineExpr> reqDims;
    for (Value v : req->inputs)
      reqDims.push_back(in.dimOf(v));
    Access access{
        region, cast<MemRefType>(buffer.getType()).getShape(), {}, {}};
    for (unsigned d = 0, e = region.starts.size(); d < e; ++d) {
      access.lo.push_back(req->lowers[d].replaceDims(reqDims));
      access.hi.push_back(access.lo.back() +
                          req->extents[d].replaceDims(reqDims) - 1);
    }
    if (failed(s.checkConstants(access)))
      return failure();
    std::optional<LogicalResult> dimwise = s.coverDimwise(access);
    if (dimwise && failed(*dimwise))
      return failure();
    if (dimwise)
      continue;
    FailureOr<DigitAccess> digits =
        invertDigits(region.starts, region.extents, sizes, own->inputs.size());
    if (failed(digits))
      return c.fail(c.block,
                    "cannot invert the access of block " + c.name() +
                        ": each index must access one element at an iteration "
                        "variable times 1 or -1 plus a constant, at a "
                        "constant or at a digit (v floordiv s) mod m of one "
                        "variable, or a whole tile v * c of extent c");
    if (failed(s.coverDigits(access, *digits)))
      return failure();
  }

  // TVM's BlockVarDomainInfo::Simplify: the domain where it lies within
  // the bounds, the bounds where they lie within it (or where the
  // intersection is constant), else the domain with a predicate.
  Plan plan;
  auto constant = [&](int64_t v) { return getAffineConstantExpr(v, ctx); };
  for (unsigned i = 0; i < numVars; ++i) {
    VarDomain dom;
    if (runtimeLo[i]) {
      // A runtime domain bounds where it is not known to hold (the
      // shapes' constant bounds are left out: within the domain, the
      // accesses stay within them).
      AffineExpr blo = runtimeLo[i], bhi = runtimeHi[i];
      AffineExpr l = lo[i] ? simplifyOverValues(lo[i], in.values) : blo;
      AffineExpr h = lo[i] ? simplifyOverValues(hi[i], in.values) : bhi;
      if (lo[i] && !in.isKnownNonNegative(l - blo))
        dom.guardLo = blo;
      if (lo[i] && !in.isKnownNonNegative(bhi - h))
        dom.guardHi = bhi;
      dom.lower = l;
      dom.extent = simplifyOverValues(h - l + 1, in.values);
      plan.vars.push_back(dom);
      continue;
    }
    AffineExpr blo = constant(domLo[i]);
    if (!lo[i] || domLo[i] > domHi[i]) {
      dom.lower = blo;
      dom.extent = constant(std::max<int64_t>(domHi[i] - domLo[i] + 1, 0));
      plan.vars.push_back(dom);
      continue;
    }
    SmallVector<std::optional<Interval>> ranges = getValueRanges(in.values);
    AffineExpr l = simplifyOverValues(lo[i], in.values);
    AffineExpr h = simplifyOverValues(hi[i], in.values);
    auto lr = evaluateRange(l, ranges), hr = evaluateRange(h, ranges);
    auto loBound = [&]() -> AffineExpr { // max(l, domLo) when known
      if (lr && lr->hi <= domLo[i])
        return blo;
      if (lr && lr->lo >= domLo[i])
        return l;
      return AffineExpr();
    };
    auto hiBound = [&]() -> AffineExpr { // min(h, domHi) when known
      if (hr && hr->lo >= domHi[i])
        return constant(domHi[i]);
      if (hr && hr->hi <= domHi[i])
        return h;
      return AffineExpr();
    };
    AffineExpr il = loBound(), ih = hiBound();
    bool within = lr && hr && lr->lo >= domLo[i] && hr->hi <= domHi[i];
    if (!within && il && ih && isa<AffineConstantExpr>(il) &&
        isa<AffineConstantExpr>(ih)) {
      l = il;
      h = ih;
    } else if (!within) {
      // Bounds the constant ranges do not settle may still hold over the
      // loops' runtime bounds (`f floordiv n` for `f` in [0, n * 32)).
      if (!(lr && lr->lo >= domLo[i]) && !in.isKnownNonNegative(l - blo))
        dom.guardLo = blo;
      if (!(hr && hr->hi <= domHi[i]) &&
          !in.isKnownNonNegative(constant(domHi[i]) - h))
        dom.guardHi = constant(domHi[i]);
    }
    dom.lower = l;
    dom.extent = simplifyOverValues(h - l + 1, in.values);
    if (auto k = dyn_cast<AffineConstantExpr>(dom.extent);
        k && k.getValue() < 1)
      return c.fail(c.block, "would give block " + c.name() +
                                 " an empty domain under the loop");
    // reverse_compute_at runs the consumer only where it reads what the
    // producers write; its other iterations (a padding block's border,
    // which reads nothing) would never run. TVM drops them; refused here.
    if (!computeAt && !dom.guardLo && !dom.guardHi) {
      auto extent = dom.getConstantExtent();
      auto range = evaluateRange(dom.lower, ranges);
      if (extent && range &&
          (range->lo > ownLo[i] || range->hi + *extent - 1 < ownHi[i]))
        return c.fail(c.block,
                      "would leave out iterations of block " + c.name() + ": " +
                          iterVarLabel(c.block, i) + " runs over [" +
                          Twine(ownLo[i]) + ", " + Twine(ownHi[i] + 1) +
                          "), but only [" + Twine(range->lo) + ", " +
                          Twine(range->hi + *extent) +
                          ") read what the producers write under loop " +
                          loopName(c.loop) +
                          " (the others read none of it, and would never run)");
    }
    plan.vars.push_back(dom);
  }
  plan.inputs = in.values;
  (void)preserveUnitLoops;
  return plan;
}
