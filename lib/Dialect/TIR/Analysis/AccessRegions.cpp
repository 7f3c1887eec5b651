//===- AccessRegions.cpp - the buffers and regions a block accesses -------===//
//
// Region inference is TVM's GetBlockReadWriteRegion: the regions a block
// touches, written over the block's iteration variables and the values from
// outside the block that they need (an opaque block's loop variables, which
// become the block's region_values). Loops inside the block, and nested
// blocks' regions, are relaxed with the shared RelaxedInputs.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/ThreadDiagnostics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// Inference
//===----------------------------------------------------------------------===//

namespace {

/// One dimension of a region under construction: [start, start + extent).
struct DimRange {
  AffineExpr start;
  AffineExpr extent;
};

/// The extent of a whole dynamic dimension, which a region cannot express.
constexpr int64_t kUnknownExtent = -1;

/// Collects the regions of one block over RelaxedInputs that start as the
/// block's region inputs (iteration variables, then the region values it
/// has); values from outside the block are added as region values, loop
/// variables inside the block are relaxed.
class RegionCollector {
public:
  explicit RegionCollector(BlockOp block)
      : block(block), ctx(block.getContext()),
        inputs(ctx, block.getRegionInputs()) {}

  /// Walks the body. Fails (after a diagnostic) on unsupported accesses.
  LogicalResult collect();

  void setRegions();

private:
  /// The expression standing for `v`: an iteration variable, a constant, a
  /// relaxed loop variable inside the block, or a value from outside it;
  /// failure for a value computed inside the block (a gather's index).
  FailureOr<AffineExpr> mapValue(Value v);

  bool isInside(Value v) {
    return block.getRegion().isAncestor(v.getParentRegion());
  }
  void addAccess(Value buffer, ArrayRef<DimRange> dims, bool isWrite);
  /// All of dimension `d` of `buffer`; a dynamic size gives the extent
  /// kUnknownExtent, which collect() reports.
  DimRange wholeDim(Value buffer, unsigned d);
  SmallVector<DimRange> fullRegion(Value buffer);
  /// An access of a buffer `match` views (tir.match_buffer in the block):
  /// as TVM counts it, the region of the source the view covers.
  void addMatchedAccess(MatchBufferOp match, bool isWrite);
  void addPointAccess(Value buffer, AffineMap map, ValueRange operands,
                      bool isWrite);
  LogicalResult addNestedBlock(BlockOp nested);

  BlockOp block;
  MLIRContext *ctx;
  RelaxedInputs inputs;
  struct Entry {
    Value buffer;
    SmallVector<DimRange> dims;
  };
  SmallVector<Entry> reads, writes;
};

} // namespace

FailureOr<AffineExpr> RegionCollector::mapValue(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (arg && arg.getOwner() == block.getBody())
    return inputs.dimOf(v);
  std::optional<Interval> range = getValueRange(v);
  // A variable from outside the block stays a variable even where its
  // domain is one point (TVM's regions read B[vi] for vi in [0, 1)).
  bool outerVar = arg && !isInside(v);
  if (range && range->isPoint() && !outerVar)
    return getAffineConstantExpr(range->lo, ctx);
  // Loop variables inside the block relax over their (constant) range.
  if (arg && isInside(v)) {
    if (range)
      return inputs.relax(v, *range);
    return failure();
  }
  // Values from outside the block (loop variables of an opaque block,
  // scalar parameters, enclosing iteration variables) are region inputs.
  if (!isInside(v))
    return inputs.dimOf(v);
  return failure();
}

DimRange RegionCollector::wholeDim(Value buffer, unsigned d) {
  int64_t size = cast<MemRefType>(buffer.getType()).getDimSize(d);
  return {getAffineConstantExpr(0, ctx),
          getAffineConstantExpr(
              ShapedType::isDynamic(size) ? kUnknownExtent : size, ctx)};
}

SmallVector<DimRange> RegionCollector::fullRegion(Value buffer) {
  SmallVector<DimRange> dims;
  for (unsigned d = 0, r = cast<MemRefType>(buffer.getType()).getRank(); d < r;
       ++d)
    dims.push_back(wholeDim(buffer, d));
  return dims;
}

