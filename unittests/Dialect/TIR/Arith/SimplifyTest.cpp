//===- SimplifyTest.cpp - simplification of index expressions -------------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Digits.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include <random>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using SimplifyTest = TIRTest;

TEST_F(SimplifyTest, ScaledModStaysAMod) {
  AffineExpr f = getAffineDimExpr(0, &ctx), j = getAffineDimExpr(1, &ctx);
  // What fuse substitutes into a tile binding: (f mod 2) * 16 + j. MLIR's
  // flattening writes it as f * 16 - (f floordiv 2) * 32 + j; it comes
  // back as the mod.
  AffineExpr expected = (f % 2) * 16 + j;
  EXPECT_EQ(simplifyIndexExpr(f * 16 + j - f.floorDiv(2) * 32, 2, 0),
            simplifyIndexExpr(expected, 2, 0));
  EXPECT_EQ(simplifyIndexExpr(expected, 2, 0), j + (f % 2) * 16);
  // Of a sum, and negated.
  AffineExpr s = f + j * 3;
  EXPECT_EQ(simplifyIndexExpr(s * -4 + s.floorDiv(8) * 32, 2, 0), (s % 8) * -4);
  // Not a mod: the floordiv's coefficient is not the scale times c.
  AffineExpr kept = simplifyIndexExpr(f * 16 - f.floorDiv(2) * 16, 2, 0);
  for (int64_t v : {0, 1, 2, 3, 7})
    EXPECT_EQ(simplifyAffineExpr(
                  kept.replaceDims({getAffineConstantExpr(v, &ctx)}), 0, 0),
              getAffineConstantExpr(16 * v - v / 2 * 16, &ctx));
}

// A caller that counts fewer dimensions or symbols than the expression
// uses gets the simplification, not a write past MLIR's flattener slots
// (schedule-diff seed 44 case 3523: heap corruption in cache_read).
TEST_F(SimplifyTest, CountsCoverWhatTheExpressionUses) {
  AffineExpr d0 = getAffineDimExpr(0, &ctx), d3 = getAffineDimExpr(3, &ctx);
  AffineExpr s2 = getAffineSymbolExpr(2, &ctx);
  EXPECT_EQ(simplifyIndexExpr(d3 + d0 - d0, 1, 0), d3);
  EXPECT_EQ(simplifyIndexExpr(d0 * s2 + d3 - d3, 1, 0), d0 * s2);
}

/// Built as written: MLIR's operators would fold some of these already.
static AffineExpr raw(AffineExprKind kind, AffineExpr a, int64_t k) {
  return getAffineBinaryOpExpr(kind, a,
                               getAffineConstantExpr(k, a.getContext()));
}

TEST_F(SimplifyTest, NestedDivisionsBecomeOneDigit) {
  auto div = [](AffineExpr a, int64_t k) {
    return raw(AffineExprKind::FloorDiv, a, k);
  };
  auto mod = [](AffineExpr a, int64_t k) {
    return raw(AffineExprKind::Mod, a, k);
  };
  // The forms structural equality identifies, written one way.
  EXPECT_EQ(simplifyIndexExpr(div(mod(d(0), 16), 4), 1, 0),
            d(0).floorDiv(4) % 4);
  EXPECT_EQ(simplifyIndexExpr(div(div(d(0), 4), 2), 1, 0), d(0).floorDiv(8));
  EXPECT_EQ(simplifyIndexExpr(mod(mod(d(0), 4), 8), 1, 0), d(0) % 4);
  EXPECT_EQ(simplifyIndexExpr(div(mod(d(0) + d(1) * 8, 16), 4), 2, 0),
            (d(0) + d(1) * 8).floorDiv(4) % 4);
  // Inside a larger expression, and where the rules do not apply.
  EXPECT_EQ(simplifyIndexExpr(div(mod(d(0), 16), 4) * 3 + d(1), 2, 0),
            d(1) + (d(0).floorDiv(4) % 4) * 3);
  EXPECT_EQ(simplifyIndexExpr(div(mod(d(0), 6), 4), 1, 0),
            (d(0) % 6).floorDiv(4));
  // The digit form is what simplification keeps.
  for (AffineExpr kept : {d(0).floorDiv(4) % 4, d(0).floorDiv(8), d(0) % 4})
    EXPECT_EQ(simplifyIndexExpr(kept, 1, 0), kept);
  // Two spellings of one index now differ by the constant 0.
  EXPECT_EQ(getConstantDifference(div(mod(d(0), 16384), 128),
                                  mod(div(d(0), 128), 128), 1),
            0);
}

