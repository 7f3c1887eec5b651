//===- WarpBuffers.cpp - warp buffers divided among their lanes -----------===//
//
// TVM's LowerWarpMemory for the fragments of tensor-core instructions: a
// "warp" buffer's second-to-last dimension is the warp's 32 lanes (the
// layouts of mma.sync's intrinsics put each lane's elements in one row), and
// lane t reads and writes only row t. Each such buffer becomes a "local" one
// without that dimension, the lane's own registers; every access gives up
// its lane index, which must be the lane's (a loop bound to threadIdx.x of
// 32 iterations: with the kernel's x dimension 32, a warp). A "warpgroup"
// buffer (wgmma's accumulators, tir's own scope) is the same over the 128
// threads of a warpgroup: threadIdx.x of 128 iterations.
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tir;

namespace {

/// A loop bound to threadIdx.x running 0 to `lanes`: its variable is the
/// lane.
ForOp laneLoop(Value v, int64_t lanes) {
  auto arg = dyn_cast<BlockArgument>(v);
  auto loop = arg ? dyn_cast<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
  if (!loop || loop.getKind() != ForKind::ThreadBinding ||
      *loop.getThread() != "threadIdx.x" ||
      getConstantIntValue(loop.getMixedLowerBound()) != 0 ||
      getConstantIntValue(loop.getMixedUpperBound()) != lanes)
    return ForOp();
  return loop;
}

/// Whether `v` is the lane index: a lane loop's variable, or an iteration
/// variable of a block bound to exactly that.
bool isLane(Value v, int64_t lanes) {
  if (laneLoop(v, lanes))
    return true;
  auto arg = dyn_cast<BlockArgument>(v);
  auto block =
      arg ? dyn_cast<BlockOp>(arg.getOwner()->getParentOp()) : BlockOp();
  if (!block || arg.getArgNumber() >= block.getNumIterVars())
    return false;
  auto dim =
      dyn_cast<AffineDimExpr>(block.getBindingExprs()[arg.getArgNumber()]);
  return dim && laneLoop(block.getBindingValues()[dim.getPosition()], lanes);
}

/// `map` without result `drop`.
AffineMap withoutResult(AffineMap map, unsigned drop) {
  SmallVector<AffineExpr> results(map.getResults());
  results.erase(results.begin() + drop);
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                        map.getContext());
}

/// A region map (starts, then extents) without dimension `drop`.
AffineMap regionWithout(AffineMap region, unsigned drop) {
  unsigned rank = region.getNumResults() / 2;
  return withoutResult(withoutResult(region, rank + drop), drop);
}

/// The strides of an identity-layout `shape`.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

class WarpLowering {
public:
  WarpLowering(AllocBufferOp alloc)
      : alloc(alloc), ctx(alloc.getContext()),
        scope(getStorageScope(alloc.getBuffer().getType())),
        laneCount(scope == "warpgroup" ? 128 : 32) {}

  LogicalResult run();

private:
  InFlightDiagnostic fail(Operation *op) {
    return op->emitOpError("accesses '")
           << scope << "' buffer '" << getBufferName(alloc.getBuffer()) << "' ";
  }
  /// An access (load or store) through `buffer` whose index `lane` is the
  /// lane: the same access of `replacement` without it.
  LogicalResult rewriteAccess(Operation *op, Value replacement, unsigned lane);
  LogicalResult rewriteView(MatchBufferOp view, Value lanes);

  AllocBufferOp alloc;
  MLIRContext *ctx;
  /// "warp" or "warpgroup", and its lanes (32 or 128).
  StringRef scope;
  int64_t laneCount;
};

LogicalResult WarpLowering::rewriteAccess(Operation *op, Value replacement,
                                          unsigned lane) {
  auto load = dyn_cast<LoadOp>(op);
  auto store = dyn_cast<StoreOp>(op);
  AffineMap map = load ? load.getMap() : store.getMap();
  SmallVector<Value> indices(load ? load.getIndices() : store.getIndices());
  auto dim = dyn_cast<AffineDimExpr>(map.getResult(lane));
  if (!dim || !isLane(indices[dim.getPosition()], laneCount))
    return fail(op) << "at a lane index that is not the lane's own (a loop "
                       "bound to threadIdx.x of "
                    << laneCount
                    << " iterations, or a block variable bound to one); "
                       "accesses across lanes (shuffles) are "
                       "not lowered";
  OpBuilder b(op);
  AffineMap shorter = withoutResult(map, lane);
  if (load) {
    auto replaced = LoadOp::create(b, op->getLoc(), load.getType(), replacement,
                                   indices, AffineMapAttr::get(shorter));
    load.replaceAllUsesWith(replaced.getResult());
  } else {
    StoreOp::create(b, op->getLoc(), store.getValue(), replacement, indices,
                    AffineMapAttr::get(shorter));
  }
  op->erase();
  return success();
}

