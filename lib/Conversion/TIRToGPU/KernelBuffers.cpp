//===- KernelBuffers.cpp - shared / local buffers moved into kernels ------===//
//
// TVM's PlanAndUpdateBufferAllocationLocation + CompactBufferAllocation for
// GPU kernels. Schedules allocate their caches at the function's root
// (cache_read(..., "shared"), cache_write(..., "local")) with the shape of
// the whole buffer; each is used in one kernel, under one loop or block
// there. It is allocated at the start of the lowest op holding all its
// accesses (their LCA), with the shape of the part one execution of that op
// touches, as the region analysis bounds it (loops inside the LCA relaxed,
// and, for shared memory, the threadIdx loops around it: the threads of a
// block share it). The accesses reach it through a view whose offset puts
// the part's start at its first element.
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "TensorIR/Dialect/TIR/Analysis/BufferCompaction.h"
#include "TensorIR/Dialect/TIR/Analysis/BufferDimAlign.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tir;

ForOp mlir::tir::kernelRootOf(Operation *op) {
  ForOp root;
  for (; op; op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op);
        loop && loop.getKind() == ForKind::ThreadBinding)
      root = loop;
  return root;
}

/// Whether `v` may differ between the threads of a block: it is (or is
/// computed or bound from) a threadIdx loop's variable.
static bool dependsOnThreadIdx(Value v) {
  return dependsOn(v, [](Value x) {
    auto arg = dyn_cast<BlockArgument>(x);
    auto loop = arg ? dyn_cast<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
    return loop && isThreadIdxLoop(loop);
  });
}

/// Shifts an access's map by the part's start: index d becomes
/// `index_d - lowers_d(inputs)`, the inputs appended to its operands; 0
/// where lowers_d is null (a dimension of one element).
static AffineMap shiftedMap(AffineMap map, ArrayRef<AffineExpr> lowers,
                            unsigned numInputs) {
  unsigned base = map.getNumDims();
  unsigned total = base + numInputs;
  SmallVector<AffineExpr> results;
  for (auto [d, e] : llvm::enumerate(map.getResults()))
    results.push_back(
        lowers[d] ? simplifyIndexExpr(e - lowers[d].shiftDims(numInputs, base),
                                      total, 0)
                  : getAffineConstantExpr(0, map.getContext()));
  return AffineMap::get(total, 0, results, map.getContext());
}

/// A view's type after its source changed: the source's strides for the
/// view's dimensions (its last ones), a dynamic offset, the source's memory
/// space.
static void retypeView(MatchBufferOp view) {
  auto source = cast<MemRefType>(view.getSource().getType());
  auto type = cast<MemRefType>(view.getResult().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(source.getStridesAndOffset(strides, offset)))
    strides.assign(source.getRank(), ShapedType::kDynamic);
  auto layout =
      StridedLayoutAttr::get(view.getContext(), ShapedType::kDynamic,
                             ArrayRef(strides).take_back(type.getRank()));
  view.getResult().setType(MemRefType::get(
      type.getShape(), type.getElementType(), layout, source.getMemorySpace()));
}

