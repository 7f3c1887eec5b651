//===- ReadWriteAt.cpp - TVM's read_at and write_at -----------------------===//
//
// read_at copies, at the start of the statements of a loop that read a
// buffer, the region of it those statements read into a buffer of another
// storage scope, and makes them read the copy; write_at makes the
// statements of a loop that write a buffer write a copy, and copies the
// region they write back after them. The copy is a block (TVM's
// "<buffer>_<scope>", annotated `auto_copy`) whose iteration variables are
// the loops the region depends on, with loops over the region's extents
// inside it. The copy buffer has the buffer's full shape, as in TVM.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "CacheStage.h"
#include "Utils.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// Relaxes `region` over the thread-bound loops from `loop` up whose
/// threads share memory of `scope` (TVM relaxes them for the copy buffer's
/// scope: a shared copy is what all the block's threads need). A dimension
/// whose lower bound moves by more than its extent from one thread to the
/// next (or not by a constant) leaves holes: the region is then not exact.
/// Fails where an extent depends on such a loop.
static LogicalResult relaxOverSharingThreads(ForOp loop, StringRef scope,
                                             LoopRegion &region) {
  if (scope == "global")
    return success();
  MLIRContext *ctx = loop.getContext();
  unsigned n = region.inputs.size();
  for (Operation *p = loop; p; p = p->getParentOp()) {
    auto around = dyn_cast<ForOp>(p);
    if (!around || around.getKind() != ForKind::ThreadBinding ||
        !isStorageSharedAcrossThread(scope, *around.getThread()))
      continue;
    auto it = llvm::find(region.inputs, around.getInductionVar());
    if (it == region.inputs.end())
      continue;
    std::optional<int64_t> lo = around.getConstantLowerBound();
    std::optional<int64_t> hi = around.getConstantUpperBound();
    if (!lo || !hi || *hi <= *lo)
      return failure();
    unsigned pos = it - region.inputs.begin();
    AffineExpr var = getAffineDimExpr(pos, ctx);
    // The other inputs keep their ranges; this one spans the loop.
    SmallVector<std::optional<Interval>> ranges = getValueRanges(region.inputs);
    ranges[pos] = Interval{*lo, *hi - 1};
    for (unsigned d = 0; d < region.lowers.size(); ++d) {
      AffineExpr lower = region.lowers[d];
      if (!lower.isFunctionOfDim(pos))
        continue;
      if (region.extents[d].isFunctionOfDim(pos))
        return failure();
      // The lower bound's span over the loop, as a constant offset from
      // its value at the loop's start.
      AffineExpr first = simplifyIndexExpr(
          lower.replace(var, getAffineConstantExpr(*lo, ctx)), n, 0);
      std::optional<Interval> span =
          evaluateRange(simplifyIndexExpr(lower - first, n, 0), ranges);
      if (!span || span->lo < 0)
        return failure();
      // Contiguous only if it moves by a constant no larger than the
      // extent from one thread to the next.
      auto step = dyn_cast<AffineConstantExpr>(
          simplifyIndexExpr(lower.replace(var, var + 1) - lower, n, 0));
      auto extent = dyn_cast<AffineConstantExpr>(region.extents[d]);
      if (!step || step.getValue() < 0 || !extent ||
          step.getValue() > extent.getValue())
        region.exact = false;
      region.lowers[d] = first;
      region.extents[d] = simplifyIndexExpr(region.extents[d] + span->hi, n, 0);
    }
  }
  return success();
}

