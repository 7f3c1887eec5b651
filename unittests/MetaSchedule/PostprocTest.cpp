//===- PostprocTest.cpp - TVM's postprocessors from C++ -------------------===//
//
// Each postprocessor applied to a schedule of a small module, as TVM's
// tests (test_meta_schedule_postproc_*.py) apply them: DisallowDynamicLoop
// accepts constant loops and rejects the others; RewriteReductionBlock
// decomposes reductions, leaving cross-thread ones alone; RewriteLayout reads
// layout-free buffers through a copy in the layout their anchor block walks.
// What they did is in the trace as schedule steps.
// RewriteParallelVectorizeUnroll has a file of its own
// (ParallelVectorizeUnrollTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "PostprocTestUtils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

class PostprocTest : public test::PostprocFixture {};

//===----------------------------------------------------------------------===//
// DisallowDynamicLoop
//===----------------------------------------------------------------------===//

// TVM's DynamicLoop: the extent of j is the variable of i.
constexpr StringLiteral kTriangularLoop = R"mlir(
func.func @main(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  tir.for %i = 0 to 64 {
    tir.for %j = 0 to %i {
      tir.block "copy"(%vi = spatial(64, %i), %vj = spatial(64, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<64x64xf32>
        tir.store %a, %B[%vi, %vj] : memref<64x64xf32>
      }
    }
  }
  return
}
)mlir";

// A loop bounded by a parameter (a dynamic shape).
constexpr StringLiteral kParameterLoop = R"mlir(
func.func @main(%n: index, %A: memref<?xf32>, %B: memref<?xf32>) {
  tir.for %i = 0 to %n {
    tir.block "copy"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      tir.store %a, %B[%vi] : memref<?xf32>
    }
  }
  return
}
)mlir";

TEST_F(PostprocTest, DisallowDynamicLoop) {
  std::shared_ptr<Postproc> postproc = createDisallowDynamicLoop();
  EXPECT_EQ(postproc->str().rfind("meta_schedule.DisallowDynamicLoop(0x", 0),
            0u)
      << postproc->str();
  Schedule fixed = schedule(kStaticMatmul);
  ASSERT_TRUE(fixed);
  EXPECT_TRUE(apply(*postproc, fixed));
  Schedule triangular = schedule(kTriangularLoop);
  ASSERT_TRUE(triangular);
  EXPECT_FALSE(apply(*postproc, triangular));
  Schedule parameter = schedule(kParameterLoop);
  ASSERT_TRUE(parameter);
  EXPECT_FALSE(apply(*postproc, parameter));
  // It only reads the program.
  EXPECT_TRUE(kinds(parameter).empty());

  std::string error;
  FailureOr<std::shared_ptr<Postproc>> copy = postproc->clone(error);
  ASSERT_TRUE(succeeded(copy)) << error;
  EXPECT_FALSE(apply(**copy, triangular));
}

//===----------------------------------------------------------------------===//
// RewriteReductionBlock
//===----------------------------------------------------------------------===//

TEST_F(PostprocTest, DecomposeReductionAtFirstReduceLoop) {
  Schedule sch = schedule(kStaticMatmul);
  ASSERT_TRUE(sch);
  std::shared_ptr<Postproc> postproc = createRewriteReductionBlock();
  EXPECT_EQ(postproc->str().rfind("meta_schedule.RewriteReductionBlock(0x", 0),
            0u)
      << postproc->str();
  ASSERT_TRUE(apply(*postproc, sch));
  ModuleOp payload = sch->getPayload();
  BlockOp init = block(payload, "matmul_init");
  BlockOp update = block(payload, "matmul_update");
  ASSERT_TRUE(init && update) << str(payload);
  EXPECT_FALSE(update.getInitOp());
  // The init runs under i and j, before the reduction loop k.
  SmallVector<ForOp> initLoops = getLoops(init);
  SmallVector<ForOp> updateLoops = getLoops(update);
  ASSERT_EQ(initLoops.size(), 2u) << str(payload);
  ASSERT_EQ(updateLoops.size(), 3u) << str(payload);
  EXPECT_EQ(initLoops[0], updateLoops[0]);
  EXPECT_EQ(initLoops[1], updateLoops[1]);
  EXPECT_EQ(kinds(sch), (std::vector<std::string>{"GetBlock", "GetLoops",
                                                  "DecomposeReduction"}));
  // Nothing is left to decompose.
  ASSERT_TRUE(apply(*postproc, sch));
  EXPECT_EQ(kinds(sch).size(), 3u);
}

