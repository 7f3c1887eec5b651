//===- Simplify.cpp - simplification of index expressions -----------------===//

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Digits.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

#include <tuple>

using namespace mlir;
using namespace mlir::tir;

/// Folds back into `k * (x floordiv c1) mod m` the term
/// `-(k * m) * (x floordiv (c1 * m))` (at `i`) with the term
/// `k * (x floordiv c1)` it came with: MLIR's flattening writes a digit
/// that way, the two divisions merged. False when no such term is there.
static bool refoldDigit(AffineTerms &sum, unsigned i, AffineExpr x,
                        int64_t divisor) {
  int64_t a = sum.terms[i].second;
  for (unsigned j = 0; j < sum.terms.size(); ++j) {
    auto [t, k] = sum.terms[j];
    if (j == i || k == 0 || t.getKind() != AffineExprKind::FloorDiv)
      continue;
    auto inner = cast<AffineBinaryOpExpr>(t);
    auto c1 = dyn_cast<AffineConstantExpr>(inner.getRHS());
    if (inner.getLHS() != x || !c1 || c1.getValue() <= 1 ||
        divisor <= c1.getValue() || divisor % c1.getValue() != 0)
      continue;
    int64_t m = divisor / c1.getValue();
    if (a % m != 0 || k != -a / m)
      continue;
    sum.terms[j].second = 0;
    sum.terms[i] = {t % m, k};
    return true;
  }
  return false;
}

/// MLIR's flattening writes `x mod c` scaled by k as
/// `k * x - (k * c) * (x floordiv c)`, and `(x floordiv c1) mod m` as
/// `k * (x floordiv c1) - (k * m) * (x floordiv (c1 * m))`; folds both
/// back, in every sum of `e` (TVM writes the mod, and structural equality
/// with TVM's programs compares the forms). Only an `x` without a constant
/// term is folded back in the first form.
static AffineExpr refoldMods(AffineExpr e) {
  AffineTerms sum = AffineTerms::get(e);
  bool changed = false;
  // Sums inside the terms first (a division's dividend, a product's
  // factors).
  for (auto &[term, k] : sum.terms) {
    auto bin = dyn_cast<AffineBinaryOpExpr>(term);
    if (!bin)
      continue;
    AffineExpr lhs = refoldMods(bin.getLHS());
    AffineExpr rhs = refoldMods(bin.getRHS());
    if (lhs == bin.getLHS() && rhs == bin.getRHS())
      continue;
    term = getAffineBinaryOpExpr(term.getKind(), lhs, rhs);
    changed = true;
  }
  for (unsigned i = 0; i < sum.terms.size(); ++i) {
    auto [t, a] = sum.terms[i];
    if (t.getKind() != AffineExprKind::FloorDiv || a == 0)
      continue;
    auto div = cast<AffineBinaryOpExpr>(t);
    auto c = dyn_cast<AffineConstantExpr>(div.getRHS());
    if (!c || c.getValue() <= 1)
      continue;
    if (refoldDigit(sum, i, div.getLHS(), c.getValue())) {
      changed = true;
      continue;
    }
    if (a % c.getValue() != 0)
      continue;
    int64_t k = -a / c.getValue();
    AffineTerms x = AffineTerms::get(div.getLHS());
    if (x.constant != 0 || !llvm::all_of(x.terms, [&](auto &term) {
          return sum.getCoefficient(term.first) == k * term.second;
        }))
      continue;
    for (auto &[term, coefficient] : x.terms)
      for (auto &[have, kh] : sum.terms)
        if (have == term) {
          kh -= k * coefficient;
          break;
        }
    sum.terms[i] = {div.getLHS() % c, k};
    changed = true;
  }
  if (!changed)
    return e;
  llvm::erase_if(sum.terms, [](auto &term) { return term.second == 0; });
  return sum.toExpr(e.getContext());
}