LogicalResult WarpLowering::rewriteView(MatchBufferOp view, Value lanes) {
  auto bufferType = cast<MemRefType>(alloc.getBuffer().getType());
  unsigned rank = bufferType.getRank(), lane = rank - 2;
  RegionExprs region = splitRegionMap(view.getSourceRegion());
  auto start = dyn_cast<AffineConstantExpr>(region.starts[lane]);
  auto extent = dyn_cast<AffineConstantExpr>(region.extents[lane]);
  if (!start || start.getValue() != 0 || !extent ||
      extent.getValue() != laneCount)
    return fail(view) << "through a view of part of its lanes; a view of a "
                      << scope << " buffer takes all " << laneCount;
  auto viewType = cast<MemRefType>(view.getResult().getType());
  // The view's dimensions are the region's last ones (leading unit
  // dimensions may be left out).
  int64_t viewLane = int64_t(viewType.getRank()) - int64_t(rank - lane);
  if (viewLane < 0 || viewType.getDimSize(viewLane) != laneCount)
    return fail(view) << "through a view that leaves out its lanes";
  auto lanesType = cast<MemRefType>(lanes.getType());
  SmallVector<int64_t> strides = rowMajorStrides(lanesType.getShape());
  SmallVector<int64_t> shape(viewType.getShape());
  shape.erase(shape.begin() + viewLane);
  auto newType = MemRefType::get(
      shape, viewType.getElementType(),
      StridedLayoutAttr::get(ctx, ShapedType::kDynamic,
                             ArrayRef(strides).take_back(shape.size())),
      lanesType.getMemorySpace());
  OpBuilder b(view);
  auto replaced = MatchBufferOp::create(
      b, view.getLoc(), newType, lanes, view.getIndices(),
      AffineMapAttr::get(regionWithout(view.getSourceRegion(), lane)),
      view.getAxisSeparatorsAttr());
  // Its users: accesses lose the lane index, calls take the lane's part.
  llvm::SetVector<Operation *> users;
  for (Operation *user : view.getResult().getUsers())
    users.insert(user);
  for (Operation *user : users) {
    if (isa<LoadOp, StoreOp>(user)) {
      if (isa<StoreOp>(user) &&
          cast<StoreOp>(user).getValue() == view.getResult())
        return fail(user) << "as a value";
      if (failed(rewriteAccess(user, replaced.getResult(), viewLane)))
        return failure();
    } else if (isa<CallOp>(user)) {
      user->replaceUsesOfWith(view.getResult(), replaced.getResult());
    } else if (auto block = dyn_cast<BlockOp>(user)) {
      // A nested block listing the view in its regions: scheduling is over.
      block.dropAccessRegions();
    } else {
      return fail(user) << "through a view used by '" << user->getName()
                        << "', which the lowering of warp buffers does not "
                           "handle";
    }
  }
  view.erase();
  return success();
}

LogicalResult WarpLowering::run() {
  auto type = cast<MemRefType>(alloc.getBuffer().getType());
  if (!type.hasStaticShape() || type.getRank() < 2 ||
      type.getDimSize(type.getRank() - 2) != laneCount ||
      !type.getLayout().isIdentity())
    return alloc.emitOpError("allocates '")
           << scope << "' buffer '" << getBufferName(alloc.getBuffer())
           << "' of type " << type << "; a " << scope
           << " buffer's second-to-last dimension is the "
           << (laneCount == 32 ? "warp" : "warpgroup") << "'s " << laneCount
           << " lanes (as transform_layout with the tensor intrinsics' "
              "layouts leaves it), its shape static";
  unsigned lane = type.getRank() - 2;
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + lane);
  OpBuilder b(alloc);
  auto lanesType = MemRefType::get(shape, type.getElementType(), AffineMap(),
                                   StringAttr::get(ctx, "local"));
  auto lanes = AllocBufferOp::create(b, alloc.getLoc(), lanesType, ValueRange{},
                                     alloc.getBufferNameAttr(),
                                     alloc.getAxisSeparatorsAttr());
  lanes->setAttr(kLaneFragmentAttr, UnitAttr::get(ctx));
  llvm::SetVector<Operation *> users;
  for (Operation *user : alloc.getBuffer().getUsers())
    users.insert(user);
  for (Operation *user : users) {
    if (auto block = dyn_cast<BlockOp>(user)) {
      (void)rewriteListedRegions(block, alloc.getBuffer(), lanes.getBuffer(),
                                 [&](AffineMap region) -> FailureOr<AffineMap> {
                                   return regionWithout(region, lane);
                                 });
    } else if (auto view = dyn_cast<MatchBufferOp>(user);
               view && view.getSource() == alloc.getBuffer()) {
      if (failed(rewriteView(view, lanes.getBuffer())))
        return failure();
    } else if ((isa<LoadOp>(user) &&
                cast<LoadOp>(user).getBuffer() == alloc.getBuffer()) ||
               (isa<StoreOp>(user) &&
                cast<StoreOp>(user).getBuffer() == alloc.getBuffer())) {
      if (failed(rewriteAccess(user, lanes.getBuffer(), lane)))
        return failure();
    } else {
      return fail(user) << "in '" << user->getName()
                        << "', which the lowering of warp buffers does not "
                           "handle";
    }
  }
  alloc.erase();
  return success();
}

