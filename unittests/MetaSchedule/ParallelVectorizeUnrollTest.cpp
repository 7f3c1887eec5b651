//===- ParallelVectorizeUnrollTest.cpp - RewriteParallelVectorizeUnroll ---===//
//
// TVM's RewriteParallelVectorizeUnroll from C++, as
// test_meta_schedule_postproc_rewrite_parallel_vectorize_unroll.py applies
// it: the root's annotations become parallel, vectorized and
// unroll-annotated loops, each as far as the loops' strides and the limits
// allow.
//
//===----------------------------------------------------------------------===//

#include "PostprocTestUtils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

class ParallelVectorizeUnrollTest : public test::PostprocFixture {};

//===----------------------------------------------------------------------===//
// RewriteParallelVectorizeUnroll
//===----------------------------------------------------------------------===//

// TVM's Move_PUV (with extents that need no predicate): parallel up to 128
// takes i0 (64) and j0, which passes the limit (2048); vectorize up to 32
// takes k1 (32): j2 does not continue k1's stride in A and B.
constexpr StringLiteral kMove = R"mlir(
func.func @main(%A: memref<1024x1024x1024xf32>, %B: memref<1024x1024x1024xf32>) {
  tir.block "root"() annotations {meta_schedule.parallel = 128 : i64, meta_schedule.vectorize = 32 : i64} {
    tir.for %i0 = 0 to 64 {
      tir.for %j0 = 0 to 32 {
        tir.for %i1 = 0 to 4 {
          tir.for %j1 = 0 to 4 {
            tir.for %k0 = 0 to 32 {
              tir.for %i2 = 0 to 4 {
                tir.for %j2 = 0 to 8 {
                  tir.for %k1 = 0 to 32 {
                    tir.block "move"(%vi = spatial(1024, %i0 * 16 + %i1 * 4 + %i2), %vj = spatial(1024, %j0 * 32 + %j1 * 8 + %j2), %vk = spatial(1024, %k0 * 32 + %k1)) {
                      %a = tir.load %A[%vi, %vj, %vk] : memref<1024x1024x1024xf32>
                      tir.store %a, %B[%vi, %vj, %vk] : memref<1024x1024x1024xf32>
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return
}
)mlir";

TEST_F(ParallelVectorizeUnrollTest, ParallelOuterAndVectorizeInnerLoops) {
  Schedule sch = schedule(kMove);
  ASSERT_TRUE(sch);
  std::shared_ptr<Postproc> postproc = createRewriteParallelVectorizeUnroll();
  EXPECT_EQ(postproc->str().rfind(
                "meta_schedule.RewriteParallelVectorizeUnroll(0x", 0),
            0u)
      << postproc->str();
  ASSERT_TRUE(apply(*postproc, sch));
  ModuleOp payload = sch->getPayload();

  SmallVector<ForOp> loops = getLoops(block(payload, "move"));
  ASSERT_EQ(loops.size(), 7u) << str(payload);
  EXPECT_EQ(loops[0].getVarName(), "i0_j0_fused");
  EXPECT_EQ(loops[0].getKind(), ForKind::Parallel);
  EXPECT_EQ(loops[0].getConstantExtent(), 2048);
  for (ForOp loop : ArrayRef<ForOp>(loops).slice(1, 5))
    EXPECT_EQ(loop.getKind(), ForKind::Serial) << str(loop);
  // One loop is fused too (TVM's names).
  EXPECT_EQ(loops[6].getVarName(), "k1_fused");
  EXPECT_EQ(loops[6].getKind(), ForKind::Vectorized);
  EXPECT_EQ(loops[6].getConstantExtent(), 32);
  // The root's annotations are gone.
  EXPECT_FALSE(hasRootAnnotations(payload)) << str(payload);

  EXPECT_EQ(kinds(sch),
            (std::vector<std::string>{"GetBlock", "Unannotate", "Unannotate",
                                      "GetChildBlocks", "GetLoops", "Fuse",
                                      "Parallel", "Fuse", "Vectorize"}));
  // Nothing is left to rewrite.
  ASSERT_TRUE(apply(*postproc, sch));
  EXPECT_EQ(kinds(sch).size(), 9u);
}

// TVM's before_postproc_add: every loop can be parallel and vectorized, so
// all are fused and split by the vector length (802816 = 6272 * 128).
constexpr StringLiteral kAdd = R"mlir(
func.func @main(%lhs: memref<1x8x56x56x32xi8>, %rhs: memref<1x8x56x56x32xi8>, %out: memref<1x8x56x56x32xi8>) {
  tir.block "root"() annotations {meta_schedule.parallel = 64 : i64, meta_schedule.vectorize = 128 : i64} {
    tir.for %n = 0 to 1 {
      tir.for %c0 = 0 to 8 {
        tir.for %h = 0 to 56 {
          tir.for %w = 0 to 56 {
            tir.for %c1 = 0 to 32 {
              tir.block "add_compute"(%v0 = spatial(1, %n), %v1 = spatial(8, %c0), %v2 = spatial(56, %h), %v3 = spatial(56, %w), %v4 = spatial(32, %c1)) {
                %a = tir.load %lhs[%v0, %v1, %v2, %v3, %v4] : memref<1x8x56x56x32xi8>
                %b = tir.load %rhs[%v0, %v1, %v2, %v3, %v4] : memref<1x8x56x56x32xi8>
                %s = arith.addi %a, %b : i8
                tir.store %s, %out[%v0, %v1, %v2, %v3, %v4] : memref<1x8x56x56x32xi8>
              }
            }
          }
        }
      }
    }
  }
  return
}
)mlir";

TEST_F(ParallelVectorizeUnrollTest, FuseSplitParallelVectorize) {
  Schedule sch = schedule(kAdd);
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*createRewriteParallelVectorizeUnroll(), sch));
  ModuleOp payload = sch->getPayload();
  SmallVector<ForOp> loops = getLoops(block(payload, "add_compute"));
  ASSERT_EQ(loops.size(), 2u) << str(payload);
  EXPECT_EQ(loops[0].getVarName(), "n_c0_h_w_c1_fused_0");
  EXPECT_EQ(loops[0].getKind(), ForKind::Parallel);
  EXPECT_EQ(loops[0].getConstantExtent(), 6272);
  EXPECT_EQ(loops[1].getVarName(), "n_c0_h_w_c1_fused_1");
  EXPECT_EQ(loops[1].getKind(), ForKind::Vectorized);
  EXPECT_EQ(loops[1].getConstantExtent(), 128);
  EXPECT_EQ(kinds(sch),
            (std::vector<std::string>{"GetBlock", "Unannotate", "Unannotate",
                                      "GetChildBlocks", "GetLoops", "Fuse",
                                      "Split", "Parallel", "Vectorize"}));
}

// TVM's before_matmul_vectorize: two blocks under the root. Each vectorizes
// its innermost loop only: the next one out does not continue its stride
// in the buffer it writes (T_matmul_NT_global[i, j]: i1_3 strides 1, i0_3
// strides 768; ax1 and ax0 the same).
constexpr StringLiteral kMatmulVectorize = R"mlir(
func.func @main(%P: memref<64x768xf32>, %P1: memref<768x768xf32>, %T: memref<64x768xf32>) {
  tir.block "root"() annotations {meta_schedule.vectorize = 64 : i64} {
    %G = tir.alloc_buffer : memref<64x768xf32>
    tir.for %i0_0 = 0 to 1 {
      tir.for %i1_0 = 0 to 16 {
        tir.for %i0_1 = 0 to 1 {
          tir.for %i1_1 = 0 to 3 {
            tir.for %i2_0 = 0 to 48 {
              tir.for %i0_2 = 0 to 8 {
                tir.for %i1_2 = 0 to 1 {
                  tir.for %i2_1 = 0 to 16 {
                    tir.for %i0_3 = 0 to 8 {
                      tir.for %i1_3 = 0 to 16 {
                        tir.block "T_matmul_NT"(%i = spatial(64, %i0_2 * 8 + %i0_3), %j = spatial(768, %i1_0 * 48 + %i1_1 * 16 + %i1_3), %k = reduce(768, %i2_0 * 16 + %i2_1)) {
                          tir.init {
                            %zero = arith.constant 0.0 : f32
                            tir.store %zero, %G[%i, %j] : memref<64x768xf32>
                          }
                          %g = tir.load %G[%i, %j] : memref<64x768xf32>
                          %a = tir.load %P[%i, %k] : memref<64x768xf32>
                          %b = tir.load %P1[%j, %k] : memref<768x768xf32>
                          %m = arith.mulf %a, %b : f32
                          %s = arith.addf %g, %m : f32
                          tir.store %s, %G[%i, %j] : memref<64x768xf32>
                        }
                      }
                    }
                  }
                }
              }
            }
            tir.for %ax0 = 0 to 64 {
              tir.for %ax1 = 0 to 16 {
                tir.block "T_matmul_NT_global"(%v0 = spatial(64, %ax0), %v1 = spatial(768, %i1_0 * 48 + %i1_1 * 16 + %ax1)) {
                  %g = tir.load %G[%v0, %v1] : memref<64x768xf32>
                  tir.store %g, %T[%v0, %v1] : memref<64x768xf32>
                }
              }
            }
          }
        }
      }
    }
  }
  return
}
)mlir";

TEST_F(ParallelVectorizeUnrollTest, VectorizeInnerLoopOfEachBlock) {
  Schedule sch = schedule(kMatmulVectorize);
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*createRewriteParallelVectorizeUnroll(), sch));
  ModuleOp payload = sch->getPayload();
  SmallVector<ForOp> compute = getLoops(block(payload, "T_matmul_NT"));
  ASSERT_EQ(compute.size(), 10u) << str(payload);
  for (ForOp loop : ArrayRef<ForOp>(compute).drop_back())
    EXPECT_EQ(loop.getKind(), ForKind::Serial) << str(loop);
  EXPECT_EQ(compute.back().getVarName(), "i1_3_fused");
  EXPECT_EQ(compute.back().getKind(), ForKind::Vectorized);
  SmallVector<ForOp> copy = getLoops(block(payload, "T_matmul_NT_global"));
  ASSERT_EQ(copy.size(), 6u) << str(payload);
  EXPECT_EQ(copy[4].getKind(), ForKind::Serial);
  EXPECT_EQ(copy[5].getVarName(), "ax1_fused");
  EXPECT_EQ(copy[5].getKind(), ForKind::Vectorized);
  EXPECT_FALSE(hasRootAnnotations(payload)) << str(payload);
}

// TVM's test_no_unroll_for_spatial_block: the reduction's outermost loop
// gets the unroll pragmas, the spatial block's does not.
constexpr StringLiteral kReduceThenNormalize = R"mlir(
func.func @main(%A: memref<1x4x4x32xf32>, %B: memref<1x4x4x32xf32>) {
  tir.block "root"() annotations {ANNOTATIONS} {
    %S = tir.alloc_buffer : memref<1xf32>
    tir.for %ax0 = 0 to 1 {
      tir.for %k1 = 0 to 4 {
        tir.for %k2 = 0 to 4 {
          tir.for %k3 = 0 to 32 {
            tir.block "sum"(%v0 = spatial(1, %ax0), %vk1 = reduce(4, %k1), %vk2 = reduce(4, %k2), %vk3 = reduce(32, %k3)) {
              tir.init {
                %zero = arith.constant 0.0 : f32
                tir.store %zero, %S[%v0] : memref<1xf32>
              }
              %s = tir.load %S[%v0] : memref<1xf32>
              %a = tir.load %A[%v0, %vk1, %vk2, %vk3] : memref<1x4x4x32xf32>
              %t = arith.addf %s, %a : f32
              tir.store %t, %S[%v0] : memref<1xf32>
            }
          }
        }
      }
    }
    tir.for %bx0 = 0 to 1 {
      tir.for %bx1 = 0 to 4 {
        tir.for %bx2 = 0 to 4 {
          tir.for %bx3 = 0 to 32 {
            tir.block "norm"(%u0 = spatial(1, %bx0), %u1 = spatial(4, %bx1), %u2 = spatial(4, %bx2), %u3 = spatial(32, %bx3)) {
              %a = tir.load %A[%u0, %u1, %u2, %u3] : memref<1x4x4x32xf32>
              %s = tir.load %S[%u0] : memref<1xf32>
              %d = arith.subf %a, %s : f32
              tir.store %d, %B[%u0, %u1, %u2, %u3] : memref<1x4x4x32xf32>
            }
          }
        }
      }
    }
  }
  return
}
)mlir";

TEST_F(ParallelVectorizeUnrollTest, UnrollPragmasOnNonSpatialBlocks) {
  auto withRootAnnotations = [&](StringRef annotations) {
    std::string source = kReduceThenNormalize.str();
    size_t at = source.find("ANNOTATIONS");
    source.replace(at, strlen("ANNOTATIONS"), annotations.str());
    return schedule(source);
  };
  std::shared_ptr<Postproc> postproc = createRewriteParallelVectorizeUnroll();

  Schedule sch =
      withRootAnnotations("meta_schedule.unroll_explicit = 512 : i64");
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*postproc, sch));
  ModuleOp payload = sch->getPayload();
  ForOp reduction = loop(payload, "ax0");
  EXPECT_EQ(intAnnotation(reduction, "pragma_auto_unroll_max_step"), 512);
  EXPECT_EQ(intAnnotation(reduction, "pragma_unroll_explicit"), 1);
  EXPECT_FALSE(loop(payload, "bx0").getAnnotationsAttr()) << str(payload);
  for (StringRef name : {"k1", "k2", "k3"})
    EXPECT_FALSE(loop(payload, name).getAnnotationsAttr()) << str(payload);
  EXPECT_FALSE(hasRootAnnotations(payload)) << str(payload);

  // unroll_implicit: the same limit, not explicit.
  sch = withRootAnnotations("meta_schedule.unroll_implicit = 16 : i64");
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*postproc, sch));
  reduction = loop(sch->getPayload(), "ax0");
  EXPECT_EQ(intAnnotation(reduction, "pragma_auto_unroll_max_step"), 16);
  EXPECT_EQ(intAnnotation(reduction, "pragma_unroll_explicit"), 0);

  // A limit of 0 unrolls nothing; the annotation is removed all the same.
  sch = withRootAnnotations("meta_schedule.unroll_explicit = 0 : i64");
  ASSERT_TRUE(sch);
  ASSERT_TRUE(apply(*postproc, sch));
  EXPECT_FALSE(loop(sch->getPayload(), "ax0").getAnnotationsAttr());
  EXPECT_FALSE(hasRootAnnotations(sch->getPayload()));
}

