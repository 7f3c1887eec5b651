//===- QueriesTest.cpp - primitives' analyses asked alone -----------------===//
//
// Each primitive's analysis answers whether it would apply (TVM's can_*
// queries) without changing the IR; the primitive applies exactly when it
// says so.
//
//===----------------------------------------------------------------------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using QueriesTest = TIRTest;

static std::string print(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

static constexpr const char *kMatmul = R"mlir(
  func.func @matmul(%A: memref<127x127xf32> {tir.name = "A"},
                    %B: memref<127x127xf32> {tir.name = "B"},
                    %C: memref<127x127xf32> {tir.name = "C"}) {
    tir.for %i0 = 0 to 127 {
      tir.for %i1 = 0 to 127 {
        tir.for %i2 = 0 to 127 {
          tir.block "C"(%i = spatial(127, %i0), %j = spatial(127, %i1),
                        %k = reduce(127, %i2)) {
            tir.init {
              %z = arith.constant 0.0 : f32
              tir.store %z, %C[%i, %j] : memref<127x127xf32>
            }
            %c = tir.load %C[%i, %j] : memref<127x127xf32>
            %a = tir.load %A[%i, %k] : memref<127x127xf32>
            %b = tir.load %B[%k, %j] : memref<127x127xf32>
            %m = arith.mulf %a, %b : f32
            %s = arith.addf %c, %m : f32
            tir.store %s, %C[%i, %j] : memref<127x127xf32>
          }
        }
      }
    }
    return
  }
)mlir";

TEST_F(QueriesTest, PadEinsum) {
  OwningOpRef<ModuleOp> module = parse(kMatmul);
  BlockOp c = block(*module, "C");
  std::string before = print(*module);
  EXPECT_TRUE(canPadEinsum(c, {32, 32, 32}));
  EXPECT_FALSE(canPadEinsum(c, {32, 32}));
  EXPECT_FALSE(canPadEinsum(c, {32, 0, 32}));
  EXPECT_EQ(print(*module), before);
  IRRewriter rewriter(&ctx);
  ScheduleError error;
  EXPECT_TRUE(succeeded(padEinsum(rewriter, c, {32, 32, 32}, error)));
  EXPECT_NE(print(*module), before);
}

TEST_F(QueriesTest, Reindex) {
  OwningOpRef<ModuleOp> module = parse(kMatmul);
  BlockOp c = block(*module, "C");
  std::string before = print(*module);
  EXPECT_TRUE(canReindex(c, 0, /*isWrite=*/true));
  // Of the three reads, C's is refused: C is also written, and a read copy
  // would lose the writes.
  unsigned refused = 0;
  for (int64_t k = 0; k < 3; ++k)
    refused += !canReindex(c, k, /*isWrite=*/false);
  EXPECT_EQ(refused, 1u);
  EXPECT_FALSE(canReindex(c, 5, /*isWrite=*/false));
  EXPECT_EQ(print(*module), before);
  IRRewriter rewriter(&ctx);
  ScheduleError error;
  EXPECT_TRUE(succeeded(reindex(rewriter, c, 0, /*isWrite=*/true, error)));
  EXPECT_NE(block(*module, "C_reindex"), BlockOp());
}

TEST_F(QueriesTest, RollingBuffer) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @ring(%A: memref<4x12xi32>, %C: memref<4x8xi32>) {
      %B = tir.alloc_buffer : memref<4x10xi32>
      tir.for %c = 0 to 4 {
        tir.for %i_0 = 0 to 2 {
          tir.for %ax0 = 0 to 6 {
            tir.for %ax1 = 0 to 3 {
              tir.block "B"(%cc = spatial(4, %c),
                            %vi = spatial(10, %i_0 * 4 + %ax0),
                            %vk = reduce(3, %ax1)) {
                tir.init {
                  %z = arith.constant 0 : i32
                  tir.store %z, %B[%cc, %vi] : memref<4x10xi32>
                }
                %b = tir.load %B[%cc, %vi] : memref<4x10xi32>
                %a = tir.load %A[%cc, %vi + %vk] : memref<4x12xi32>
                %s = arith.addi %b, %a : i32
                tir.store %s, %B[%cc, %vi] : memref<4x10xi32>
              }
            }
          }
          tir.for %i_1 = 0 to 4 {
            tir.for %k = 0 to 3 {
              tir.block "C"(%cc = spatial(4, %c),
                            %vi = spatial(8, %i_0 * 4 + %i_1),
                            %vk = reduce(3, %k)) {
                tir.init {
                  %z = arith.constant 0 : i32
                  tir.store %z, %C[%cc, %vi] : memref<4x8xi32>
                }
                %o = tir.load %C[%cc, %vi] : memref<4x8xi32>
                %b = tir.load %B[%cc, %vi + %vk] : memref<4x10xi32>
                %s = arith.addi %o, %b : i32
                tir.store %s, %C[%cc, %vi] : memref<4x8xi32>
              }
            }
          }
        }
      }
      return
    }
  )mlir");
  BlockOp b = block(*module, "B");
  std::string before = print(*module);
  EXPECT_TRUE(canRollingBuffer(b, 0));
  // C writes a parameter: an output block.
  EXPECT_FALSE(canRollingBuffer(block(*module, "C"), 0));
  EXPECT_FALSE(canRollingBuffer(b, 1));
  EXPECT_EQ(print(*module), before);
  IRRewriter rewriter(&ctx);
  ScheduleError error;
  EXPECT_TRUE(succeeded(rollingBuffer(rewriter, b, 0, error)));
  EXPECT_NE(print(*module).find("memref<4x6xi32>"), std::string::npos);
}

} // namespace
