//===- RegionRelaxTest.cpp - relaxation, cover and region inference -------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using RegionRelaxTest = TIRTest;

/// Values to stand for dimensions (their identity is all that matters).
struct Values {
  OwningOpRef<ModuleOp> module;
  SmallVector<Value> v;
};

Values makeValues(MLIRContext &ctx, unsigned n) {
  Values out;
  OpBuilder b(&ctx);
  out.module = ModuleOp::create(UnknownLoc::get(&ctx));
  b.setInsertionPointToStart(out.module->getBody());
  for (unsigned i = 0; i < n; ++i)
    out.v.push_back(
        arith::ConstantIndexOp::create(b, UnknownLoc::get(&ctx), i));
  return out;
}

TEST_F(RegionRelaxTest, BoundsOverRelaxedDimensions) {
  Values vals = makeValues(ctx, 2);
  RelaxedInputs in(&ctx);
  AffineExpr outer = in.dimOf(vals.v[0]);
  AffineExpr inner = in.relax(vals.v[1], Interval{0, 15});
  ASSERT_EQ(outer, d(0));
  ASSERT_EQ(inner, d(1));
  EXPECT_TRUE(in.isRelaxed(1));
  EXPECT_FALSE(in.isRelaxed(0));

  auto b = in.bounds(outer * 16 + inner);
  ASSERT_TRUE(succeeded(b));
  EXPECT_EQ(b->first, d(0) * 16);
  EXPECT_EQ(b->second, d(0) * 16 + 15);
  EXPECT_TRUE(in.isExact());

  // A negative coefficient swaps the ends.
  b = in.bounds(outer - inner);
  ASSERT_TRUE(succeeded(b));
  EXPECT_EQ(b->first, d(0) - 15);
  EXPECT_EQ(b->second, d(0));

  // Within one period a remainder is tight; scaled or divided variables
  // leave holes.
  b = in.bounds(inner.floorDiv(8) % 4);
  ASSERT_TRUE(succeeded(b));
  EXPECT_EQ(b->first, c(0));
  EXPECT_EQ(b->second, c(1));
  EXPECT_FALSE(in.isExact());

  // A relaxed variable times a symbolic value has no bound to write down.
  EXPECT_TRUE(failed(in.bounds(outer * inner)));
}

TEST_F(RegionRelaxTest, Cover) {
  AffineExpr lo = d(0) + 2;
  bool differed = false;
  EXPECT_TRUE(coverBound(lo, d(0), /*upper=*/false, 1, &differed));
  EXPECT_EQ(lo, d(0));
  EXPECT_TRUE(differed);
  AffineExpr hi = d(0) + 2;
  differed = false;
  EXPECT_TRUE(coverBound(hi, d(0) + 5, /*upper=*/true, 1, &differed));
  EXPECT_EQ(hi, d(0) + 5);
  EXPECT_TRUE(coverBound(hi, d(0) + 3, /*upper=*/true, 1));
  EXPECT_EQ(hi, d(0) + 5);
  // Bounds that differ by a runtime amount have no cover.
  EXPECT_FALSE(coverBound(hi, d(0) * 2, /*upper=*/true, 1));
  EXPECT_EQ(hi, d(0) + 5);
  AffineExpr none;
  EXPECT_TRUE(coverBound(none, d(0), /*upper=*/true, 1));
  EXPECT_EQ(none, d(0));
}

// The region a consumer reads in one iteration of an outer loop: TVM's
// RelaxBufferRegions, as compute_at uses it.
constexpr const char *kTiled = R"mlir(
  func.func @f(%A: memref<64xf32>, %B: memref<64xf32>, %n: index) {
    tir.for %i = 0 to 16 {
      tir.for %j = 0 to 4 {
        tir.block "C"(%vi = spatial(64, %i * 4 + %j)) {
          %a = tir.load %A[%vi] : memref<64xf32>
          tir.store %a, %B[%vi] : memref<64xf32>
        }
      }
      tir.for %k = 0 to %n {
        tir.block "D"(%vk = spatial(64, %k)) {
          %a = tir.load %A[%vk] : memref<64xf32>
          tir.store %a, %B[%vk] : memref<64xf32>
        }
      }
    }
    return
  }
)mlir";

TEST_F(RegionRelaxTest, RegionUnderLoop) {
  OwningOpRef<ModuleOp> module = parse(kTiled);
  ForOp i = loop(*module, "i");
  func::FuncOp f = function(*module);
  Refusal failure;
  FailureOr<LoopRegion> region = relaxRegionUnderLoop(
      i, f.getArgument(0), /*writes=*/false, {block(*module, "C")}, failure);
  ASSERT_TRUE(succeeded(region)) << failure.message;
  ASSERT_EQ(region->inputs.size(), 1u);
  EXPECT_EQ(region->inputs[0], i.getInductionVar());
  EXPECT_EQ(region->lowers[0], d(0) * 4);
  EXPECT_EQ(region->extents[0], c(4));
  EXPECT_TRUE(region->exact);
  // A buffer no block reads: an empty region.
  region = relaxRegionUnderLoop(i, f.getArgument(1), /*writes=*/false,
                                {block(*module, "C")}, failure);
  ASSERT_TRUE(succeeded(region));
  EXPECT_TRUE(region->lowers.empty());
}