void RegionCollector::addAccess(Value buffer, ArrayRef<DimRange> dims,
                                bool isWrite) {
  SmallVector<Entry> &entries = isWrite ? writes : reads;
  auto it =
      llvm::find_if(entries, [&](Entry &e) { return e.buffer == buffer; });
  if (it == entries.end()) {
    entries.push_back({buffer, SmallVector<DimRange>(dims)});
    return;
  }
  // The cover of both where their bounds differ by constants; otherwise
  // the whole dimension.
  auto isUnknown = [](AffineExpr extent) {
    auto c = dyn_cast<AffineConstantExpr>(extent);
    return c && c.getValue() == kUnknownExtent;
  };
  unsigned n = inputs.size();
  for (auto [d, pair] : llvm::enumerate(llvm::zip(it->dims, dims))) {
    auto &[have, add] = pair;
    if (!isUnknown(have.extent) && !isUnknown(add.extent)) {
      AffineExpr lo = have.start;
      AffineExpr hi = simplifyIndexExpr(have.start + have.extent - 1, n, 0);
      if (coverBound(lo, add.start, /*upper=*/false, n) &&
          coverBound(hi, simplifyIndexExpr(add.start + add.extent - 1, n, 0),
                     /*upper=*/true, n)) {
        have = {lo, simplifyIndexExpr(hi - lo + 1, n, 0)};
        continue;
      }
    }
    have = wholeDim(buffer, d);
  }
}

void RegionCollector::addMatchedAccess(MatchBufferOp match, bool isWrite) {
  Value source = match.getSource();
  if (auto inner = source.getDefiningOp<MatchBufferOp>();
      inner && isInside(source))
    return addMatchedAccess(inner, isWrite); // a view of a view
  if (isInside(source))
    return; // a view of a buffer allocated inside the block
  RegionExprs region = splitRegionMap(match.getSourceRegion());
  SmallVector<AffineExpr> repl;
  for (Value v : match.getIndices()) {
    FailureOr<AffineExpr> e = mapValue(v);
    if (failed(e))
      return addAccess(source, fullRegion(source), isWrite);
    repl.push_back(*e);
  }
  unsigned n = inputs.size();
  SmallVector<DimRange> dims;
  for (auto [start, extent] : llvm::zip(region.starts, region.extents)) {
    AffineExpr lo = simplifyIndexExpr(start.replaceDims(repl), n, 0);
    AffineExpr size = simplifyIndexExpr(extent.replaceDims(repl), n, 0);
    dims.push_back({lo, size});
  }
  addAccess(source, dims, isWrite);
}

void RegionCollector::addPointAccess(Value buffer, AffineMap map,
                                     ValueRange operands, bool isWrite) {
  if (auto match = buffer.getDefiningOp<MatchBufferOp>();
      match && isInside(buffer))
    return addMatchedAccess(match, isWrite);
  if (isInside(buffer))
    return; // allocated inside the block
  SmallVector<DimRange> dims;
  for (AffineExpr index : getExprsOverInputs(map)) {
    // The index over the collector's inputs; operands it does not use do
    // not matter.
    SmallVector<AffineExpr> repl;
    bool ok = true;
    for (auto [i, v] : llvm::enumerate(operands)) {
      FailureOr<AffineExpr> e = failure();
      if (index.isFunctionOfDim(i))
        e = mapValue(v);
      else
        e = getAffineConstantExpr(0, ctx);
      if (failed(e)) {
        ok = false;
        break;
      }
      repl.push_back(*e);
    }
    FailureOr<std::pair<AffineExpr, AffineExpr>> b = failure();
    if (ok)
      b = inputs.bounds(index.replaceDims(repl));
    if (failed(b)) {
      // Data-dependent index (a gather): the whole dimension.
      dims.push_back(wholeDim(buffer, dims.size()));
      continue;
    }
    dims.push_back({b->first, simplifyIndexExpr(b->second - b->first + 1,
                                                inputs.size(), 0)});
  }
  addAccess(buffer, dims, isWrite);
}

LogicalResult RegionCollector::addNestedBlock(BlockOp nested) {
  if (!nested.hasAccessRegions())
    if (failed(inferAccessRegions(nested)))
      return failure();
  auto mapper = [&](Value v) { return mapValue(v); };
  auto addAll = [&](OperandRange buffers, ArrayAttr maps, bool isWrite) {
    for (auto [buffer, attr] : llvm::zip(buffers, maps)) {
      if (isInside(buffer))
        continue;
      RegionExprs region = splitRegionMap(cast<AffineMapAttr>(attr).getValue());
      FailureOr<Box> box = relaxBlockRegion(
          nested, region, nested.getRegionValues(), inputs, mapper);
      if (failed(box)) {
        addAccess(buffer, fullRegion(buffer), isWrite);
        continue;
      }
      SmallVector<DimRange> dims;
      for (auto [lo, hi] : llvm::zip(box->lows, box->highs))
        dims.push_back({lo, simplifyIndexExpr(hi - lo + 1, inputs.size(), 0)});
      addAccess(buffer, dims, isWrite);
    }
  };
  addAll(nested.getReadBuffers(), *nested.getReadRegions(), /*isWrite=*/false);
  addAll(nested.getWriteBuffers(), *nested.getWriteRegions(),
         /*isWrite=*/true);
  return success();
}