/// A WMMA fragment buffer (scope "wmma.matrix_a", "wmma.matrix_b",
/// "wmma.accumulator"): 16 x 16 tiles in its last two dimensions, each
/// kept in the lanes' registers as mma.sync's operands are (8 elements per
/// lane). It becomes a "local" buffer (..., R / 16, C / 16, 8); its views,
/// one tile each (as the WMMA intrinsics take them), become views of a
/// lane's 8 elements. Nothing else may touch it: CUDA leaves a fragment's
/// layout opaque.
class FragmentLowering {
public:
  FragmentLowering(AllocBufferOp alloc)
      : alloc(alloc), ctx(alloc.getContext()) {}

  LogicalResult run();

private:
  InFlightDiagnostic fail(Operation *op) {
    return op->emitOpError("accesses '")
           << getStorageScope(alloc.getBuffer().getType())
           << "' fragment buffer '" << getBufferName(alloc.getBuffer()) << "' ";
  }
  /// A region of the buffer (starts, extents over `n` inputs) in tiles:
  /// the last two dimensions' starts and extents divided by 16, then the
  /// lane's 8 elements. Failure where it does not cover whole tiles.
  FailureOr<AffineMap> tileRegion(Operation *op, AffineMap region);
  LogicalResult rewriteView(MatchBufferOp view, Value lanes);

  AllocBufferOp alloc;
  MLIRContext *ctx;
};

FailureOr<AffineMap> FragmentLowering::tileRegion(Operation *op,
                                                  AffineMap region) {
  RegionExprs r = splitRegionMap(region);
  unsigned rank = r.starts.size(), n = region.getNumDims();
  for (unsigned d = rank - 2; d < rank; ++d) {
    AffineExpr rest = simplifyAffineExpr(r.starts[d] % 16, n, 0);
    auto extent = dyn_cast<AffineConstantExpr>(r.extents[d]);
    auto zero = dyn_cast<AffineConstantExpr>(rest);
    if (!zero || zero.getValue() != 0 || !extent || extent.getValue() % 16) {
      fail(op) << "at a region that is not whole 16 x 16 tiles (a fragment "
                  "is moved a tile at a time)";
      return failure();
    }
    r.starts[d] = simplifyAffineExpr(r.starts[d].floorDiv(16), n, 0);
    r.extents[d] = getAffineConstantExpr(extent.getValue() / 16, ctx);
  }
  r.starts.push_back(getAffineConstantExpr(0, ctx));
  r.extents.push_back(getAffineConstantExpr(8, ctx));
  return buildRegionMap(n, r, ctx);
}

