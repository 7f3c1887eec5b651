//===- AffineTermsTest.cpp - index expressions as sums of terms -----------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using AffineTermsTest = TIRTest;

TEST_F(AffineTermsTest, SplitsSumsAndScaledTerms) {
  AffineExpr div = d(1).floorDiv(2);
  AffineTerms t = AffineTerms::get(d(0) * 4 + div - 3);
  ASSERT_EQ(t.terms.size(), 2u);
  EXPECT_EQ(t.getCoefficient(d(0)), 4);
  EXPECT_EQ(t.getCoefficient(div), 1);
  EXPECT_EQ(t.getCoefficient(d(2)), 0);
  EXPECT_EQ(t.constant, -3);
  // A scaled sum distributes; a product of variables is one term.
  AffineTerms u = AffineTerms::get((d(0) + d(1) * 2 + 1) * 3 + d(0) * d(1));
  EXPECT_EQ(u.getCoefficient(d(0)), 3);
  EXPECT_EQ(u.getCoefficient(d(1)), 6);
  EXPECT_EQ(u.getCoefficient(d(0) * d(1)), 1);
  EXPECT_EQ(u.constant, 3);
}

TEST_F(AffineTermsTest, MergesLikeTermsAndDropsZeros) {
  // Built without simplification: (d0 * 2 + d1) + d0 * -2 + d1.
  AffineTerms a = AffineTerms::get(d(0) * 2 + d(1));
  AffineTerms b = AffineTerms::get(d(0) * -2 + d(1) + 5);
  a.add(b);
  ASSERT_EQ(a.terms.size(), 1u);
  EXPECT_EQ(a.terms[0].first, d(1));
  EXPECT_EQ(a.terms[0].second, 2);
  EXPECT_EQ(a.constant, 5);
  a.add(b, -1);
  EXPECT_EQ(a.getCoefficient(d(0)), 2);
  EXPECT_EQ(a.getCoefficient(d(1)), 1);
  EXPECT_EQ(a.constant, 0);
}

TEST_F(AffineTermsTest, DimCoefficient) {
  AffineTerms t = AffineTerms::get(d(0) * 4 + d(1) + d(2).floorDiv(4));
  EXPECT_EQ(t.getDimCoefficient(0), 4);
  EXPECT_EQ(t.getDimCoefficient(1), 1);
  EXPECT_EQ(t.getDimCoefficient(3), 0);
  // d2 is inside a division: no single coefficient.
  EXPECT_EQ(t.getDimCoefficient(2), std::nullopt);
}

TEST_F(AffineTermsTest, BackToAnExpression) {
  AffineExpr e = d(0) * 4 + d(1).floorDiv(2) - 3;
  AffineExpr back = AffineTerms::get(e).toExpr(&ctx);
  EXPECT_EQ(simplifyAffineExpr(back, 2, 0), simplifyAffineExpr(e, 2, 0));
  EXPECT_EQ(AffineTerms().toExpr(&ctx), c(0));
  EXPECT_TRUE(AffineTerms::get(c(7)).isConstant());
}

TEST_F(AffineTermsTest, FilterAndCanonicalOrder) {
  llvm::SmallBitVector loops(3);
  loops.set(1);
  auto loopPart = [&](AffineExpr e) {
    return AffineTerms::get(e)
        .filter([&](AffineExpr term) { return involvesDims(term, loops); })
        .sorted();
  };
  // The loop part of a binding and of a predicate bounding it agree.
  EXPECT_EQ(loopPart(d(0) * 16 + d(1) + d(2)), loopPart(d(1) + 99));
  EXPECT_FALSE(loopPart(d(0) * 16 + d(1)) == loopPart(d(1) * 2));
}

TEST_F(AffineTermsTest, ConstantDifference) {
  EXPECT_EQ(getConstantDifference(d(0) * 4 + 7, d(0) * 4 + 2, 1), 5);
  EXPECT_EQ(getConstantDifference((d(0) + 4).floorDiv(4), d(0).floorDiv(4), 1),
            1);
  EXPECT_EQ(getConstantDifference(d(0) * 2, d(0), 1), std::nullopt);
}

TEST_F(AffineTermsTest, QuasiAffinity) {
  llvm::SmallBitVector first(2), both(2);
  first.set(0);
  both.set();
  // d1 acts as a parameter when only d0 is a variable.
  EXPECT_TRUE(isQuasiAffineIn(d(0) * d(1) + d(0).floorDiv(4), first));
  EXPECT_FALSE(isQuasiAffineIn(d(0) * d(1), both));
  EXPECT_FALSE(isQuasiAffineIn(d(1).floorDiv(d(0)), first));
  EXPECT_TRUE(isQuasiAffineIn((d(0) * 4 + d(1)) % 8, both));
  EXPECT_TRUE(involvesDims(d(0) % 3, first));
  EXPECT_FALSE(involvesDims(d(1) % 3, first));
}

} // namespace
