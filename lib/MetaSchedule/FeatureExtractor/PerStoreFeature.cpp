//===- PerStoreFeature.cpp - TVM's per-store features ---------------------===//
//
// The extractor and the walk's driver: one row per stored buffer, its
// loops (group 1's loop kinds and thread extents, group 5), its buffers
// and intensity (BufferAccesses.cpp), its arithmetic
// (ArithmeticCounts.cpp), its allocation (group 4), over the program as
// LoweredProgram.cpp reads it. FeatureCollector.h says how the program is
// read.
//
//===----------------------------------------------------------------------===//

#include "FeatureCollector.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;
using namespace mlir::tir::ms::per_store;

static int64_t getProduct(ArrayRef<int64_t> values) {
  int64_t product = 1;
  for (int64_t v : values)
    product *= v;
  return product;
}

//===----------------------------------------------------------------------===//
// One store
//===----------------------------------------------------------------------===//

static void exportLoopKind(ArrayRef<NestLoop> loops, std::vector<double> &row) {
  double num = 0, product = 0, innermost = 0;
  int position = 0; // kPosNone
  if (!loops.empty()) {
    num = loops.size();
    innermost = loops.back().extent.value_or(1);
    product = 1;
    for (const NestLoop &loop : loops)
      if (loop.extent)
        product *= *loop.extent;
    // TVM never tells the positions apart: kPosMixed.
    position = 7;
  }
  row.push_back(slog(num));
  row.push_back(slog(product));
  row.push_back(slog(innermost));
  for (int p = 0; p < 8; ++p)
    row.push_back(static_cast<double>(p == position));
}