LogicalResult FragmentLowering::rewriteView(MatchBufferOp view, Value lanes) {
  RegionExprs region = splitRegionMap(view.getSourceRegion());
  unsigned rank = region.starts.size();
  for (unsigned d = 0; d + 2 < rank; ++d)
    if (region.extents[d] != getAffineConstantExpr(1, ctx))
      return fail(view) << "through a view of several tiles; the WMMA "
                           "intrinsics take one";
  for (unsigned d = rank - 2; d < rank; ++d)
    if (region.extents[d] != getAffineConstantExpr(16, ctx))
      return fail(view) << "through a view of several tiles; the WMMA "
                           "intrinsics take one";
  FailureOr<AffineMap> tiles = tileRegion(view, view.getSourceRegion());
  if (failed(tiles))
    return failure();
  auto viewType = cast<MemRefType>(view.getResult().getType());
  auto newType =
      MemRefType::get({8}, viewType.getElementType(),
                      StridedLayoutAttr::get(ctx, ShapedType::kDynamic, {1}),
                      cast<MemRefType>(lanes.getType()).getMemorySpace());
  OpBuilder b(view);
  auto replaced =
      MatchBufferOp::create(b, view.getLoc(), newType, lanes, view.getIndices(),
                            AffineMapAttr::get(*tiles), DenseI64ArrayAttr());
  llvm::SetVector<Operation *> users;
  for (Operation *user : view.getResult().getUsers())
    users.insert(user);
  for (Operation *user : users) {
    if (isa<CallOp>(user)) {
      user->replaceUsesOfWith(view.getResult(), replaced.getResult());
    } else if (auto block = dyn_cast<BlockOp>(user)) {
      block.dropAccessRegions();
    } else {
      return fail(user) << "element by element ('" << user->getName()
                        << "'); a fragment's layout is opaque: only the "
                           "tensor intrinsics' instructions move it";
    }
  }
  view.erase();
  return success();
}

LogicalResult FragmentLowering::run() {
  auto type = cast<MemRefType>(alloc.getBuffer().getType());
  StringRef scope = getStorageScope(type);
  Type element = type.getElementType();
  bool operand = scope == "wmma.matrix_a" || scope == "wmma.matrix_b";
  bool supported =
      operand ? (element.isF16() || element.isInteger(8))
              : (element.isF16() || element.isF32() || element.isInteger(32));
  int64_t rank = type.getRank();
  if (!supported)
    return alloc.emitOpError("allocates '")
           << scope << "' fragment buffer '" << getBufferName(alloc.getBuffer())
           << "' of " << element
           << "; WMMA fragments are lowered for f16 and int8 operands and "
              "f16 / f32 / int32 accumulators";
  if (!type.hasStaticShape() || rank < 2 || type.getDimSize(rank - 1) % 16 ||
      type.getDimSize(rank - 2) % 16 || !type.getLayout().isIdentity())
    return alloc.emitOpError("allocates '")
           << scope << "' fragment buffer '" << getBufferName(alloc.getBuffer())
           << "' of type " << type
           << "; a fragment buffer holds 16 x 16 tiles in its last two "
              "dimensions, its shape static";
  SmallVector<int64_t> shape(type.getShape());
  shape[rank - 2] /= 16;
  shape[rank - 1] /= 16;
  shape.push_back(8);
  OpBuilder b(alloc);
  auto lanesType = MemRefType::get(shape, element, AffineMap(),
                                   StringAttr::get(ctx, "local"));
  auto lanes =
      AllocBufferOp::create(b, alloc.getLoc(), lanesType, ValueRange{},
                            alloc.getBufferNameAttr(), DenseI64ArrayAttr());
  lanes->setAttr(kLaneFragmentAttr, UnitAttr::get(ctx));
  llvm::SetVector<Operation *> users;
  for (Operation *user : alloc.getBuffer().getUsers())
    users.insert(user);
  for (Operation *user : users) {
    if (auto block = dyn_cast<BlockOp>(user)) {
      if (failed(rewriteListedRegions(
              block, alloc.getBuffer(), lanes.getBuffer(),
              [&](AffineMap region) { return tileRegion(block, region); })))
        return failure();
    } else if (auto view = dyn_cast<MatchBufferOp>(user);
               view && view.getSource() == alloc.getBuffer()) {
      if (failed(rewriteView(view, lanes.getBuffer())))
        return failure();
    } else {
      return fail(user) << "in '" << user->getName()
                        << "'; a fragment's layout is opaque: only the "
                           "tensor intrinsics' instructions move it";
    }
  }
  alloc.erase();
  return success();
}

} // namespace

LogicalResult mlir::tir::lowerWarpBuffers(Operation *root) {
  SmallVector<AllocBufferOp> warps;
  root->walk([&](AllocBufferOp alloc) {
    StringRef scope = getStorageScope(alloc.getBuffer().getType());
    if (scope == "warp" || scope == "warpgroup")
      warps.push_back(alloc);
  });
  for (AllocBufferOp alloc : warps)
    if (failed(WarpLowering(alloc).run()))
      return failure();
  SmallVector<AllocBufferOp> fragments;
  root->walk([&](AllocBufferOp alloc) {
    if (getStorageScope(alloc.getBuffer().getType()).starts_with("wmma."))
      fragments.push_back(alloc);
  });
  for (AllocBufferOp alloc : fragments)
    if (failed(FragmentLowering(alloc).run()))
      return failure();
  return success();
}
