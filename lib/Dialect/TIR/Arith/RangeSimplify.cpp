//===- RangeSimplify.cpp - simplification with known ranges ---------------===//

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tir;

using Ranges = ArrayRef<std::optional<Interval>>;

/// Bottom-up: each floordiv / mod by a positive constant whose dividend is
/// `divisor * q + r` with r in [0, divisor) becomes q / r; terms that
/// cannot carry (within [0, g) beside multiples of a g that divides the
/// divisor: a constant, or with `splitBounded` bounded terms too) leave
/// the division.
static AffineExpr simplify(AffineExpr e, Ranges ranges, bool splitBounded) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  MLIRContext *ctx = e.getContext();
  AffineExpr lhs = simplify(bin.getLHS(), ranges, splitBounded);
  AffineExpr rhs = simplify(bin.getRHS(), ranges, splitBounded);
  AffineExprKind kind = e.getKind();
  auto c = dyn_cast<AffineConstantExpr>(rhs);
  if ((kind == AffineExprKind::FloorDiv || kind == AffineExprKind::Mod) && c &&
      c.getValue() > 0) {
    int64_t divisor = c.getValue();
    bool isMod = kind == AffineExprKind::Mod;
    if (auto whole = evaluateRange(lhs, ranges);
        whole && whole->lo >= 0 && whole->hi < divisor)
      return isMod ? lhs : getAffineConstantExpr(0, ctx);
    AffineTerms parts = AffineTerms::get(lhs);
    // lhs == divisor * quotient + rest: when rest stays within one multiple
    // [m * divisor, (m + 1) * divisor), the division is quotient + m and
    // the remainder rest - m * divisor. Two splits: the multiples of the
    // divisor out, or (failing that) every coefficient's floor quotient out
    // ((45c) floordiv 2 over c in [0, 1] is 22c).
    for (bool floorAll : {false, true}) {
      AffineTerms quotient, rest;
      auto place = [&](int64_t k, auto add) {
        int64_t q = floorAll ? llvm::divideFloorSigned(k, divisor)
                             : (k % divisor == 0 ? k / divisor : 0);
        add(quotient, q);
        add(rest, k - q * divisor);
      };
      for (auto [term, k] : parts.terms)
        place(k, [&, term = term](AffineTerms &t, int64_t v) {
          if (v != 0)
            t.terms.push_back({term, v});
        });
      place(parts.constant, [](AffineTerms &t, int64_t v) { t.constant = v; });
      AffineExpr remainder = rest.toExpr(ctx);
      auto r = evaluateRange(remainder, ranges);
      if (!r)
        continue;
      int64_t m = llvm::divideFloorSigned(r->lo, divisor);
      if (r->hi >= (m + 1) * divisor)
        continue;
      quotient.constant += m;
      return isMod ? remainder - m * divisor : quotient.toExpr(ctx);
    }
    // Small terms do not carry: when the other terms are multiples of g,
    // which divides the divisor, and the small ones (with the constant's
    // remainder modulo g) stay in [0, g), they leave the quotient alone and
    // add to the remainder: (4x + v) floordiv 16 is (4x) floordiv 16 and
    // (4x + v) mod 16 is (4x) mod 16 + v over v in [0, 4) (a vectorized
    // lane's cooperative copy), (8x + 7) floordiv 16 is (8x) floordiv 16.
    // A term's multiple: its coefficient times what is known to divide it
    // ((4x) mod 8 is a multiple of 4).
    auto multipleOf = [](AffineExpr term, int64_t k) {
      return k * static_cast<int64_t>(term.getLargestKnownDivisor());
    };
    // Each term's gcd with the divisor is a candidate g, and so is the gcd
    // of all of them (every term big, only the constant small:
    // (6x + 10y + 1) floordiv 30 drops the 1).
    SmallVector<int64_t> candidates;
    int64_t all = divisor;
    for (auto [term, k] : parts.terms) {
      all = std::gcd(all, multipleOf(term, k));
      if (int64_t g = std::gcd(divisor, multipleOf(term, k)); g > 1)
        candidates.push_back(g);
    }
    if (all > 1)
      candidates.push_back(all);
    llvm::sort(candidates, std::greater<int64_t>()); // largest g first
    for (int64_t g :
         llvm::make_range(candidates.begin(), llvm::unique(candidates))) {
      AffineTerms big, small;
      for (auto [term, k] : parts.terms)
        (multipleOf(term, k) % g == 0 ? big : small).terms.push_back({term, k});
      small.constant = llvm::mod(parts.constant, g);
      big.constant = parts.constant - small.constant;
      if (big.terms.empty() || (small.terms.empty() && small.constant == 0) ||
          (!splitBounded && !small.terms.empty()))
        continue;
      auto r = evaluateRange(small.toExpr(ctx), ranges);
      if (!r || r->lo < 0 || r->hi >= g)
        continue;
      AffineExpr base = simplify(big.toExpr(ctx), ranges, splitBounded);
      return isMod ? simplify(base % divisor, ranges, splitBounded) +
                         small.toExpr(ctx)
                   : simplify(base.floorDiv(divisor), ranges, splitBounded);
    }
    // Multiples of the divisor leave any division: (2a + x + 1) floordiv 2
    // is a + (x + 1) floordiv 2, (2a + x + 1) mod 2 is (x + 1) mod 2.
    AffineTerms multiples, others;
    for (auto [term, k] : parts.terms)
      (k % divisor == 0 ? multiples : others).terms.push_back({term, k});
    others.constant = parts.constant;
    if (!multiples.terms.empty() && !others.terms.empty()) {
      for (auto &[term, k] : multiples.terms)
        k /= divisor;
      AffineExpr rest = others.toExpr(ctx);
      return isMod ? simplify(rest % divisor, ranges, splitBounded)
                   : multiples.toExpr(ctx) +
                         simplify(rest.floorDiv(divisor), ranges, splitBounded);
    }
  }
  if (kind == AffineExprKind::Add) {
    // (y + 1) floordiv 2 - y floordiv 2 is y mod 2 (a region's extent
    // over a stride-2 access).
    AffineTerms sum = AffineTerms::get(lhs + rhs);
    for (auto &[up, k] : sum.terms) {
      auto div = dyn_cast<AffineBinaryOpExpr>(up);
      if (k == 0 || !div || div.getKind() != AffineExprKind::FloorDiv ||
          div.getRHS() != getAffineConstantExpr(2, ctx))
        continue;
      AffineExpr y = div.getLHS() - 1;
      for (auto &[down, j] : sum.terms) {
        if (j != -k || down != y.floorDiv(2))
          continue;
        int64_t scale = k;
        k = 0;
        j = 0;
        AffineTerms rest = sum;
        rest.terms.erase(
            llvm::remove_if(rest.terms, [](auto &t) { return t.second == 0; }),
            rest.terms.end());
        return rest.toExpr(ctx) + (y % 2) * scale;
      }
    }
  }
  return getAffineBinaryOpExpr(kind, lhs, rhs);
}

AffineExpr mlir::tir::simplifyWithRanges(AffineExpr expr, Ranges dimRanges,
                                         unsigned numDims, unsigned numSymbols,
                                         bool splitBoundedTerms) {
  AffineExpr simplified = simplifyIndexExpr(expr, numDims, numSymbols);
  return simplifyIndexExpr(simplify(simplified, dimRanges, splitBoundedTerms),
                           numDims, numSymbols);
}