void Collector::visitStore(StoreOp store) {
  Value value = store.getValue();
  if (isa_and_present<arith::ConstantOp>(value.getDefiningOp()))
    return;

  // The loop nest.
  SmallVector<NestLoop> nest;
  double product = 1;
  int64_t autoUnroll = 0;
  SmallVector<NestLoop> parallel, vectorized, unrolled;
  // blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread: the first loop's extent.
  std::array<int64_t, 7> threadExtents;
  threadExtents.fill(1);
  std::array<bool, 7> threadSeen{};
  for (ForOp loop : getKeptLoops(store)) {
    NestLoop entry{
        loop, loop.getConstantExtent(),
        loop.getConstantLowerBound().value_or(0),
        cast<AffineDimExpr>(dimOf(loop.getInductionVar())).getPosition()};
    nest.push_back(entry);
    if (entry.extent)
      product *= static_cast<double>(*entry.extent);
    if (auto annotations = loop.getAnnotations())
      if (auto step =
              dyn_cast_or_null<IntegerAttr>(annotations->get(kAutoUnrollKey));
          step && step.getInt() > 0)
        autoUnroll = step.getInt();
    switch (loop.getKind()) {
    case ForKind::Parallel:
      parallel.push_back(entry);
      break;
    case ForKind::Vectorized:
      vectorized.push_back(entry);
      break;
    case ForKind::Unrolled:
      unrolled.push_back(entry);
      break;
    case ForKind::ThreadBinding: {
      StringRef tag = *loop.getThread();
      int slot = llvm::StringSwitch<int>(tag)
                     .Case("blockIdx.x", 0)
                     .Case("blockIdx.y", 1)
                     .Case("blockIdx.z", 2)
                     .Case("threadIdx.x", 3)
                     .Case("threadIdx.y", 4)
                     .Case("threadIdx.z", 5)
                     .Default(tag.starts_with("vthread") ? 6 : -1);
      if (slot >= 0 && !threadSeen[slot]) {
        threadSeen[slot] = true;
        threadExtents[slot] = entry.extent.value_or(1);
      }
      break;
    }
    case ForKind::Serial:
      break;
    }
  }

  // Group 1: the arithmetic of the value, per iteration, and the loops.
  SmallVector<LoadOp> loads;
  DenseMap<Value, ArithCounts> memo;
  ArithCounts counts = countValue(value, loads, memo);
  for (double &c : counts.counts)
    c *= product;
  StoreFeatures features;
  for (double c : counts.counts)
    features.group1.push_back(slog(c));
  exportLoopKind(vectorized, features.group1);
  exportLoopKind(unrolled, features.group1);
  exportLoopKind(parallel, features.group1);
  features.group1.push_back(options.isGPU ? 1.0 : 0.0);
  for (int64_t extent : threadExtents)
    features.group1.push_back(slog(options.isGPU ? extent : 1));

  // Group 2: the buffers, the stored one first.
  llvm::MapVector<Value, BufferAccess> byBuffer;
  auto entryFor = [&](Value buffer) -> BufferAccess & {
    auto [it, inserted] = byBuffer.insert({buffer, BufferAccess()});
    BufferAccess &access = it->second;
    if (inserted) {
      auto type = cast<MemRefType>(buffer.getType());
      access.buffer = buffer;
      access.name = getBufferName(buffer);
      access.elementBytes = getElementBytes(type);
      auto allocation = allocations.find(buffer);
      access.shape = allocation != allocations.end() ? allocation->second.shape
                                                     : getKnownShape(type);
      access.dynamicDims.resize(type.getRank());
      if (allocation == allocations.end() || allocation->second.lowers.empty())
        for (int64_t d = 0; d < type.getRank(); ++d)
          access.dynamicDims[d] = type.isDynamicDim(d);
    }
    return access;
  };
  {
    BufferAccess &written = entryFor(store.getBuffer());
    written.type = AccessType::Write;
    written.indices.emplace_back(resolveAccess(store));
  }
  llvm::SmallPtrSet<Operation *, 8> seenLoads;
  for (LoadOp load : loads) {
    if (!seenLoads.insert(load).second)
      continue;
    bool isNew = !byBuffer.count(load.getBuffer());
    BufferAccess &access = entryFor(load.getBuffer());
    if (!isNew && access.type != AccessType::Read) {
      // Reading what the store writes: TVM keeps the write's indices only.
      access.type = AccessType::ReadWrite;
      continue;
    }
    access.type = AccessType::Read;
    access.indices.emplace_back(resolveAccess(load));
  }
  std::vector<BufferAccess> accesses;
  for (auto &entry : byBuffer)
    accesses.push_back(std::move(entry.second));

  int64_t n = nest.size();
  SmallVector<int64_t> touchedBytes;
  computeRegions(nest, accesses, touchedBytes);
  for (BufferAccess &access : accesses)
    computeStride(nest, access);
  computeReuse(nest, accesses);
  for (BufferAccess &access : accesses)
    computeTraffic(n, product, options.cacheLineBytes, access);
  // Most lines first, then most bytes, then by name (then as met).
  SmallVector<unsigned> order(accesses.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::sort(order, [&](unsigned i, unsigned j) {
    const BufferAccess &a = accesses[i], &b = accesses[j];
    if (a.lines != b.lines)
      return a.lines > b.lines;
    if (a.bytes != b.bytes)
      return a.bytes > b.bytes;
    if (a.name != b.name)
      return a.name < b.name;
    return i < j;
  });
  for (int64_t i = 0; i < options.bufferCount; ++i) {
    if (i < static_cast<int64_t>(accesses.size()))
      accesses[order[i]].exportTo(features.group2);
    else
      features.group2.insert(features.group2.end(), kBufferFeatureCount, 0.0);
  }

  // Group 3.
  features.group3 =
      getIntensityCurve(nest, counts.getFloatOps() / product, touchedBytes,
                        options.arithIntensityCurveNumSamples);

  // Group 5.
  features.outerProduct = product;
  features.numLoops = n;
  features.autoUnroll = autoUnroll;

  rows[store.getBuffer()] = std::move(features);
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

void Collector::collect(FunctionOpInterface func) {
  // Parameters are allocated outside every loop, as declared.
  for (BlockArgument arg : func.getArguments())
    if (auto type = dyn_cast<MemRefType>(arg.getType())) {
      Allocation allocation;
      allocation.shape = getKnownShape(type);
      allocations[arg] = std::move(allocation);
    }
  func->walk([&](AllocBufferOp alloc) { placeAllocation(alloc, func); });

  // (A store under a loop of no iteration gets its row too, of zero
  // counts, as TVM's.)
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto block = dyn_cast<BlockOp>(op))
      if (getAnnotation(block, kLayoutRewritePreproc))
        return WalkResult::skip();
    if (auto store = dyn_cast<StoreOp>(op))
      visitStore(store);
    return WalkResult::advance();
  });
}

FeatureMatrix Collector::finish() {
  FeatureMatrix matrix;
  matrix.cols = getPerStoreFeatureCount(options);
  for (auto &[buffer, features] : rows) {
    std::vector<double> &data = matrix.data;
    size_t start = data.size();
    data.insert(data.end(), features.group1.begin(), features.group1.end());
    data.insert(data.end(), features.group2.begin(), features.group2.end());
    data.insert(data.end(), features.group3.begin(), features.group3.end());
    // Group 4: the allocation of the stored buffer (none for a view).
    double size = 0, allocProduct = 0, allocOuter = 1;
    auto allocation = allocations.find(buffer);
    if (allocation != allocations.end()) {
      auto type = cast<MemRefType>(buffer.getType());
      double numel = static_cast<double>(getProduct(allocation->second.shape));
      size = numel * getElementBytes(type);
      allocOuter = allocation->second.outerProduct;
      allocProduct = numel * allocOuter;
    }
    data.push_back(slog(size));
    data.push_back(slog(allocProduct));
    data.push_back(slog(allocOuter));
    data.push_back(slog(features.outerProduct / allocOuter));
    // Group 5.
    data.push_back(slog(features.outerProduct));
    data.push_back(slog(static_cast<double>(features.numLoops)));
    data.push_back(slog(static_cast<double>(features.autoUnroll)));
    assert(static_cast<int64_t>(data.size() - start) == matrix.cols &&
           "a row of the wrong length");
    (void)start;
    ++matrix.rows;
  }
  return matrix;
}