// A cross-thread reduction (k bound to threadIdx.x) keeps its init; the
// serial reduction in the other function is decomposed.
constexpr StringLiteral kCrossThreadAndSerial = R"mlir(
func.func @bound(%A: memref<16x32xf32>, %S: memref<16xf32>) {
  tir.for %i = 0 to 16 thread_binding<"blockIdx.x"> {
    tir.for %k = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "R"(%vi = spatial(16, %i), %vk = reduce(32, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<16xf32>
        }
        %s = tir.load %S[%vi] : memref<16xf32>
        %a = tir.load %A[%vi, %vk] : memref<16x32xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<16xf32>
      }
    }
  }
  return
}
func.func @serial(%A: memref<16x32xf32>, %S: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.for %k = 0 to 32 {
      tir.block "R"(%vi = spatial(16, %i), %vk = reduce(32, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<16xf32>
        }
        %s = tir.load %S[%vi] : memref<16xf32>
        %a = tir.load %A[%vi, %vk] : memref<16x32xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<16xf32>
      }
    }
  }
  return
}
)mlir";

TEST_F(PostprocTest, CrossThreadReductionsKeepTheirInit) {
  Schedule sch = schedule(kCrossThreadAndSerial);
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*createRewriteReductionBlock(), sch));
  ModuleOp payload = sch->getPayload();
  auto funcs = llvm::to_vector(payload.getOps<func::FuncOp>());
  ASSERT_EQ(funcs.size(), 2u);
  SmallVector<BlockOp> bound = findBlocksByName(funcs[0], "R");
  ASSERT_EQ(bound.size(), 1u) << str(payload);
  EXPECT_TRUE(bound.front().getInitOp());
  EXPECT_EQ(findBlocksByName(funcs[1], "R_init").size(), 1u) << str(payload);
  SmallVector<BlockOp> update = findBlocksByName(funcs[1], "R_update");
  ASSERT_EQ(update.size(), 1u) << str(payload);
  EXPECT_FALSE(update.front().getInitOp());
}

// The block's auto-tensorize intrinsic stays with the update; the init
// block gets the init's intrinsic ("" when there is none).
constexpr StringLiteral kTensorizedMatmul = R"mlir(
func.func @main(%A: memref<16x4xf32>, %B: memref<4x8xf32>, %C: memref<16x8xf32>) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 8 {
      tir.for %k = 0 to 4 {
        tir.block "C"(%vi = spatial(16, %i), %vj = spatial(8, %j), %vk = reduce(4, %k)) annotations {ANNOTATIONS} {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %C[%vi, %vj] : memref<16x8xf32>
          }
          %c = tir.load %C[%vi, %vj] : memref<16x8xf32>
          %a = tir.load %A[%vi, %vk] : memref<16x4xf32>
          %b = tir.load %B[%vk, %vj] : memref<4x8xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vi, %vj] : memref<16x8xf32>
        }
      }
    }
  }
  return
}
)mlir";