/// Every access of `buffer` reads or writes `compact` instead, at its
/// index minus the part's start, as do the regions blocks list of it.
static void shiftAccesses(Value buffer, Value compact,
                          ArrayRef<AffineExpr> lowers, ArrayRef<Value> inputs) {
  // Users first: a block may list the buffer in several regions.
  llvm::SetVector<Operation *> users;
  for (Operation *user : buffer.getUsers())
    users.insert(user);
  for (Operation *user : users) {
    if (auto load = dyn_cast<LoadOp>(user)) {
      load.setMapAttr(
          AffineMapAttr::get(shiftedMap(load.getMap(), lowers, inputs.size())));
      load.getIndicesMutable().append(inputs);
      load.getBufferMutable().assign(compact);
    } else if (auto store = dyn_cast<StoreOp>(user)) {
      store.setMapAttr(AffineMapAttr::get(
          shiftedMap(store.getMap(), lowers, inputs.size())));
      store.getIndicesMutable().append(inputs);
      store.getBufferMutable().assign(compact);
    } else if (auto view = dyn_cast<MatchBufferOp>(user)) {
      // The view's region moves as the accesses do.
      RegionExprs region = splitRegionMap(view.getSourceRegion());
      unsigned n = view.getIndices().size();
      AffineMap starts =
          shiftedMap(AffineMap::get(n, 0, region.starts, view.getContext()),
                     lowers, inputs.size());
      region.starts.assign(starts.getResults().begin(),
                           starts.getResults().end());
      view.setSourceRegionAttr(AffineMapAttr::get(
          buildRegionMap(n + inputs.size(), region, view.getContext())));
      view.getIndicesMutable().append(inputs);
      view.getSourceMutable().assign(compact);
      retypeView(view);
    } else if (auto block = dyn_cast<BlockOp>(user)) {
      // Its regions of the buffer move as the accesses do; the others stay
      // (buffers placed later are compacted from them).
      unsigned base = block.getNumIterVars() + block.getRegionValues().size();
      (void)rewriteListedRegions(
          block, buffer, compact,
          [&](AffineMap map) -> FailureOr<AffineMap> {
            SmallVector<AffineExpr> results(map.getResults());
            for (unsigned d = 0, rank = results.size() / 2; d < rank; ++d)
              results[d] =
                  lowers[d]
                      ? simplifyIndexExpr(results[d] - lowers[d].shiftDims(
                                                           inputs.size(), base),
                                          map.getNumDims(), 0)
                      : getAffineConstantExpr(0, map.getContext());
            return AffineMap::get(map.getNumDims(), 0, results,
                                  map.getContext());
          },
          inputs);
    }
  }
}