LogicalResult RegionCollector::collect() {
  WalkResult result =
      block.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (auto nested = dyn_cast<BlockOp>(op)) {
          if (failed(addNestedBlock(nested)))
            return WalkResult::interrupt();
          return WalkResult::skip();
        }
        if (auto load = dyn_cast<LoadOp>(op))
          addPointAccess(load.getBuffer(), load.getMap(), load.getIndices(),
                         /*isWrite=*/false);
        else if (auto store = dyn_cast<StoreOp>(op))
          addPointAccess(store.getBuffer(), store.getMap(), store.getIndices(),
                         /*isWrite=*/true);
        return WalkResult::advance();
      });
  if (result.wasInterrupted())
    return failure();
  for (Entry &e : llvm::concat<Entry>(reads, writes))
    for (DimRange &d : e.dims)
      if (auto c = dyn_cast<AffineConstantExpr>(d.extent);
          c && c.getValue() == kUnknownExtent)
        return block.emitOpError("cannot infer the region of a buffer with a "
                                 "dynamic dimension accessed through a "
                                 "non-affine index; give reads/writes "
                                 "explicitly");
  return success();
}

void RegionCollector::setRegions() {
  // The region inputs: the collected ones without the relaxed loop
  // variables (no region uses them).
  SmallVector<Value> kept;
  SmallVector<AffineExpr> compress;
  for (auto [i, v] : llvm::enumerate(inputs.getValues())) {
    compress.push_back(getAffineDimExpr(kept.size(), ctx));
    if (!inputs.isRelaxed(i))
      kept.push_back(v);
  }
  unsigned n = kept.size();
  // A reduction block does not list the read of its own output region, as
  // TVMScript prints it.
  bool isReduction = static_cast<bool>(block.getInitOp());
  auto toAttr = [&](ArrayRef<DimRange> dims) -> Attribute {
    RegionExprs region;
    for (const DimRange &d : dims) {
      region.starts.push_back(d.start.replaceDims(compress));
      region.extents.push_back(d.extent.replaceDims(compress));
    }
    return AffineMapAttr::get(buildRegionMap(n, region, ctx));
  };
  // Regions that were given keep their meaning over the longer input list
  // (their inputs come first and are never relaxed).
  auto extend = [&](std::optional<ArrayAttr> maps) {
    SmallVector<Attribute> out;
    for (Attribute a : *maps)
      out.push_back(AffineMapAttr::get(makeInputMap(
          n, getExprsOverInputs(cast<AffineMapAttr>(a).getValue()), ctx)));
    return out;
  };
  SmallVector<Value> readBuffers, writeBuffers;
  SmallVector<Attribute> readMaps, writeMaps;
  for (Entry &w : writes) {
    writeBuffers.push_back(w.buffer);
    writeMaps.push_back(toAttr(w.dims));
  }
  for (Entry &r : reads) {
    Attribute map = toAttr(r.dims);
    if (isReduction &&
        llvm::any_of(llvm::zip(writeBuffers, writeMaps), [&](auto pair) {
          return std::get<0>(pair) == r.buffer && std::get<1>(pair) == map;
        }))
      continue;
    readBuffers.push_back(r.buffer);
    readMaps.push_back(map);
  }
  Builder b(ctx);
  if (!block.getReadRegions()) {
    block.getReadBuffersMutable().assign(readBuffers);
    block.setReadRegionsAttr(b.getArrayAttr(readMaps));
  } else {
    block.setReadRegionsAttr(b.getArrayAttr(extend(block.getReadRegions())));
  }
  if (!block.getWriteRegions()) {
    block.getWriteBuffersMutable().assign(writeBuffers);
    block.setWriteRegionsAttr(b.getArrayAttr(writeMaps));
  } else {
    block.setWriteRegionsAttr(b.getArrayAttr(extend(block.getWriteRegions())));
  }
  block.getRegionValuesMutable().assign(
      ArrayRef<Value>(kept).drop_front(block.getNumIterVars()));
}