TEST_F(PostprocTest, AutoTensorizeAnnotationsMoveToTheInit) {
  auto withAnnotations = [&](StringRef annotations) {
    std::string source = kTensorizedMatmul.str();
    size_t at = source.find("ANNOTATIONS");
    source.replace(at, strlen("ANNOTATIONS"), annotations.str());
    return schedule(source);
  };
  std::shared_ptr<Postproc> postproc = createRewriteReductionBlock();

  Schedule sch =
      withAnnotations(R"(meta_schedule.auto_tensorize = "dot_update", )"
                      R"(meta_schedule.auto_tensorize_init = "dot_init")");
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*postproc, sch));
  BlockOp init = block(sch->getPayload(), "C_init");
  BlockOp update = block(sch->getPayload(), "C_update");
  ASSERT_TRUE(init && update);
  EXPECT_EQ(strAnnotation(update, "meta_schedule.auto_tensorize"),
            "dot_update");
  EXPECT_EQ(strAnnotation(update, "meta_schedule.auto_tensorize_init"),
            std::nullopt);
  EXPECT_EQ(strAnnotation(init, "meta_schedule.auto_tensorize"), "dot_init");
  EXPECT_EQ(strAnnotation(init, "meta_schedule.auto_tensorize_init"),
            std::nullopt);

  sch = withAnnotations(R"(meta_schedule.auto_tensorize = "dot_update")");
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*postproc, sch));
  init = block(sch->getPayload(), "C_init");
  update = block(sch->getPayload(), "C_update");
  ASSERT_TRUE(init && update);
  EXPECT_EQ(strAnnotation(update, "meta_schedule.auto_tensorize"),
            "dot_update");
  EXPECT_EQ(strAnnotation(init, "meta_schedule.auto_tensorize"), "");
}

//===----------------------------------------------------------------------===//
// RewriteLayout
//===----------------------------------------------------------------------===//

/// The indices `load` gives where the values of `at` are those of its
/// operands (all of them given), folded to constants (-1 for a result that
/// does not fold).
std::vector<int64_t> loadIndicesAt(LoadOp load,
                                   const DenseMap<Value, int64_t> &at) {
  MLIRContext *ctx = load.getContext();
  SmallVector<AffineExpr> operands;
  for (Value operand : load.getIndices()) {
    auto it = at.find(operand);
    operands.push_back(
        getAffineConstantExpr(it == at.end() ? -1000 : it->second, ctx));
  }
  AffineMap map = load.getMap();
  ArrayRef<AffineExpr> all(operands);
  std::vector<int64_t> indices;
  for (AffineExpr result : map.getResults()) {
    AffineExpr folded = simplifyAffineExpr(
        result.replaceDimsAndSymbols(all.take_front(map.getNumDims()),
                                     all.drop_front(map.getNumDims())),
        0, 0);
    auto constant = dyn_cast<AffineConstantExpr>(folded);
    indices.push_back(constant ? constant.getValue() : -1);
  }
  return indices;
}

/// The loads of `block` (not those of nested blocks) from buffers of type
/// `type`.
SmallVector<LoadOp> loadsOfType(BlockOp block, Type type) {
  SmallVector<LoadOp> loads;
  block->walk([&](LoadOp load) {
    if (load->getParentOfType<BlockOp>() == block &&
        load.getBuffer().getType() == type)
      loads.push_back(load);
  });
  return loads;
}

/// The blocks annotated "meta_schedule.layout_rewrite_preproc" = true.
SmallVector<BlockOp> layoutRewriteBlocks(ModuleOp payload) {
  SmallVector<BlockOp> blocks;
  payload->walk([&](BlockOp block) {
    DictionaryAttr annotations = block.getAnnotationsAttr();
    auto flag = dyn_cast_if_present<BoolAttr>(
        annotations ? annotations.get("meta_schedule.layout_rewrite_preproc")
                    : Attribute());
    if (flag && flag.getValue())
      blocks.push_back(block);
  });
  return blocks;
}

