//===- TransformLayout.cpp - TVM's transform_layout -----------------------===//
//
// A buffer's layout changed by an index map: `lambda i, j: (i floordiv 16,
// j floordiv 16, i mod 16, j mod 16)` makes a 128 x 128 buffer one of 8 x 8
// x 16 x 16 whose element [i / 16, j / 16, i % 16, j % 16] is the old
// [i, j]. The buffer (an allocation or a parameter) gets the new shape, and
// every access to it in the function is rewritten through the map, then
// simplified with the iteration domains (`(vi_o * 16 + vi) floordiv 16` is
// `vi_o` for vi in [0, 16)). Blocks that list the buffer's region get the
// region of the new accesses.
//
//===----------------------------------------------------------------------===//

#include "IndexMap.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/RangeSimplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Schedule/Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kPrimitive = "transform_layout";

/// `indexMap` applied to the indices `map` (over `operands`) computes,
/// simplified with the operands' ranges; an index that simplifies to a
/// constant keeps its unsimplified form (a unit variable stays).
static AffineMap mapIndices(AffineMap indexMap, AffineMap map,
                            ValueRange operands) {
  SmallVector<Value> inputs(operands);
  SmallVector<AffineExpr> old = getExprsOverInputs(map);
  SmallVector<AffineExpr> exprs;
  for (AffineExpr e : indexMap.getResults()) {
    AffineExpr composed =
        simplifyIndexExpr(e.replaceDims(old), inputs.size(), 0);
    exprs.push_back(simplifyNonTrivial(composed, inputs));
  }
  return makeInputMap(inputs.size(), exprs, map.getContext());
}

/// The region of `buffer` in `body` (the regions `block`'s body accesses:
/// TVM re-infers only the transformed buffer's region): read, or written
/// when `write`; a reduction's reads of what it writes come from its
/// writes.
static std::optional<RegionExprs>
regionOf(BlockOp block, const FailureOr<BlockAccessRegions> &regions,
         Value buffer, bool write, SmallVectorImpl<Value> &inputs) {
  if (failed(regions))
    return std::nullopt;
  // The inferred region values join `inputs` (the iteration variables are
  // at the block's own positions).
  unsigned numVars = block.getNumIterVars();
  SmallVector<AffineExpr> at;
  for (unsigned i = 0; i < regions->inputs.size(); ++i) {
    if (i < numVars) {
      at.push_back(getAffineDimExpr(i, block.getContext()));
      continue;
    }
    Value v = regions->inputs[i];
    auto it = llvm::find(inputs, v);
    at.push_back(getAffineDimExpr(it - inputs.begin(), block.getContext()));
    if (it == inputs.end())
      inputs.push_back(v);
  }
  auto find = [&](ArrayRef<std::pair<Value, RegionExprs>> list)
      -> std::optional<RegionExprs> {
    for (const auto &[b, r] : list)
      if (b == buffer) {
        RegionExprs moved = r;
        for (AffineExpr &e : moved.starts)
          e = e.replaceDims(at);
        for (AffineExpr &e : moved.extents)
          e = e.replaceDims(at);
        return moved;
      }
    return std::nullopt;
  };
  if (!write)
    if (std::optional<RegionExprs> r = find(regions->reads))
      return r;
  return find(regions->writes);
}

/// Points the regions of `block` that name `buffer` at what its body now
/// accesses.
static void updateRegions(RewriterBase &rewriter, BlockOp block, Value buffer) {
  AnalysisFailure ignored;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, ignored);
  if (failed(regions))
    return;
  BlockAccessRegions updated = *regions;
  FailureOr<BlockAccessRegions> body =
      getAccessRegions(block, ignored, /*fromBody=*/true);
  for (auto [list, write] :
       {std::pair(&updated.reads, false), std::pair(&updated.writes, true)})
    for (auto &[b, r] : *list) {
      if (b != buffer)
        continue;
      std::optional<RegionExprs> inferred =
          regionOf(block, body, buffer, write, updated.inputs);
      if (inferred) {
        r = *inferred;
        continue;
      }
      // Not accessed in the body (a region listed by hand): the whole
      // buffer.
      auto shape = cast<MemRefType>(buffer.getType()).getShape();
      r.starts.assign(shape.size(),
                      getAffineConstantExpr(0, block.getContext()));
      r.extents.clear();
      for (int64_t size : shape)
        r.extents.push_back(getAffineConstantExpr(size, block.getContext()));
    }
  rewriter.modifyOpInPlace(block, [&] { setRegions(block, updated); });
}