TEST_F(RegionRelaxTest, RegionUnderLoopRuntimeBound) {
  // Loop k runs to the runtime %n: D reads A[0 : n] in one iteration of i.
  OwningOpRef<ModuleOp> module = parse(kTiled);
  ForOp i = loop(*module, "i");
  func::FuncOp f = function(*module);
  Refusal failure;
  FailureOr<LoopRegion> region =
      relaxRegionUnderLoop(i, f.getArgument(0),
                           /*writes=*/false, {block(*module, "D")}, failure);
  ASSERT_TRUE(succeeded(region)) << failure.message;
  ASSERT_EQ(region->inputs.size(), 1u);
  EXPECT_EQ(region->inputs[0], f.getArgument(2));
  EXPECT_EQ(region->lowers[0], c(0));
  EXPECT_EQ(region->extents[0], d(0));
  EXPECT_TRUE(region->exact);
}

TEST_F(RegionRelaxTest, RegionUnderLoopRefusals) {
  // An empty loop inside: no region to give.
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%A: memref<64xf32>, %B: memref<64xf32>) {
      tir.for %i = 0 to 16 {
        tir.for %k = 0 to 0 {
          tir.block "D"(%vk = spatial(64, %k)) {
            %a = tir.load %A[%vk] : memref<64xf32>
            tir.store %a, %B[%vk] : memref<64xf32>
          }
        }
      }
      return
    }
  )mlir");
  ForOp i = loop(*module, "i");
  Refusal failure;
  FailureOr<LoopRegion> region =
      relaxRegionUnderLoop(i, function(*module).getArgument(0),
                           /*writes=*/false, {block(*module, "D")}, failure);
  EXPECT_TRUE(failed(region));
  EXPECT_EQ(failure.culprit, loop(*module, "k").getOperation());
  EXPECT_EQ(failure.message, "cannot bound the region of a buffer under loop "
                             "'i': loop 'k' inside it is empty");
}

TEST_F(RegionRelaxTest, InferRegions) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%A: memref<64x64xf32>, %B: memref<64xf32>, %I: memref<64xindex>) {
      tir.for %i = 0 to 16 {
        tir.block "row"(%vi = spatial(16, %i)) {
          tir.for %k = 0 to 4 {
            %a = tir.load %A[%vi * 4 + %k, %vi] : memref<64x64xf32>
            %b = tir.load %A[%vi * 4 + %k + 2, %vi] : memref<64x64xf32>
            %x = tir.load %I[%vi] : memref<64xindex>
            %g = tir.load %B[%x] : memref<64xf32>
            tir.store %a, %B[%vi] : memref<64xf32>
          }
        }
      }
      return
    }
  )mlir");
  BlockOp row = block(*module, "row");
  ASSERT_TRUE(succeeded(inferAccessRegions(row)));
  std::string text = str(row);
  // The loop inside is relaxed and the two accesses of A covered; the
  // gather reads all of B.
  EXPECT_NE(text.find("reads(%arg0[%vi * 4 : %vi * 4 + 6, %vi], "
                      "%arg2[%vi], %arg1[0 : 64]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("writes(%arg1[%vi] : memref<64xf32>)"), std::string::npos)
      << text;
}

TEST_F(RegionRelaxTest, InferRegionsOfNestedAndOpaqueBlocks) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%A: memref<64xf32>, %B: memref<64xf32>) {
      tir.for %i = 0 to 8 {
        tir.block "outer"() {
          tir.for %j = 0 to 8 {
            tir.block "inner"(%vj = spatial(64, %i * 8 + %j)) {
              %a = tir.load %A[%vj] : memref<64xf32>
              tir.store %a, %B[%vj] : memref<64xf32>
            }
          }
        }
      }
      return
    }
  )mlir");
  BlockOp outer = block(*module, "outer");
  ASSERT_TRUE(succeeded(inferAccessRegions(outer)));
  // The opaque block sees the loop variable %i as a region value; the
  // inner block's regions are relaxed over %j.
  ASSERT_EQ(outer.getRegionValues().size(), 1u);
  EXPECT_EQ(outer.getRegionValues()[0], loop(*module, "i").getInductionVar());
  std::string text = str(outer);
  EXPECT_NE(text.find("reads(%arg0[%i * 8 : %i * 8 + 8]"), std::string::npos)
      << text;
  EXPECT_NE(text.find("writes(%arg1[%i * 8 : %i * 8 + 8]"), std::string::npos)
      << text;
  // The nested block got its own regions on the way.
  EXPECT_TRUE(block(*module, "inner").hasAccessRegions());
}

TEST_F(RegionRelaxTest, AccessRegionsOnACopy) {
  OwningOpRef<ModuleOp> module = parse(kTiled);
  BlockOp consumer = block(*module, "C");
  Refusal failure;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(consumer, failure);
  ASSERT_TRUE(succeeded(regions)) << failure.message;
  // Inferred on a copy: the block itself still leaves them out.
  EXPECT_FALSE(consumer.hasAccessRegions());
  ASSERT_EQ(regions->reads.size(), 1u);
  ASSERT_EQ(regions->writes.size(), 1u);
  EXPECT_EQ(regions->reads[0].second.starts[0], d(0));
  EXPECT_EQ(regions->writes[0].second.extents[0], c(1));
  ASSERT_EQ(regions->inputs.size(), 1u);
  EXPECT_EQ(regions->inputs[0], consumer.getIterVar(0));
}

} // namespace
