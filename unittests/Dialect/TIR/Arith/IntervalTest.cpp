//===- IntervalTest.cpp - ranges and range simplification -----------------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using IntervalTest = TIRTest;
using Ranges = SmallVector<std::optional<Interval>>;

TEST_F(IntervalTest, SumsAndProducts) {
  Ranges r{Interval{0, 3}, Interval{0, 3}};
  EXPECT_EQ(evaluateRange(d(0) * 4 + d(1), r), (Interval{0, 15}));
  EXPECT_EQ(evaluateRange(d(0) * -2 + 5, r), (Interval{-1, 5}));
  EXPECT_EQ(evaluateRange(d(0) * d(1), r), (Interval{0, 9}));
  // Symbols have their own ranges.
  Ranges syms{Interval{10, 10}};
  EXPECT_EQ(evaluateRange(d(0) + getAffineSymbolExpr(0, &ctx), r, syms),
            (Interval{10, 13}));
}

TEST_F(IntervalTest, DivisionAndModulo) {
  Ranges r{Interval{0, 15}, Interval{5, 6}};
  EXPECT_EQ(evaluateRange(d(0).floorDiv(4), r), (Interval{0, 3}));
  EXPECT_EQ(evaluateRange(d(0).ceilDiv(4), r), (Interval{0, 4}));
  // Across periods a remainder takes every value; within one it grows with
  // the dividend.
  EXPECT_EQ(evaluateRange(d(0) % 4, r), (Interval{0, 3}));
  EXPECT_EQ(evaluateRange(d(1) % 4, r), (Interval{1, 2}));
  // Only positive constant divisors.
  EXPECT_EQ(evaluateRange(d(0).floorDiv(d(1)), r), std::nullopt);
  EXPECT_EQ(evaluateRange(d(0) % d(1), r), std::nullopt);
}

TEST_F(IntervalTest, UnknownAndOverflow) {
  Ranges r{std::nullopt, Interval{0, INT64_MAX}};
  EXPECT_EQ(evaluateRange(d(0) + 1, r), std::nullopt);
  EXPECT_EQ(evaluateRange(d(1) * 2, r), std::nullopt);
  EXPECT_EQ(evaluateRange(d(1) + 1, r), std::nullopt);
  // A dimension beyond the list is unknown.
  EXPECT_EQ(evaluateRange(d(5), r), std::nullopt);
}

TEST_F(IntervalTest, EvaluateAtPoints) {
  EXPECT_EQ(evaluateAt(d(0) * 4 + d(1).floorDiv(2), {3, 5}), 14);
  EXPECT_EQ(evaluateAt(d(0) % 4, {-1}), 3);
  EXPECT_EQ(evaluateAt(d(0).floorDiv(d(1)), {7, 0}), std::nullopt);
}

TEST_F(IntervalTest, SimplifyWithRanges) {
  Ranges r{Interval{0, 7}, Interval{0, 3}};
  AffineExpr fused = d(0) * 4 + d(1);
  EXPECT_EQ(simplifyWithRanges(fused.floorDiv(4), r, 2, 0), d(0));
  EXPECT_EQ(simplifyWithRanges(fused % 4, r, 2, 0), d(1));
  EXPECT_EQ(simplifyWithRanges((fused + 8).floorDiv(4), r, 2, 0), d(0) + 2);
  // d1 may reach 4: the division stays.
  Ranges wide{Interval{0, 7}, Interval{0, 4}};
  EXPECT_EQ(simplifyWithRanges(fused.floorDiv(4), wide, 2, 0),
            simplifyAffineExpr(fused.floorDiv(4), 2, 0));
  // A whole dividend in [0, divisor).
  EXPECT_EQ(simplifyWithRanges(d(1).floorDiv(8), r, 2, 0), c(0));
  EXPECT_EQ(simplifyWithRanges(d(1) % 8, r, 2, 0), d(1));
}