/// Divisions and remainders by positive constants nested in one another
/// written as one digit, `(x floordiv a) mod b` (getIndexDigit's rules),
/// bottom-up. MLIR's simplification keeps `(x mod 16) floordiv 4` and
/// `(x floordiv 4) floordiv 2` as they are; structural equality's
/// canonical form applies the same rules, so the two agree on them.
static AffineExpr normalizeDigitsOnce(AffineExpr e) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  AffineExpr lhs = normalizeDigitsOnce(bin.getLHS());
  AffineExpr rhs = normalizeDigitsOnce(bin.getRHS());
  // Rebuilt only where something changed: MLIR's operators may reorder a
  // sum, and the order is what the user wrote (TVM compares it).
  AffineExpr same = lhs == bin.getLHS() && rhs == bin.getRHS()
                        ? e
                        : getAffineBinaryOpExpr(e.getKind(), lhs, rhs);
  bool divides = e.getKind() == AffineExprKind::FloorDiv ||
                 e.getKind() == AffineExprKind::Mod;
  bool nested = lhs.getKind() == AffineExprKind::FloorDiv ||
                lhs.getKind() == AffineExprKind::Mod;
  if (!divides || !nested)
    return same;
  IndexDigit digit = getIndexDigit(same);
  if (digit.base == same)
    return same;
  AffineExpr result = digit.base;
  if (digit.divisor != 1)
    result = result.floorDiv(digit.divisor);
  if (digit.extent)
    result = result % *digit.extent;
  return result;
}

/// normalizeDigitsOnce until nothing changes: MLIR's floorDiv of a sum
/// divides its multiples out, which can nest a division again.
static AffineExpr normalizeDigits(AffineExpr e) {
  for (int round = 0; round < 4; ++round) {
    AffineExpr next = normalizeDigitsOnce(e);
    if (next == e)
      break;
    e = next;
  }
  return e;
}

AffineExpr mlir::tir::simplifyIndexExpr(AffineExpr e, unsigned numDims,
                                        unsigned numSymbols) {
  // MLIR's flattener writes one slot per dimension and symbol it is told
  // of: an expression using more (a caller's miscount) would write past
  // them, so the counts cover what the expression uses.
  e.walk([&](AffineExpr sub) {
    if (auto d = dyn_cast<AffineDimExpr>(sub))
      numDims = std::max(numDims, d.getPosition() + 1);
    else if (auto s = dyn_cast<AffineSymbolExpr>(sub))
      numSymbols = std::max(numSymbols, s.getPosition() + 1);
  });
  if (e.isPureAffine())
    return normalizeDigits(
        refoldMods(simplifyAffineExpr(e, numDims, numSymbols)));
  MLIRContext *ctx = e.getContext();
  SmallVector<AffineExpr> dimsAsSymbols, symbolsShifted, back, backSymbols;
  for (unsigned i = 0; i < numDims; ++i) {
    dimsAsSymbols.push_back(getAffineSymbolExpr(i, ctx));
    back.push_back(getAffineDimExpr(i, ctx));
  }
  for (unsigned j = 0; j < numSymbols; ++j) {
    symbolsShifted.push_back(getAffineSymbolExpr(numDims + j, ctx));
    backSymbols.push_back(getAffineSymbolExpr(j, ctx));
  }
  AffineExpr asSymbols = e.replaceDimsAndSymbols(dimsAsSymbols, symbolsShifted);
  AffineExpr simplified =
      simplifyAffineExpr(asSymbols, 0, numDims + numSymbols);
  // Symbol k < numDims was dimension k; the others were symbols.
  SmallVector<AffineExpr> symbolsBack(back);
  llvm::append_range(symbolsBack, backSymbols);
  return normalizeDigits(refoldMods(simplified).replaceSymbols(symbolsBack));
}

