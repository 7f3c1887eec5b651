//===- InferAccessRegions.cpp - fill in tir.block reads/writes ------------===//
//
// TVM's GetBlockReadWriteRegion: the regions a block touches, written in the
// block's iteration variables (and values from outside the block, such as
// the loop variables an opaque block uses, which become the block's
// region_values).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRINFERACCESSREGIONSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// One dimension of a region under construction: [start, start + extent).
struct DimRange {
  AffineExpr start;
  AffineExpr extent;
};

/// Collects the regions of one block.
class RegionCollector {
public:
  explicit RegionCollector(BlockOp block)
      : block(block), ctx(block.getContext()),
        numIterVars(block.getNumIterVars()),
        outerValues(block.getRegionValues()) {}

  /// Walks the body. Fails (after a diagnostic) on unsupported accesses.
  LogicalResult collect();

  void setRegions();

private:
  /// The expression of `v` over the block's iteration variables, relaxed
  /// over loops (and iteration variables of nested blocks) inside the block:
  /// returns [lo, hi] expressions, or failure when `v` is not expressible.
  FailureOr<std::pair<AffineExpr, AffineExpr>> relaxValue(Value v);

  /// Relaxes `expr` (input space: dimension i is `operands[i]`).
  FailureOr<std::pair<AffineExpr, AffineExpr>> relaxExpr(AffineExpr expr,
                                                         ValueRange operands);

  /// Region inputs so far: the iteration variables, then outer values.
  unsigned numInputs() const { return numIterVars + outerValues.size(); }

  void addAccess(Value buffer, ArrayRef<DimRange> dims, bool isWrite);
  /// All of dimension `d` of `buffer`; a dynamic size gives the extent
  /// kUnknownExtent, which collect() reports.
  DimRange wholeDim(Value buffer, unsigned d);
  SmallVector<DimRange> fullRegion(Value buffer);
  LogicalResult addPointAccess(Operation *op, Value buffer, AffineMap map,
                               ValueRange operands, bool isWrite);
  LogicalResult addNestedBlock(BlockOp nested);

  BlockOp block;
  MLIRContext *ctx;
  unsigned numIterVars;
  /// Values from outside the block that regions use (region_values).
  SmallVector<Value> outerValues;
  struct Entry {
    Value buffer;
    SmallVector<DimRange> dims;
  };
  SmallVector<Entry> reads, writes;
};

} // namespace

/// The extent of a whole dynamic dimension, which a region cannot express.
static constexpr int64_t kUnknownExtent = -1;

/// Splits `e` into (non-constant part, constant).
static std::pair<AffineExpr, int64_t> splitOffset(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {getAffineConstantExpr(0, e.getContext()), c.getValue()};
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return {bin.getLHS(), c.getValue()};
  }
  return {e, 0};
}

FailureOr<std::pair<AffineExpr, AffineExpr>>
RegionCollector::relaxValue(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (arg && arg.getOwner() == block.getBody()) {
    AffineExpr d = getAffineDimExpr(arg.getArgNumber(), ctx);
    return std::make_pair(d, d);
  }
  // Constants.
  if (std::optional<Interval> r = getValueRange(v); r && r->lo == r->hi) {
    AffineExpr c = getAffineConstantExpr(r->lo, ctx);
    return std::make_pair(c, c);
  }
  // Loop variables inside the block relax over their (constant) range.
  if (arg && block.getRegion().isAncestor(arg.getParentRegion())) {
    if (std::optional<Interval> r = getValueRange(v))
      return std::make_pair(getAffineConstantExpr(r->lo, ctx),
                            getAffineConstantExpr(r->hi, ctx));
    return failure();
  }
  // Values from outside the block (loop variables of an opaque block,
  // scalar parameters, enclosing iteration variables) are region inputs.
  if (!block.getRegion().isAncestor(v.getParentRegion())) {
    auto it = llvm::find(outerValues, v);
    unsigned pos = it - outerValues.begin();
    if (it == outerValues.end())
      outerValues.push_back(v);
    AffineExpr d = getAffineDimExpr(numIterVars + pos, ctx);
    return std::make_pair(d, d);
  }
  return failure();
}

