//===- RelaxedInputs.cpp - bounds over relaxed loop variables -------------===//
//
// The arithmetic region relaxation is built on (RegionRelax.h): inputs of
// index expressions, some replaced by the bounds of the loops they range
// over; an expression's lower and upper bound over them, whether a sum of
// relaxed pieces is dense, and whether several indices form a surjective
// iterator map (TVM's DetectIterMap), which keeps a relaxed region exact.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// RelaxedInputs
//===----------------------------------------------------------------------===//

RelaxedInputs::RelaxedInputs(MLIRContext *ctx, ValueRange initial)
    : ctx(ctx), values(initial) {}

AffineExpr RelaxedInputs::dimOf(Value v) {
  auto it = llvm::find(values, v);
  if (it == values.end()) {
    values.push_back(v);
    it = std::prev(values.end());
  }
  return getAffineDimExpr(it - values.begin(), ctx);
}

AffineExpr RelaxedInputs::relax(Value v, Interval range) {
  return relax(v, getAffineConstantExpr(range.lo, ctx),
               getAffineConstantExpr(range.hi, ctx));
}

AffineExpr RelaxedInputs::relax(Value v, AffineExpr lo, AffineExpr hi) {
  AffineExpr d = dimOf(v);
  ranges[cast<AffineDimExpr>(d).getPosition()] = {lo, hi};
  return d;
}

bool RelaxedInputs::involvesRelaxed(AffineExpr e) const {
  bool found = false;
  e.walk([&](AffineExpr sub) {
    if (auto d = dyn_cast<AffineDimExpr>(sub))
      found |= ranges.count(d.getPosition()) > 0;
  });
  return found;
}

AffineExpr RelaxedInputs::bound(AffineExpr e, bool upper) {
  return bound(e, upper, 0);
}

AffineExpr RelaxedInputs::bound(AffineExpr e, bool upper, unsigned depth) {
  if (!involvesRelaxed(e))
    return e;
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    // A runtime bound may use relaxed dimensions in turn (an outer loop's
    // variable): bound it the same way. Loops nest, so this ends.
    auto [lo, hi] = ranges.lookup(d.getPosition());
    if (depth > 16)
      return AffineExpr();
    return bound(upper ? hi : lo, upper, depth + 1);
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return AffineExpr();
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  switch (e.getKind()) {
  case AffineExprKind::Add: {
    AffineExpr l = bound(bin.getLHS(), upper, depth),
               r = bound(bin.getRHS(), upper, depth);
    return l && r ? l + r : AffineExpr();
  }
  case AffineExprKind::Mul: {
    if (!c)
      return AffineExpr();
    AffineExpr l =
        bound(bin.getLHS(), c.getValue() >= 0 ? upper : !upper, depth);
    return l ? l * c.getValue() : AffineExpr();
  }
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    if (!c || c.getValue() <= 0)
      return AffineExpr();
    exact = false;
    AffineExpr l = bound(bin.getLHS(), upper, depth);
    if (!l)
      return l;
    return e.getKind() == AffineExprKind::FloorDiv ? l.floorDiv(c)
                                                   : l.ceilDiv(c);
  }
  case AffineExprKind::Mod: {
    if (!c || c.getValue() <= 0)
      return AffineExpr();
    exact = false;
    int64_t m = c.getValue();
    // Within one period the remainder grows with the dividend.
    auto constantBound = [&](bool up) -> AffineConstantExpr {
      AffineExpr b = bound(bin.getLHS(), up, depth);
      if (!b)
        return AffineConstantExpr();
      return dyn_cast<AffineConstantExpr>(simplifyIndexExpr(b, size(), 0));
    };
    AffineConstantExpr lo = constantBound(false), hi = constantBound(true);
    if (lo && hi && lo.getValue() <= hi.getValue() &&
        llvm::divideFloorSigned(lo.getValue(), m) ==
            llvm::divideFloorSigned(hi.getValue(), m))
      return getAffineConstantExpr(
          llvm::mod(upper ? hi.getValue() : lo.getValue(), m), ctx);
    // A fixed part that is a multiple of g (g dividing m) and a relaxed part
    // within [0, g) do not carry into each other: (P + R) mod m is
    // P mod m + R (`(2 * o + i) mod 4` over i in [0, 2)).
    AffineTerms parts = AffineTerms::get(bin.getLHS());
    AffineTerms fixed, relaxed;
    int64_t g = m;
    for (auto [term, k] : parts.terms) {
      if (involvesRelaxed(term)) {
        relaxed.terms.push_back({term, k});
        continue;
      }
      fixed.terms.push_back({term, k});
      g = std::gcd(g, k * static_cast<int64_t>(term.getLargestKnownDivisor()));
    }
    fixed.constant = parts.constant;
    g = std::gcd(g, parts.constant);
    if (g >= 1 && !relaxed.terms.empty()) {
      AffineExpr r = relaxed.toExpr(ctx);
      AffineExpr rlo = bound(r, false, depth), rhi = bound(r, true, depth);
      auto clo =
          rlo ? dyn_cast<AffineConstantExpr>(simplifyIndexExpr(rlo, size(), 0))
              : AffineConstantExpr();
      auto chi =
          rhi ? dyn_cast<AffineConstantExpr>(simplifyIndexExpr(rhi, size(), 0))
              : AffineConstantExpr();
      if (clo && chi && clo.getValue() >= 0 && chi.getValue() < g)
        return fixed.toExpr(ctx) % m + (upper ? chi : clo);
    }
    return getAffineConstantExpr(upper ? m - 1 : 0, ctx);
  }
  default:
    return AffineExpr();
  }
}