TEST_F(SimplifyTest, DivisionBoundsTighten) {
  // i floordiv 128 <= 126 and i mod 128 <= 126: i <= 16254.
  SmallVector<AffineExpr> constraints = {c(126) - d(0).floorDiv(128),
                                         c(126) - d(0) % 128};
  tightenDivisionBounds(constraints);
  EXPECT_EQ(constraints[0], c(16254) - d(0));
  EXPECT_EQ(constraints[1], c(126) - d(0) % 128);
  // Alone, the division bound is the largest x of that quotient.
  SmallVector<AffineExpr> alone = {c(3) - d(0).floorDiv(8)};
  tightenDivisionBounds(alone);
  EXPECT_EQ(alone[0], c(31) - d(0));
  // Other constraints stay.
  SmallVector<AffineExpr> other = {d(0) - 2, c(5) - d(0) * d(1)};
  SmallVector<AffineExpr> before = other;
  tightenDivisionBounds(other);
  EXPECT_EQ(other, before);
}

TEST_F(SimplifyTest, InequalityInFewestTerms) {
  std::optional<Interval> f = Interval{0, 8191}, four = Interval{0, 3},
                          thirtyTwo = Interval{0, 31};
  // A split loop's guard: 1023 - 16 (f floordiv 64) - 4 j - k >= 0 over j,
  // k in [0, 4): the inner loops cannot move the bound.
  AffineExpr guard = c(1023) - d(0).floorDiv(64) * 16 - d(1) * 4 - d(2);
  EXPECT_EQ(simplifyInequality(guard, {f, four, four}),
            c(63) - d(0).floorDiv(64));
  // With 999 they can: j stays, k goes (j's coefficient divides 16).
  EXPECT_EQ(
      simplifyInequality(c(999) - d(0).floorDiv(64) * 16 - d(1) * 4 - d(2),
                         {f, four, four}),
      c(249) - d(0).floorDiv(64) * 4 - d(1));
  // A common divisor alone: 1023 - 32 k >= 0 is 31 - k >= 0.
  EXPECT_EQ(simplifyInequality(c(1023) - d(2) * 32, {f, four, thirtyTwo}),
            c(31) - d(2));
  // Lower bounds too: 32 k + l - 40 >= 0 over l in [0, 32) is k - 2 >= 0
  // only where every l agrees, which it does not; 32 k + l - 64 does.
  EXPECT_EQ(simplifyInequality(d(0) * 32 + d(1) - 64, {f, thirtyTwo}),
            d(0) - 2);
  AffineExpr mixed = d(0) * 32 + d(1) - 40;
  EXPECT_EQ(simplifyInequality(mixed, {f, thirtyTwo}), mixed);
  // A term of unknown range is kept: only k goes.
  EXPECT_EQ(simplifyInequality(guard, {f, std::nullopt, four}),
            c(255) - d(0).floorDiv(64) * 4 - d(1));
  EXPECT_EQ(simplifyInequality(guard, {f, four, std::nullopt}), guard);
}