/// Moves one buffer into its kernel; failure (with `why`) when it cannot.
/// A shared buffer gets the strides storage_align asked (`aligns`, for the
/// compacted shape, as TVM pads the compacted allocation): rows padded so
/// that a warp's reads of one column fall in different banks.
static LogicalResult placeBuffer(AllocBufferOp alloc, ArrayRef<DimAlign> aligns,
                                 Refusal &why) {
  Value buffer = alloc.getBuffer();
  MemRefType type = alloc.getBuffer().getType();
  SmallVector<BlockOp> blocks = getAccessingBlocks(buffer, true);
  if (blocks.empty()) {
    why.message = "it is used by something other than loads, stores and "
                  "views in blocks";
    return failure();
  }
  Operation *lca = getCompactionAnchor(blocks);
  if (!lca) {
    why.message = "its accesses have no loop or block in common";
    return failure();
  }
  // (A buffer of dynamic shape whose part is static compacts as well: a
  // dynamic-shape intermediate's row or tile.)
  if (!type.getLayout().isIdentity()) {
    why.message = "it has a layout";
    return failure();
  }
  // Loops re-bound to a thread tag bound around the LCA run in one thread
  // (a register-staged copy: each thread loads its own elements, then
  // stores them): for a local buffer they are the thread's index, not
  // relaxed.
  // (Blocks nested in others the outer ones' regions cover, as TVM's
  // region analysis takes them.)
  FailureOr<CompactPart> part =
      getCompactPart(lca, buffer, getOutermostBlocksUnder(lca, blocks), why,
                     /*sameThreadIsPoint=*/true);
  if (failed(part))
    return failure();

  MLIRContext *ctx = alloc.getContext();
  ArrayRef<int64_t> shape = part->shape;
  ArrayRef<AffineExpr> lowers = part->lowers;
  ArrayRef<Value> inputs = part->inputs;

  // A shared buffer is one per block: where its part starts may not
  // differ between the block's threads (a threadIdx loop with a runtime
  // extent is not relaxed, say).
  StringRef scope = getStorageScope(type);
  if (isSharedScope(scope))
    for (Value input : inputs)
      if (dependsOnThreadIdx(input)) {
        why.message =
            "the part of it each execution touches starts at a place that "
            "depends on the thread index (threadIdx loops with runtime "
            "extents are not relaxed), but a shared buffer is one per "
            "block";
        return failure();
      }
  // A local buffer is one per thread: no thread index may vary between
  // the LCA and its accesses (loops bound again to a tag bound around the
  // LCA run in the same thread).
  // (A loop unifyThreadLoops wrapped around sibling loops bound to a tag
  // makes them one thread index for fragments only.)
  bool fragment = alloc->hasAttr(kLaneFragmentAttr);
  if (!isSharedScope(scope)) {
    llvm::StringSet<> boundAround;
    for (Operation *p = lca; p; p = p->getParentOp())
      if (auto loop = dyn_cast<ForOp>(p);
          loop && loop.getKind() == ForKind::ThreadBinding &&
          (fragment || !loop->hasAttr(kUnifiedThreadsAttr)))
        boundAround.insert(*loop.getThread());
    for (BlockOp block : blocks)
      for (Operation *p = block->getParentOp(); p != lca; p = p->getParentOp())
        if (auto loop = dyn_cast<ForOp>(p);
            loop && loop.getKind() == ForKind::ThreadBinding &&
            !boundAround.contains(*loop.getThread())) {
          why.message =
              "its accesses lie in several threads (loop '" +
              loop.getVarName().value_or("").str() + "' bound to '" +
              loop.getThread()->str() +
              "'), but a local buffer is one thread's (use 'shared' for "
              "a buffer the threads of a block share)";
          return failure();
        }
  }

  // The compacted buffer, first in the LCA's body: a local buffer in the
  // thread's private memory; a shared one stands there until the kernel's
  // launch takes it as workgroup memory.
  Block *body = &lca->getRegion(0).front();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(body);
  Attribute space = isSharedScope(scope) ? type.getMemorySpace() : Attribute();
  // Row-major strides, padded where storage_align asked (shared memory
  // only: a thread's registers have no banks). A padded buffer is a flat
  // allocation of its span seen through a view with those strides.
  SmallVector<int64_t> strides = getAlignedStrides(
      shape, isSharedScope(scope) ? aligns : ArrayRef<DimAlign>());
  bool padded = strides != getAlignedStrides(shape, {});
  auto paddedType =
      MemRefType::get(shape, type.getElementType(),
                      StridedLayoutAttr::get(ctx, 0, strides), space);
  int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  Value flat = memref::AllocaOp::create(
      b, alloc.getLoc(),
      padded
          ? MemRefType::get({sharedBufferBytes(paddedType) / elementBytes},
                            type.getElementType(), AffineMap(), space)
          : MemRefType::get(shape, type.getElementType(), AffineMap(), space));
  // A view of the buffer with the given offset and its strides (a dynamic
  // dimension as large as the buffer was allocated).
  auto viewOf = [&](MemRefType viewType, OpFoldResult offset) -> Value {
    SmallVector<OpFoldResult> sizes, steps;
    for (auto [d, size, stride] :
         llvm::enumerate(viewType.getShape(), strides)) {
      if (ShapedType::isDynamic(size))
        sizes.push_back(alloc.getDynamicSizes()[type.getDynamicDimIndex(d)]);
      else
        sizes.push_back(b.getIndexAttr(size));
      steps.push_back(b.getIndexAttr(stride));
    }
    return memref::ReinterpretCastOp::create(b, alloc.getLoc(), viewType, flat,
                                             offset, sizes, steps);
  };
  // Where the part's start depends only on thread and block indices (which
  // every block may use, once they are the launch's), the accesses are
  // shifted by it: the lowering then cancels it against their bindings, so
  // a register tile indexed by unrolled loops gets constant indices. A
  // local buffer is shifted as well where other values (the k loop's
  // variable, for a thread's staged copy of a k tile) only pick a
  // dimension of one element, whose index is then 0: a view at a moving
  // offset would hide its constant indices from LLVM.
  auto isThreadIndex = [](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    auto loop = arg ? dyn_cast<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
    return !loop || loop.getKind() == ForKind::ThreadBinding;
  };
  SmallVector<Value> threadInputs;
  SmallVector<AffineExpr> renumbered;
  llvm::SmallBitVector others(inputs.size());
  for (auto [i, input] : llvm::enumerate(inputs)) {
    renumbered.push_back(getAffineConstantExpr(0, ctx));
    if (isThreadIndex(input)) {
      renumbered.back() = getAffineDimExpr(threadInputs.size(), ctx);
      threadInputs.push_back(input);
    } else {
      others.set(i);
    }
  }
  SmallVector<AffineExpr> shifts;
  for (auto [lower, size] : llvm::zip(lowers, shape)) {
    if (!involvesDims(lower, others))
      shifts.push_back(lower.replaceDims(renumbered));
    else if (size == 1 && !isSharedScope(scope))
      shifts.push_back(AffineExpr());
    else
      break;
  }
  if (shifts.size() == shape.size()) {
    shiftAccesses(buffer, padded ? viewOf(paddedType, b.getIndexAttr(0)) : flat,
                  shifts, threadInputs);
    alloc.erase();
    return success();
  }
  // Otherwise the accesses keep their coordinates in the whole buffer: they go
  // through a view of the compacted one whose offset moves the part's start
  // to its first element (rows as long as the part's, or padded).
  AffineExpr offsetExpr = getAffineConstantExpr(0, ctx);
  for (auto [lower, s] : llvm::zip(lowers, strides))
    offsetExpr = offsetExpr - lower * s;
  offsetExpr = simplifyIndexExpr(offsetExpr, inputs.size(), 0);
  OpFoldResult offset;
  if (auto c = dyn_cast<AffineConstantExpr>(offsetExpr))
    offset = b.getIndexAttr(c.getValue());
  else
    offset = affine::expandAffineExpr(b, alloc.getLoc(), offsetExpr, inputs,
                                      ValueRange());
  auto viewType = MemRefType::get(
      type.getShape(), type.getElementType(),
      StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides), space);
  Value view = viewOf(viewType, offset);
  buffer.replaceAllUsesWith(view);
  for (Operation *user : view.getUsers())
    if (auto match = dyn_cast<MatchBufferOp>(user))
      retypeView(match);
  alloc.erase();
  return success();
}