FailureOr<std::pair<AffineExpr, AffineExpr>>
RegionCollector::relaxExpr(AffineExpr expr, ValueRange operands) {
  // Substitute each operand by its [lo, hi] expressions. The result is exact
  // for the block's own iteration variables; for relaxed operands, the
  // bounds hold when the expression is monotone in them, which we check
  // through the linear coefficients (a relaxed operand under floordiv/mod
  // or with a negative coefficient swaps or widens the bounds below).
  SmallVector<AffineExpr> lo, hi;
  SmallVector<bool> relaxed;
  for (auto [i, v] : llvm::enumerate(operands)) {
    // Operands the expression does not use do not matter.
    if (!expr.isFunctionOfDim(i)) {
      lo.push_back(getAffineConstantExpr(0, ctx));
      hi.push_back(lo.back());
      relaxed.push_back(false);
      continue;
    }
    FailureOr<std::pair<AffineExpr, AffineExpr>> r = relaxValue(v);
    if (failed(r))
      return failure();
    lo.push_back(r->first);
    hi.push_back(r->second);
    relaxed.push_back(r->first != r->second);
  }
  AffineExpr exprLo = simplifyAffineExpr(expr.replaceDims(lo), numInputs(), 0);
  AffineExpr exprHi = simplifyAffineExpr(expr.replaceDims(hi), numInputs(), 0);
  if (llvm::none_of(relaxed, [](bool b) { return b; }))
    return std::make_pair(exprLo, exprHi);
  // With relaxed operands, the substitution is sound only when the
  // expression is non-decreasing in each of them: check it with the
  // flattened (pure affine) form; otherwise give up on tightness.
  if (!expr.isPureAffine())
    return failure();
  for (auto [i, isRelaxed] : llvm::enumerate(relaxed)) {
    // Only operands the expression uses are ever relaxed.
    if (!isRelaxed)
      continue;
    // Coefficient of `var`: e(var = 1) - e(var = 0) with others at 0.
    SmallVector<AffineExpr> zeros(operands.size(),
                                  getAffineConstantExpr(0, ctx));
    SmallVector<AffineExpr> ones(zeros);
    ones[i] = getAffineConstantExpr(1, ctx);
    auto c0 = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(expr.replaceDims(zeros), 0, 0));
    auto c1 = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(expr.replaceDims(ones), 0, 0));
    if (!c0 || !c1 || c1.getValue() - c0.getValue() < 0)
      return failure();
  }
  return std::make_pair(exprLo, exprHi);
}

DimRange RegionCollector::wholeDim(Value buffer, unsigned d) {
  int64_t size = cast<MemRefType>(buffer.getType()).getDimSize(d);
  return {getAffineConstantExpr(0, ctx),
          getAffineConstantExpr(
              ShapedType::isDynamic(size) ? kUnknownExtent : size, ctx)};
}

SmallVector<DimRange> RegionCollector::fullRegion(Value buffer) {
  SmallVector<DimRange> dims;
  for (unsigned d = 0, r = cast<MemRefType>(buffer.getType()).getRank();
       d < r; ++d)
    dims.push_back(wholeDim(buffer, d));
  return dims;
}

void RegionCollector::addAccess(Value buffer, ArrayRef<DimRange> dims,
                                bool isWrite) {
  SmallVector<Entry> &entries = isWrite ? writes : reads;
  auto it = llvm::find_if(entries, [&](Entry &e) { return e.buffer == buffer; });
  if (it == entries.end()) {
    entries.push_back({buffer, SmallVector<DimRange>(dims)});
    return;
  }
  // Join into the smallest box when the starts differ by a constant and
  // the extents are constants; otherwise widen to the whole dimension.
  for (auto [d, pair] : llvm::enumerate(llvm::zip(it->dims, dims))) {
    auto &[have, add] = pair;
    auto [baseA, offA] = splitOffset(have.start);
    auto [baseB, offB] = splitOffset(add.start);
    auto extA = dyn_cast<AffineConstantExpr>(have.extent);
    auto extB = dyn_cast<AffineConstantExpr>(add.extent);
    if (baseA == baseB && extA && extB && extA.getValue() >= 0 &&
        extB.getValue() >= 0) {
      int64_t lo = std::min(offA, offB);
      int64_t hi = std::max(offA + extA.getValue(), offB + extB.getValue());
      have.start = simplifyAffineExpr(baseA + lo, numInputs(), 0);
      have.extent = getAffineConstantExpr(hi - lo, ctx);
      continue;
    }
    have = wholeDim(buffer, d);
  }
}

LogicalResult RegionCollector::addPointAccess(Operation *op, Value buffer,
                                              AffineMap map,
                                              ValueRange operands,
                                              bool isWrite) {
  if (block.getRegion().isAncestor(buffer.getParentRegion()))
    return success(); // allocated or matched inside the block
  SmallVector<DimRange> dims;
  for (AffineExpr index : getExprsOverInputs(map)) {
    FailureOr<std::pair<AffineExpr, AffineExpr>> r = relaxExpr(index, operands);
    if (failed(r)) {
      // Data-dependent index (a gather): the whole dimension.
      dims.push_back(wholeDim(buffer, dims.size()));
      continue;
    }
    dims.push_back({r->first, simplifyAffineExpr(r->second - r->first + 1,
                                                 numInputs(), 0)});
  }
  addAccess(buffer, dims, isWrite);
  return success();
}

