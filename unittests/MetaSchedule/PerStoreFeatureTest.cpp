//===- PerStoreFeatureTest.cpp - TVM's per-store features -----------------===//
//
// The programs of TVM's test_meta_schedule_feature_extractor_per_store_
// feature, scheduled here by transform scripts that take TVM's steps, give
// the values TVM's test expects: a CPU matmul split, reordered,
// parallelized, vectorized and unrolled (groups 1 to 5), two copies fused
// under one loop (access types, serial reuse), a constant fill (no rows),
// and a GPU matmul with shared and local caches and thread bindings
// (thread extents, placement and compaction of the caches). Also the
// extractor's interface: the GPU flag from the target and the workload
// embedding.
//
//===----------------------------------------------------------------------===//

#include "TIRTestUtils.h"

#include "TensorIR/InitAllScheduleExtensions.h"
#include "TensorIR/MetaSchedule/PerStoreFeature.h"
#include "TensorIR/MetaSchedule/SpaceGenerator.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

constexpr int64_t kFeatureCount = 164;

// TVM's matmul: C = A * B over 512 x 512 x 512, reading C, A, B in that
// order (the order cache_read's indices count).
constexpr StringLiteral kMatmul = R"mlir(
func.func @main(%A: memref<512x512xf32> {tir.name = "A"},
                %B: memref<512x512xf32> {tir.name = "B"},
                %C: memref<512x512xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 512 {
    tir.for %j = 0 to 512 {
      tir.for %k = 0 to 512 {
        tir.block "C"(%vi = spatial(512, %i), %vj = spatial(512, %j),
                      %vk = reduce(512, %k))
            reads(%C[%vi, %vj], %A[%vi, %vk], %B[%vk, %vj] : memref<512x512xf32>, memref<512x512xf32>, memref<512x512xf32>)
            writes(%C[%vi, %vj] : memref<512x512xf32>) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %C[%vi, %vj] : memref<512x512xf32>
          }
          %c = tir.load %C[%vi, %vj] : memref<512x512xf32>
          %a = tir.load %A[%vi, %vk] : memref<512x512xf32>
          %b = tir.load %B[%vk, %vj] : memref<512x512xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          tir.store %s, %C[%vi, %vj] : memref<512x512xf32>
        }
      }
    }
  }
  return
}
)mlir";

