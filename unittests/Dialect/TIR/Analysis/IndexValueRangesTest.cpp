//===- IndexValueRangesTest.cpp - ranges of index values in tir -----------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValueRanges.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using IndexValueRangesTest = TIRTest;
using Ranges = SmallVector<std::optional<Interval>>;

TEST_F(IndexValueRangesTest, ValueRanges) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%A: memref<16xf32>, %n: index) {
      %c3 = arith.constant 3 : index
      tir.for %i = 2 to 10 {
        tir.for %j = 0 to %n {
          tir.block "B"(%vi = spatial(4 : 12, %i), %vj = spatial(%n, %j)) {
          }
        }
      }
      return
    }
  )mlir");
  ForOp i = loop(*module, "i"), j = loop(*module, "j");
  BlockOp b = block(*module, "B");
  func::FuncOp f = function(*module);
  EXPECT_EQ(getValueRange(i.getInductionVar()), (Interval{2, 9}));
  EXPECT_EQ(getValueRange(j.getInductionVar()), std::nullopt);
  EXPECT_EQ(getValueRange(b.getIterVar(0)), (Interval{4, 11}));
  EXPECT_EQ(getValueRange(b.getIterVar(1)), std::nullopt);
  EXPECT_EQ(getValueRange(f.getArgument(1)), std::nullopt);
  Value c3 = (*f.getOps<arith::ConstantOp>().begin()).getResult();
  EXPECT_EQ(getValueRange(c3), Interval::point(3));
  EXPECT_EQ(getValueRanges({c3, i.getInductionVar()}),
            (Ranges{Interval{3, 3}, Interval{2, 9}}));
}

TEST_F(IndexValueRangesTest, SimplifyOverValues) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f() {
      tir.for %o = 0 to 8 {
        tir.for %u = 0 to 1 {
          tir.for %i = 0 to 4 {
          }
        }
      }
      return
    }
  )mlir");
  SmallVector<Value> inputs{loop(*module, "o").getInductionVar(),
                            loop(*module, "u").getInductionVar(),
                            loop(*module, "i").getInductionVar()};
  // The unit loop's variable is 0; i is in [0, 4).
  AffineExpr e = (d(0) * 4 + d(1) * 16 + d(2)).floorDiv(4);
  EXPECT_EQ(simplifyOverValues(e, inputs), d(0));
}

} // namespace