// TVM's TestTIRMatmul: B (parameter 1) is read as B[vk, vj] under loops
// i0, j, k0, i1, k1 (vk = k0 * 4 + k1), so its layout in loop order is
// [vj, vk // 4, vk % 4]: a copy of B in that layout before the nest.
constexpr StringLiteral kLayoutFreeMatmul = R"mlir(
func.func @main(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) attributes {layout_free_buffers = [1]} {
  tir.for %i0 = 0 to 4 {
    tir.for %j = 0 to 16 {
      tir.for %k0 = 0 to 4 {
        tir.for %i1 = 0 to 4 {
          tir.for %k1 = 0 to 4 {
            tir.block "matmul"(%vi = spatial(16, %i0 * 4 + %i1), %vj = spatial(16, %j), %vk = reduce(16, %k0 * 4 + %k1)) {
              tir.init {
                %zero = arith.constant 0.0 : f32
                tir.store %zero, %C[%vi, %vj] : memref<16x16xf32>
              }
              %c = tir.load %C[%vi, %vj] : memref<16x16xf32>
              %a = tir.load %A[%vi, %vk] : memref<16x16xf32>
              %b = tir.load %B[%vk, %vj] : memref<16x16xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %c, %p : f32
              tir.store %s, %C[%vi, %vj] : memref<16x16xf32>
            }
          }
        }
      }
    }
  }
  return
}
)mlir";

TEST_F(PostprocTest, RewriteLayoutOfAnchorRead) {
  Schedule sch = schedule(kLayoutFreeMatmul);
  ASSERT_TRUE(sch);
  std::shared_ptr<Postproc> postproc = createRewriteLayout();
  EXPECT_EQ(postproc->str().rfind("meta_schedule.RewriteLayout(0x", 0), 0u)
      << postproc->str();
  ASSERT_TRUE(apply(*postproc, sch));
  ModuleOp payload = sch->getPayload();
  func::FuncOp func = function(payload);
  auto rewritten = MemRefType::get({16, 4, 4}, Float32Type::get(&ctx));

  SmallVector<BlockOp> copies = layoutRewriteBlocks(payload);
  ASSERT_EQ(copies.size(), 1u) << str(payload);
  SmallVector<LoadOp> copyLoads;
  copies.front()->walk([&](LoadOp load) { copyLoads.push_back(load); });
  ASSERT_EQ(copyLoads.size(), 1u) << str(payload);
  EXPECT_EQ(copyLoads.front().getBuffer(), func.getArgument(1));
  // The copy's nest runs before the matmul's.
  SmallVector<ForOp> copyLoops = getLoops(copies.front());
  ASSERT_FALSE(copyLoops.empty()) << str(payload);
  EXPECT_TRUE(copyLoops.front()->isBeforeInBlock(
      getLoops(block(payload, "matmul")).front()))
      << str(payload);

  BlockOp matmul = block(payload, "matmul");
  SmallVector<LoadOp> loads = loadsOfType(matmul, rewritten);
  ASSERT_EQ(loads.size(), 1u) << str(payload);
  // B[vk, vj] is now B'[vj, vk // 4, vk % 4]: at vj = 5, vk = 11, [5, 2, 3].
  DenseMap<Value, int64_t> at = {{matmul.getIterVar(1), 5},
                                 {matmul.getIterVar(2), 11}};
  EXPECT_EQ(loadIndicesAt(loads.front(), at), (std::vector<int64_t>{5, 2, 3}));
  // B itself is no longer read by the matmul.
  matmul->walk([&](LoadOp load) {
    EXPECT_NE(load.getBuffer(), func.getArgument(1)) << str(payload);
  });
  EXPECT_EQ(kinds(sch),
            (std::vector<std::string>{"GetBlock", "CacheRead", "Annotate",
                                      "TransformLayout"}));
}