// test_cpu_matmul: i split by 16, j by 8, reordered (i_o, j_o, k, j_i,
// i_i), j_i vectorized, i_o and j_o parallel, k unrolled.
constexpr StringLiteral kCPUSchedule = R"mlir(
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %io, %ii = transform.tir.split %i [?, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %jo, %ji = transform.tir.split %j [?, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %io, %jo, %k, %ji, %ii : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    transform.tir.vectorize %ji : !transform.any_op
    transform.tir.parallel %io : !transform.any_op
    transform.tir.parallel %jo : !transform.any_op
    transform.tir.unroll %k : !transform.any_op
)mlir";

// test_gpu: C cached in local memory, i split in five, j in five, k in
// three, reordered SSSRRSRS, the outer pairs fused and bound to
// blockIdx.x, vthread.x and threadIdx.x, the cache written back under the
// threads, A and B read through shared caches under k0, each copied by the
// threads 16 at a time, and the outer loop auto-unrolled.
constexpr StringLiteral kGPUSchedule = R"mlir(
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %cl = transform.tir.cache_write %c {write_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %i0, %i1, %i2, %i3, %i4 = transform.tir.split %i [?, 1, 16, 32, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %j0, %j1, %j2, %j3, %j4 = transform.tir.split %j [?, 4, 1, 1, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %k0, %k1, %k2 = transform.tir.split %k [?, 1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.reorder %i0, %j0, %i1, %j1, %i2, %j2, %k0, %k1, %i3, %j3, %k2, %i4, %j4 : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    %f0 = transform.tir.fuse %i0, %j0 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %f1 = transform.tir.fuse %i1, %j1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %f2 = transform.tir.fuse %i2, %j2 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.tir.bind %f0 "blockIdx.x" : !transform.any_op
    transform.tir.bind %f1 "vthread.x" : !transform.any_op
    transform.tir.bind %f2 "threadIdx.x" : !transform.any_op
    transform.tir.reverse_compute_at %cl at %f2 : !transform.any_op, !transform.any_op
    %as = transform.tir.cache_read %c {read_buffer_index = 1, storage_scope = "shared"} : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %as at %k0 : !transform.any_op, !transform.any_op
    %a0, %a1, %a2, %a3, %ai, %aj = transform.tir.get_loops %as : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %aij = transform.tir.fuse %ai, %aj : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %ao, %at = transform.tir.split %aij [?, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.bind %at "threadIdx.x" : !transform.any_op
    %bs = transform.tir.cache_read %c {read_buffer_index = 2, storage_scope = "shared"} : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %bs at %k0 : !transform.any_op, !transform.any_op
    %b0, %b1, %b2, %b3, %bi, %bj = transform.tir.get_loops %bs : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %bij = transform.tir.fuse %bi, %bj : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %bo, %bt = transform.tir.split %bij [?, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.bind %bt "threadIdx.x" : !transform.any_op
    transform.tir.annotate "pragma_auto_unroll_max_step" = 1024 : i64 to %f0 : !transform.any_op
    transform.tir.annotate "pragma_unroll_explicit" = 1 : i64 to %f0 : !transform.any_op
)mlir";

// test_cpu_fusion: B = A and C = B in two opaque blocks inside one, under
// the same two loops.
constexpr StringLiteral kFusion = R"mlir(
func.func @main(%A: memref<64x32xf32> {tir.name = "A"},
                %B: memref<64x32xf32> {tir.name = "B"},
                %C: memref<64x32xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 64 {
    tir.for %j = 0 to 32 {
      tir.block "fused"() {
        tir.block "B"() {
          %a = tir.load %A[%i, %j] : memref<64x32xf32>
          tir.store %a, %B[%i, %j] : memref<64x32xf32>
        }
        tir.block "C"() {
          %b = tir.load %B[%i, %j] : memref<64x32xf32>
          tir.store %b, %C[%i, %j] : memref<64x32xf32>
        }
      }
    }
  }
  return
}
)mlir";

// test_empty_feature: a constant stored is no feature.
constexpr StringLiteral kFull = R"mlir(
func.func @main(%T: memref<2x3xf32>) {
  tir.for %i = 0 to 2 {
    tir.for %j = 0 to 3 {
      tir.block "T_full"(%vi = spatial(2, %i), %vj = spatial(3, %j)) {
        %one = arith.constant 1.0 : f32
        tir.store %one, %T[%vi, %vj] : memref<2x3xf32>
      }
    }
  }
  return
}
)mlir";

// test_cpu_layout_transform, in short: one parallel loop over a fused
// index, annotated for auto-unrolling, unpacking a 5-d layout with
// divisions and moduli, the value selected by a comparison.
constexpr StringLiteral kLayoutTransform = R"mlir(
func.func @main(%P: memref<1x16x7x7x32xf32>, %Q: memref<25088xf32>,
                %T: memref<1x1x7x7x512xf32>) {
  tir.for %f = 0 to 25088 parallel annotations {pragma_auto_unroll_max_step = 64 : i64, pragma_unroll_explicit = 1 : i64} {
    tir.block "T_layout_trans"(%ax2 = spatial(7, %f floordiv 3584),
                               %ax3 = spatial(7, %f mod 3584 floordiv 512),
                               %ax4 = spatial(512, %f mod 512)) {
      %p = tir.load %P[0, %ax4 floordiv 32, %ax2, %ax3, %ax4 mod 32] : memref<1x16x7x7x32xf32>
      %q = tir.load %Q[%ax4 * 49 + %ax2 * 7 + %ax3] : memref<25088xf32>
      %zero = arith.constant 0.0 : f32
      %positive = arith.cmpf olt, %zero, %p : f32
      %scaled = arith.mulf %p, %q : f32
      %v = arith.select %positive, %scaled, %zero : f32
      tir.store %v, %T[0, 0, %ax2, %ax3, %ax4] : memref<1x1x7x7x512xf32>
    }
  }
  return
}
)mlir";

// Blocks whose names give workload flags: softmax (which also holds
// "max", but the first match counts) and add.
constexpr StringLiteral kNamedBlocks = R"mlir(
func.func @main(%A: memref<16xf32>, %B: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.block "T_softmax_maxelem"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %B[%vi] : memref<16xf32>
    }
  }
  tir.for %i = 0 to 16 {
    tir.block "T_add"(%vi = spatial(16, %i)) {
      %b = tir.load %B[%vi] : memref<16xf32>
      %s = arith.addf %b, %b : f32
      tir.store %s, %A[%vi] : memref<16xf32>
    }
  }
  return
}
)mlir";

