//===- BufferAccesses.cpp - Groups 2 and 3: buffers a store touches -------===//
//
// Per buffer a store reads or writes: the part each loop of its nest
// touches (TVM's SetRegion), the stride of its innermost moving loop
// (SetStride), its reuse (SetReuse) and the bytes and cache lines it
// touches (SetFeature); and the arithmetic intensity curve of group 3.
//
//===----------------------------------------------------------------------===//

#include "FeatureCollector.h"

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;
using namespace mlir::tir::ms::per_store;

void BufferAccess::exportTo(std::vector<double> &row) const {
  double proxyReuse = reuseCount > 0 ? static_cast<double>(reuseCount) : 0.5;
  double values[] = {
      static_cast<double>(type == AccessType::Read),
      static_cast<double>(type == AccessType::Write),
      static_cast<double>(type == AccessType::ReadWrite),
      slog(bytes),
      slog(uniqueBytes),
      slog(lines),
      slog(uniqueLines),
      static_cast<double>(reuse == ReuseType::LoopMultipleRead),
      static_cast<double>(reuse == ReuseType::SerialMultipleReadWrite),
      static_cast<double>(reuse == ReuseType::None),
      slog(reuseIterations),
      slog(reuseBytes),
      slog(static_cast<double>(reuseCount)),
      slog(bytes / proxyReuse),
      slog(uniqueBytes / proxyReuse),
      slog(lines / proxyReuse),
      slog(uniqueLines / proxyReuse),
      slog(static_cast<double>(innermostStride)),
  };
  row.insert(row.end(), std::begin(values), std::end(values));
}

/// The stride, in elements of one index, that a step of dimension `pos`
/// makes: its coefficient where it is a term of its own; inside a
/// division or modulo, the factor the division is scaled by or, without
/// one, its coefficient in the dividend (what TVM's coefficient reading
/// finds in those forms); 1 in a product of variables; 0 when `e` does not
/// use it.
static int64_t getStrideIn(AffineExpr e, unsigned pos) {
  if (!e.isFunctionOfDim(pos))
    return 0;
  AffineTerms sum = AffineTerms::get(e);
  for (auto [term, coefficient] : sum.terms) {
    if (!term.isFunctionOfDim(pos))
      continue;
    int64_t scale = std::abs(coefficient);
    auto dim = dyn_cast<AffineDimExpr>(term);
    if ((dim && dim.getPosition() == pos) || scale != 1)
      return scale;
    if (term.getKind() == AffineExprKind::FloorDiv ||
        term.getKind() == AffineExprKind::CeilDiv ||
        term.getKind() == AffineExprKind::Mod) {
      int64_t inner = getStrideIn(cast<AffineBinaryOpExpr>(term).getLHS(), pos);
      return inner ? inner : 1;
    }
    return 1;
  }
  return 1;
}

/// `e` with each `x mod c` (c a positive constant, x of loop variables of
/// `nest` only) replaced by its value with every loop at its start. TVM's
/// region bounds do this: its analyzer first binds each loop variable to
/// the loop's start, and binding the loop's range afterwards updates the
/// variable's bounds but not what its modular analysis knows (that it is
/// that one value), which then narrows the bound of a modulo to one value.
static AffineExpr freezeModuli(AffineExpr e, ArrayRef<int64_t> starts,
                               const llvm::SmallBitVector &loopDims) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  auto divisor = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (e.getKind() == AffineExprKind::Mod && divisor && divisor.getValue() > 0) {
    bool onlyLoops = true;
    bin.getLHS().walk([&](AffineExpr x) {
      if (auto dim = dyn_cast<AffineDimExpr>(x))
        onlyLoops &= loopDims.test(dim.getPosition());
      else if (isa<AffineSymbolExpr>(x))
        onlyLoops = false;
    });
    if (onlyLoops)
      if (std::optional<int64_t> value = evaluateAt(bin.getLHS(), starts))
        return getAffineConstantExpr(llvm::mod(*value, divisor.getValue()),
                                     e.getContext());
  }
  return getAffineBinaryOpExpr(e.getKind(),
                               freezeModuli(bin.getLHS(), starts, loopDims),
                               freezeModuli(bin.getRHS(), starts, loopDims));
}