FailureOr<BlockOp> mlir::tir::readWriteAt(RewriterBase &rewriter, ForOp loop,
                                          BlockOp block, int64_t bufferIndex,
                                          StringRef scope, bool isRead,
                                          ScheduleError &error) {
  std::string primitive = isRead ? "read_at" : "write_at";
  FailureOr<Value> found =
      getNthAccessBuffer(block, bufferIndex,
                         /*isWrite=*/!isRead, primitive, error);
  if (failed(found))
    return failure();
  Value src = *found;
  if (!isValidStorageScope(scope))
    return refuse(error, block,
                  primitive + ": '" + scope +
                      "' is not a storage scope (global, shared, shared.dyn, "
                      "local, warp, wmma.*, ...)");
  if (!loop->isAncestor(block))
    return refuse(error, loop,
                  primitive + ": block '" + block.getBlockName() +
                      "' is not under loop " + loopName(loop));
  // The region is relaxed over the threads that share the copy's scope
  // (TVM); a source in a scope of its own would be relaxed over its own
  // threads as well.
  if (getStorageScope(cast<MemRefType>(src.getType())) != "global")
    return refuse(error, block,
                  primitive + ": buffer '" + getCachedBufferName(src) +
                      "' is in storage scope '" +
                      getStorageScope(cast<MemRefType>(src.getType())) +
                      "'; copies are made of global buffers");
  Operation *root = getScopeRoot(loop);
  BlockDependences scopeBlocks(getScopeBlocks(root));
  if (failed(checkStagePipeline(primitive, scopeBlocks, error)))
    return failure();

  // The statements of the loop's body that read / write the buffer, and
  // the blocks among them that access it the way the primitive copies.
  SmallVector<Operation *> subtrees;
  for (Operation &op : *loop.getBody())
    subtrees.push_back(&op);
  SmallVector<unsigned> readAt, writeAt;
  SmallVector<BlockOp> accessing;
  for (auto [i, op] : llvm::enumerate(subtrees)) {
    SmallVector<BlockOp> blocks;
    if (auto b = dyn_cast<BlockOp>(op))
      blocks.push_back(b);
    else
      blocks = collectChildBlocks(op);
    bool reads = false, writes = false;
    for (BlockOp b : blocks) {
      SmallVector<Value> r, w;
      getAccessedBuffers(b, r, w);
      bool br = llvm::is_contained(r, src), bw = llvm::is_contained(w, src);
      reads |= br;
      writes |= bw;
      if (isRead ? br : bw)
        accessing.push_back(b);
    }
    if (reads)
      readAt.push_back(i);
    if (writes)
      writeAt.push_back(i);
  }
  std::string name = getCachedBufferName(src);
  auto type = cast<MemRefType>(src.getType());
  unsigned insert, first, last;
  if (isRead) {
    if (readAt.empty())
      return refuse(error, loop,
                    "read_at: no statement of loop " + loopName(loop) +
                        " reads '" + name + "'");
    if (!writeAt.empty() && writeAt.back() >= readAt.front())
      return refuse(error, loop,
                    "read_at: a statement of loop " + loopName(loop) +
                        " writes '" + name +
                        "' where it is read, or after: a copy before the "
                        "reads would miss what it writes");
    insert = first = readAt.front();
    last = subtrees.size();
  } else {
    if (writeAt.empty())
      return refuse(error, loop,
                    "write_at: no statement of loop " + loopName(loop) +
                        " writes '" + name + "'");
    if (!readAt.empty() && readAt.back() > writeAt.back())
      return refuse(error, loop,
                    "write_at: a statement of loop " + loopName(loop) +
                        " reads '" + name +
                        "' after the last one that writes it: it would read "
                        "the buffer before the copy back");
    insert = last = writeAt.back() + 1;
    first = 0;
  }

  // The region the statements access, over the values outside the loop.
  Refusal why;
  FailureOr<LoopRegion> region =
      relaxRegionUnderLoop(loop, src, /*writes=*/!isRead, accessing, why);
  if (failed(region))
    return refuse(error, loop, primitive + ": " + why.message);
  if (failed(relaxOverSharingThreads(loop, scope, *region)))
    return refuse(error, loop,
                  primitive + ": the region of '" + name +
                      "' cannot be relaxed over the threads sharing '" + scope +
                      "' memory");
  // Only the values the region still depends on, in the order TVM meets
  // them (each dimension's lower bound, then its extent).
  {
    MLIRContext *ctx = loop.getContext();
    unsigned n = region->inputs.size();
    SmallVector<AffineExpr> remap(n, getAffineConstantExpr(0, ctx));
    SmallVector<Value> used;
    SmallVector<bool> seen(n, false);
    for (unsigned d = 0; d < region->lowers.size(); ++d)
      for (AffineExpr e : {region->lowers[d], region->extents[d]})
        for (unsigned k = 0; k < n; ++k)
          if (!seen[k] && e.isFunctionOfDim(k)) {
            seen[k] = true;
            remap[k] = getAffineDimExpr(used.size(), ctx);
            used.push_back(region->inputs[k]);
          }
    for (unsigned d = 0; d < region->lowers.size(); ++d) {
      region->lowers[d] = region->lowers[d].replaceDims(remap);
      region->extents[d] = region->extents[d].replaceDims(remap);
    }
    region->inputs = used;
  }
  // The copy's iteration variables are the loops (the given one and those
  // around it, up to the scope) the region depends on.
  SmallVector<ForOp> loops;
  for (Value v : region->inputs) {
    ForOp around = getLoopOfVar(v);
    bool enclosing = false;
    for (Operation *p = loop; around && p && p != root; p = p->getParentOp())
      enclosing |= p == around.getOperation();
    if (!around || !enclosing || !around.getConstantLowerBound() ||
        !around.getConstantUpperBound())
      return refuse(error, loop,
                    primitive + ": the region of '" + name +
                        "' depends on a value that is not the variable of a "
                        "loop from " +
                        loopName(loop) +
                        " out to its scope, with constant bounds");
    loops.push_back(around);
  }

  // The statements read the copy where they read the buffer: what they
  // read must be what they wrote before (a reduction's init writes first),
  // not what the buffer held before the loop, which the copy lacks.
  if (!isRead)
    for (unsigned i = 0; i < insert; ++i) {
      WalkResult stale = subtrees[i]->walk([&](BlockOp b) {
        SmallVector<Value> r, w;
        getAccessedBuffers(b, r, w);
        if (llvm::is_contained(r, src) && !b.getInitOp())
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (stale.wasInterrupted())
        return refuse(error, loop,
                      "write_at: a statement of loop " + loopName(loop) +
                          " reads '" + name +
                          "' without a tir.init writing it first: it would "
                          "read the copy, which lacks what the buffer held "
                          "before the loop");
    }
  // A copy back writes every element of the region: the statements must
  // write them all (a predicate or a strided access leaves holes whose
  // elements the copy would overwrite with what the copy buffer holds).
  // A block that lists more than its body writes (a whole dimension where
  // it writes one row) would leave such holes too, unseen by the region.
  if (!isRead)
    for (BlockOp block : accessing)
      if (listsMoreThanItWrites(block, src))
        return refuse(error, block,
                      "write_at: block '" + block.getBlockName() +
                          "' lists a wider region of '" + name +
                          "' than its body writes: the copy "
                          "back of the listed region would write elements "
                          "the block never wrote");
  if (!isRead && !region->exact)
    return refuse(error, loop,
                  "write_at: the statements of loop " + loopName(loop) +
                      " may not write every element of the region of '" + name +
                      "' they write (a predicate, a strided or partial "
                      "access): the copy back would write the others");
  // The copy stays inside the buffer (a loop split with a remainder spans
  // past it: its predicate is not the copy's).
  {
    SmallVector<std::optional<Interval>> ranges =
        getValueRanges(region->inputs);
    for (unsigned d = 0; d < region->lowers.size(); ++d) {
      std::optional<Interval> lo = evaluateRange(region->lowers[d], ranges);
      std::optional<Interval> hi =
          evaluateRange(region->lowers[d] + region->extents[d] - 1, ranges);
      if (!lo || !hi || lo->lo < 0 || type.isDynamicDim(d) ||
          hi->hi >= type.getDimSize(d))
        return refuse(error, loop,
                      primitive + ": the region of '" + name +
                          "' the statements of loop " + loopName(loop) +
                          " access may leave the buffer in dimension " +
                          Twine(d) +
                          " (the loops span past it: a split with a "
                          "remainder); the copy would too");
    }
  }

  // The copy buffer, in the scope, and the statements pointed at it.
  Attribute space =
      scope == "global" ? Attribute() : rewriter.getStringAttr(scope);
  std::string copyName = (name + "_" + scope).str();
  Value dst =
      createBufferLike(rewriter, root, src, type.getShape(), space, copyName);
  SmallVector<BlockOp> retargeted;
  for (unsigned i = first; i < last; ++i)
    subtrees[i]->walk([&](BlockOp b) { retargeted.push_back(b); });
  for (BlockOp b : retargeted)
    retargetAccesses(rewriter, b, src, dst, *region, /*shift=*/false);

  // The copy block.
  MLIRContext *ctx = rewriter.getContext();
  Location loc = block.getLoc();
  unsigned numIn = region->inputs.size();
  unsigned rank = region->lowers.size();
  SmallVector<IterVarSpec> vars;
  SmallVector<std::string> names;
  for (unsigned k = 0; k < numIn; ++k)
    names.push_back("v" + std::to_string(k));
  for (unsigned k = 0; k < numIn; ++k)
    vars.push_back({IterType::Spatial,
                    rewriter.getIndexAttr(*loops[k].getConstantLowerBound()),
                    rewriter.getIndexAttr(*loops[k].getConstantUpperBound()),
                    getAffineDimExpr(k, ctx), names[k]});
  OpBuilder::InsertionGuard guard(rewriter);
  if (insert < subtrees.size())
    rewriter.setInsertionPoint(subtrees[insert]);
  else
    rewriter.setInsertionPointToEnd(loop.getBody());
  Value from = isRead ? src : dst, to = isRead ? dst : src;
  auto copy = BlockOp::create(
      rewriter, loc, copyName, vars, region->inputs,
      [&](OpBuilder &b, Location l, ValueRange v) {
        // Loops ax0.. over the extents (over the iteration variables).
        SmallVector<Value> operands(v.begin(), v.end());
        SmallVector<Value> axes;
        for (unsigned d = 0; d < rank; ++d) {
          OpFoldResult extent =
              materializeIndex(b, l, region->extents[d], operands);
          auto inner = ForOp::create(b, l, b.getIndexAttr(0), extent,
                                     "ax" + std::to_string(d));
          b.setInsertionPointToStart(inner.getBody());
          axes.push_back(inner.getInductionVar());
        }
        SmallVector<Value> all(operands);
        llvm::append_range(all, axes);
        SmallVector<AffineExpr> at;
        for (unsigned d = 0; d < rank; ++d)
          at.push_back(simplifyIndexExpr(region->lowers[d] +
                                             getAffineDimExpr(numIn + d, ctx),
                                         all.size(), 0));
        AffineMap map = makeInputMap(all.size(), at, ctx);
        Value value = LoadOp::create(b, l, from, map, all);
        StoreOp::create(b, l, value, to, map, all);
      });
  NamedAttrList annotations;
  annotations.set("auto_copy", rewriter.getBoolAttr(true));
  copy.setAnnotationsAttr(annotations.getDictionary(ctx));
  setInferredRegions(copy);
  updateEnclosingRegions(rewriter, retargeted, root, src);
  return copy;
}