// Loops fused for parallelism, as RewriteParallelVectorizeUnroll leaves
// them: f runs over (i0, j0), and B[vk, vj] is read at vj = (f mod 2) * 4
// + j1 under f, k, i1, j1. The split of f is a dimension of its own: B
// takes the layout [vj // 4, vk, vj % 4].
constexpr StringLiteral kFusedLoopMatmul = R"mlir(
func.func @main(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) attributes {layout_free_buffers = [1]} {
  tir.for %f = 0 to 4 parallel {
    tir.for %k = 0 to 8 {
      tir.for %i1 = 0 to 4 {
        tir.for %j1 = 0 to 4 {
          tir.block "matmul"(%vi = spatial(8, %f floordiv 2 * 4 + %i1), %vj = spatial(8, %f mod 2 * 4 + %j1), %vk = reduce(8, %k)) {
            tir.init {
              %zero = arith.constant 0.0 : f32
              tir.store %zero, %C[%vi, %vj] : memref<8x8xf32>
            }
            %c = tir.load %C[%vi, %vj] : memref<8x8xf32>
            %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
            %b = tir.load %B[%vk, %vj] : memref<8x8xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %c, %p : f32
            tir.store %s, %C[%vi, %vj] : memref<8x8xf32>
          }
        }
      }
    }
  }
  return
}
)mlir";

TEST_F(PostprocTest, RewriteLayoutUnderAFusedLoop) {
  Schedule sch = schedule(kFusedLoopMatmul);
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*createRewriteLayout(), sch));
  ModuleOp payload = sch->getPayload();
  EXPECT_EQ(layoutRewriteBlocks(payload).size(), 1u) << str(payload);
  BlockOp matmul = block(payload, "matmul");
  SmallVector<LoadOp> loads =
      loadsOfType(matmul, MemRefType::get({2, 8, 4}, Float32Type::get(&ctx)));
  ASSERT_EQ(loads.size(), 1u) << str(payload);
  // B[vk = 3, vj = 5] is B'[1, 3, 1].
  EXPECT_EQ(loadIndicesAt(loads.front(), {{matmul.getIterVar(1), 5},
                                          {matmul.getIterVar(2), 3}}),
            (std::vector<int64_t>{1, 3, 1}));
}

// TVM's TestExtentOne: a dimension the loops walk with extent 1 is left
// out of the new layout. (The block reads B too: a block reading A alone
// and writing one buffer would be a copy, the start of a chain.)
constexpr StringLiteral kExtentOne = R"mlir(
func.func @main(%A: memref<16x1xf32>, %B: memref<16xf32>) attributes {layout_free_buffers = [0]} {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 1 {
      tir.block "block"(%vi = spatial(16, %i), %vj = spatial(1, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<16x1xf32>
        %b = tir.load %B[%vi] : memref<16xf32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %B[%vi] : memref<16xf32>
      }
    }
  }
  return
}
)mlir";

TEST_F(PostprocTest, RewriteLayoutDropsUnitDimensions) {
  Schedule sch = schedule(kExtentOne);
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*createRewriteLayout(), sch));
  ModuleOp payload = sch->getPayload();
  EXPECT_EQ(layoutRewriteBlocks(payload).size(), 1u) << str(payload);
  BlockOp anchor = block(payload, "block");
  func::FuncOp func = function(payload);
  SmallVector<LoadOp> loads;
  anchor->walk([&](LoadOp load) {
    if (load.getBuffer() != func.getArgument(1))
      loads.push_back(load);
  });
  ASSERT_EQ(loads.size(), 1u) << str(payload);
  EXPECT_EQ(loads.front().getBuffer().getType(),
            MemRefType::get({16}, Float32Type::get(&ctx)))
      << str(payload);
  EXPECT_EQ(loadIndicesAt(loads.front(), {{anchor.getIterVar(0), 7},
                                          {anchor.getIterVar(1), 0}}),
            (std::vector<int64_t>{7}));
}

