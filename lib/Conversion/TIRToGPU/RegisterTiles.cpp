//===- RegisterTiles.cpp - loops over a thread's registers, unrolled ------===//
//
// A thread's private buffers (register tiles, mma fragments) stay in
// registers only where every index into them is a constant once the code
// is compiled; a loop that indexes one with its variable must be unrolled
// for that, as nvcc does with small loops of constant trip count in TVM's
// CUDA output. Those loops of a kernel are marked `unrolled` here (for
// --tir-unroll-loops), while the unrolled code stays small.
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::tir;

namespace {

/// Loops of at most this many iterations are unrolled...
constexpr int64_t kMaxTrips = 16;
/// ...while the unrolled loop has at most this many operations.
constexpr int64_t kMaxUnrolledOps = 512;

/// Whether `buffer` is (a view of) a thread's private buffer: a
/// memref.alloca outside workgroup memory.
bool isPrivate(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto alloca = dyn_cast<memref::AllocaOp>(def))
      return !isSharedScope(getStorageScope(alloca.getType()));
    if (!isa<MatchBufferOp, memref::ReinterpretCastOp, memref::SubViewOp>(def))
      return false;
    buffer = def->getOperand(0);
  }
  return false;
}

/// Whether `loop` writes memory the block's threads share (with
/// feedsReduction, a k step of cooperative copies, not a loop over a
/// thread's registers).
bool writesShared(ForOp loop) {
  return loop.getBody()
      ->walk([&](StoreOp store) {
        auto space = dyn_cast_if_present<gpu::AddressSpaceAttr>(
            cast<MemRefType>(store.getBuffer().getType()).getMemorySpace());
        bool shared =
            (space && space.getValue() == gpu::AddressSpace::Workgroup) ||
            isSharedScope(
                getStorageScope(cast<MemRefType>(store.getBuffer().getType())));
        return shared ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `v` changes with `iv`: it is `iv`, computed from it, or a block
/// variable whose binding uses it (only the binding values its expression
/// reads, not all the block's).
bool changesWith(Value v, Value iv, unsigned depth = 0) {
  if (v == iv)
    return true;
  if (depth > 16)
    return true;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto block = dyn_cast<BlockOp>(arg.getOwner()->getParentOp());
    if (!block || arg.getArgNumber() >= block.getNumIterVars())
      return false;
    AffineExpr binding = block.getBindingExprs()[arg.getArgNumber()];
    ValueRange values = block.getBindingValues();
    for (unsigned p = 0; p < values.size(); ++p)
      if (binding.isFunctionOfDim(p) && changesWith(values[p], iv, depth + 1))
        return true;
    return false;
  }
  Operation *def = v.getDefiningOp();
  return def && llvm::any_of(def->getOperands(), [&](Value x) {
           return changesWith(x, iv, depth + 1);
         });
}

/// Whether `loop`'s variable feeds a reduce iteration variable of a block
/// in it (a k loop).
bool feedsReduction(ForOp loop) {
  Value iv = loop.getInductionVar();
  return loop.getBody()
      ->walk([&](BlockOp block) {
        SmallVector<AffineExpr> bindings = block.getBindingExprs();
        ValueRange values = block.getBindingValues();
        for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
          if (block.getIterType(i) != IterType::Reduce)
            continue;
          for (auto [p, v] : llvm::enumerate(values))
            if (bindings[i].isFunctionOfDim(p) && changesWith(v, iv))
              return WalkResult::interrupt();
        }
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether an index `map(indices)` changes with `iv`.
bool indexChangesWith(AffineMap map, ValueRange indices, Value iv) {
  for (auto [d, v] : llvm::enumerate(indices))
    if (d < map.getNumDims() && map.isFunctionOfDim(d) && changesWith(v, iv))
      return true;
  return false;
}

/// Whether `loop`'s variable picks an element of a private buffer in its
/// body (a load's or store's index, a view's region).
bool indexesRegisters(ForOp loop) {
  Value iv = loop.getInductionVar();
  return loop.getBody()
      ->walk([&](Operation *op) {
        bool hit = false;
        if (auto load = dyn_cast<LoadOp>(op))
          hit = isPrivate(load.getBuffer()) &&
                indexChangesWith(load.getMap(), load.getIndices(), iv);
        else if (auto store = dyn_cast<StoreOp>(op))
          hit = isPrivate(store.getBuffer()) &&
                indexChangesWith(store.getMap(), store.getIndices(), iv);
        else if (auto view = dyn_cast<MatchBufferOp>(op)) {
          RegionExprs region = splitRegionMap(view.getSourceRegion());
          unsigned n = view.getIndices().size();
          hit = isPrivate(view.getSource()) &&
                indexChangesWith(
                    AffineMap::get(n, 0, region.starts, view.getContext()),
                    view.getIndices(), iv);
        }
        return hit ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

} // namespace

void mlir::tir::unrollRegisterTileLoops(Operation *kernel) {
  // Innermost loops first: a marked loop counts as its unrolled size in
  // the loops around it.
  llvm::DenseMap<Operation *, int64_t> unrolledOps;
  kernel->walk<WalkOrder::PostOrder>([&](ForOp loop) {
    if (loop.getKind() != ForKind::Serial)
      return;
    // Inside a loop the schedule unrolls, an unrolled inner loop would
    // multiply that loop's unrolled size (and could take it over its
    // limit): left to the schedule.
    for (Operation *p = loop->getParentOp(); p && p != kernel;
         p = p->getParentOp())
      if (auto around = dyn_cast<ForOp>(p);
          around && around.getKind() == ForKind::Unrolled)
        return;
    std::optional<int64_t> trips = loop.getConstantExtent();
    if (!trips || *trips < 2 || *trips > kMaxTrips)
      return;
    int64_t bodyOps = 0;
    loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto it = unrolledOps.find(op); it != unrolledOps.end()) {
        bodyOps += it->second;
        return WalkResult::skip();
      }
      ++bodyOps;
      return WalkResult::advance();
    });
    if (*trips * bodyOps > kMaxUnrolledOps ||
        (writesShared(loop) && feedsReduction(loop)) || !indexesRegisters(loop))
      return;
    loop.setKind(ForKind::Unrolled);
    // Left a loop rather than refused where it turns out too large.
    NamedAttrList annotations(loop.getAnnotationsAttr());
    annotations.set("register_tile", UnitAttr::get(loop.getContext()));
    loop.setAnnotationsAttr(annotations.getDictionary(loop.getContext()));
    unrolledOps[loop] = *trips * bodyOps;
  });
}