Operation *mlir::tir::kernelBufferPlace(Value buffer) {
  auto alloc = buffer.getDefiningOp<AllocBufferOp>();
  if (!alloc || kernelRootOf(alloc))
    return nullptr;
  StringRef scope = getStorageScope(alloc.getBuffer().getType());
  if (!isSharedScope(scope) && scope != "local")
    return nullptr;
  SmallVector<BlockOp> blocks = getAccessingBlocks(buffer, true);
  if (blocks.empty())
    return nullptr;
  ForOp kernel = kernelRootOf(blocks.front());
  if (!kernel || !llvm::all_of(blocks, [&](BlockOp block) {
        return kernelRootOf(block) == kernel;
      }))
    return nullptr;
  return getCompactionAnchor(blocks);
}

/// The lowest op that holds every op of `ops`.
static Operation *commonAncestor(ArrayRef<Operation *> ops) {
  Operation *common = ops.front()->getParentOp();
  for (Operation *op : ops.drop_front())
    while (common && !common->isAncestor(op))
      common = common->getParentOp();
  return common;
}

/// A tensor-core fragment (a local buffer lowerWarpBuffers made) whose
/// accesses lie under several loops bound to one thread tag, one after
/// another (accumulators computed under the warps' threadIdx.y loop, then
/// written back under another, as MetaSchedule's tensor-core tiles are),
/// is each thread's own only if those loops are one thread index, as they
/// are on the GPU (TVM's loops bound to one tag share its variable). Where
/// every loop of the kernel bound to that tag has the same constant
/// bounds, the op holding those loops gets its body wrapped in one more
/// loop bound to the tag: the loops inside then re-bind it (the same
/// index), and the buffer is placed under it as one thread's. The program
/// is the same: every thread runs the wrapped statements once, as it did.
/// (Only fragments, whose blocks the schedule derives from the warp's
/// index alike: the tensorized loads, products and stores of one tile
/// cache; not checked. For other local buffers the wrapper does not count
/// as a loop around them, and a buffer read by another thread than wrote
/// it stays refused.)
static void unifyThreadLoops(AllocBufferOp alloc, ForOp kernel) {
  SmallVector<BlockOp> blocks = getAccessingBlocks(alloc.getBuffer(), true);
  for (StringRef tag : {"threadIdx.x", "threadIdx.y", "threadIdx.z"}) {
    llvm::SetVector<Operation *> around;
    for (BlockOp block : blocks)
      for (Operation *p = block->getParentOp(); p && p != kernel;
           p = p->getParentOp())
        if (auto loop = dyn_cast<ForOp>(p);
            loop && loop.getKind() == ForKind::ThreadBinding &&
            *loop.getThread() == tag)
          around.insert(loop);
    if (around.size() < 2)
      continue;
    // Loops one after another, not one in another.
    Operation *common = commonAncestor(around.getArrayRef());
    if (!common || llvm::is_contained(around, common) ||
        llvm::any_of(around, [&](Operation *a) {
          return llvm::any_of(around, [&](Operation *b) {
            return a != b && a->isProperAncestor(b);
          });
        }))
      continue;
    // Every loop bound to the tag in the kernel: the same constant bounds.
    std::optional<std::pair<int64_t, int64_t>> bounds;
    bool same = true;
    kernel->walk([&](ForOp loop) {
      if (loop.getKind() != ForKind::ThreadBinding || *loop.getThread() != tag)
        return;
      auto lo = loop.getConstantLowerBound(), hi = loop.getConstantUpperBound();
      if (!lo || !hi || (bounds && *bounds != std::make_pair(*lo, *hi)))
        same = false;
      else
        bounds = std::make_pair(*lo, *hi);
    });
    if (!same || !bounds || !isa<ForOp, BlockOp>(common) ||
        common->getNumRegions() != 1)
      continue;
    Block *body = &common->getRegion(0).front();
    // Allocations stay where they are (the scope's buffers), before it.
    SmallVector<Operation *> moved;
    for (Operation &op : *body)
      if (!isa<AllocBufferOp, MatchBufferOp, InitOp>(op))
        moved.push_back(&op);
    OpBuilder b(common->getContext());
    b.setInsertionPointToEnd(body);
    auto wrapper =
        ForOp::create(b, common->getLoc(), b.getIndexAttr(bounds->first),
                      b.getIndexAttr(bounds->second), ForKind::ThreadBinding,
                      b.getStringAttr(tag));
    wrapper.setVarName(("thread_" + tag.substr(tag.size() - 1)).str());
    wrapper->setAttr(kUnifiedThreadsAttr, b.getUnitAttr());
    Block *inner = wrapper.getBody();
    for (Operation *op : moved)
      op->moveBefore(inner, inner->end());
  }
}

