//===- DigitsTest.cpp - index expressions as digits of a base -------------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Arith/Digits.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

class DigitsTest : public TIRTest {
protected:
  // MLIR folds some of these as it builds them; these stay as written.
  AffineExpr div(AffineExpr a, int64_t k) {
    return getAffineBinaryOpExpr(AffineExprKind::FloorDiv, a, c(k));
  }
  AffineExpr mod(AffineExpr a, int64_t k) {
    return getAffineBinaryOpExpr(AffineExprKind::Mod, a, c(k));
  }
  void expectDigit(AffineExpr e, AffineExpr base, int64_t divisor,
                   std::optional<int64_t> extent) {
    IndexDigit digit = getIndexDigit(e);
    EXPECT_EQ(digit.base, base) << "for " << str(e);
    EXPECT_EQ(digit.divisor, divisor) << "for " << str(e);
    EXPECT_EQ(digit.extent, extent) << "for " << str(e);
  }
  static std::string str(AffineExpr e) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << e;
    return s;
  }
};

TEST_F(DigitsTest, PlainExpressionsAreTheirOwnBase) {
  expectDigit(d(0), d(0), 1, std::nullopt);
  expectDigit(d(0) + d(1), d(0) + d(1), 1, std::nullopt);
  // Divisors that are not positive constants leave the expression whole.
  AffineExpr byInput =
      getAffineBinaryOpExpr(AffineExprKind::FloorDiv, d(0), d(1));
  expectDigit(byInput, byInput, 1, std::nullopt);
  expectDigit(div(d(0), 0), div(d(0), 0), 1, std::nullopt);
}

TEST_F(DigitsTest, DivisionsAndModsChain) {
  expectDigit(div(d(0), 4), d(0), 4, std::nullopt);
  expectDigit(mod(d(0), 4), d(0), 1, 4);
  expectDigit(mod(div(d(0), 8), 4), d(0), 8, 4);
  expectDigit(div(div(d(0), 4), 2), d(0), 8, std::nullopt);
  // (x mod 16) floordiv 4 is (x floordiv 4) mod 4.
  expectDigit(div(mod(d(0), 16), 4), d(0), 4, 4);
  expectDigit(div(mod(div(d(0), 2), 16), 4), d(0), 8, 4);
  // (x mod 16) mod 4 is x mod 4; (x mod 4) mod 8 is x mod 4.
  expectDigit(mod(mod(d(0), 16), 4), d(0), 1, 4);
  expectDigit(mod(mod(d(0), 4), 8), d(0), 1, 4);
  AffineExpr sum = d(0) * 3 + d(1);
  expectDigit(mod(div(sum, 2), 8), sum, 2, 8);
}

TEST_F(DigitsTest, DivisorsThatDoNotDivideStop) {
  // (x mod 6) floordiv 4 and (x mod 6) mod 4 are no digit of x.
  AffineExpr m6 = mod(d(0), 6);
  expectDigit(div(m6, 4), div(m6, 4), 1, std::nullopt);
  expectDigit(mod(m6, 4), mod(m6, 4), 1, std::nullopt);
}

TEST_F(DigitsTest, DigitsAgreeWithEvaluation) {
  // Every digit read off equals the expression at every value in range.
  SmallVector<AffineExpr> cases = {
      div(mod(d(0), 24), 4), mod(div(d(0), 3), 5), mod(mod(d(0), 12), 4),
      div(div(mod(d(0), 36), 3), 2), mod(mod(d(0), 3), 7)};
  for (AffineExpr e : cases) {
    IndexDigit digit = getIndexDigit(e);
    ASSERT_EQ(digit.base, d(0)) << str(e);
    for (int64_t x = -50; x <= 200; ++x) {
      int64_t expected =
          cast<AffineConstantExpr>(e.replaceDims({c(x)})).getValue();
      int64_t value = llvm::divideFloorSigned(x, digit.divisor);
      if (digit.extent)
        value = llvm::mod(value, *digit.extent);
      EXPECT_EQ(value, expected) << str(e) << " at " << x;
    }
  }
}

} // namespace
