//===- BufferCompactionTest.cpp - the part of a buffer an op touches ------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Analysis/BufferCompaction.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using BufferCompactionTest = TIRTest;

// A 64x64 buffer each iteration of `io` writes 16 rows of, and reads back
// with a halo of one column: the part is 16x64 (the columns span the
// buffer), starting at row io * 16.
TEST_F(BufferCompactionTest, PartUnderALoop) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
      %T = tir.alloc_buffer : memref<64x64xf32>
      tir.for %io = 0 to 4 {
        tir.for %ii = 0 to 16 {
          tir.for %j = 0 to 64 {
            tir.block "T"(%vi = spatial(64, %io * 16 + %ii),
                          %vj = spatial(64, %j)) {
              %a = tir.load %A[%vi, %vj] : memref<64x64xf32>
              tir.store %a, %T[%vi, %vj] : memref<64x64xf32>
            }
          }
        }
        tir.for %ii = 0 to 16 {
          tir.for %j = 0 to 63 {
            tir.block "B"(%vi = spatial(64, %io * 16 + %ii),
                          %vj = spatial(63, %j)) {
              %t = tir.load %T[%vi, %vj + 1] : memref<64x64xf32>
              tir.store %t, %B[%vi, %vj] : memref<64x64xf32>
            }
          }
        }
      }
      return
    }
  )mlir");
  ForOp io = loop(*module, "io");
  auto alloc = *function(*module).getOps<AllocBufferOp>().begin();
  Value buffer = alloc.getBuffer();
  SmallVector<BlockOp> blocks = getAccessingBlocks(buffer);
  ASSERT_EQ(blocks.size(), 2u);
  Refusal why;
  FailureOr<CompactPart> part = getCompactPart(io, buffer, blocks, why);
  ASSERT_TRUE(succeeded(part)) << why.message;
  EXPECT_EQ(part->shape, (SmallVector<int64_t>{16, 64}));
  ASSERT_EQ(part->inputs.size(), 1u);
  EXPECT_EQ(part->inputs[0], io.getInductionVar());
  EXPECT_EQ(part->lowers[0], d(0) * 16);
  EXPECT_EQ(part->lowers[1], c(0));
  // Over the whole function the part is the buffer itself.
  FailureOr<CompactPart> whole =
      getCompactPart(function(*module), buffer, blocks, why);
  ASSERT_TRUE(succeeded(whole)) << why.message;
  EXPECT_EQ(whole->shape, (SmallVector<int64_t>{64, 64}));
}

// A part whose extent depends on a runtime value is refused, saying so.
TEST_F(BufferCompactionTest, RuntimeExtentIsRefused) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%A: memref<64xf32>, %n: index) {
      %T = tir.alloc_buffer : memref<64xf32>
      tir.for %io = 0 to 4 {
        tir.for %ii = 0 to %n {
          tir.block "T"(%vi = spatial(64, %io * 16 + %ii)) {
            %a = tir.load %A[%vi] : memref<64xf32>
            tir.store %a, %T[%vi] : memref<64xf32>
          }
        }
      }
      return
    }
  )mlir");
  auto alloc = *function(*module).getOps<AllocBufferOp>().begin();
  Value buffer = alloc.getBuffer();
  Refusal why;
  EXPECT_TRUE(failed(getCompactPart(loop(*module, "io"), buffer,
                                    getAccessingBlocks(buffer), why)));
  EXPECT_FALSE(why.message.empty());
}

} // namespace
