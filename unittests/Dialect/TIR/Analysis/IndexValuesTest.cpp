//===- IndexValuesTest.cpp - index values in tir --------------------------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using IndexValuesTest = TIRTest;
using Ranges = SmallVector<std::optional<Interval>>;

TEST_F(IndexValuesTest, IndexExpressionOfAValue) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%n: index, %m: i32) -> index {
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %a = arith.muli %n, %c4 : index
      %mi = arith.index_cast %m : i32 to index
      %b = arith.addi %a, %mi : index
      %c = arith.floordivsi %b, %c8 : index
      %d = affine.apply affine_map<(d0)[s0] -> (d0 mod 3 + s0)>(%c)[%n]
      %e = arith.subi %d, %n : index
      %f = arith.maxsi %e, %n : index
      return %f : index
    }
  )mlir");
  func::FuncOp f = function(*module);
  auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
  Value max = ret.getOperand(0);
  Value e = max.getDefiningOp()->getOperand(0);
  ValueIndexExpr sub = getIndexExprOf(e);
  // n and the cast of m (an i32, which may wrap: not read through), in
  // order of first use; the apply's symbol is n again.
  ASSERT_EQ(sub.inputs.size(), 2u);
  EXPECT_EQ(sub.inputs[0], f.getArgument(0));
  EXPECT_TRUE(sub.inputs[1].getDefiningOp<arith::IndexCastOp>());
  // As computed, not simplified: ... + n - n.
  EXPECT_EQ(simplifyIndexExpr(sub.expr, 2, 0),
            ((d(0) * 4 + d(1)).floorDiv(8)) % 3);
  // A value the arithmetic does not read through is an input; so is one
  // the caller names.
  ValueIndexExpr whole = getIndexExprOf(max);
  ASSERT_EQ(whole.inputs.size(), 1u);
  EXPECT_EQ(whole.inputs[0], max);
  EXPECT_EQ(whole.expr, d(0));
  Value c = e.getDefiningOp()->getOperand(0).getDefiningOp()->getOperand(0);
  ValueIndexExpr stopped = getIndexExprOf(e, [&](Value x) { return x == c; });
  ASSERT_EQ(stopped.inputs.size(), 2u);
  EXPECT_EQ(stopped.inputs[0], c);
}

TEST_F(IndexValuesTest, ValueRanges) {
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

TEST_F(IndexValuesTest, SimplifyOverValues) {
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