/// TVM's SetRegion: for each loop from the innermost out, the part of each
/// buffer the loops from it inwards touch (outer loops at their start).
void Collector::computeRegions(ArrayRef<NestLoop> nest,
                               MutableArrayRef<BufferAccess> accesses,
                               SmallVectorImpl<int64_t> &touchedBytes) {
  int64_t n = nest.size();
  touchedBytes.assign(n, 0);
  if (n == 0) {
    for (BufferAccess &access : accesses)
      access.accessShape.assign(access.shape.size(), 1);
    return;
  }
  // The indices as TVM's bounds see them.
  SmallVector<int64_t> starts(dimValues.size(), 0);
  llvm::SmallBitVector loopDims(dimValues.size());
  for (const NestLoop &loop : nest) {
    starts[loop.dim] = loop.lower;
    loopDims.set(loop.dim);
  }
  std::vector<std::vector<SmallVector<AffineExpr>>> bounded;
  for (BufferAccess &access : accesses) {
    std::vector<SmallVector<AffineExpr>> &lists = bounded.emplace_back();
    for (ArrayRef<AffineExpr> index : access.indices) {
      SmallVector<AffineExpr> &list = lists.emplace_back();
      for (AffineExpr e : index)
        list.push_back(freezeModuli(e, starts, loopDims));
    }
  }
  // Opaque values stay at one (unknown) value.
  SmallVector<std::optional<Interval>> ranges(dimValues.size(),
                                              Interval::point(0));
  for (BufferAccess &access : accesses)
    access.touchedPerLoop.assign(n, 0);
  for (int64_t i = n - 1; i >= 0; --i) {
    // Loops from i inwards run over their range (one with a runtime extent
    // over what the buffer holds), the others stay at their start. One of
    // no iteration touches nothing.
    bool empty = false;
    for (int64_t j = 0; j < n; ++j) {
      const NestLoop &loop = nest[j];
      if (j >= i && loop.extent && *loop.extent <= 0)
        empty = true;
      if (j < i)
        ranges[loop.dim] = Interval::point(loop.lower);
      else if (loop.extent)
        ranges[loop.dim] = Interval{
            loop.lower, loop.lower + std::max<int64_t>(*loop.extent, 1) - 1};
      else
        ranges[loop.dim] = std::nullopt;
    }
    for (auto [access, lists] : llvm::zip(accesses, bounded)) {
      unsigned rank = access.shape.size();
      SmallVector<int64_t> lows(rank, INT64_MAX), highs(rank, INT64_MIN);
      for (ArrayRef<AffineExpr> index : lists)
        for (unsigned d = 0; d < rank; ++d) {
          // Accesses stay inside the buffer: where interval arithmetic
          // cannot tell (MLIR's form of an unpacking, `i * 49 - (i floordiv
          // 512) * 25087`, bounds far outside), the buffer bounds it.
          std::optional<Interval> range = evaluateRange(index[d], ranges);
          int64_t last = access.shape[d] - 1;
          if (!range)
            range = Interval{0, last};
          if (!access.dynamicDims.test(d))
            range = Interval{std::max<int64_t>(range->lo, 0),
                             std::min(range->hi, last)};
          lows[d] = std::min(lows[d], range->lo);
          highs[d] = std::max(highs[d], range->hi);
        }
      int64_t numel = 1;
      access.accessShape.assign(rank, 1);
      for (unsigned d = 0; d < rank; ++d) {
        access.accessShape[d] = highs[d] - lows[d] + 1;
        numel *= access.accessShape[d];
      }
      numel = empty ? 0 : std::max<int64_t>(0, numel);
      access.touchedPerLoop[i] = numel;
      touchedBytes[i] += numel * access.elementBytes;
      touchedUnderLoop[nest[i].op][access.buffer].push_back(numel);
    }
  }
}

void per_store::computeStride(ArrayRef<NestLoop> nest, BufferAccess &access) {
  int64_t n = nest.size();
  unsigned rank = access.shape.size();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = static_cast<int64_t>(rank) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * access.shape[d + 1];
  access.continuousBytes = 1;
  for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d)
    if (access.accessShape[d] == access.shape[d]) {
      access.continuousBytes = access.shape[d] * access.elementBytes;
      break;
    }
  // The innermost loop that moves the access, and the smallest stride it
  // moves it by (in the last dimension it indexes).
  auto strideOf = [&](unsigned dim) -> int64_t {
    int64_t best = INT64_MAX;
    for (ArrayRef<AffineExpr> index : access.indices)
      for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d)
        if (int64_t coefficient = getStrideIn(index[d], dim)) {
          best = std::min(best, coefficient * strides[d]);
          break;
        }
    return best == INT64_MAX ? 0 : best;
  };
  int64_t i = n - 1;
  access.minStride = 0;
  for (; i >= 0; --i)
    if ((access.minStride = strideOf(nest[i].dim)))
      break;
  access.innermostStride = i == n - 1 ? access.minStride : 0;
  access.nonStridedProduct = 1;
  for (int64_t j = n - 1; j > i; --j)
    if (nest[j].extent)
      access.nonStridedProduct *= *nest[j].extent;
}

