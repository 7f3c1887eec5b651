//===- BuildersTest.cpp - the ForOp and BlockOp builders ------------------===//

#include "TIRTestUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using BuildersTest = TIRTest;

/// A module with `func.func @f(%A: memref<16xf32>, %n: index)`, the
/// builder's insertion point in its body.
struct Function {
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
};

Function makeFunction(MLIRContext &ctx, OpBuilder &b) {
  Location loc = b.getUnknownLoc();
  Function f{ModuleOp::create(loc), nullptr};
  b.setInsertionPointToStart(f.module->getBody());
  auto type = b.getFunctionType(
      {MemRefType::get({16}, b.getF32Type()), b.getIndexType()}, {});
  f.func = func::FuncOp::create(b, loc, "f", type);
  Block *entry = f.func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  func::ReturnOp::create(b, loc);
  b.setInsertionPointToStart(entry);
  return f;
}

TEST_F(BuildersTest, LoopWithConstantBounds) {
  OpBuilder b(&ctx);
  Function f = makeFunction(ctx, b);
  Location loc = b.getUnknownLoc();
  auto outer =
      ForOp::create(b, loc, 0, 4, "i", [&](OpBuilder &nb, Location l, Value i) {
        ForOp::create(nb, l, 2, 8, "j");
      });
  ForOp::create(b, loc, 0, 1);
  ASSERT_TRUE(succeeded(verify(*f.module)));
  EXPECT_EQ(outer.getConstantLowerBound(), 0);
  EXPECT_EQ(outer.getConstantUpperBound(), 4);
  EXPECT_EQ(outer.getVarName(), "i");
  EXPECT_EQ(outer.getKind(), ForKind::Serial);
  std::string text = str(*f.module);
  EXPECT_NE(text.find("tir.for %i = 0 to 4 {\n      tir.for %j = 2 to 8 {"),
            std::string::npos)
      << text;
  // A loop built without a name has none.
  EXPECT_NE(text.find("tir.for %arg2 = 0 to 1 {"), std::string::npos) << text;
}

TEST_F(BuildersTest, LoopWithRuntimeBoundAndKind) {
  OpBuilder b(&ctx);
  Function f = makeFunction(ctx, b);
  Location loc = b.getUnknownLoc();
  Value n = f.func.getArgument(1);
  auto loop = ForOp::create(b, loc, b.getIndexAttr(0), n, "k");
  ForOp::create(b, loc, b.getIndexAttr(0), b.getIndexAttr(32),
                ForKind::ThreadBinding, b.getStringAttr("threadIdx.x"));
  ASSERT_TRUE(succeeded(verify(*f.module)));
  EXPECT_EQ(loop.getConstantUpperBound(), std::nullopt);
  EXPECT_EQ(loop.getMixedUpperBound(), OpFoldResult(n));
  std::string text = str(*f.module);
  EXPECT_NE(text.find("tir.for %k = 0 to %arg1 {"), std::string::npos) << text;
  EXPECT_NE(text.find("thread_binding<\"threadIdx.x\">"), std::string::npos)
      << text;
}

TEST_F(BuildersTest, BlockInALoopNest) {
  OpBuilder b(&ctx);
  Function f = makeFunction(ctx, b);
  Location loc = b.getUnknownLoc();
  Value A = f.func.getArgument(0), n = f.func.getArgument(1);
  BlockOp built;
  ForOp::create(b, loc, 0, 4, "i", [&](OpBuilder &b, Location loc, Value i) {
    ForOp::create(b, loc, 0, 4, "j", [&](OpBuilder &b, Location loc, Value j) {
      // vi = i * 4 + j over [0, 16), vk a reduction over [0, n) bound to 0;
      // where i * 4 + j < 10.
      SmallVector<IterVarSpec> vars{
          {IterType::Spatial, b.getIndexAttr(0), b.getIndexAttr(16),
           d(0) * 4 + d(1), "vi"},
          {IterType::Reduce, b.getIndexAttr(0), n, c(0), "vk"}};
      Conjunction guard;
      guard.constraints.push_back(c(9) - d(0) * 4 - d(1));
      guard.eqFlags.push_back(false);
      BlockRegionsSpec regions;
      regions.reads.push_back({A, RegionExprs{{d(0)}, {c(1)}}});
      regions.writes.push_back({A, RegionExprs{{d(0)}, {c(1)}}});
      built = BlockOp::create(
          b, loc, "B", vars, ValueRange{i, j},
          [&](OpBuilder &b, Location loc, ValueRange iv) {
            Value a = LoadOp::create(b, loc, A, ValueRange{iv[0]}).getResult();
            StoreOp::create(b, loc, a, A, ValueRange{iv[0]});
          },
          ArrayRef<Conjunction>{guard}, &regions);
    });
  });
  ASSERT_TRUE(succeeded(verify(*f.module))) << str(*f.module);
  EXPECT_EQ(built.getNumIterVars(), 2u);
  EXPECT_EQ(built.getIterType(1), IterType::Reduce);
  EXPECT_EQ(built.getConstantDomainUpper(1), std::nullopt);
  EXPECT_TRUE(built.hasAccessRegions());
  std::string text = str(*f.module);
  EXPECT_NE(text.find("tir.block \"B\"(%vi = spatial(16, %i * 4 + %j), "
                      "%vk = reduce(%arg1, 0)) where(%i * 4 + %j < 10) "
                      "reads(%arg0[%vi] : memref<16xf32>) "
                      "writes(%arg0[%vi] : memref<16xf32>) {"),
            std::string::npos)
      << text;

  // The printed form parses back to the same text.
  OwningOpRef<ModuleOp> again = parse(text);
  ASSERT_TRUE(again);
  EXPECT_EQ(str(*again), text);
}

TEST_F(BuildersTest, OpaqueBlockWithEmptyBody) {
  OpBuilder b(&ctx);
  Function f = makeFunction(ctx, b);
  auto opaque = BlockOp::create(b, b.getUnknownLoc(), "root", {}, ValueRange{});
  ASSERT_TRUE(succeeded(verify(*f.module)));
  EXPECT_EQ(opaque.getNumIterVars(), 0u);
  EXPECT_FALSE(opaque.hasAccessRegions());
  EXPECT_TRUE(opaque.getBody()->empty());
  EXPECT_NE(str(*f.module).find("tir.block \"root\"() {"), std::string::npos)
      << str(*f.module);
}

} // namespace