LogicalResult mlir::tir::placeKernelBuffers(Operation *root) {
  // Local buffers used under sibling loops of one thread tag: one thread
  // index for them (unifyThreadLoops).
  root->walk([&](AllocBufferOp alloc) {
    if (!alloc->hasAttr(kLaneFragmentAttr) || kernelRootOf(alloc))
      return;
    SmallVector<BlockOp> blocks = getAccessingBlocks(alloc.getBuffer(), true);
    if (blocks.empty())
      return;
    ForOp kernel = kernelRootOf(blocks.front());
    if (kernel && llvm::all_of(blocks, [&](BlockOp block) {
          return kernelRootOf(block) == kernel;
        }))
      unifyThreadLoops(alloc, kernel);
  });
  // storage_align's requests, read before the blocks move.
  DenseMap<Value, SmallVector<DimAlign>> aligns = collectBufferDimAligns(root);
  SmallVector<AllocBufferOp> candidates;
  root->walk([&](AllocBufferOp alloc) {
    StringRef scope = getStorageScope(alloc.getBuffer().getType());
    if ((isSharedScope(scope) || scope == "local") && !kernelRootOf(alloc))
      candidates.push_back(alloc);
  });
  for (AllocBufferOp alloc : candidates) {
    // Only buffers whose every access is in one kernel; the others are
    // refused by the kernels' checks (or are host buffers).
    SmallVector<BlockOp> blocks = getAccessingBlocks(alloc.getBuffer(), true);
    if (blocks.empty())
      continue;
    ForOp kernel = kernelRootOf(blocks.front());
    if (!kernel || !llvm::all_of(blocks, [&](BlockOp block) {
          return kernelRootOf(block) == kernel;
        }))
      continue;
    Refusal why;
    if (failed(placeBuffer(alloc, aligns.lookup(alloc.getBuffer()), why)))
      return alloc.emitOpError("allocates '")
             << getStorageScope(alloc.getBuffer().getType()) << "' buffer '"
             << getBufferName(alloc.getBuffer())
             << "' for the GPU kernel that starts at loop '"
             << kernel.getVarName().value_or("")
             << "', but it cannot be allocated in the kernel: " << why.message;
  }
  return success();
}