bool RelaxedInputs::isDense(AffineExpr e, int64_t span) const {
  AffineTerms terms = AffineTerms::get(e);
  SmallVector<std::pair<int64_t, int64_t>> steps; // |coefficient|, width
  unsigned relaxed = 0;
  bool unitRuntime = false;
  for (auto &[term, coeff] : terms.terms) {
    if (!involvesRelaxed(term))
      continue;
    ++relaxed;
    auto d = dyn_cast<AffineDimExpr>(term);
    if (!d)
      return false;
    auto [lo, hi] = ranges.lookup(d.getPosition());
    auto l = dyn_cast<AffineConstantExpr>(lo);
    auto h = dyn_cast<AffineConstantExpr>(hi);
    if (!l || !h) {
      // A runtime range is dense alone, with a unit step.
      unitRuntime = std::abs(coeff) == 1;
      continue;
    }
    steps.push_back({std::abs(coeff), h.getValue() - l.getValue()});
  }
  if (unitRuntime)
    return relaxed == 1 && span == 0;
  llvm::sort(steps);
  int64_t reach = span;
  for (auto [step, width] : steps) {
    if (width > 0 && step > reach + 1)
      return false;
    reach += step * width;
  }
  return true;
}

namespace {
/// A digit of a relaxed dimension: `(x floordiv lower) mod extent`.
struct Piece {
  unsigned pos;
  int64_t lower, extent, range;
};
} // namespace

