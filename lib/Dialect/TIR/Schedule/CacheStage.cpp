//===- CacheStage.cpp - what cache_read and cache_write share -------------===//

#include "CacheStage.h"

#include "InlineUtils.h"
#include "Utils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

Block *mlir::tir::sched::getScopeBody(Operation *scope) {
  if (auto block = dyn_cast<BlockOp>(scope))
    return block.getBody();
  return &cast<FunctionOpInterface>(scope).getFunctionBody().front();
}

/// The first statement after the allocations, constants and matched
/// buffers that open `body` (TVM keeps allocations and matches outside the
/// statement list, and an allocate_const holds the statements after it),
/// and the pure index computations among them.
static Block::iterator afterDeclarations(Block *body) {
  Block::iterator it = body->begin();
  while (it != body->end() &&
         (isa<AllocBufferOp, AllocateConstOp, MatchBufferOp, InitOp>(&*it) ||
          (it->getNumRegions() == 0 && isMemoryEffectFree(&*it) &&
           !it->hasTrait<OpTrait::IsTerminator>())))
    ++it;
  return it;
}

CachePlace mlir::tir::sched::startOfScope(Operation *scope) {
  Block *body = getScopeBody(scope);
  return {body, afterDeclarations(body), scope};
}

CachePlace mlir::tir::sched::endOfScope(Operation *scope) {
  Block *body = getScopeBody(scope);
  Block::iterator end = body->end();
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    end = std::prev(end);
  return {body, end, scope};
}

CachePlace
mlir::tir::sched::findCachePlace(Operation *scope,
                                 ArrayRef<BlockOp> scopeBlocks, BlockOp writer,
                                 const llvm::SetVector<Operation *> &related) {
  BlockOp first;
  bool writerSeen = false, relatedFirst = false;
  for (BlockOp b : scopeBlocks) {
    if (b == writer) {
      writerSeen = true;
      continue;
    }
    if (related.contains(b.getOperation())) {
      first = b;
      relatedFirst = !writerSeen;
      break;
    }
  }
  if (!first)
    return endOfScope(scope);
  if (relatedFirst)
    return startOfScope(scope);
  // The innermost statement list holding both: walk up from the related
  // block until the list also holds the writer.
  Operation *stmt = first;
  while (!stmt->getBlock()->findAncestorOpInBlock(*writer))
    stmt = stmt->getParentOp();
  return {stmt->getBlock(), Block::iterator(stmt), stmt->getParentOp()};
}

std::string mlir::tir::sched::getCachedBufferName(Value buffer) {
  std::string name = getBufferName(buffer);
  return name.empty() ? "buffer" : name;
}

llvm::SetVector<Operation *>
mlir::tir::sched::withChildBlocks(ArrayRef<BlockOp> given) {
  llvm::SetVector<Operation *> all;
  for (BlockOp b : given) {
    all.insert(b);
    for (BlockOp child : collectChildBlocks(b))
      all.insert(child);
  }
  return all;
}

Value mlir::tir::sched::createCacheBuffer(RewriterBase &rewriter,
                                          Operation *scope, Value buffer,
                                          ArrayRef<int64_t> shape,
                                          StringRef storageScope,
                                          StringRef name,
                                          const LoopRegion *region) {
  Attribute space = storageScope == "global"
                        ? Attribute()
                        : rewriter.getStringAttr(storageScope);
  SmallVector<Value> sizes;
  if (llvm::any_of(shape, ShapedType::isDynamic)) {
    assert(region && "a cache of runtime shape takes its region's extents");
    OpBuilder::InsertionGuard guard(rewriter);
    Block *body = getScopeBody(scope);
    rewriter.setInsertionPoint(body, getAllocationPoint(body, region->inputs));
    for (auto [d, size] : llvm::enumerate(shape))
      if (ShapedType::isDynamic(size))
        sizes.push_back(materializeIndexValue(
            rewriter, buffer.getLoc(), region->extents[d], region->inputs));
  }
  return createBufferLike(rewriter, scope, buffer, shape, space, name, sizes);
}

Value mlir::tir::sched::createBuffer(RewriterBase &rewriter, Operation *scope,
                                     MemRefType type, Location loc,
                                     StringRef name, ValueRange dynamicSizes) {
  OpBuilder::InsertionGuard guard(rewriter);
  Block *body = getScopeBody(scope);
  rewriter.setInsertionPoint(body, getAllocationPoint(body, dynamicSizes));
  return AllocBufferOp::create(rewriter, loc, type, dynamicSizes,
                               rewriter.getStringAttr(name),
                               DenseI64ArrayAttr())
      .getBuffer();
}