//===----------------------------------------------------------------------===//
// The extractor
//===----------------------------------------------------------------------===//

namespace {

class PerStoreFeature : public FeatureExtractor {
public:
  PerStoreFeature(PerStoreFeatureOptions options, bool extractWorkload)
      : options(options), extractWorkload(extractWorkload) {}

  FailureOr<std::vector<FeatureMatrix>>
  extractFrom(const TuneContext &context,
              const std::vector<MeasureCandidate> &candidates,
              std::string &error) override {
    if (!context.target) {
      error = "PerStoreFeature needs the tune context's target";
      return failure();
    }
    PerStoreFeatureOptions perTarget = options;
    perTarget.isGPU = context.target->isGPU();
    std::vector<double> embedding;
    if (extractWorkload) {
      if (!context.mod) {
        error = "PerStoreFeature's workload embedding needs the tune "
                "context's module";
        return failure();
      }
      embedding = getWorkloadEmbedding(*context.mod);
    }
    std::vector<FeatureMatrix> results;
    for (const MeasureCandidate &candidate : candidates) {
      if (!candidate.sch) {
        error = "PerStoreFeature was given a candidate without a schedule";
        return failure();
      }
      FeatureMatrix matrix =
          computePerStoreFeatures(candidate.sch->getPayload(), perTarget);
      if (extractWorkload) {
        FeatureMatrix widened;
        widened.rows = matrix.rows;
        widened.cols = matrix.cols + kWorkloadCount;
        for (int64_t r = 0; r < matrix.rows; ++r) {
          auto row = matrix.data.begin() + r * matrix.cols;
          widened.data.insert(widened.data.end(), row, row + matrix.cols);
          widened.data.insert(widened.data.end(), embedding.begin(),
                              embedding.end());
        }
        matrix = std::move(widened);
      }
      results.push_back(std::move(matrix));
    }
    return results;
  }

  std::string str() const override {
    return defaultRepr("PerStoreFeature", this);
  }

private:
  PerStoreFeatureOptions options;
  bool extractWorkload;
};

} // namespace

int64_t
mlir::tir::ms::getPerStoreFeatureCount(const PerStoreFeatureOptions &options,
                                       bool withWorkloadEmbedding) {
  return kGroup1Count + kBufferFeatureCount * options.bufferCount +
         options.arithIntensityCurveNumSamples + kGroup4Count + kGroup5Count +
         (withWorkloadEmbedding ? kWorkloadCount : 0);
}

FeatureMatrix
mlir::tir::ms::computePerStoreFeatures(ModuleOp mod,
                                       const PerStoreFeatureOptions &options) {
  Collector collector(mod.getContext(), options);
  for (FunctionOpInterface func : getScheduledFunctions(mod))
    collector.collect(func);
  return collector.finish();
}

std::vector<double> mlir::tir::ms::getWorkloadEmbedding(ModuleOp mod) {
  std::vector<double> embedding(kWorkloadCount, 0.0);
  // The first pattern a name holds sets its flag.
  static const std::pair<StringRef, int> patterns[] = {
      {"softmax", 0},
      {"max", 1},
      {"min", 1},
      {"add", 2},
      {"batch_matmul", 3},
      {"matmul", 4},
      {"depthwiseconv2d", 5},
      {"conv2d_winograd", 6},
      {"conv2d", 7},
  };
  mod->walk([&](BlockOp block) {
    std::string name = block.getBlockName().lower();
    for (auto [pattern, flag] : patterns)
      if (StringRef(name).contains(pattern)) {
        embedding[flag] = 1.0;
        break;
      }
  });
  return embedding;
}

std::shared_ptr<FeatureExtractor> mlir::tir::ms::createPerStoreFeature(
    int64_t bufferCount, int64_t arithIntensityCurveNumSamples,
    int64_t cacheLineBytes, bool extractWorkloadEmbedding) {
  PerStoreFeatureOptions options;
  options.bufferCount = bufferCount;
  options.arithIntensityCurveNumSamples = arithIntensityCurveNumSamples;
  options.cacheLineBytes = cacheLineBytes;
  return std::make_shared<PerStoreFeature>(options, extractWorkloadEmbedding);
}