TEST_F(IntervalTest, SimplifyDropsConstantsThatCannotCarry) {
  // 8 * d0 is a multiple of 8, which divides 16: + 7 never reaches the next
  // multiple of 16, whatever d0 is (no range needed).
  Ranges none{std::nullopt};
  AffineExpr x = d(0) * 8;
  EXPECT_EQ(simplifyWithRanges((x + 7).floorDiv(16), none, 1, 0),
            simplifyWithRanges(x.floorDiv(16), none, 1, 0));
  EXPECT_EQ(simplifyWithRanges((x + 7) % 16, none, 1, 0),
            simplifyWithRanges(x % 16, none, 1, 0) + 7);
  EXPECT_EQ(
      simplifyWithRanges((x + 7).floorDiv(16) - x.floorDiv(16), none, 1, 0),
      c(0));
  // + 9 may carry: the division stays (checked by value).
  AffineExpr kept = simplifyWithRanges((x + 9).floorDiv(16), none, 1, 0);
  for (int64_t v : {0, 1, 2, 3, -1, -2})
    EXPECT_EQ(simplifyAffineExpr(kept.replaceDims({c(v)}), 0, 0),
              c(llvm::divideFloorSigned(8 * v + 9, 16)));
  for (int64_t v : {0, 1, 2, 3, -1, -2, -3}) {
    auto at = [&](AffineExpr e) {
      return simplifyAffineExpr(e.replaceDims({c(v)}), 0, 0);
    };
    EXPECT_EQ(at(simplifyWithRanges((x + 7).floorDiv(16), none, 1, 0)),
              c(llvm::divideFloorSigned(8 * v + 7, 16)));
    EXPECT_EQ(at(simplifyWithRanges((x + 7) % 16, none, 1, 0)),
              c(llvm::mod(8 * v + 7, 16)));
  }
}

TEST_F(IntervalTest, SimplifyDropsBoundedTermsThatCannotCarry) {
  // A vectorized lane v = d1 in [0, 4) beside 4 * d0 (a multiple of 4,
  // which divides 16): (4 d0 + v) floordiv 16 does not depend on v and the
  // mod moves by v, whatever d0 is (no range for d0).
  Ranges lanes{std::nullopt, Interval{0, 3}};
  AffineExpr x = d(0) * 4;
  EXPECT_EQ(simplifyWithRanges((x + d(1)).floorDiv(16), lanes, 2, 0),
            simplifyWithRanges(x.floorDiv(16), lanes, 2, 0));
  EXPECT_EQ(
      simplifyAffineExpr(simplifyWithRanges((x + d(1)) % 16, lanes, 2, 0) -
                             simplifyWithRanges(x % 16, lanes, 2, 0) - d(1),
                         2, 0),
      c(0));
  // A term known to be a multiple through its own division: (4 d0) mod 8
  // is a multiple of 4, so ((4 d0) mod 8 + v) floordiv 4 drops v.
  AffineExpr m = x % 8;
  EXPECT_EQ(simplifyWithRanges((m + d(1)).floorDiv(4), lanes, 2, 0),
            simplifyWithRanges(m.floorDiv(4), lanes, 2, 0));
  // v in [0, 4] may carry: checked by value that what stays is right.
  Ranges wide{std::nullopt, Interval{0, 4}};
  AffineExpr div = simplifyWithRanges((x + d(1)).floorDiv(16), wide, 2, 0);
  AffineExpr mod = simplifyWithRanges((x + d(1)) % 16, wide, 2, 0);
  for (int64_t a : {0, 1, 3, 4, 7, -1, -4})
    for (int64_t v = 0; v <= 4; ++v) {
      auto at = [&](AffineExpr e) {
        return simplifyAffineExpr(e.replaceDims({c(a), c(v)}), 0, 0);
      };
      EXPECT_EQ(at(div), c(llvm::divideFloorSigned(4 * a + v, 16)));
      EXPECT_EQ(at(mod), c(llvm::mod(4 * a + v, 16)));
    }
}

TEST_F(IntervalTest, SimplifyDropsConstantsBelowTheGcdOfAllTerms) {
  // No single term's gcd with 30 exceeds 1 in a way that leaves the
  // constant alone in [0, g) but the gcd of all of them, 2, does:
  // (6 d0 + 10 d1 + 1) floordiv 30 is (6 d0 + 10 d1) floordiv 30.
  Ranges none{std::nullopt, std::nullopt};
  AffineExpr x = d(0) * 6 + d(1) * 10;
  for (bool split : {true, false}) {
    EXPECT_EQ(simplifyWithRanges((x + 1).floorDiv(30), none, 2, 0, split),
              simplifyWithRanges(x.floorDiv(30), none, 2, 0, split));
    EXPECT_EQ(simplifyAffineExpr(
                  simplifyWithRanges((x + 1) % 30, none, 2, 0, split) -
                      simplifyWithRanges(x % 30, none, 2, 0, split) - 1,
                  2, 0),
              c(0));
  }
}