/// `term` as a piece of a relaxed dimension with a constant range [0, n):
/// `x`, `x floordiv f`, `x mod m`, `(x floordiv f) mod m`,
/// `(x mod m) floordiv f`; each factor dividing what it splits.
static std::optional<Piece>
asPiece(AffineExpr term,
        function_ref<std::optional<int64_t>(unsigned)> rangeOf) {
  auto constRhs = [](AffineExpr e) -> std::optional<int64_t> {
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    auto c =
        bin ? dyn_cast<AffineConstantExpr>(bin.getRHS()) : AffineConstantExpr();
    if (!c || c.getValue() <= 0)
      return std::nullopt;
    return c.getValue();
  };
  auto lhs = [](AffineExpr e) { return cast<AffineBinaryOpExpr>(e).getLHS(); };
  int64_t f = 1;
  std::optional<int64_t> outerMod, innerMod;
  AffineExpr e = term;
  if (e.getKind() == AffineExprKind::Mod) {
    if (!(outerMod = constRhs(e)))
      return std::nullopt;
    e = lhs(e);
  }
  if (e.getKind() == AffineExprKind::FloorDiv) {
    std::optional<int64_t> k = constRhs(e);
    if (!k)
      return std::nullopt;
    f = *k;
    e = lhs(e);
    if (!outerMod && e.getKind() == AffineExprKind::Mod) {
      if (!(innerMod = constRhs(e)))
        return std::nullopt;
      e = lhs(e);
    }
  }
  auto d = dyn_cast<AffineDimExpr>(e);
  if (!d)
    return std::nullopt;
  std::optional<int64_t> n = rangeOf(d.getPosition());
  if (!n || *n <= 0)
    return std::nullopt;
  int64_t span = innerMod ? *innerMod : *n; // what is divided by f
  if (innerMod && *n % *innerMod != 0)
    return std::nullopt;
  if (span % f != 0)
    return std::nullopt;
  int64_t extent = span / f;
  if (outerMod) {
    if (*outerMod < extent) {
      if (extent % *outerMod != 0)
        return std::nullopt;
      extent = *outerMod;
    }
  }
  return Piece{d.getPosition(), f, extent, *n};
}