/// TVM's epilogue padding plan: after the statement of the scope that
/// holds the buffer's last writer, a nest `axis0..` over the new shape
/// whose block `buffer_<name>_padding` stores `padValue` where the point is
/// no old element's image (some input's inverse reaches past its old
/// extent). A buffer nobody writes (an input) is left as it is: its
/// padding is never read.
static void fillPadding(RewriterBase &rewriter, Operation *scope, Value buffer,
                        const IndexMapAnalysis &analysis,
                        ArrayRef<int64_t> oldShape, TypedAttr padValue) {
  MLIRContext *ctx = buffer.getContext();
  Operation *lastWriter = nullptr;
  scope->walk([&](StoreOp store) {
    if (store.getBuffer() == buffer)
      lastWriter = store;
  });
  if (!lastWriter)
    return;
  Block *body = scope->getNumRegions() ? &scope->getRegion(0).front() : nullptr;
  Operation *top = body ? body->findAncestorOpInBlock(*lastWriter) : nullptr;
  if (!top)
    return;
  Location loc = buffer.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(top);
  SmallVector<Value> loopVars;
  for (auto [k, extent] : llvm::enumerate(analysis.shape)) {
    auto loop =
        ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                      rewriter.getIndexAttr(extent), ("axis" + Twine(k)).str());
    rewriter.setInsertionPointToStart(loop.getBody());
    loopVars.push_back(loop.getInductionVar());
  }
  SmallVector<std::string> names;
  for (unsigned k = 0; k < analysis.shape.size(); ++k)
    names.push_back("v_axis" + std::to_string(k));
  SmallVector<IterVarSpec> vars;
  for (auto [k, extent] : llvm::enumerate(analysis.shape))
    vars.push_back({IterType::Spatial, rewriter.getIndexAttr(0),
                    rewriter.getIndexAttr(extent), getAffineDimExpr(k, ctx),
                    names[k]});
  SmallVector<Conjunction> predicate;
  for (auto [d, padded] : llvm::enumerate(analysis.inputPadded))
    if (padded) {
      Conjunction c;
      c.constraints.push_back(analysis.inverse[d] - oldShape[d]);
      c.eqFlags.push_back(false);
      predicate.push_back(c);
    }
  std::string name = "buffer_" + getBufferName(buffer) + "_padding";
  auto fill = BlockOp::create(
      rewriter, loc, name, vars, loopVars,
      [&](OpBuilder &b, Location l, ValueRange v) {
        Value value = arith::ConstantOp::create(b, l, padValue);
        StoreOp::create(b, l, value, buffer, v);
      },
      predicate);
  setInferredRegions(fill);
}