// A chain of copies (TVM's Conv2dCacheRead, reduced): W is copied to Wg by
// "W_global", and C reads Wg[vk, vi] under loops i, k0, k1. Wg takes the
// layout [vi, vk // 4, vk % 4], and the copy reads W through a new copy in
// that layout.
constexpr StringLiteral kCopyChain = R"mlir(
func.func @main(%W: memref<8x8xf32>, %C: memref<8xf32>) attributes {layout_free_buffers = [0]} {
  %Wg = tir.alloc_buffer : memref<8x8xf32>
  tir.for %a0 = 0 to 8 {
    tir.for %a1 = 0 to 8 {
      tir.block "W_global"(%v0 = spatial(8, %a0), %v1 = spatial(8, %a1)) {
        %w = tir.load %W[%v0, %v1] : memref<8x8xf32>
        tir.store %w, %Wg[%v0, %v1] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %k0 = 0 to 2 {
      tir.for %k1 = 0 to 4 {
        tir.block "C"(%vi = spatial(8, %i), %vk = reduce(8, %k0 * 4 + %k1)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %C[%vi] : memref<8xf32>
          }
          %c = tir.load %C[%vi] : memref<8xf32>
          %w = tir.load %Wg[%vk, %vi] : memref<8x8xf32>
          %s = arith.addf %c, %w : f32
          tir.store %s, %C[%vi] : memref<8xf32>
        }
      }
    }
  }
  return
}
)mlir";

TEST_F(PostprocTest, RewriteLayoutAlongCopyChain) {
  Schedule sch = schedule(kCopyChain);
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*createRewriteLayout(), sch));
  ModuleOp payload = sch->getPayload();
  func::FuncOp func = function(payload);
  auto rewritten = MemRefType::get({8, 2, 4}, Float32Type::get(&ctx));

  BlockOp anchor = block(payload, "C");
  SmallVector<LoadOp> loads = loadsOfType(anchor, rewritten);
  ASSERT_EQ(loads.size(), 1u) << str(payload);
  EXPECT_EQ(loadIndicesAt(loads.front(), {{anchor.getIterVar(0), 3},
                                          {anchor.getIterVar(1), 6}}),
            (std::vector<int64_t>{3, 1, 2}));

  // The new copy reads W and is annotated; the old one reads the new copy's
  // buffer, both in the new layout.
  SmallVector<BlockOp> copies = layoutRewriteBlocks(payload);
  ASSERT_EQ(copies.size(), 1u) << str(payload);
  SmallVector<LoadOp> fromW;
  copies.front()->walk([&](LoadOp load) { fromW.push_back(load); });
  ASSERT_EQ(fromW.size(), 1u);
  EXPECT_EQ(fromW.front().getBuffer(), func.getArgument(0));
  int chainBlocks = 0;
  payload->walk([&](BlockOp b) {
    if (b == copies.front() || b.getBlockName() != "W_global")
      return;
    ++chainBlocks;
    EXPECT_EQ(loadsOfType(b, rewritten).size(), 1u) << str(payload);
  });
  EXPECT_EQ(chainBlocks, 1) << str(payload);
  EXPECT_EQ(kinds(sch), (std::vector<std::string>{
                            "GetBlock", "TransformLayout", "GetBlock",
                            "CacheRead", "Annotate", "TransformLayout"}));
}

TEST_F(PostprocTest, RewriteLayoutRejectsLoadsOutsideBlocks) {
  // TVM's TestRewrittenBuffersMustOccurWithinBlock.
  Schedule sch = schedule(R"mlir(
func.func @main(%A: memref<16x16xf32>, %B: memref<16xf32>) attributes {layout_free_buffers = [0]} {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      %a = tir.load %A[%i, %j] : memref<16x16xf32>
      tir.store %a, %B[%i] : memref<16xf32>
    }
  }
  return
}
)mlir");
  ASSERT_TRUE(sch);
  EXPECT_FALSE(apply(*createRewriteLayout(), sch));

  // Without layout-free buffers there is nothing to do.
  sch = schedule(kStaticMatmul);
  ASSERT_TRUE(sch);
  EXPECT_TRUE(apply(*createRewriteLayout(), sch));
  EXPECT_TRUE(kinds(sch).empty());
}

} // namespace