Value mlir::tir::sched::createBufferLike(RewriterBase &rewriter,
                                         Operation *scope, Value buffer,
                                         ArrayRef<int64_t> shape,
                                         Attribute memorySpace, StringRef name,
                                         ValueRange dynamicSizes) {
  auto type = cast<MemRefType>(buffer.getType());
  auto cacheType = MemRefType::get(shape, type.getElementType(),
                                   MemRefLayoutAttrInterface(), memorySpace);
  Value cache = createBuffer(rewriter, scope, cacheType, buffer.getLoc(), name,
                             dynamicSizes);
  // A uint buffer's copy holds uint elements too (TVMScript's dtype).
  if (StringAttr dtype = getUnsignedDtype(buffer))
    cache.getDefiningOp()->setAttr(TIRDialect::kDtypeAttrName, dtype);
  return cache;
}

SmallVector<Conjunction>
mlir::tir::sched::getInBufferGuard(ArrayRef<AffineExpr> at, ValueRange values,
                                   ArrayRef<int64_t> shape) {
  SmallVector<std::optional<Interval>> ranges = getValueRanges(values);
  Conjunction inBuffer;
  for (auto [d, e] : llvm::enumerate(at)) {
    if (ShapedType::isDynamic(shape[d]))
      continue;
    std::optional<Interval> range = evaluateRange(e, ranges);
    if (!range || range->lo < 0) {
      inBuffer.constraints.push_back(e);
      inBuffer.eqFlags.push_back(false);
    }
    if (!range || range->hi > shape[d] - 1) {
      inBuffer.constraints.push_back(shape[d] - 1 - e);
      inBuffer.eqFlags.push_back(false);
    }
  }
  SmallVector<Conjunction> predicate;
  if (!inBuffer.constraints.empty())
    predicate.push_back(inBuffer);
  return predicate;
}

BlockOp mlir::tir::sched::createCacheStage(RewriterBase &rewriter,
                                           const CachePlace &place,
                                           StringRef name, Value from, Value to,
                                           Value original,
                                           const LoopRegion &region) {
  MLIRContext *ctx = rewriter.getContext();
  Location loc = original.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(place.body, place.before);
  bool full = place.insideLoop();
  unsigned rank = region.lowers.size();
  unsigned numIn = region.inputs.size();
  auto shape = cast<MemRefType>(original.getType()).getShape();

  SmallVector<Value> values(region.inputs);
  SmallVector<IterVarSpec> vars;
  SmallVector<OpFoldResult> extents;
  for (unsigned d = 0; d < rank; ++d)
    extents.push_back(
        materializeIndex(rewriter, loc, region.extents[d], region.inputs));
  SmallVector<OpFoldResult> zeros(rank, rewriter.getIndexAttr(0));
  llvm::append_range(values,
                     buildLoopNest(rewriter, loc, zeros, extents, "ax"));
  // Full mode: v = lower + ax over the buffer's domain; compact: v = ax
  // over the region's extent.
  SmallVector<std::string> names;
  for (unsigned d = 0; d < rank; ++d)
    names.push_back("v" + std::to_string(d));
  for (unsigned d = 0; d < rank; ++d) {
    AffineExpr ax = getAffineDimExpr(numIn + d, ctx);
    AffineExpr binding =
        full ? simplifyIndexExpr(region.lowers[d] + ax, values.size(), 0) : ax;
    OpFoldResult upper =
        full ? OpFoldResult(rewriter.getIndexAttr(shape[d])) : extents[d];
    vars.push_back({IterType::Spatial, rewriter.getIndexAttr(0), upper, binding,
                    names[d]});
  }
  // Where the region may leave the buffer (a producer under a predicate
  // writes less than its loops span), the copy is guarded to the buffer.
  SmallVector<AffineExpr> at;
  for (unsigned d = 0; d < rank; ++d)
    at.push_back(simplifyIndexExpr(
        region.lowers[d] + getAffineDimExpr(numIn + d, ctx), values.size(), 0));
  SmallVector<Conjunction> predicate = getInBufferGuard(at, values, shape);
  auto stage = BlockOp::create(
      rewriter, loc, name, vars, values,
      [&](OpBuilder &b, Location l, ValueRange v) {
        // Indices over (v0.., region inputs).
        SmallVector<Value> operands(v.begin(), v.end());
        if (!full)
          llvm::append_range(operands, region.inputs);
        SmallVector<AffineExpr> atV, atOriginal;
        for (unsigned d = 0; d < rank; ++d) {
          AffineExpr vd = getAffineDimExpr(d, ctx);
          atV.push_back(vd);
          atOriginal.push_back(
              full ? vd
                   : simplifyIndexExpr(
                         vd + region.lowers[d].shiftDims(numIn, rank),
                         operands.size(), 0));
        }
        unsigned n = operands.size();
        AffineMap fromMap =
            makeInputMap(n, from == original ? atOriginal : atV, ctx);
        AffineMap toMap =
            makeInputMap(n, to == original ? atOriginal : atV, ctx);
        Value value = LoadOp::create(b, l, from, fromMap, operands);
        StoreOp::create(b, l, value, to, toMap, operands);
      },
      predicate);
  setInferredRegions(stage);
  return stage;
}