// No loop of a kind (kPosNone); not on a GPU (thread extents 1); a
// buffer slot left empty.
const std::vector<double> kNoLoopKind = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
const std::vector<double> kCPUThreads = {0, 1, 1, 1, 1, 1, 1, 1};
const std::vector<double> kPadding(18, 0.0);

/// One row of TVM's expectations, group by group (buffers not given are
/// padding).
struct ExpectedRow {
  std::vector<double> arith = std::vector<double>(16, 0.0);
  std::vector<double> vectorize = kNoLoopKind, unroll = kNoLoopKind,
                      parallel = kNoLoopKind;
  std::vector<double> threads = kCPUThreads;
  std::vector<std::vector<double>> buffers;
  std::vector<double> curve = std::vector<double>(10, 0.0);
  std::vector<double> allocAndOuter;
};

// A kernel whose threadIdx.x loop is under a serial loop, and a store of
// the kernel outside it.
constexpr StringLiteral kKernel = R"mlir(
func.func @main(%A: memref<64x32xf32>, %B: memref<64x32xf32>,
                %C: memref<64xf32>) {
  tir.for %bx = 0 to 64 thread_binding<"blockIdx.x"> {
    tir.for %k = 0 to 4 {
      tir.for %tx = 0 to 8 thread_binding<"threadIdx.x"> {
        tir.block "B"() {
          %a = tir.load %A[%bx, %k * 8 + %tx] : memref<64x32xf32>
          %s = arith.addf %a, %a : f32
          tir.store %s, %B[%bx, %k * 8 + %tx] : memref<64x32xf32>
        }
      }
    }
    tir.block "C"() {
      %b = tir.load %B[%bx, 0] : memref<64x32xf32>
      tir.store %b, %C[%bx] : memref<64xf32>
    }
  }
  return
}
)mlir";

