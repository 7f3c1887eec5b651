//===- Relayout.cpp - a buffer's accesses through an index map ------------===//
//
// The rewrite transform_layout and rolling_buffer share (see Relayout.h).
//
//===----------------------------------------------------------------------===//

#include "Relayout.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// `indexMap` applied to the indices `map` (over `operands`; the map's
/// symbols are `symbols`) computes, simplified with the operands' ranges
/// when `simplify` is set (an index that simplifies to a constant keeps
/// its unsimplified form: a unit variable stays); `used` are the operands
/// it uses.
static AffineMap mapIndices(AffineMap indexMap, AffineMap map,
                            ValueRange operands, ValueRange symbols,
                            bool simplify, SmallVectorImpl<Value> &used) {
  MLIRContext *ctx = map.getContext();
  SmallVector<Value> inputs(operands);
  SmallVector<AffineExpr> old = getExprsOverInputs(map);
  SmallVector<AffineExpr> symbolInputs;
  for (Value s : symbols) {
    auto it = llvm::find(inputs, s);
    symbolInputs.push_back(getAffineDimExpr(it - inputs.begin(), ctx));
    if (it == inputs.end())
      inputs.push_back(s);
  }
  SmallVector<AffineExpr> exprs;
  for (AffineExpr e : indexMap.getResults()) {
    AffineExpr composed = e.replaceDimsAndSymbols(old, symbolInputs);
    if (simplify)
      composed = simplifyNonTrivial(
          simplifyIndexExpr(composed, inputs.size(), 0), inputs);
    exprs.push_back(composed);
  }
  if (symbols.empty()) {
    used.assign(inputs.begin(), inputs.end());
    return makeInputMap(inputs.size(), exprs, ctx);
  }
  // Only the inputs the new indices use stay operands.
  SmallVector<AffineExpr> compress(inputs.size(),
                                   getAffineConstantExpr(0, ctx));
  compressInputs(exprs, inputs, compress, used);
  for (AffineExpr &e : exprs)
    e = e.replaceDims(compress);
  return makeInputMap(used.size(), exprs, ctx);
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

void sched::updateListedRegionsOf(RewriterBase &rewriter, BlockOp block,
                                  Value buffer) {
  Refusal ignored;
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

/// A load, a store into the buffer (not of it as a value), or a block
/// listing its region: what the new layout rewrites.
static bool isRelayoutUse(Operation *user, Value buffer) {
  if (auto store = dyn_cast<StoreOp>(user))
    return store.getBuffer() == buffer;
  return isa<LoadOp, BlockOp>(user);
}

LogicalResult sched::checkRelayoutUses(Value buffer, StringRef primitive,
                                       Operation *culprit,
                                       ScheduleError &error) {
  for (Operation *user : buffer.getUsers())
    if (!isRelayoutUse(user, buffer))
      return refuse(error, culprit,
                    Twine(primitive) + ": buffer '" + getBufferName(buffer) +
                        "' is used by '" + user->getName().getStringRef() +
                        "', which the new layout cannot rewrite (not "
                        "supported)");
  return success();
}

LogicalResult sched::relayoutBuffer(RewriterBase &rewriter, Operation *scope,
                                    Value buffer, AffineMap indexMap,
                                    ArrayRef<int64_t> shape, bool simplify,
                                    StringRef primitive, Operation *culprit,
                                    ScheduleError &error, ValueRange symbols) {
  if (failed(checkRelayoutUses(buffer, primitive, culprit, error)))
    return failure();
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<Operation *> accesses;
  SmallVector<BlockOp> listing;
  for (Operation *user : buffer.getUsers()) {
    if (auto b = dyn_cast<BlockOp>(user)) {
      if (!llvm::is_contained(listing, b))
        listing.push_back(b);
    } else {
      accesses.push_back(user);
    }
  }
  auto newType =
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace());
  rewriter.modifyOpInPlace(scope, [&] {
    buffer.setType(newType);
    auto func = dyn_cast<FunctionOpInterface>(scope);
    if (func && isa<BlockArgument>(buffer)) {
      SmallVector<Type> inputs(func.getArgumentTypes());
      inputs[cast<BlockArgument>(buffer).getArgNumber()] = newType;
      func.setType(
          FunctionType::get(func->getContext(), inputs, func.getResultTypes()));
    }
  });
  for (Operation *op : accesses)
    rewriter.modifyOpInPlace(op, [&] {
      SmallVector<Value> used;
      if (auto load = dyn_cast<LoadOp>(op)) {
        load.setMapAttr(AffineMapAttr::get(
            mapIndices(indexMap, load.getMap(), load.getIndices(), symbols,
                       simplify, used)));
        load.getIndicesMutable().assign(used);
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        store.setMapAttr(AffineMapAttr::get(
            mapIndices(indexMap, store.getMap(), store.getIndices(), symbols,
                       simplify, used)));
        store.getIndicesMutable().assign(used);
      }
    });
  sortInnermostFirst(listing);
  for (BlockOp b : listing)
    updateListedRegionsOf(rewriter, b, buffer);
  return success();
}