bool RelaxedInputs::isSurjectiveIterMap(ArrayRef<AffineExpr> starts,
                                        ArrayRef<int64_t> widths) const {
  // Sums of relaxed variables that are themselves a mixed-radix number
  // (`2 * a + b` over b in [0, 2)) divided or reduced as one (TVM's fused
  // iterators) become one variable each, numbered from size().
  llvm::DenseMap<unsigned, int64_t> fusedRanges;
  auto rangeOf = [&](unsigned pos) -> std::optional<int64_t> {
    if (auto f = fusedRanges.find(pos); f != fusedRanges.end())
      return f->second;
    auto it = ranges.find(pos);
    if (it == ranges.end())
      return std::nullopt;
    auto l = dyn_cast<AffineConstantExpr>(it->second.first);
    auto h = dyn_cast<AffineConstantExpr>(it->second.second);
    if (!l || !h || l.getValue() != 0)
      return std::nullopt;
    return h.getValue() + 1;
  };
  llvm::DenseMap<AffineExpr, unsigned> fusedOf;
  llvm::DenseSet<unsigned> inFused;
  // The dense sum's range, or nullopt.
  auto denseSumRange = [&](AffineExpr sum) -> std::optional<int64_t> {
    AffineTerms t = AffineTerms::get(sum);
    if (t.constant != 0 || t.terms.size() < 2)
      return std::nullopt;
    SmallVector<std::pair<int64_t, int64_t>> steps; // coefficient, extent
    for (auto &[term, coeff] : t.terms) {
      auto d = dyn_cast<AffineDimExpr>(term);
      std::optional<int64_t> n = d && isRelaxed(d.getPosition())
                                     ? rangeOf(d.getPosition())
                                     : std::nullopt;
      if (!n || coeff <= 0)
        return std::nullopt;
      steps.push_back({coeff, *n});
    }
    llvm::sort(steps);
    int64_t next = 1;
    for (auto [coeff, n] : steps) {
      if (coeff != next)
        return std::nullopt;
      next *= n;
    }
    return next;
  };
  auto fuseSums = [&](AffineExpr e, auto &self) -> AffineExpr {
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return e;
    if (e.getKind() == AffineExprKind::FloorDiv ||
        e.getKind() == AffineExprKind::Mod) {
      AffineExpr inner = bin.getLHS();
      if (std::optional<int64_t> n = denseSumRange(inner)) {
        auto [it, added] = fusedOf.try_emplace(
            inner, static_cast<unsigned>(size() + fusedOf.size()));
        if (added) {
          fusedRanges[it->second] = *n;
          inner.walk([&](AffineExpr sub) {
            if (auto d = dyn_cast<AffineDimExpr>(sub))
              inFused.insert(d.getPosition());
          });
        }
        AffineExpr v = getAffineDimExpr(it->second, ctx);
        return e.getKind() == AffineExprKind::FloorDiv
                   ? v.floorDiv(bin.getRHS())
                   : v % bin.getRHS();
      }
    }
    return getAffineBinaryOpExpr(e.getKind(), self(bin.getLHS(), self),
                                 self(bin.getRHS(), self));
  };
  llvm::DenseMap<unsigned, SmallVector<std::pair<int64_t, int64_t>>> digits;
  llvm::DenseMap<unsigned, int64_t> rangeOfVar;
  // Variables of one value (unit loops) are that value: `(a + u) floordiv
  // 2` over a unit u is `a floordiv 2`.
  SmallVector<AffineExpr> points;
  for (unsigned pos = 0, n = size(); pos < n; ++pos) {
    auto it = ranges.find(pos);
    auto l = it == ranges.end()
                 ? AffineConstantExpr()
                 : dyn_cast<AffineConstantExpr>(it->second.first);
    points.push_back(l && it->second.first == it->second.second
                         ? AffineExpr(l)
                         : getAffineDimExpr(pos, ctx));
  }
  // The starts simplified with the relaxed variables' constant ranges
  // (`(a + 4 * b) floordiv 4` is b for a in [0, 4)).
  SmallVector<std::optional<Interval>> known(size());
  for (unsigned pos = 0, n = size(); pos < n; ++pos) {
    auto it = ranges.find(pos);
    if (it == ranges.end())
      continue;
    auto l = dyn_cast<AffineConstantExpr>(it->second.first);
    auto h = dyn_cast<AffineConstantExpr>(it->second.second);
    if (l && h && l.getValue() <= h.getValue())
      known[pos] = Interval{l.getValue(), h.getValue()};
  }
  SmallVector<AffineExpr> fusedStarts;
  for (AffineExpr rawStart : starts)
    fusedStarts.push_back(fuseSums(
        simplifyWithRanges(rawStart.replaceDims(points), known, size(), 0),
        fuseSums));
  // A variable fused into a sum is not used on its own as well.
  for (AffineExpr start : fusedStarts)
    for (auto &[term, coeff] : AffineTerms::get(start).terms) {
      bool alone = false;
      term.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          alone |= inFused.contains(d.getPosition());
      });
      if (alone)
        return false;
    }
  for (auto [start, width] : llvm::zip(fusedStarts, widths)) {
    if (width < 1)
      return false;
    SmallVector<std::pair<int64_t, int64_t>> steps; // coefficient, extent
    for (auto &[term, coeff] : AffineTerms::get(start).terms) {
      bool fused = false;
      term.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          fused |= fusedRanges.count(d.getPosition()) != 0;
      });
      if (!fused && !involvesRelaxed(term))
        continue;
      std::optional<Piece> p = asPiece(term, rangeOf);
      if (!p || coeff <= 0)
        return false;
      if (p->extent == 1)
        continue;
      digits[p->pos].push_back({p->lower, p->extent});
      rangeOfVar[p->pos] = p->range;
      steps.push_back({coeff, p->extent});
    }
    llvm::sort(steps);
    int64_t reach = width - 1;
    for (auto [step, extent] : steps) {
      if (step > reach + 1)
        return false;
      reach += step * (extent - 1);
    }
  }
  for (auto &[pos, list] : digits) {
    llvm::sort(list);
    int64_t next = 1;
    for (auto [lower, extent] : list) {
      if (lower % next != 0)
        return false;
      next = lower * extent;
    }
    if (rangeOfVar[pos] % next != 0)
      return false;
  }
  return true;
}

FailureOr<std::pair<AffineExpr, AffineExpr>>
RelaxedInputs::bounds(AffineExpr e) {
  AffineExpr lo = bound(e, false), hi = bound(e, true);
  if (!lo || !hi)
    return failure();
  return std::make_pair(simplifyIndexExpr(lo, size(), 0),
                        simplifyIndexExpr(hi, size(), 0));
}