void per_store::computeTraffic(int64_t numLoops, double product,
                               int64_t cacheLineBytes, BufferAccess &access) {
  access.bytes = static_cast<double>(access.elementBytes) * product;
  if (numLoops == 0) {
    access.uniqueBytes = access.lines = access.uniqueLines = 1;
    return;
  }
  access.uniqueBytes =
      static_cast<double>(access.touchedPerLoop.front()) * access.elementBytes;
  access.lines = product / static_cast<double>(access.nonStridedProduct) *
                 std::min(1.0, static_cast<double>(access.minStride) *
                                   access.elementBytes / cacheLineBytes);
  access.lines = std::max(1.0, access.lines);
  access.uniqueLines =
      access.uniqueBytes /
      static_cast<double>(std::min(cacheLineBytes, access.continuousBytes));
  access.uniqueLines = std::max(1.0, access.uniqueLines);
}

std::vector<double> per_store::getIntensityCurve(ArrayRef<NestLoop> nest,
                                                 double perIteration,
                                                 ArrayRef<int64_t> touchedBytes,
                                                 int64_t samples) {
  std::vector<double> curve(samples, 0.0);
  SmallVector<double> computeOps, memoryBytes;
  for (int64_t i = static_cast<int64_t>(nest.size()) - 1; i >= 0; --i) {
    if (nest[i].extent)
      perIteration *= static_cast<double>(*nest[i].extent);
    computeOps.push_back(perIteration);
    memoryBytes.push_back(
        static_cast<double>(std::max<int64_t>(touchedBytes[i], 1)));
  }
  if (computeOps.empty() || computeOps.back() <= 0)
    return curve;
  double total = computeOps.back();
  size_t p = 0;
  for (int64_t s = 0; s < samples; ++s) {
    double target = static_cast<double>(s + 1) / samples * total;
    while (p + 1 < computeOps.size() && computeOps[p] < target - 1e-4)
      ++p;
    double intensity = computeOps[p] / memoryBytes[p];
    if (p > 0) {
      double base = computeOps[p - 1] / memoryBytes[p - 1];
      double slope = (intensity - base) / (computeOps[p] - computeOps[p - 1]);
      intensity = base + slope * (target - computeOps[p - 1]);
    }
    curve[s] = slog(intensity);
  }
  return curve;
}

/// TVM's SetReuse: the innermost loop whose variable the access does not
/// use (each of its iterations reads the same data again), or under which
/// earlier stores touched the buffer too (serial reuse).
void Collector::computeReuse(ArrayRef<NestLoop> nest,
                             MutableArrayRef<BufferAccess> accesses) {
  int64_t n = nest.size();
  double topLoopBytes = 0;
  if (n > 0)
    for (const BufferAccess &access : accesses)
      topLoopBytes += access.elementBytes;
  auto bytesUnder = [&](Operation *loop) {
    double bytes = 0;
    for (auto &[buffer, numels] : touchedUnderLoop[loop]) {
      int64_t sum = 0;
      for (int64_t numel : numels)
        sum += numel;
      bytes += static_cast<double>(sum) *
               getElementBytes(cast<MemRefType>(buffer.getType()));
    }
    return bytes;
  };
  for (BufferAccess &access : accesses) {
    llvm::SmallBitVector used(dimValues.size());
    for (ArrayRef<AffineExpr> index : access.indices)
      for (AffineExpr e : index)
        e.walk([&](AffineExpr x) {
          if (auto dim = dyn_cast<AffineDimExpr>(x))
            used.set(dim.getPosition());
        });
    for (int64_t i = n - 1; i >= 0; --i) {
      const NestLoop &loop = nest[i];
      if (!used.test(loop.dim)) {
        access.reuse = ReuseType::LoopMultipleRead;
        access.reuseCount = loop.extent.value_or(1);
        access.reuseIterations = 1;
        for (int64_t j = n - 1; j > i; --j)
          if (nest[j].extent)
            access.reuseIterations *= *nest[j].extent;
        access.reuseBytes =
            i == n - 1 ? topLoopBytes : bytesUnder(nest[i + 1].op);
        break;
      }
      ArrayRef<int64_t> touched = touchedUnderLoop[loop.op][access.buffer];
      if (touched.size() >= 2) {
        double extent = static_cast<double>(loop.extent.value_or(1));
        access.reuse = ReuseType::SerialMultipleReadWrite;
        access.reuseCount = touched.size() - 1;
        access.reuseIterations =
            static_cast<double>(*llvm::min_element(touched)) / extent;
        access.reuseBytes = bytesUnder(loop.op) / extent;
        break;
      }
    }
  }
}
