//===- RewriteWeightLayouts.cpp - constant weights in the order read ------===//
//
// --tir-rewrite-weight-layouts: a constant a graph function passes to a
// reduction, read along one output axis (a convolution's weight
// W[f, c, ry, rx], a dense layer's W[k, n]), is laid out in tiles of that
// axis, each tile contiguous: W[f floordiv 32, c, ry, rx, f mod 32],
// W[n floordiv 32, k, n mod 32]. A vector along the outputs is then one
// load (the declared convolution layout needs a gather), and the tile's
// weights, which a kernel reads for every step of its reduction, are one
// run of memory (rows of a wide matrix are a page apart). The prim_func's
// parameter gets the new layout (transform_layout) and every call passes
// the constant in it, computed here: the graph's interface and the values
// it computes do not change. Where the axis's extent is not a multiple of
// the tile (or is the tile), the axis is moved last, untiled.
//
// A parameter is rewritten when all of these hold:
//  - the prim_func is private, called only by tir.call_tir ops of graph
//    functions, and no schedule touched it (every loop serial, without
//    annotations);
//  - every call passes an arith.constant of dense elements (of whole bytes)
//    for it;
//  - the function loads it once, in a block with a tir.init (a reduction),
//    each index one of the block's iteration variables, all different;
//  - exactly one of those variables is spatial, and the layout changes
//    (the axis is tiled, or not already last).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRREWRITEWEIGHTLAYOUTSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// A parameter's new layout: the block that reads it, the position of
/// the buffer among the block's reads, the dimension read along the
/// outputs and the tile it is split by (0: not split). The new layout is
/// [d floordiv tile, the other dimensions in order, d mod tile], or the
/// others then d when not split.
struct Relayout {
  BlockOp block;
  int64_t readIndex;
  int64_t dim;
  int64_t tile;

  /// The new indices of the old ones `index`.
  SmallVector<int64_t> map(ArrayRef<int64_t> index) const {
    SmallVector<int64_t> result;
    if (tile)
      result.push_back(index[dim] / tile);
    for (auto [k, i] : llvm::enumerate(index))
      if (static_cast<int64_t>(k) != dim)
        result.push_back(i);
    result.push_back(tile ? index[dim] % tile : index[dim]);
    return result;
  }

  /// The map as an AffineMap of `rank` indices.
  AffineMap indexMap(int64_t rank, MLIRContext *context) const {
    SmallVector<AffineExpr> results;
    AffineExpr d = getAffineDimExpr(dim, context);
    if (tile)
      results.push_back(d.floorDiv(tile));
    for (int64_t k = 0; k < rank; ++k)
      if (k != dim)
        results.push_back(getAffineDimExpr(k, context));
    results.push_back(tile ? d % tile : d);
    return AffineMap::get(rank, 0, results, context);
  }

  bool operator==(const Relayout &other) const {
    return dim == other.dim && tile == other.tile;
  }
};