LogicalResult mlir::tir::inferAccessRegions(BlockOp block) {
  RegionCollector collector(block);
  if (failed(collector.collect()))
    return failure();
  collector.setRegions();
  return success();
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

void mlir::tir::getAccessedBuffers(BlockOp block, SmallVectorImpl<Value> &reads,
                                   SmallVectorImpl<Value> &writes) {
  if (block.hasAccessRegions()) {
    reads.append(block.getReadBuffers().begin(), block.getReadBuffers().end());
    writes.append(block.getWriteBuffers().begin(),
                  block.getWriteBuffers().end());
    // An opaque block's lists are not trusted to cover the blocks inside
    // it: TVM leaves them empty on the blocks it wraps around others
    // (loop_partition's), and a dependence missed is a wrong schedule.
    if (block.getNumIterVars() != 0)
      return;
    block.getBody()->walk<WalkOrder::PreOrder>([&](BlockOp nested) {
      getAccessedBuffers(nested, reads, writes);
      return WalkResult::skip();
    });
    return;
  }
  SmallVector<Value> read, written;
  block.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto nested = dyn_cast<BlockOp>(op)) {
      getAccessedBuffers(nested, read, written);
      return WalkResult::skip();
    }
    if (auto load = dyn_cast<LoadOp>(op))
      read.push_back(load.getBuffer());
    else if (auto store = dyn_cast<StoreOp>(op))
      written.push_back(store.getBuffer());
    return WalkResult::advance();
  });
  // As TVMScript infers them: a block with a tir.init (a reduction) does not
  // count the reads of the buffers it writes. Buffers allocated inside the
  // block are its own business.
  // A buffer matched on a region of another (tir.match_buffer) is an
  // access of that one; each buffer is listed once, at its first access.
  bool reduction = static_cast<bool>(block.getInitOp());
  auto sourceOf = [](Value b) {
    while (auto match = b.getDefiningOp<MatchBufferOp>())
      b = match.getSource();
    return b;
  };
  for (Value &b : read)
    b = sourceOf(b);
  for (Value &b : written)
    b = sourceOf(b);
  auto local = [&](Value b) {
    Operation *def = b.getDefiningOp();
    return def && block->isProperAncestor(def);
  };
  for (Value b : read)
    if (!local(b) && !(reduction && llvm::is_contained(written, b)) &&
        !llvm::is_contained(reads, b))
      reads.push_back(b);
  for (Value b : written)
    if (!local(b) && !llvm::is_contained(writes, b))
      writes.push_back(b);
}

FailureOr<BlockAccessRegions>
mlir::tir::getAccessRegions(BlockOp block, Refusal &failure, bool fromBody) {
  BlockOp source = block;
  OwningOpRef<BlockOp> copy;
  if (fromBody || !block.hasAccessRegions()) {
    copy = cast<BlockOp>(block->clone());
    copy->dropAccessRegions();
    ThreadDiagnosticHandler silence(block.getContext(),
                                    [](Diagnostic &) { return success(); });
    if (failed(inferAccessRegions(*copy)))
      return failure.set(block, "cannot infer the regions that block '" +
                                    block.getBlockName() +
                                    "' reads and writes");
    source = *copy;
  }
  BlockAccessRegions result;
  // Region maps range over the iteration variables (those of `block`, also
  // for the copy), then region values.
  llvm::append_range(result.inputs, block.getBody()->getArguments());
  llvm::append_range(result.inputs, source.getRegionValues());
  for (auto [buffer, map] :
       llvm::zip(source.getReadBuffers(), *source.getReadRegions()))
    result.reads.push_back(
        {buffer, splitRegionMap(cast<AffineMapAttr>(map).getValue())});
  for (auto [buffer, map] :
       llvm::zip(source.getWriteBuffers(), *source.getWriteRegions()))
    result.writes.push_back(
        {buffer, splitRegionMap(cast<AffineMapAttr>(map).getValue())});
  return result;
}

bool mlir::tir::listsMoreThanItWrites(BlockOp block, Value buffer) {
  Refusal listedWhy, bodyWhy;
  FailureOr<BlockAccessRegions> listed = getAccessRegions(block, listedWhy);
  FailureOr<BlockAccessRegions> body =
      getAccessRegions(block, bodyWhy, /*fromBody=*/true);
  if (failed(listed) || failed(body) || listed->inputs != body->inputs)
    return false;
  auto regionOf = [&](const BlockAccessRegions &r) -> const RegionExprs * {
    for (auto &[b, exprs] : r.writes)
      if (b == buffer)
        return &exprs;
    return nullptr;
  };
  const RegionExprs *mine = regionOf(*listed), *stored = regionOf(*body);
  if (!mine || !stored || mine->starts.size() != stored->starts.size())
    return false;
  // Per instance: the differences over the values' ranges (a block's
  // variables over their domains).
  SmallVector<std::optional<Interval>> ranges = getValueRanges(listed->inputs);
  bool wider = false;
  for (unsigned d = 0, e = mine->starts.size(); d < e; ++d) {
    // How far the listed box reaches below and above the stored one.
    auto range = [&](AffineExpr e) {
      return evaluateRange(simplifyIndexExpr(e, ranges.size(), 0), ranges);
    };
    std::optional<Interval> below = range(stored->starts[d] - mine->starts[d]);
    std::optional<Interval> above =
        range(mine->starts[d] + mine->extents[d] - stored->starts[d] -
              stored->extents[d]);
    if (!below || !above || below->lo < 0 || above->lo < 0)
      return false;
    wider |= below->hi > 0 || above->hi > 0;
  }
  return wider;
}