LogicalResult RegionCollector::addNestedBlock(BlockOp nested) {
  if (!nested.hasAccessRegions())
    if (failed(inferAccessRegions(nested)))
      return failure();
  // Substitute the nested block's bindings into its regions, then relax
  // over (binding values, nested region values).
  SmallVector<AffineExpr> bindings = nested.getBindingExprs();
  SmallVector<Value> inputs(nested.getBindingValues());
  SmallVector<AffineExpr> repl(bindings);
  for (Value v : nested.getRegionValues()) {
    repl.push_back(getAffineDimExpr(inputs.size(), ctx));
    inputs.push_back(v);
  }
  auto addAll = [&](OperandRange buffers, ArrayAttr maps,
                    bool isWrite) -> LogicalResult {
    for (auto [buffer, attr] : llvm::zip(buffers, maps)) {
      if (block.getRegion().isAncestor(buffer.getParentRegion()))
        continue;
      RegionExprs region = splitRegionMap(cast<AffineMapAttr>(attr).getValue());
      SmallVector<DimRange> dims;
      for (auto [start, extent] : llvm::zip(region.starts, region.extents)) {
        AffineExpr s = start.replaceDims(repl);
        AffineExpr last = (start + extent - 1).replaceDims(repl);
        auto lo = relaxExpr(s, inputs);
        auto hi = relaxExpr(last, inputs);
        if (failed(lo) || failed(hi)) {
          dims.clear();
          break;
        }
        dims.push_back({lo->first, simplifyAffineExpr(hi->second - lo->first + 1,
                                                      numInputs(), 0)});
      }
      addAccess(buffer, dims.empty() ? fullRegion(buffer) : dims, isWrite);
    }
    return success();
  };
  if (failed(addAll(nested.getReadBuffers(), *nested.getReadRegions(),
                    /*isWrite=*/false)) ||
      failed(addAll(nested.getWriteBuffers(), *nested.getWriteRegions(),
                    /*isWrite=*/true)))
    return failure();
  return success();
}

LogicalResult RegionCollector::collect() {
  WalkResult result =
      block.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
        LogicalResult r = success();
        if (auto nested = dyn_cast<BlockOp>(op)) {
          r = addNestedBlock(nested);
          if (failed(r))
            return WalkResult::interrupt();
          return WalkResult::skip();
        }
        if (auto load = dyn_cast<LoadOp>(op))
          r = addPointAccess(op, load.getBuffer(), load.getMap(),
                             load.getIndices(), /*isWrite=*/false);
        else if (auto store = dyn_cast<StoreOp>(op))
          r = addPointAccess(op, store.getBuffer(), store.getMap(),
                             store.getIndices(), /*isWrite=*/true);
        return failed(r) ? WalkResult::interrupt() : WalkResult::advance();
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
  // A reduction block does not list the read of its own output region, as
  // TVMScript prints it.
  bool isReduction = static_cast<bool>(block.getInitOp());
  unsigned n = numInputs();
  auto toAttr = [&](ArrayRef<DimRange> dims) -> Attribute {
    RegionExprs region;
    for (const DimRange &d : dims) {
      region.starts.push_back(d.start);
      region.extents.push_back(d.extent);
    }
    return AffineMapAttr::get(buildRegionMap(n, region, ctx));
  };
  // Regions that were given keep their meaning over the longer input list.
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
    if (isReduction && llvm::any_of(llvm::zip(writeBuffers, writeMaps),
                                    [&](auto pair) {
                                      return std::get<0>(pair) == r.buffer &&
                                             std::get<1>(pair) == map;
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
  block.getRegionValuesMutable().assign(outerValues);
}

LogicalResult mlir::tir::inferAccessRegions(BlockOp block) {
  RegionCollector collector(block);
  if (failed(collector.collect()))
    return failure();
  collector.setRegions();
  return success();
}

namespace {
struct TIRInferAccessRegionsPass
    : public tir::impl::TIRInferAccessRegionsPassBase<
          TIRInferAccessRegionsPass> {
  void runOnOperation() override {
    // Post-order: inner blocks first, so that outer blocks see their
    // regions.
    WalkResult result = getOperation()->walk([&](BlockOp block) {
      if (block.hasAccessRegions())
        return WalkResult::advance();
      return failed(inferAccessRegions(block)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