/// `exprs` over `operands` with the region's lower bounds subtracted:
/// the region's inputs join the operands.
static void shiftByLowers(SmallVectorImpl<AffineExpr> &exprs,
                          SmallVectorImpl<Value> &operands,
                          const LoopRegion &region) {
  SmallVector<AffineExpr> at;
  for (Value in : region.inputs) {
    auto it = llvm::find(operands, in);
    if (it == operands.end()) {
      at.push_back(getAffineDimExpr(operands.size(), in.getContext()));
      operands.push_back(in);
    } else {
      at.push_back(getAffineDimExpr(it - operands.begin(), in.getContext()));
    }
  }
  for (unsigned d = 0; d < region.lowers.size(); ++d) {
    // Nothing to shift from 0: the index stays as written (a variable of a
    // one-point domain too, as in TVM).
    auto lower = dyn_cast<AffineConstantExpr>(region.lowers[d]);
    if (lower && lower.getValue() == 0)
      continue;
    AffineExpr &e = exprs[d];
    e = simplifyOverValues(e - region.lowers[d].replaceDims(at), operands);
  }
}

/// Where `block` lists regions of `buffer`, they name `cache` instead, each
/// changed by `update` (the region, and the inputs its expressions range
/// over, which it may extend).
static void renameListedRegions(
    RewriterBase &rewriter, BlockOp block, Value buffer, Value cache,
    function_ref<void(RegionExprs &, SmallVectorImpl<Value> &)> update) {
  if (!block.hasAccessRegions() ||
      (!llvm::is_contained(block.getReadBuffers(), buffer) &&
       !llvm::is_contained(block.getWriteBuffers(), buffer)))
    return;
  Refusal ignored;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, ignored);
  if (failed(regions))
    return;
  BlockAccessRegions updated = *regions;
  for (auto *list : {&updated.reads, &updated.writes})
    for (auto &[b, r] : *list) {
      if (b != buffer)
        continue;
      b = cache;
      update(r, updated.inputs);
    }
  rewriter.modifyOpInPlace(block, [&] { setRegions(block, updated); });
}

LogicalResult mlir::tir::sched::checkViewScopes(ArrayRef<BlockOp> blocks,
                                                Value buffer,
                                                StringRef storageScope,
                                                StringRef primitive,
                                                ScheduleError &error) {
  for (Operation *user : buffer.getUsers()) {
    auto match = dyn_cast<MatchBufferOp>(user);
    BlockOp block = match ? match->getParentOfType<BlockOp>() : BlockOp();
    if (!block || !llvm::is_contained(blocks, block))
      continue;
    StringRef viewScope =
        getStorageScope(cast<MemRefType>(match.getResult().getType()));
    if (viewScope != storageScope)
      return refuse(error, block,
                    primitive + " would point block '" + block.getBlockName() +
                        "' at a cache of buffer '" +
                        getCachedBufferName(buffer) + "' in scope '" +
                        storageScope +
                        "', but the block views the buffer "
                        "through a match_buffer in scope '" +
                        viewScope +
                        "' (a tensor intrinsic's operand keeps the scope "
                        "it declares)");
  }
  return success();
}