// Over random sums and ranges, the simplified inequality holds exactly
// where the original does.
TEST_F(SimplifyTest, RandomInequalitiesKeepTheirSolutions) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  static const int64_t scales[] = {1, 2, 3, 4, 8, 16, -1, -2, -4, -8, -16};
  int simplified = 0;
  for (int n = 0; n < 2000; ++n) {
    SmallVector<std::optional<Interval>> ranges;
    for (int i = 0; i < 3; ++i) {
      int lo = pick(-3, 2);
      ranges.push_back(Interval{lo, lo + pick(0, 9)});
    }
    AffineExpr e = c(pick(-60, 60));
    for (int i = 0; i < 3; ++i)
      e = e + d(i) * scales[pick(0, 10)];
    if (pick(0, 3) == 0)
      e = e + d(0).floorDiv(pick(2, 4)) * scales[pick(0, 10)];
    AffineExpr s = simplifyInequality(e, ranges);
    simplified += s != e;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << e << " -> " << s;
    for (int64_t x = ranges[0]->lo; x <= ranges[0]->hi; ++x)
      for (int64_t y = ranges[1]->lo; y <= ranges[1]->hi; ++y)
        for (int64_t z = ranges[2]->lo; z <= ranges[2]->hi; ++z)
          ASSERT_EQ(*evaluateAt(s, {x, y, z}) >= 0,
                    *evaluateAt(e, {x, y, z}) >= 0)
              << text << " at (" << x << ", " << y << ", " << z << ")";
  }
  EXPECT_GT(simplified, 200);
}

/// Random index expressions over two dimensions: sums, products by
/// constants, floordiv, mod and ceildiv by small positive constants, nested.
static AffineExpr randomExpr(std::mt19937 &rng, MLIRContext *ctx, int depth) {
  auto pick = [&](int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(rng);
  };
  if (depth == 0 || pick(4) == 0)
    return pick(3) == 0 ? getAffineConstantExpr(pick(9) - 4, ctx)
                        : getAffineDimExpr(pick(2), ctx);
  AffineExpr a = randomExpr(rng, ctx, depth - 1);
  static const int64_t divisors[] = {1, 2, 3, 4, 6, 8, 12, 16};
  int64_t k = divisors[pick(8)];
  switch (pick(6)) {
  case 0:
    return getAffineBinaryOpExpr(AffineExprKind::Add, a,
                                 randomExpr(rng, ctx, depth - 1));
  case 1:
    return raw(AffineExprKind::Mul, a, pick(7) - 3);
  case 2:
    return raw(AffineExprKind::FloorDiv, a, k);
  case 3:
    return raw(AffineExprKind::Mod, a, k);
  case 4:
    return raw(AffineExprKind::CeilDiv, a, k);
  default:
    return raw(AffineExprKind::FloorDiv, raw(AffineExprKind::Mod, a, k * 4), k);
  }
}

// The simplifier keeps every value (floor semantics, negative inputs too)
// and leaves no nested division that getIndexDigit would merge. (It is not
// always idempotent on such random nests: MLIR's simplifyAffineExpr finds
// more in a second pass over some of its own results.)
TEST_F(SimplifyTest, RandomExpressionsKeepTheirValues) {
  std::mt19937 rng(42);
  for (int n = 0; n < 3000; ++n) {
    AffineExpr e = randomExpr(rng, &ctx, 4);
    AffineExpr s = simplifyIndexExpr(e, 2, 0);
    std::string text;
    llvm::raw_string_ostream os(text);
    os << e << " -> " << s;
    for (int64_t x = -20; x <= 20; x += 3)
      for (int64_t y = -7; y <= 9; y += 4)
        ASSERT_EQ(evaluateAt(s, {x, y}), evaluateAt(e, {x, y}))
            << text << " at (" << x << ", " << y << ")";
    s.walk([&](AffineExpr sub) {
      if (sub.getKind() != AffineExprKind::FloorDiv &&
          sub.getKind() != AffineExprKind::Mod)
        return;
      IndexDigit digit = getIndexDigit(sub);
      if (digit.base == sub)
        return;
      AffineExpr form = digit.base;
      if (digit.divisor != 1)
        form = form.floorDiv(digit.divisor);
      if (digit.extent)
        form = form % *digit.extent;
      EXPECT_EQ(sub, form) << text << ": a nest of divisions";
    });
  }
}

} // namespace
