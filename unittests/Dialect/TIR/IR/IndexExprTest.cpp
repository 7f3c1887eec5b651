//===- IndexExprTest.cpp - simplification of index expressions ------------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using IndexExprTest = TIRTest;

TEST_F(IndexExprTest, ScaledModStaysAMod) {
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
TEST_F(IndexExprTest, CountsCoverWhatTheExpressionUses) {
  AffineExpr d0 = getAffineDimExpr(0, &ctx), d3 = getAffineDimExpr(3, &ctx);
  AffineExpr s2 = getAffineSymbolExpr(2, &ctx);
  EXPECT_EQ(simplifyIndexExpr(d3 + d0 - d0, 1, 0), d3);
  EXPECT_EQ(simplifyIndexExpr(d0 * s2 + d3 - d3, 1, 0), d0 * s2);
}

} // namespace