// What the ParallelizeVectorizeUnroll rule does: it annotates TVM's root
// block, the function, which writes it out as a block "root".
TEST_F(ParallelVectorizeUnrollTest, RootAnnotationsGivenToTheFunction) {
  Schedule sch = schedule(kStaticMatmul);
  ASSERT_TRUE(sch);
  std::string error;
  ScheduleSteps steps(*sch, error);
  FailureOr<Value> root = steps.getBlock("root", "main");
  ASSERT_TRUE(succeeded(root)) << error;
  ASSERT_TRUE(
      succeeded(steps.annotate(*root, "meta_schedule.parallel", int64_t(64))))
      << error;
  ASSERT_TRUE(succeeded(
      steps.annotate(*root, "meta_schedule.unroll_explicit", int64_t(16))))
      << error;
  ASSERT_TRUE(apply(*createRewriteParallelVectorizeUnroll(), sch));
  ModuleOp payload = sch->getPayload();
  // i (64) fits the parallel extent, j passes it: both are fused.
  SmallVector<ForOp> loops = getLoops(block(payload, "matmul"));
  ASSERT_EQ(loops.size(), 2u) << str(payload);
  EXPECT_EQ(loops[0].getVarName(), "i_j_fused");
  EXPECT_EQ(loops[0].getKind(), ForKind::Parallel);
  EXPECT_EQ(loops[0].getConstantExtent(), 4096);
  EXPECT_EQ(intAnnotation(loops[0], "pragma_auto_unroll_max_step"), 16);
  EXPECT_EQ(intAnnotation(loops[0], "pragma_unroll_explicit"), 1);
  EXPECT_EQ(loops[1].getKind(), ForKind::Serial);
  EXPECT_FALSE(hasRootAnnotations(payload)) << str(payload);
}

TEST_F(ParallelVectorizeUnrollTest, NothingToRewriteWithoutRootAnnotations) {
  Schedule sch = schedule(kStaticMatmul);
  ASSERT_TRUE(sch);
  EXPECT_TRUE(apply(*createRewriteParallelVectorizeUnroll(), sch));
  EXPECT_TRUE(kinds(sch).empty());
  for (ForOp loop : getLoops(block(sch->getPayload(), "matmul")))
    EXPECT_EQ(loop.getKind(), ForKind::Serial);
}

} // namespace
