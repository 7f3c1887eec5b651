//===- BlockScopeTest.cpp - scopes, producers, consumers, dependences -----===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::test;

namespace {

using BlockScopeTest = TIRTest;

// P writes T; Q reads T and writes U; R reads T and U and writes Out;
// W rewrites T after them. "inner" sits inside "R".
constexpr const char *kChain = R"mlir(
  func.func @f(%A: memref<8xf32>, %Out: memref<8xf32>) {
    %T = tir.alloc_buffer : memref<8xf32>
    %U = tir.alloc_buffer : memref<8xf32>
    tir.for %i = 0 to 8 {
      tir.block "P"(%v = spatial(8, %i)) {
        %a = tir.load %A[%v] : memref<8xf32>
        tir.store %a, %T[%v] : memref<8xf32>
      }
    }
    tir.for %i = 0 to 8 {
      tir.block "Q"(%v = spatial(8, %i)) {
        %t = tir.load %T[%v] : memref<8xf32>
        tir.store %t, %U[%v] : memref<8xf32>
      }
    }
    tir.for %i = 0 to 8 {
      tir.block "R"(%v = spatial(8, %i)) {
        %t = tir.load %T[%v] : memref<8xf32>
        %u = tir.load %U[%v] : memref<8xf32>
        %s = arith.addf %t, %u : f32
        tir.block "inner"() {
          tir.store %s, %Out[%v] : memref<8xf32>
        }
      }
    }
    tir.for %i = 0 to 8 {
      tir.block "W"(%v = spatial(8, %i)) {
        %a = tir.load %A[%v] : memref<8xf32>
        tir.store %a, %T[%v] : memref<8xf32>
      }
    }
    return
  }
)mlir";

TEST_F(BlockScopeTest, ScopesAndChildren) {
  OwningOpRef<ModuleOp> module = parse(kChain);
  func::FuncOp f = function(*module);
  BlockOp r = block(*module, "R"), inner = block(*module, "inner");
  EXPECT_EQ(getScopeRoot(r), f.getOperation());
  EXPECT_EQ(getScopeRoot(inner), r.getOperation());
  // Blocks nested in another block belong to that block's scope.
  EXPECT_EQ(names(getScopeBlocks(f)), "P Q R W");
  EXPECT_EQ(names(getScopeBlocks(r)), "inner");
  EXPECT_EQ(names(collectChildBlocks(r->getParentOp())), "R");
  EXPECT_TRUE(getScopeBlocks(nullptr).empty());
}

TEST_F(BlockScopeTest, AccessedBuffers) {
  OwningOpRef<ModuleOp> module = parse(kChain);
  func::FuncOp f = function(*module);
  SmallVector<Value> reads, writes;
  // Without regions: the body's loads and stores, nested blocks included.
  getAccessedBuffers(block(*module, "R"), reads, writes);
  ASSERT_EQ(reads.size(), 2u);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0], f.getArgument(1));
}

TEST_F(BlockScopeTest, ProducersAndConsumers) {
  OwningOpRef<ModuleOp> module = parse(kChain);
  SmallVector<BlockOp> scope = getScopeBlocks(function(*module));
  BlockOp p = block(*module, "P"), q = block(*module, "Q"),
          r = block(*module, "R"), w = block(*module, "W");
  EXPECT_EQ(names(getProducersIn(r, scope)), "P Q");
  EXPECT_EQ(names(getConsumersIn(p, scope)), "Q R");
  EXPECT_EQ(names(getConsumersIn(q, scope)), "R");
  // W writes T again, but reads none of what the others write.
  EXPECT_EQ(names(getProducersIn(w, scope)), "");
  EXPECT_EQ(names(getConsumersIn(w, scope)), "");

  // The same through the dependences, computed once.
  BlockDependences deps(scope);
  EXPECT_EQ(names(deps.getProducers(r)), "P Q");
  EXPECT_EQ(names(deps.getConsumers(p)), "Q R");
  Value t = (*function(*module).getOps<AllocBufferOp>().begin()).getBuffer();
  EXPECT_EQ(names(deps.getWriters(t)), "P W");
}

TEST_F(BlockScopeTest, DependenceKinds) {
  OwningOpRef<ModuleOp> module = parse(kChain);
  BlockDependences deps(getScopeBlocks(function(*module)));
  BlockOp w = block(*module, "W");
  // W depends on P (both write T) and on Q and R (they read T first).
  std::string text;
  for (Dependence d : deps.getDependences(w))
    text += d.src.getBlockName().str() +
            (d.kind == DependenceKind::WriteAfterWrite  ? ":WAW "
             : d.kind == DependenceKind::WriteAfterRead ? ":WAR "
                                                        : ":RAW ");
  EXPECT_EQ(text, "P:WAW Q:WAR R:WAR ");
  // P's dependents in program order.
  std::string dependents;
  for (Dependence d : deps.getDependents(block(*module, "P")))
    dependents += d.dst.getBlockName().str() + " ";
  EXPECT_EQ(dependents, "Q R W ");
  // A block outside the scope has none.
  EXPECT_TRUE(deps.getDependences(block(*module, "inner")).empty());
}

} // namespace