void mlir::tir::tightenDivisionBounds(
    SmallVectorImpl<AffineExpr> &constraints) {
  auto upperOf = [](AffineExpr c, AffineExprKind kind)
      -> std::optional<std::tuple<AffineExpr, int64_t, int64_t>> {
    AffineTerms terms = AffineTerms::get(c);
    // `x mod d` may be spelled `x - (x floordiv d) * d`.
    if (kind == AffineExprKind::Mod && terms.terms.size() == 2) {
      for (unsigned i = 0; i < 2; ++i) {
        auto [x, one] = terms.terms[i];
        auto [q, d] = terms.terms[1 - i];
        auto bin = dyn_cast<AffineBinaryOpExpr>(q);
        if (one == -1 && bin && bin.getKind() == AffineExprKind::FloorDiv &&
            bin.getLHS() == x &&
            bin.getRHS() == getAffineConstantExpr(d, c.getContext()) && d > 0)
          return std::make_tuple(x, d, terms.constant);
      }
      return std::nullopt;
    }
    if (terms.terms.size() != 1 || terms.terms[0].second != -1)
      return std::nullopt;
    auto bin = dyn_cast<AffineBinaryOpExpr>(terms.terms[0].first);
    if (!bin || bin.getKind() != kind)
      return std::nullopt;
    auto d = dyn_cast<AffineConstantExpr>(bin.getRHS());
    if (!d || d.getValue() <= 0)
      return std::nullopt;
    return std::make_tuple(bin.getLHS(), d.getValue(), terms.constant);
  };
  for (AffineExpr &c : constraints) {
    auto div = upperOf(c, AffineExprKind::FloorDiv);
    if (!div)
      continue;
    auto [x, d, k] = *div;
    int64_t bound = k * d + d - 1;
    for (AffineExpr other : constraints)
      if (auto mod = upperOf(other, AffineExprKind::Mod);
          mod && std::get<0>(*mod) == x && std::get<1>(*mod) == d &&
          std::get<2>(*mod) >= 0 && std::get<2>(*mod) < d - 1)
        bound = k * d + std::get<2>(*mod);
    c = getAffineConstantExpr(bound, c.getContext()) - x;
  }
}

AffineExpr
mlir::tir::simplifyInequality(AffineExpr c,
                              ArrayRef<std::optional<Interval>> dimRanges) {
  AffineTerms sum = AffineTerms::get(c);
  if (sum.terms.empty())
    return c;
  // Leading terms first: the largest coefficients.
  SmallVector<std::pair<AffineExpr, int64_t>> terms(sum.terms);
  llvm::stable_sort(terms, [](auto &a, auto &b) {
    return std::abs(a.second) > std::abs(b.second);
  });
  MLIRContext *ctx = c.getContext();
  // The fewest leading terms that carry the bound: `lead` of them, their
  // coefficients' divisor g, the rest within [lo, hi]. c >= 0 is
  // Y >= ceil(-(K + r) / g) (Y the leading sum over g, r the rest's value),
  // one bound for every r in the range when its two ends give the same.
  for (unsigned lead = 1; lead <= terms.size(); ++lead) {
    int64_t g = 0;
    for (unsigned i = 0; i < lead; ++i)
      g = std::gcd(g, std::abs(terms[i].second));
    if (g <= 1 && lead < terms.size())
      continue;
    int64_t lo = 0, hi = 0;
    bool bounded = true;
    for (unsigned i = lead; i < terms.size() && bounded; ++i) {
      std::optional<Interval> r = evaluateRange(terms[i].first, dimRanges);
      if (!r) {
        bounded = false;
        break;
      }
      int64_t k = terms[i].second;
      lo += k > 0 ? k * r->lo : k * r->hi;
      hi += k > 0 ? k * r->hi : k * r->lo;
    }
    if (!bounded)
      continue;
    int64_t lowest = llvm::divideCeilSigned(-(sum.constant + hi), g);
    if (lowest != llvm::divideCeilSigned(-(sum.constant + lo), g))
      continue;
    if (lead == terms.size() && g == 1)
      return c;
    // The leading terms divided by g, in the order they had.
    AffineTerms kept;
    for (auto [t, k] : sum.terms)
      if (llvm::is_contained(ArrayRef(terms).take_front(lead),
                             std::make_pair(t, k)))
        kept.terms.push_back({t, k / g});
    kept.constant = -lowest;
    return kept.toExpr(ctx);
  }
  return c;
}