LogicalResult mlir::tir::transformLayout(RewriterBase &rewriter, BlockOp block,
                                         int64_t bufferIndex, bool isWrite,
                                         AffineMap indexMap, TypedAttr padValue,
                                         bool assumeInjective,
                                         ScheduleError &error) {
  FailureOr<Value> found =
      getNthAccessBuffer(block, bufferIndex, isWrite, kPrimitive, error);
  if (failed(found))
    return failure();
  Value buffer = *found;
  std::string name = getBufferName(buffer);
  FailureOr<Operation *> scope =
      getBufferScope(buffer, block, kPrimitive, error);
  if (failed(scope))
    return failure();
  auto type = cast<MemRefType>(buffer.getType());
  if (indexMap.getNumDims() != type.getRank() || indexMap.getNumSymbols() != 0)
    return refuse(error, block,
                  Twine(kPrimitive) + ": the index map takes " +
                      Twine(indexMap.getNumDims()) + " indices, but buffer '" +
                      name + "' has " + Twine(type.getRank()) + " dimensions");
  if (padValue && padValue.getType() != type.getElementType()) {
    std::string have, want;
    llvm::raw_string_ostream(have) << padValue.getType();
    llvm::raw_string_ostream(want) << type.getElementType();
    return refuse(error, block,
                  Twine(kPrimitive) + ": the pad value is of type " + have +
                      ", but buffer '" + name + "' holds " + want);
  }
  if (!type.hasStaticShape())
    return refuse(error, block,
                  Twine(kPrimitive) + ": buffer '" + name +
                      "' has a runtime dimension (not supported yet)");
  std::string why;
  SmallVector<int64_t> shape;
  FailureOr<IndexMapAnalysis> padding = failure();
  if (assumeInjective) {
    FailureOr<SmallVector<int64_t>> s =
        getMappedShape(indexMap, type.getShape(), why);
    if (failed(s))
      return refuse(error, block, Twine(kPrimitive) + ": " + why);
    shape = *s;
  } else {
    FailureOr<IndexMapAnalysis> analysis =
        analyzeIndexMap(indexMap, type.getShape(), why);
    if (failed(analysis))
      return refuse(error, block,
                    Twine(kPrimitive) +
                        ": the index map is not an injective "
                        "affine map of buffer '" +
                        name + "' (" + why + ")");
    if (analysis->pads && !padValue)
      return refuse(error, block,
                    Twine(kPrimitive) + ": the index map would pad buffer '" +
                        name +
                        "' (some elements of the new shape are no element's "
                        "image); give a pad_value, or assume_injective_"
                        "transform to leave them undefined");
    if (analysis->pads && !analysis->resultsExact)
      return refuse(error, block,
                    Twine(kPrimitive) +
                        ": padding where the map's results leave gaps "
                        "between their terms (or add a constant) is not "
                        "supported yet");
    shape = analysis->shape;
    if (analysis->pads)
      padding = analysis;
  }

  // Every access goes through the map; matched regions and other uses of
  // the buffer are not rewritten, so they are refused first.
  SmallVector<Operation *> accesses;
  SmallVector<BlockOp> listing;
  for (Operation *user : buffer.getUsers()) {
    if (isa<LoadOp>(user) ||
        (isa<StoreOp>(user) && cast<StoreOp>(user).getBuffer() == buffer)) {
      accesses.push_back(user);
    } else if (auto b = dyn_cast<BlockOp>(user)) {
      if (!llvm::is_contained(listing, b))
        listing.push_back(b);
    } else {
      return refuse(error, block,
                    Twine(kPrimitive) + ": buffer '" + name + "' is used by '" +
                        user->getName().getStringRef() +
                        "', which the new layout cannot rewrite (not "
                        "supported)");
    }
  }
  auto newType =
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace());
  rewriter.modifyOpInPlace((*scope), [&] {
    buffer.setType(newType);
    auto func = dyn_cast<FunctionOpInterface>(*scope);
    if (func && isa<BlockArgument>(buffer)) {
      SmallVector<Type> inputs(func.getArgumentTypes());
      inputs[cast<BlockArgument>(buffer).getArgNumber()] = newType;
      func.setType(
          FunctionType::get(func->getContext(), inputs, func.getResultTypes()));
    }
  });
  for (Operation *op : accesses)
    rewriter.modifyOpInPlace(op, [&] {
      if (auto load = dyn_cast<LoadOp>(op))
        load.setMapAttr(AffineMapAttr::get(
            mapIndices(indexMap, load.getMap(), load.getIndices())));
      else if (auto store = dyn_cast<StoreOp>(op))
        store.setMapAttr(AffineMapAttr::get(
            mapIndices(indexMap, store.getMap(), store.getIndices())));
    });
  sortInnermostFirst(listing);
  for (BlockOp b : listing)
    updateRegions(rewriter, b, buffer);
  if (succeeded(padding))
    fillPadding(rewriter, *scope, buffer, *padding, type.getShape(), padValue);
  return success();
}