/// Whether no schedule touched `func`: every loop serial, unbound and
/// without annotations.
bool isUnscheduled(func::FuncOp func) {
  WalkResult walk = func.walk([](ForOp loop) {
    if (loop.getKind() != ForKind::Serial || loop.getThread() ||
        loop.getAnnotations())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// The dense constant `value` is, or null.
DenseElementsAttr getDenseConstant(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return {};
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  // Whole bytes per element (bools are packed bits, index and complex
  // elements have no fixed byte width here).
  if (!dense || !dense.getElementType().isIntOrFloat() ||
      dense.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return {};
  return dense;
}

/// The relayout parameter `param` of `func` qualifies for, if any.
std::optional<Relayout> analyzeParam(func::FuncOp func, unsigned param,
                                     int64_t tile) {
  BlockArgument buffer = func.getArgument(param);
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 2)
    return std::nullopt;
  LoadOp load;
  for (Operation *user : buffer.getUsers()) {
    if (isa<BlockOp>(user))
      continue; // a block listing the buffer's region
    auto userLoad = dyn_cast<LoadOp>(user);
    if (!userLoad || load)
      return std::nullopt; // stored, passed on, or loaded twice
    load = userLoad;
  }
  if (!load)
    return std::nullopt;
  auto block = load->getParentOfType<BlockOp>();
  if (!block || !block.getInitOp())
    return std::nullopt;
  // Each index one iteration variable of the block, all different.
  AffineMap map = load.getMap();
  SmallVector<unsigned> vars;
  for (AffineExpr result : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return std::nullopt;
    auto arg = dyn_cast<BlockArgument>(load.getIndices()[dim.getPosition()]);
    if (!arg || arg.getOwner() != block.getBody() ||
        arg.getArgNumber() >= block.getNumIterVars() ||
        llvm::is_contained(vars, arg.getArgNumber()))
      return std::nullopt;
    vars.push_back(arg.getArgNumber());
  }
  std::optional<int64_t> spatial;
  for (auto [k, var] : llvm::enumerate(vars)) {
    if (block.getIterType(var) != IterType::Spatial)
      continue;
    if (spatial)
      return std::nullopt;
    spatial = k;
  }
  if (!spatial)
    return std::nullopt;
  int64_t extent = type.getShape()[*spatial];
  if (tile <= 0 || extent % tile != 0 || extent <= tile)
    tile = 0;
  if (!tile && *spatial == type.getRank() - 1)
    return std::nullopt;
  Relayout relayout{block, -1, *spatial, tile};
  SmallVector<Value> reads, writes;
  if (block.hasAccessRegions())
    llvm::append_range(reads, block.getReadBuffers());
  else
    getAccessedBuffers(block, reads, writes);
  auto position = llvm::find(reads, Value(buffer));
  if (position == reads.end())
    return std::nullopt;
  relayout.readIndex = position - reads.begin();
  return relayout;
}

/// `dense` in the layout `relayout` gives.
DenseElementsAttr relayoutConstant(DenseElementsAttr dense,
                                   const Relayout &relayout) {
  auto type = cast<RankedTensorType>(dense.getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> last(shape.size());
  for (auto [k, extent] : llvm::enumerate(shape))
    last[k] = extent - 1;
  SmallVector<int64_t> newShape = relayout.map(last);
  for (int64_t &extent : newShape)
    ++extent;
  auto newType = RankedTensorType::get(newShape, type.getElementType());
  if (dense.isSplat())
    return dense.reshape(newType);
  size_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  ArrayRef<char> raw = dense.getRawData();
  std::vector<char> data(raw.size());
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0, count = type.getNumElements(); linear < count;
       ++linear) {
    int64_t target = 0;
    for (auto [i, extent] : llvm::zip(relayout.map(index), newShape))
      target = target * extent + i;
    std::memcpy(&data[target * bytes], &raw[linear * bytes], bytes);
    // The next old index, row-major.
    for (int64_t k = shape.size() - 1; k >= 0; --k) {
      if (++index[k] < shape[k])
        break;
      index[k] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(newType, data);
}

struct RewriteWeightLayouts
    : public tir::impl::TIRRewriteWeightLayoutsPassBase<RewriteWeightLayouts> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The calls of each prim_func, or none where a symbol use is not a
    // graph function's call_tir.
    llvm::MapVector<Operation *, SmallVector<CallTirOp>> calls;
    DenseSet<Operation *> excluded;
    SymbolTable symbols(module);
    for (auto func : module.getOps<func::FuncOp>()) {
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func);
      if (!uses)
        continue;
      for (const SymbolTable::SymbolUse &use : *uses) {
        Operation *callee =
            symbols.lookup(use.getSymbolRef().getRootReference());
        if (!callee)
          continue;
        auto call = dyn_cast<CallTirOp>(use.getUser());
        if (call && isGraphFunction(func) && !call.getInplaceIndices())
          calls[callee].push_back(call);
        else
          excluded.insert(callee);
      }
    }
    IRRewriter rewriter(&getContext());
    // The transposed constants made, by constant and order: a weight two
    // calls share is transposed once.
    DenseMap<Operation *, SmallVector<std::pair<Relayout, Value>>> made;
    for (auto &[op, sites] : calls) {
      auto callee = dyn_cast<func::FuncOp>(op);
      if (!callee || excluded.contains(op) || !callee.isPrivate() ||
          callee.isExternal() || !isUnscheduled(callee))
        continue;
      unsigned inputs = sites.front().getInputs().size();
      int64_t tile = tileSize;
      for (unsigned param = 0; param < inputs; ++param) {
        if (!llvm::all_of(sites, [&](CallTirOp call) {
              return getDenseConstant(call.getInputs()[param]);
            }))
          continue;
        std::optional<Relayout> relayout = analyzeParam(callee, param, tile);
        if (!relayout)
          continue;
        int64_t rank =
            cast<MemRefType>(callee.getArgument(param).getType()).getRank();
        ScheduleError error;
        if (failed(transformLayout(
                rewriter, relayout->block, relayout->readIndex,
                /*isWrite=*/false, relayout->indexMap(rank, &getContext()), {},
                Attribute(), /*assumeInjective=*/false, error)))
          continue;
        // Every caller passes the new layout: nothing to restore.
        callee.removeArgAttr(param, TIRDialect::kDeclaredLayoutAttrName);
        for (CallTirOp call : sites) {
          Value old = call.getInputs()[param];
          auto constant = old.getDefiningOp<arith::ConstantOp>();
          auto &versions = made[constant];
          auto found = llvm::find_if(versions, [&](const auto &version) {
            return version.first == *relayout;
          });
          Value moved;
          if (found != versions.end()) {
            moved = found->second;
          } else {
            rewriter.setInsertionPoint(constant);
            moved = arith::ConstantOp::create(
                rewriter, constant.getLoc(),
                relayoutConstant(getDenseConstant(old), *relayout));
            versions.emplace_back(*relayout, moved);
          }
          call.getInputsMutable()[param].set(moved);
          if (constant->use_empty()) {
            made.erase(constant);
            rewriter.eraseOp(constant);
          }
        }
      }
    }
  }
};
} // namespace