TEST_F(IntervalTest, SimplifyKeepsBoundedTermsWhenAskedOrNegative) {
  // splitBoundedTerms false (access inversion): (4 d0 + d1) floordiv 16
  // keeps d1 in the division, as a digit of the fused source.
  Ranges lanes{std::nullopt, Interval{0, 3}};
  AffineExpr fused = d(0) * 4 + d(1);
  AffineExpr kept = simplifyWithRanges(fused.floorDiv(16), lanes, 2, 0,
                                       /*splitBoundedTerms=*/false);
  EXPECT_EQ(kept, simplifyAffineExpr(fused.floorDiv(16), 2, 0));
  // A small part below 0 (4 d0 - d1) may borrow from the quotient: what
  // stays is right by value.
  AffineExpr minus = d(0) * 4 - d(1);
  AffineExpr div = simplifyWithRanges(minus.floorDiv(16), lanes, 2, 0);
  AffineExpr mod = simplifyWithRanges(minus % 16, lanes, 2, 0);
  for (int64_t a : {0, 1, 4, 5, -1, -4})
    for (int64_t v = 0; v <= 3; ++v) {
      auto at = [&](AffineExpr e) {
        return simplifyAffineExpr(e.replaceDims({c(a), c(v)}), 0, 0);
      };
      EXPECT_EQ(at(div), c(llvm::divideFloorSigned(4 * a - v, 16)));
      EXPECT_EQ(at(mod), c(llvm::mod(4 * a - v, 16)));
    }
}

TEST_F(IntervalTest, SimplifySplitsCoefficientsLargerThanTheDivisor) {
  // 45 * d0 = 2 * (22 * d0) + d0: over d0 in [0, 1] the remainder stays
  // below 2, so (45 * d0) floordiv 2 is 22 * d0 and the mod is d0.
  Ranges small{Interval{0, 1}};
  AffineExpr x = d(0) * 45;
  EXPECT_EQ(simplifyWithRanges(x.floorDiv(2), small, 1, 0), d(0) * 22);
  EXPECT_EQ(simplifyWithRanges(x % 2, small, 1, 0), d(0));
  // (45 * d0 + 4) floordiv 2 is 22 * d0 + 2 over [0, 1].
  EXPECT_EQ(simplifyWithRanges((x + 4).floorDiv(2), small, 1, 0),
            d(0) * 22 + 2);
  // A remainder within another multiple of the divisor: in 4 * d0 + 3 the
  // constant 3 lies in [2, 4), so the division is 2 * d0 + 1, the mod 1.
  AffineExpr y = d(0) * 4 + 3;
  EXPECT_EQ(simplifyWithRanges(y.floorDiv(2), small, 1, 0), d(0) * 2 + 1);
  EXPECT_EQ(simplifyWithRanges(y % 2, small, 1, 0), c(1));
  // Over [0, 2] the remainder d0 reaches 2: the division stays, right.
  Ranges wider{Interval{0, 2}};
  AffineExpr kept = simplifyWithRanges(x.floorDiv(2), wider, 1, 0);
  for (int64_t v : {0, 1, 2})
    EXPECT_EQ(simplifyAffineExpr(kept.replaceDims({c(v)}), 0, 0),
              c(45 * v / 2));
}

TEST_F(IntervalTest, SimplifyKeepsDivisionsByInputs) {
  // Input space: every input is a dimension, a runtime extent too. Fusing
  // `i_1` (8) outside `i_0` (d3 = ceildiv(n, 8)) gives i_0 = d2 mod d3 and
  // i_1 = d2 floordiv d3; split's predicate i_0 * 8 + i_1 < n (d1) must
  // keep both (MLIR 22's simplifyAffineExpr made it `d0 floordiv d1 * 2 < n`,
  // a miscompile; see simplifyIndexExpr). The expression is built as the
  // substitution builds it: MLIR's result depends on the tree's shape.
  Ranges r{Interval{0, 5}, std::nullopt, std::nullopt, std::nullopt};
  AffineExpr e = d(3).floorDiv(d(4)) * -1 + d(1) - (d(3) % d(4)) * 8 - 1;
  e = e.replaceDims({d(0), d(1), d(1), d(2), d(3)});
  AffineExpr s = simplifyWithRanges(e, r, 4, 0);
  for (std::pair<int64_t, int64_t> point :
       {std::pair{0, 1}, {5, 2}, {13, 2}, {15, 2}})
    for (int64_t n : {1, 13, 16}) {
      int64_t f = point.first, divisor = point.second;
      auto eval = [&](AffineExpr x) {
        return x.replaceDims({c(0), c(n), c(f), c(divisor)});
      };
      EXPECT_EQ(simplifyAffineExpr(eval(s), 0, 0),
                simplifyAffineExpr(eval(e), 0, 0))
          << "f=" << f << " divisor=" << divisor << " n=" << n;
    }
}

} // namespace