void mlir::tir::sched::retargetAccesses(RewriterBase &rewriter, BlockOp block,
                                        Value buffer, Value cache,
                                        const LoopRegion &region, bool shift) {
  MLIRContext *ctx = block.getContext();
  auto shifted = [&](AffineMap map, ValueRange operands,
                     SmallVectorImpl<Value> &newOperands) {
    SmallVector<AffineExpr> exprs = getExprsOverInputs(map);
    newOperands.assign(operands.begin(), operands.end());
    shiftByLowers(exprs, newOperands, region);
    return makeInputMap(newOperands.size(), exprs, ctx);
  };
  // The block's own statements, not those of blocks inside it.
  SmallVector<Operation *> users;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (user == block.getOperation() ||
        user->getParentOfType<BlockOp>() == block)
      users.push_back(user);
  }
  for (Operation *user : users) {
    if (user == block.getOperation())
      continue;
    rewriter.modifyOpInPlace(user, [&] {
      if (shift) {
        SmallVector<Value> operands;
        if (auto load = dyn_cast<LoadOp>(user)) {
          AffineMap map = shifted(load.getMap(), load.getIndices(), operands);
          load.setMapAttr(AffineMapAttr::get(map));
          load.getIndicesMutable().assign(operands);
        } else if (auto store = dyn_cast<StoreOp>(user)) {
          AffineMap map = shifted(store.getMap(), store.getIndices(), operands);
          store.setMapAttr(AffineMapAttr::get(map));
          store.getIndicesMutable().assign(operands);
        } else if (auto match = dyn_cast<MatchBufferOp>(user)) {
          RegionExprs r = splitRegionMap(match.getSourceRegion());
          SmallVector<Value> ops(match.getIndices());
          shiftByLowers(r.starts, ops, region);
          match.setSourceRegionAttr(
              AffineMapAttr::get(buildRegionMap(ops.size(), r, ctx)));
          match.getIndicesMutable().assign(ops);
        }
      }
      user->replaceUsesOfWith(buffer, cache);
    });
  }
  // The block's regions: the buffer's entries name the cache, shifted.
  renameListedRegions(rewriter, block, buffer, cache,
                      [&](RegionExprs &r, SmallVectorImpl<Value> &inputs) {
                        if (shift)
                          shiftByLowers(r.starts, inputs, region);
                      });
}

static LogicalResult checkCompactRegion(const LoopRegion &region,
                                        BlockOp culprit, StringRef primitive,
                                        ScheduleError &error) {
  auto usesLoop = [&](ArrayRef<AffineExpr> exprs) {
    return llvm::any_of(llvm::seq<unsigned>(0, region.inputs.size()),
                        [&](unsigned k) {
                          return isLoopVar(region.inputs[k]) &&
                                 llvm::any_of(exprs, [&](AffineExpr e) {
                                   return e.isFunctionOfDim(k);
                                 });
                        });
  };
  if (usesLoop(region.extents))
    return refuse(error, culprit,
                  primitive + " needs a cache region whose extents do not vary "
                              "with a loop where the copy goes directly in the "
                              "scope, but one does");
  if (usesLoop(region.lowers))
    return refuse(error, culprit,
                  primitive +
                      " would index the cache from a loop variable outside "
                      "the scope, which a block body cannot read");
  return success();
}

FailureOr<Value>
mlir::tir::sched::getCachedBuffer(BlockOp block, int64_t bufferIndex,
                                  StringRef storageScope, bool reads,
                                  StringRef primitive, ScheduleError &error) {
  if (!isValidStorageScope(storageScope))
    return refuse(error, block,
                  primitive + ": '" + storageScope +
                      "' is not a storage scope (global, shared, "
                      "shared.dyn, local, warp, wmma.*, ...)");
  return getNthAccessBuffer(block, bufferIndex, /*isWrite=*/!reads, primitive,
                            error);
}

