//===- PerStoreFeature.h - TVM's per-store features -------------*- C++ -*-===//
//
// TVM's PerStoreFeature extractor: one row per buffer a program stores a
// computed value into (the last such store of the buffer describes it),
// with 164 columns under the default settings:
//
//   group 1 (57): the arithmetic of the stored value (float and integer
//     add/sub, mul, div/mod, comparisons, math and other calls, boolean
//     ops, selects; index arithmetic included), each times the iterations
//     of the loops around the store; the vectorized, unrolled and parallel
//     loops around it (count, product and innermost extent, position); the
//     GPU flag and the extents of blockIdx/threadIdx/vthread loops;
//   group 2 (18 per buffer, `bufferCount` buffers): per buffer the store
//     reads or writes, its access type, bytes and cache lines touched (all
//     and unique), its reuse (type, distance in iterations and bytes,
//     count) and its stride in the innermost loop, buffers ordered by
//     lines then bytes touched;
//   group 3 (`arithIntensityCurveNumSamples`): the arithmetic intensity
//     (float ops per unique byte) as loops are added from the innermost
//     out, sampled at even fractions of the total work;
//   group 4 (4): the size of the stored buffer's allocation and the loops
//     around it;
//   group 5 (3): the loops around the store (product of extents, count)
//     and the innermost `pragma_auto_unroll_max_step`;
//   group 6 (8, optional): the workload embedding, flags from the block
//     names of the task's module (softmax, max/min, add, matmul, conv...).
//
// Values are log2(|x| + 1) except flags. TVM computes them after a
// lowering (unit loops dropped, blocks made opaque, allocations moved to
// the lowest loop around their uses and shrunk to the part used there,
// thread bindings of one tag unified); this computes them on the scheduled
// tir IR, modelling those passes: block iteration variables are replaced by
// their bindings, serial loops of one iteration by their start, nested
// loops of one thread tag by the outer one, and allocated buffers are
// placed and compacted as the lowering does.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_PERSTOREFEATURE_H
#define TENSORIR_METASCHEDULE_PERSTOREFEATURE_H

#include "TensorIR/MetaSchedule/FeatureExtractor.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tir::ms {

struct PerStoreFeatureOptions {
  /// How many buffers group 2 describes per store (more are dropped, fewer
  /// padded with zeros).
  int64_t bufferCount = 5;
  /// How many samples of the arithmetic intensity curve group 3 has.
  int64_t arithIntensityCurveNumSamples = 10;
  /// The cache line the line counts of group 2 are in.
  int64_t cacheLineBytes = 64;
  /// Whether the program runs on a GPU (the target has the "gpu" key):
  /// only then are the thread extents of group 1 filled in.
  bool isGPU = false;
};

/// The number of columns (164 with the defaults), plus 8 with the
/// workload embedding.
int64_t getPerStoreFeatureCount(const PerStoreFeatureOptions &options,
                                bool withWorkloadEmbedding = false);

/// The features (groups 1 to 5) of the stores of the scheduled functions of
/// `mod`: one row per buffer a computed (not constant) value is stored
/// into, in the order of their first such store.
FeatureMatrix computePerStoreFeatures(ModuleOp mod,
                                      const PerStoreFeatureOptions &options);

/// Group 6, TVM's workload embedding: eight flags, set by the names of the
/// blocks of `mod` (softmax; max or min; add; batch_matmul; matmul;
/// depthwiseconv2d; conv2d_winograd; conv2d; case-insensitive, the first
/// that matches a name counts).
std::vector<double> getWorkloadEmbedding(ModuleOp mod);

/// TVM's FeatureExtractor.PerStoreFeature: computePerStoreFeatures of each
/// candidate's module, for a GPU when the context's target is one, with
/// the workload embedding of the context's module appended to each row
/// when asked.
std::shared_ptr<FeatureExtractor> createPerStoreFeature(
    int64_t bufferCount = 5, int64_t arithIntensityCurveNumSamples = 10,
    int64_t cacheLineBytes = 64, bool extractWorkloadEmbedding = false);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_PERSTOREFEATURE_H
