//===- FeatureCollector.h - The per-store feature walk ----------*- C++ -*-===//
//
// What PerStoreFeature.cpp's extractor is built from, shared by the files
// of this folder: the walk over a program's stores (Collector) and the
// records it fills in. The program is read as TVM's lowering would leave it
// (see TensorIR/MetaSchedule/PerStoreFeature.h):
//
// - Index expressions are taken over loop variables: a block's iteration
//   variables are replaced by their bindings, index arithmetic is read
//   through, serial loops of one iteration become their start (TVM drops
//   them), and a loop bound to a thread tag a loop around it is bound to
//   already becomes that loop (TVM unifies them). Other values are opaque
//   inputs (LoweredProgram.cpp).
// - Each allocated buffer is placed at the lowest loop or block holding its
//   accesses (with TVM's rules for reduction writes and, for global
//   buffers, blockIdx loops) and compacted to the part one execution of it
//   touches; its accesses are shifted by the part's start
//   (LoweredProgram.cpp).
//
// Then one walk over the stores, in program order, computes each store's
// groups 1 (ArithmeticCounts.cpp for its arithmetic), 2 and 3
// (BufferAccesses.cpp) and 5 (PerStoreFeature.cpp); what earlier stores
// touched under each loop is kept, as TVM keeps it, for the serial-reuse
// rule of group 2.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_METASCHEDULE_FEATUREEXTRACTOR_FEATURECOLLECTOR_H
#define TENSORIR_LIB_METASCHEDULE_FEATUREEXTRACTOR_FEATURECOLLECTOR_H

#include "TensorIR/MetaSchedule/PerStoreFeature.h"

#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallBitVector.h"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tir::ms::per_store {

//===----------------------------------------------------------------------===//
// Sizes of the groups
//===----------------------------------------------------------------------===//

constexpr int64_t kArithCount = 16;
constexpr int64_t kLoopKindCount = 11;
constexpr int64_t kGroup1Count = kArithCount + 3 * kLoopKindCount + 8;
constexpr int64_t kBufferFeatureCount = 18;
constexpr int64_t kGroup4Count = 4;
constexpr int64_t kGroup5Count = 3;
constexpr int64_t kWorkloadCount = 8;

constexpr StringLiteral kAutoUnrollKey = "pragma_auto_unroll_max_step";
constexpr StringLiteral kLayoutRewritePreproc =
    "meta_schedule.layout_rewrite_preproc";

/// log2(|x| + 1), the scale of every count.
inline double slog(double x) { return std::log2(std::abs(x) + 1.0); }

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// The bytes of one element of `type` (a vector element counts whole).
int64_t getElementBytes(MemRefType type);

/// The static extents of `type`, 1 for runtime ones (TVM takes a bound it
/// cannot find as 1).
SmallVector<int64_t> getKnownShape(MemRefType type);

/// Where the lowering allocates a buffer and how large.
struct Allocation {
  /// The shape after compaction.
  SmallVector<int64_t> shape;
  /// The product of the constant extents of the loops around the
  /// allocation.
  double outerProduct = 1;
  /// Where the compacted part starts, per dimension, over `inputs`
  /// (empty: the buffer is not compacted).
  SmallVector<AffineExpr> lowers;
  SmallVector<Value> inputs;
};

//===----------------------------------------------------------------------===//
// Group 1.1: arithmetic
//===----------------------------------------------------------------------===//

struct ArithCounts {
  enum Kind {
    FloatMad,
    FloatAddSub,
    FloatMul,
    FloatDivMod,
    FloatCmp,
    FloatMathFunc,
    FloatOtherFunc,
    IntMad,
    IntAddSub,
    IntMul,
    IntDivMod,
    IntCmp,
    IntMathFunc,
    IntOtherFunc,
    BoolOp,
    SelectOp,
  };
  std::array<double, kArithCount> counts{};

  double &operator[](Kind kind) { return counts[kind]; }
  ArithCounts &operator+=(const ArithCounts &o) {
    for (int64_t i = 0; i < kArithCount; ++i)
      counts[i] += o.counts[i];
    return *this;
  }
  /// The float operations group 3 counts.
  double getFloatOps() const {
    double sum = 0;
    for (int64_t i = FloatMad; i <= FloatOtherFunc; ++i)
      sum += counts[i];
    return sum;
  }
};

//===----------------------------------------------------------------------===//
// Group 2: per-buffer accesses
//===----------------------------------------------------------------------===//

enum class AccessType { Read = 0, Write = 1, ReadWrite = 2 };
enum class ReuseType {
  LoopMultipleRead = 0,
  SerialMultipleReadWrite = 1,
  None = 2
};

/// What one store does to one buffer.
struct BufferAccess {
  Value buffer;
  std::string name;
  AccessType type = AccessType::Read;
  /// The index lists the buffer is accessed with (over the collector's
  /// dimensions).
  std::vector<SmallVector<AffineExpr>> indices;
  int64_t elementBytes = 1;
  /// The shape (after compaction), 1 for a runtime extent.
  SmallVector<int64_t> shape;
  llvm::SmallBitVector dynamicDims;