FailureOr<SmallVector<int64_t>>
mlir::tir::sched::getCacheShape(const CachePlace &place, LoopRegion &region,
                                Value buffer, BlockOp culprit,
                                StringRef primitive, ScheduleError &error) {
  SmallVector<int64_t> shape;
  if (place.insideLoop()) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape())
      return refuse(error, culprit,
                    primitive + " inside a loop keeps the shape of buffer '" +
                        getCachedBufferName(buffer) +
                        "', which has a runtime dimension: not supported yet");
    llvm::append_range(shape, type.getShape());
    return shape;
  }
  if (failed(checkCompactRegion(region, culprit, primitive, error)))
    return failure();
  auto type = cast<MemRefType>(buffer.getType());
  MLIRContext *ctx = buffer.getContext();
  for (unsigned d = 0, e = region.lowers.size(); d < e; ++d) {
    auto lo = dyn_cast<AffineConstantExpr>(region.lowers[d]);
    auto ext = dyn_cast<AffineConstantExpr>(region.extents[d]);
    if (!lo || !ext || type.isDynamicDim(d))
      continue;
    int64_t first = std::max<int64_t>(lo.getValue(), 0);
    int64_t end = std::min(lo.getValue() + ext.getValue(), type.getDimSize(d));
    if (end > first) {
      region.lowers[d] = getAffineConstantExpr(first, ctx);
      region.extents[d] = getAffineConstantExpr(end - first, ctx);
    }
  }
  for (AffineExpr e : region.extents) {
    auto k = dyn_cast<AffineConstantExpr>(e);
    shape.push_back(k ? k.getValue() : ShapedType::kDynamic);
  }
  return shape;
}

LogicalResult mlir::tir::sched::checkScopeAccesses(Operation *scope,
                                                   Value buffer,
                                                   BlockOp culprit,
                                                   StringRef primitive,
                                                   ScheduleError &error) {
  auto scopeBlock = dyn_cast<BlockOp>(scope);
  if (!scopeBlock)
    return success();
  // A cache in a block's scope lives for one execution of that block;
  // what flows into it from outside (an init written by another block, a
  // consumer that is the scope itself) is not handled yet.
  return refuse(error, culprit,
                primitive + " of a block inside block '" +
                    scopeBlock.getBlockName() +
                    "' (a scope other than the function's) is not supported "
                    "yet");
}

void mlir::tir::sched::updateEnclosingRegions(RewriterBase &rewriter,
                                              ArrayRef<BlockOp> retargeted,
                                              Operation *scope, Value buffer) {
  llvm::SetVector<Operation *> enclosing;
  for (BlockOp b : retargeted)
    for (Operation *op = b->getParentOp(); op && op != scope;
         op = op->getParentOp())
      if (isa<BlockOp>(op) && !llvm::is_contained(retargeted, op))
        enclosing.insert(op);
  // Innermost first: an outer block's listing is inferred from the inner
  // ones.
  SmallVector<Operation *> order(enclosing.begin(), enclosing.end());
  sortInnermostFirst(order);
  for (Operation *op : order)
    updateListedRegions(rewriter, cast<BlockOp>(op), buffer);
}

void mlir::tir::sched::retargetToPoint(RewriterBase &rewriter, BlockOp block,
                                       Value buffer, Value cache,
                                       ArrayRef<AffineExpr> at) {
  MLIRContext *ctx = block.getContext();
  // The indices over the variables they use.
  SmallVector<Value> vars;
  SmallVector<AffineExpr> toUsed;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    bool used =
        llvm::any_of(at, [&](AffineExpr x) { return x.isFunctionOfDim(i); });
    toUsed.push_back(used ? getAffineDimExpr(vars.size(), ctx)
                          : getAffineConstantExpr(0, ctx));
    if (used)
      vars.push_back(block.getIterVar(i));
  }
  SmallVector<AffineExpr> atUsed;
  for (AffineExpr x : at)
    atUsed.push_back(x.replaceDims(toUsed));
  AffineMapAttr map =
      AffineMapAttr::get(makeInputMap(vars.size(), atUsed, ctx));
  SmallVector<Operation *> users;
  for (Operation *user : buffer.getUsers())
    if (block->isProperAncestor(user) &&
        user->getParentOfType<BlockOp>() == block)
      users.push_back(user);
  for (Operation *user : users)
    rewriter.modifyOpInPlace(user, [&] {
      if (auto load = dyn_cast<LoadOp>(user)) {
        load.setMapAttr(map);
        load.getIndicesMutable().assign(vars);
      } else if (auto store = dyn_cast<StoreOp>(user)) {
        store.setMapAttr(map);
        store.getIndicesMutable().assign(vars);
      }
      user->replaceUsesOfWith(buffer, cache);
    });
  renameListedRegions(rewriter, block, buffer, cache,
                      [&](RegionExprs &r, SmallVectorImpl<Value> &) {
                        r.starts.assign(at.begin(), at.end());
                        r.extents.assign(at.size(),
                                         getAffineConstantExpr(1, ctx));
                      });
}