class PerStoreFeatureTest : public test::TIRTest {
protected:
  PerStoreFeatureTest() {
    DialectRegistry registry;
    registerScheduleExtensions(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// `source` scheduled by `steps` (a transform script's body).
  Schedule schedule(StringRef source, StringRef steps) {
    OwningOpRef<ModuleOp> mod = parse(source);
    std::string error;
    FailureOr<Schedule> sch = createTracedSchedule(*mod, 1, error);
    EXPECT_TRUE(succeeded(sch)) << error;
    if (failed(sch))
      return nullptr;
    if (!steps.empty()) {
      OwningOpRef<ModuleOp> script =
          parse((test::kScriptBegin + steps + test::kScriptEnd).str());
      EXPECT_TRUE(succeeded((*sch)->replay(*script, error))) << error;
    }
    return *sch;
  }

  /// Columns [begin, end) of `row` of `matrix`.
  static std::vector<double> slice(const FeatureMatrix &matrix, int64_t row,
                                   int64_t begin, int64_t end) {
    auto at = matrix.data.begin() + row * matrix.cols;
    return std::vector<double>(at + begin, at + end);
  }

  /// Expects row `row` of `f` to be `expected`.
  static void expectRow(const FeatureMatrix &f, int64_t row,
                        const ExpectedRow &expected) {
    expectClose(slice(f, row, 0, 16), expected.arith, "arith");
    expectClose(slice(f, row, 16, 27), expected.vectorize, "vectorize");
    expectClose(slice(f, row, 27, 38), expected.unroll, "unroll");
    expectClose(slice(f, row, 38, 49), expected.parallel, "parallel");
    expectClose(slice(f, row, 49, 57), expected.threads, "threads");
    for (int64_t b = 0; b < 5; ++b)
      expectClose(slice(f, row, 57 + 18 * b, 75 + 18 * b),
                  b < static_cast<int64_t>(expected.buffers.size())
                      ? expected.buffers[b]
                      : kPadding,
                  "buffer " + std::to_string(b));
    expectClose(slice(f, row, 147, 157), expected.curve, "intensity");
    expectClose(slice(f, row, 157, 164), expected.allocAndOuter,
                "alloc and outer");
  }

  /// Expects `actual` to be `expected`, entry by entry, within 1e-5
  /// (TVM's assert_allclose).
  static void expectClose(const std::vector<double> &actual,
                          const std::vector<double> &expected,
                          const std::string &what) {
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (size_t i = 0; i < actual.size(); ++i)
      EXPECT_NEAR(actual[i], expected[i], 1e-5 + 1e-5 * std::abs(expected[i]))
          << what << " [" << i << "]";
  }
};

TEST_F(PerStoreFeatureTest, CPUMatmul) {
  Schedule sch = schedule(kMatmul, kCPUSchedule);
  ASSERT_TRUE(sch);
  PerStoreFeatureOptions options;
  FeatureMatrix f = computePerStoreFeatures(sch->getPayload(), options);
  // The fill of C stores a constant: one row, C's update.
  ASSERT_EQ(f.rows, 1);
  ASSERT_EQ(f.cols, kFeatureCount);
  // Group 1: a float add and multiply, and four integer adds and
  // multiplications in the loads' indices (i_o * 16 + i_i and j_o * 8 + j_i,
  // twice each), per iteration of 2^27.
  expectClose(slice(f, 0, 0, 16),
              {0, 27, 27, 0, 0, 0, 0, 0, 29, 29, 0, 0, 0, 0, 0, 0}, "arith");
  expectClose(slice(f, 0, 16, 27),
              {1.0, 3.169924, 3.169924, 0, 0, 0, 0, 0, 0, 0, 1}, "vectorize");
  expectClose(slice(f, 0, 27, 38),
              {1.0, 9.002815, 9.002815, 0, 0, 0, 0, 0, 0, 0, 1}, "unroll");
  expectClose(slice(f, 0, 38, 49),
              {1.58496, 11.0007, 6.022368, 0, 0, 0, 0, 0, 0, 0, 1}, "parallel");
  expectClose(slice(f, 0, 49, 57), kCPUThreads, "threads");
  // Group 2: A (read, one row of 16 per i_i: stride 512), C (read and
  // written), B (read, not moved by i_i: reused by it).
  expectClose(slice(f, 0, 57, 75),
              {1, 0, 0, 29, 20, 27, 14, 1, 0, 0, 4.087463, 7.0552826, 3.169925,
               26, 17, 24, 11.0007038, 9.002815},
              "A");
  expectClose(slice(f, 0, 75, 93),
              {0.0, 0.0, 1.0, 29.0, 20.000001907348633, 27.0, 14.00008773803711,
               1.0, 0.0, 0.0, 7.011227130889893, 9.250298500061035,
               9.002815246582031, 20.000001907348633, 11.000703811645508,
               18.0000057220459, 5.044394016265869, 9.002815246582031},
              "C");
  expectClose(slice(f, 0, 93, 111),
              {1.0, 0.0, 0.0, 29.0, 20.000001907348633, 19.000001907348633,
               14.00008773803711, 1.0, 0.0, 0.0, 1.0, 3.700439691543579,
               4.087462902069092, 25.0, 16.000022888183594, 15.000043869018555,
               10.001408194392809, 0.0},
              "B");
  expectClose(slice(f, 0, 111, 129), kPadding, "padding");
  expectClose(slice(f, 0, 129, 147), kPadding, "padding");
  // Group 3: 2 * 512^3 flops over 3 * 4 * 512^2 bytes at the top, about
  // log2(85.3); lower with fewer loops.
  expectClose(slice(f, 0, 147, 157),
              {3.812599, 4.464822, 4.912349, 5.253426, 5.529086, 5.76043,
               5.959752, 6.134849, 6.290977, 6.431846},
              "arith intensity");
  // Groups 4 and 5: C is a parameter (2^20 bytes outside every loop);
  // five loops of 2^27 iterations.
  expectClose(slice(f, 0, 157, 164),
              {20.000001907348633, 18.0000057220459, 1.0, 27.0, 27.0,
               2.5849626064300537, 0.0},
              "alloc and outer");
}

TEST_F(PerStoreFeatureTest, CPUFusion) {
  Schedule sch = schedule(kFusion, "");
  ASSERT_TRUE(sch);
  FeatureMatrix f = computePerStoreFeatures(sch->getPayload(), {});
  ASSERT_EQ(f.rows, 2);
  // B = A: A read, B written, each 2^11 elements of 4 bytes touched once
  // (no reuse), stride 1. B and the others are parameters of 2^13 bytes.
  const std::vector<double> once = {
      13.00017643, 13.00017643, 7.011227131, 7.011227131, 0, 0, 1, 0, 0, 0,
      14.00008774, 14.00008774, 8.005624771, 8.005624771, 1};
  auto access = [&](std::vector<double> type) {
    type.insert(type.end(), once.begin(), once.end());
    return type;
  };
  const std::vector<double> allocAndOuter = {
      13.000176, 11.00070381, 1, 11.00070381, 11.00070381, 1.584962487, 0};
  {
    ExpectedRow expected;
    expected.buffers = {access({1, 0, 0}), access({0, 1, 0})};
    expected.allocAndOuter = allocAndOuter;
    expectRow(f, 0, expected);
  }
  // C = B: B, which the store before wrote under the same loop, is
  // reused serially (once, at a distance of one element of 4 bytes).
  {
    ExpectedRow expected;
    expected.buffers = {{1, 0, 0, 13.00017643, 13.00017643, 7.011227131,
                         7.011227131, 0, 1, 0, 1, 4.087462902, 1, 13.00017643,
                         13.00017643, 7.011227131, 7.011227131, 1},
                        access({0, 1, 0})};
    expected.allocAndOuter = allocAndOuter;
    expectRow(f, 1, expected);
  }
}

TEST_F(PerStoreFeatureTest, ConstantStoresHaveNoRow) {
  Schedule sch = schedule(kFull, "");
  ASSERT_TRUE(sch);
  FeatureMatrix f = computePerStoreFeatures(sch->getPayload(), {});
  EXPECT_EQ(f.rows, 0);
  EXPECT_EQ(f.cols, kFeatureCount);
  EXPECT_TRUE(f.data.empty());
}

TEST_F(PerStoreFeatureTest, GPUMatmul) {
  Schedule sch = schedule(kMatmul, kGPUSchedule);
  ASSERT_TRUE(sch);
  PerStoreFeatureOptions options;
  options.isGPU = true;
  FeatureMatrix f = computePerStoreFeatures(sch->getPayload(), options);
  // A_shared, B_shared, C_local (its fill stores a constant), C.
  ASSERT_EQ(f.rows, 4);
  // blockIdx.x 8, threadIdx.x 16 (the copies' own threadIdx.x loops are
  // the kernel's), vthread 4.
  const std::vector<double> threads = {1, 3.169925001, 1, 1, 4.087462841, 1,
                                       1, 2.321928095};
  // A_shared = A under (bx, vthread, tx, k0, fused): two adds, two
  // multiplications and two divisions of the fused index per copy, 2^23
  // copies. The caches are placed under k0 and compacted to 512 x 2; as in
  // TVM, a modulo of loop variables is bounded as one value (the first),
  // so A's part at the top is 511 x 512, A_shared's 512 x 1.
  {
    ExpectedRow expected;
    expected.arith = {0,           0,           0,           0, 0, 0, 0, 0,
                      24.00000009, 24.00000009, 24.00000009, 0, 0, 0, 0, 0};
    expected.threads = threads;
    expected.buffers = {
        {1, 0, 0, 25.00000004, 19.99718086, 23.00000017, 13.99726771, 1, 0, 0,
         18.0000055, 20.00000138, 2.32192809, 23.00000017, 17.997185,
         21.00000069, 11.99753235, 12.00035218},
        {0, 1, 0, 25.00000004, 11.00070427, 23.00000017, 5.04439412, 1, 0, 0,
         6.02236781, 11.98049664, 8.00562455, 17.00001101, 3.169925,
         15.00004403, 0.169925, 4.08746284}};
    expected.allocAndOuter = {12.00035218, 27.00000001, 17.00001101,
                              6.022367813, 23.00000017, 2.584962501,
                              10.001408};
    expectRow(f, 0, expected);
  }
  // B_shared = B: B's fused index is unpacked into 2 x 64.
  {
    ExpectedRow expected;
    expected.arith = {0,           0,           0,           0, 0, 0, 0, 0,
                      21.58496296, 21.58496296, 21.00000069, 0, 0, 0, 0, 0};
    expected.threads = threads;
    expected.buffers = {
        {1, 0, 0, 22.00000034, 19.85798251, 20.00000138, 13.85807816, 1, 0, 0,
         15.00004403, 20.04456622, 2.32192809, 20.00000138, 17.85798707,
         18.0000055, 11.8583696, 4.08746284},
        {0, 1, 0, 22.00000034, 7.01122726, 20.00000138, 4.08746284, 1, 0, 0,
         3.169925001, 4.08746284, 8.005624549, 14.00008805, 0.5849625,
         12.00035218, 0.08746284, 4.087462841}};
    expected.allocAndOuter = {9.002815016, 24.00000009, 17.00001101,
                              3.169925001, 20.00000138, 2.584962501,
                              10.001408};
    expectRow(f, 1, expected);
  }
  // C_local += A_shared * B_shared: the compacted caches are indexed
  // with one add and one multiplication each. The intensity is high: the
  // caches are small and touched many times.
  {
    ExpectedRow expected;
    expected.arith = {0,           27.00000001, 27.00000001, 0, 0, 0, 0, 0,
                      28.00000001, 28.00000001, 0,           0, 0, 0, 0, 0};
    expected.threads = threads;
    expected.buffers = {{1, 0, 0, 29, 9.002815016, 23.00000017, 3.169925001, 1,
                         0, 0, 5.044394119, 7.651051691, 5.044394119,
                         24.00000009, 4.087462841, 18.0000055, 0.3219280949, 1},
                        {0, 0, 1, 29, 11.00070427, 23.00000017, 5.044394119, 1,
                         0, 0, 4.087462841, 7.055282436, 1.584962501,
                         28.00000001, 10.00140819, 22.00000034, 4.087462841, 1},
                        {1, 0, 0, 29, 12.00035218, 19.00000275, 9.002815016, 1,
                         0, 0, 1, 3.700439718, 4.087462841, 25.00000004,
                         8.005624549, 15.00004403, 5.044394119, 0}};
    expected.curve = {11.98533,  12.977811, 13.562714, 13.977722, 14.299632,
                      14.562654, 14.785038, 14.977677, 15.147597, 15.299596};
    expected.allocAndOuter = {11.00070427, 18.0000055, 9.002815016, 18.0000055,
                              27.00000001, 3,          10.001408};
    expectRow(f, 2, expected);
  }
  // C = C_local, written back by each thread (C_local is 32 x 16 per
  // thread).
  {
    ExpectedRow expected;
    expected.threads = threads;
    expected.buffers = {
        {0, 1, 0, 20.00000138, 20.00000138, 14.00008805, 14.00008805, 0, 0, 1,
         0, 0, 0, 21.00000069, 21.00000069, 15.00004403, 15.00004403, 1},
        {1, 0, 0, 20.00000138, 11.00070427, 14.00008805, 5.044394119, 1, 0, 0,
         9.002815016, 12.00035218, 4.087462841, 16.00002201, 7.011227255,
         10.00140819, 1.584962501, 1}};
    expected.allocAndOuter = {20.00000138, 18.0000055,  1,        18.0000055,
                              18.0000055,  2.584962501, 10.001408};
    expectRow(f, 3, expected);
  }
}

TEST_F(PerStoreFeatureTest, CPULayoutTransform) {
  Schedule sch = schedule(kLayoutTransform, "");
  ASSERT_TRUE(sch);
  FeatureMatrix f = computePerStoreFeatures(sch->getPayload(), {});
  ASSERT_EQ(f.rows, 1);
  ASSERT_EQ(f.cols, kFeatureCount);
  double iterations = std::log2(25088 + 1);
  // A float multiplication, a comparison (TVM counts comparisons as
  // integer ones: they yield bool) and a select per iteration.
  std::vector<double> arith = slice(f, 0, 0, 16);
  EXPECT_NEAR(arith[2], iterations, 1e-9);
  EXPECT_NEAR(arith[11], iterations, 1e-9);
  EXPECT_NEAR(arith[15], iterations, 1e-9);
  // Index arithmetic: the bindings' divisions and moduli.
  EXPECT_GT(arith[10], 0);
  // One parallel loop of 25088 iterations.
  expectClose(slice(f, 0, 38, 49),
              {1, iterations, iterations, 0, 0, 0, 0, 0, 0, 0, 1}, "parallel");
  // Three buffers (T written, P and Q read, in the order of the lines
  // they touch), two slots empty.
  int writes = 0, reads = 0;
  for (int64_t b = 0; b < 3; ++b) {
    std::vector<double> type = slice(f, 0, 57 + 18 * b, 60 + 18 * b);
    writes += type == std::vector<double>{0, 1, 0};
    reads += type == std::vector<double>{1, 0, 0};
  }
  EXPECT_EQ(writes, 1);
  EXPECT_EQ(reads, 2);
  expectClose(slice(f, 0, 111, 147), std::vector<double>(36, 0.0), "padding");
  // Group 5: 25088 iterations, one loop, auto-unrolled up to 64 steps.
  expectClose(slice(f, 0, 161, 164), {iterations, 1, std::log2(65.0)}, "outer");
}

TEST_F(PerStoreFeatureTest, CurveRisesToTheWholeNestsIntensity) {
  Schedule sch = schedule(kMatmul, kCPUSchedule);
  ASSERT_TRUE(sch);
  PerStoreFeatureOptions options;
  options.arithIntensityCurveNumSamples = 4;
  options.bufferCount = 2;
  FeatureMatrix f = computePerStoreFeatures(sch->getPayload(), options);
  ASSERT_EQ(f.rows, 1);
  EXPECT_EQ(f.cols, getPerStoreFeatureCount(options));
  EXPECT_EQ(f.cols, 57 + 2 * 18 + 4 + 4 + 3);
  std::vector<double> curve = slice(f, 0, 57 + 36, 57 + 36 + 4);
  for (size_t i = 1; i < curve.size(); ++i)
    EXPECT_LT(curve[i - 1], curve[i]);
  // The last sample is the whole nest: 2 * 512^3 float ops over the three
  // buffers' 3 * 4 * 512^2 bytes.
  EXPECT_NEAR(curve.back(), std::log2(2.0 * 512 / 12 + 1), 1e-9);
}

TEST_F(PerStoreFeatureTest, ExtractorReadsTheTargetAndEmbedsTheWorkload) {
  Schedule sch = schedule(kMatmul, kGPUSchedule);
  ASSERT_TRUE(sch);
  std::vector<MeasureCandidate> candidates = {MeasureCandidate{sch, {}},
                                              MeasureCandidate{sch, {}}};
  TuneContext context;
  context.mod = parse(kNamedBlocks);
  std::string error;

  // Without a target there is nothing to tell a GPU by.
  std::shared_ptr<FeatureExtractor> extractor = createPerStoreFeature();
  EXPECT_TRUE(failed(extractor->extractFrom(context, candidates, error)));
  EXPECT_FALSE(error.empty());

  for (StringRef kind : {"llvm", "cuda"}) {
    context.target = Target(kind.str());
    FailureOr<std::vector<FeatureMatrix>> features =
        extractor->extractFrom(context, candidates, error);
    ASSERT_TRUE(succeeded(features)) << error;
    ASSERT_EQ(features->size(), 2u);
    const FeatureMatrix &f = features->front();
    EXPECT_EQ(f.rows, 4);
    EXPECT_EQ(f.cols, kFeatureCount);
    // is_gpu, then blockIdx.x's extent 8 (1 when not on a GPU).
    std::vector<double> gpu = {1, std::log2(9.0)}, cpu = {0, 1};
    EXPECT_EQ(slice(f, 0, 49, 51), kind == "cuda" ? gpu : cpu);
    EXPECT_EQ(features->back().data, f.data);
  }

  // The workload embedding comes from the context's module.
  EXPECT_EQ(getWorkloadEmbedding(*context.mod),
            (std::vector<double>{1, 0, 1, 0, 0, 0, 0, 0}));
  std::shared_ptr<FeatureExtractor> embedding =
      createPerStoreFeature(5, 10, 64, /*extractWorkloadEmbedding=*/true);
  FailureOr<std::vector<FeatureMatrix>> features =
      embedding->extractFrom(context, candidates, error);
  ASSERT_TRUE(succeeded(features)) << error;
  const FeatureMatrix &f = features->front();
  ASSERT_EQ(f.rows, 4);
  ASSERT_EQ(f.cols, kFeatureCount + 8);
  for (int64_t r = 0; r < f.rows; ++r)
    EXPECT_EQ(slice(f, r, kFeatureCount, kFeatureCount + 8),
              (std::vector<double>{1, 0, 1, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(StringRef(embedding->str())
                  .starts_with("meta_schedule.PerStoreFeature("));
}

TEST_F(PerStoreFeatureTest, ThreadLoopsWrapTheirKernel) {
  // As TVM's UnifyThreadBinding leaves the kernel: its thread loops around
  // all of it, outside the serial loops.
  Schedule sch = schedule(kKernel, "");
  ASSERT_TRUE(sch);
  PerStoreFeatureOptions options;
  options.isGPU = true;
  FeatureMatrix f = computePerStoreFeatures(sch->getPayload(), options);
  ASSERT_EQ(f.rows, 2);
  // B under (bx, tx, k): k is the innermost loop, moving A and B by 8.
  expectClose(slice(f, 0, 49, 57),
              {1, std::log2(65.0), 1, 1, std::log2(9.0), 1, 1, 1}, "threads");
  expectClose(slice(f, 0, 74, 75), {std::log2(9.0)}, "stride of k");
  expectClose(slice(f, 0, 161, 164), {std::log2(2049.0), 2, 0}, "outer");
  // C under (bx, tx), though no threadIdx.x loop is around it.
  expectClose(slice(f, 1, 49, 57),
              {1, std::log2(65.0), 1, 1, std::log2(9.0), 1, 1, 1}, "threads");
  expectClose(slice(f, 1, 161, 164), {std::log2(513.0), std::log2(3.0), 0},
              "outer");
}

} // namespace