  /// Elements touched by the loops from loop i inwards, per loop.
  SmallVector<int64_t> touchedPerLoop;
  /// The extents of the part the whole nest touches.
  SmallVector<int64_t> accessShape;
  int64_t continuousBytes = 1;
  int64_t minStride = 0, innermostStride = 0, nonStridedProduct = 1;
  ReuseType reuse = ReuseType::None;
  double reuseIterations = 0, reuseBytes = 0;
  int64_t reuseCount = 0;
  double bytes = 0, uniqueBytes = 0, lines = 0, uniqueLines = 0;

  /// Appends the 18 features of group 2 to `row`.
  void exportTo(std::vector<double> &row) const;
};

/// Groups 1, 2, 3 and 5 of a store.
struct StoreFeatures {
  std::vector<double> group1, group2, group3;
  double outerProduct = 1;
  int64_t numLoops = 0;
  int64_t autoUnroll = 0;
};

/// A loop of a store's nest.
struct NestLoop {
  ForOp op;
  std::optional<int64_t> extent;
  int64_t lower = 0;
  unsigned dim = 0;
};

/// TVM's SetStride: the access's contiguous bytes, its smallest stride and
/// the loop that makes it.
void computeStride(ArrayRef<NestLoop> nest, BufferAccess &access);

/// TVM's SetFeature: the bytes and cache lines `access` touches under
/// `numLoops` loops of `product` iterations.
void computeTraffic(int64_t numLoops, double product, int64_t cacheLineBytes,
                    BufferAccess &access);

/// Group 3: float operations per unique byte as the loops from the
/// innermost out are taken in (`perIteration` float operations in the
/// innermost body, `touchedBytes` under each loop), sampled at `samples`
/// even fractions of the total work, interpolated between loops.
std::vector<double> getIntensityCurve(ArrayRef<NestLoop> nest,
                                      double perIteration,
                                      ArrayRef<int64_t> touchedBytes,
                                      int64_t samples);

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

/// The walk over the stores of a module's functions; one row per stored
/// buffer.
class Collector {
public:
  Collector(MLIRContext *ctx, const PerStoreFeatureOptions &options)
      : ctx(ctx), options(options) {}

  void collect(FunctionOpInterface func);
  FeatureMatrix finish();

private:
  // Loops as TVM's UnifyThreadBinding leaves them: one loop per thread
  // tag and kernel, the first of the tag, all of them around the whole
  // kernel in the order they first appear in it.
  ArrayRef<ForOp> getKernelThreadLoops(ForOp root);
  ForOp getRepresentative(ForOp threadLoop);
  SmallVector<ForOp> getKeptLoops(Operation *op);

  // Index expressions over the collector's dimensions.
  AffineExpr dimOf(Value v);
  AffineExpr resolve(Value v);
  AffineExpr simplify(AffineExpr e);
  ArrayRef<AffineExpr> resolveAccess(Operation *access);
  std::optional<Interval> getLoopRange(unsigned dim);

  // Allocations.
  void placeAllocation(AllocBufferOp alloc, FunctionOpInterface func);

  // Stores.
  void visitStore(StoreOp store);
  ArithCounts countValue(Value v, SmallVectorImpl<LoadOp> &loads,
                         DenseMap<Value, ArithCounts> &memo);
  ArithCounts countExpr(AffineExpr e, SmallVectorImpl<LoadOp> &loads,
                        DenseMap<Value, ArithCounts> &memo);
  void computeRegions(ArrayRef<NestLoop> nest,
                      MutableArrayRef<BufferAccess> accesses,
                      SmallVectorImpl<int64_t> &touchedBytes);
  void computeReuse(ArrayRef<NestLoop> nest,
                    MutableArrayRef<BufferAccess> accesses);

  MLIRContext *ctx;
  PerStoreFeatureOptions options;

  DenseMap<Operation *, SmallVector<ForOp>> kernelThreadLoops;
  SmallVector<Value> dimValues;
  DenseMap<Value, unsigned> dimPositions;
  DenseMap<Value, AffineExpr> resolved;
  DenseMap<Operation *, SmallVector<AffineExpr>> accessIndices;

  /// The allocated and parameter buffers.
  DenseMap<Value, Allocation> allocations;
  /// Per loop, per buffer: the elements each store under the loop touched
  /// in it (TVM's buffer_touched_under_loop).
  DenseMap<Operation *, llvm::MapVector<Value, SmallVector<int64_t>>>
      touchedUnderLoop;
  /// The features of each stored buffer, in the order of first store.
  llvm::MapVector<Value, StoreFeatures> rows;
};

} // namespace mlir::tir::ms::per_store

#endif // TENSORIR_LIB_METASCHEDULE_FEATUREEXTRACTOR_FEATURECOLLECTOR_H
