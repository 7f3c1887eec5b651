//===- LoopPartition.cpp - TVM's loop_partition
//----------------------------===//
//
// A loop is cut into consecutive partitions, each a copy of the loop over
// its range, each in an opaque block of its own, all in one opaque block:
//
//   for i in [0, 128):            block "B_i_common":
//     block B(vi = i)               block "B_i0_partition":
//                         =>          for i0 in [0, 2): block "B_i0"(vi = i0)
//                                   block "B_i1_partition":
//                                     for i1 in [2, 128): block "B_i1"(vi = i1)
//
// `factors` are partition sizes (one may be inferred: the extent less the
// others); without an inferred one, the rest of the loop is one more
// partition. Names follow TVM: `<B>_<i>` where B is the first block down
// the loop's nest, each block of partition k renamed `<name>_<i><k>`. In
// each copy, a block's first iteration variable bound to the partition's
// loop variable gets the partition's range as its domain (a reduce
// variable's block keeps its init only in the partition holding the
// domain's start, where the reduction starts: TVM keeps it in every
// partition, and the reduction restarts in each), and (as TVM does) each
// region of a buffer the block accesses at plain variables becomes those
// variables' domains.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

constexpr StringLiteral kPrimitive = "loop_partition";

/// The name of the first block down `loop`'s nest, through loops that hold
/// one statement; null when the nest branches first.
BlockOp firstBlock(ForOp loop) {
  Operation *op = loop;
  while (auto f = dyn_cast<ForOp>(op)) {
    Operation *only = nullptr;
    for (Operation &child : *f.getBody()) {
      if (child.getNumRegions() == 0 && child.getNumResults() != 0)
        continue; // index arithmetic
      if (only)
        return {};
      only = &child;
    }
    if (!only)
      return {};
    op = only;
  }
  return dyn_cast<BlockOp>(op);
}

/// The buffers `block` (and the blocks inside) first accesses at plain
/// variables, with those variables, in the order met (TVM's
/// BufferIndicesMapExtractor).
SmallVector<std::pair<Value, SmallVector<Value>>> plainAccesses(BlockOp block) {
  SmallVector<std::pair<Value, SmallVector<Value>>> found;
  // A buffer also accessed at other indices (A[vi] and A[vi + 1]) keeps
  // its region: its plain variables' domains would not cover it.
  SmallVector<Value> mixed;
  auto note = [&](Value buffer, AffineMap map, ValueRange operands) {
    SmallVector<Value> vars;
    bool plain = true;
    for (AffineExpr e : getExprsOverInputs(map)) {
      auto d = dyn_cast<AffineDimExpr>(e);
      plain &= bool(d);
      if (d)
        vars.push_back(operands[d.getPosition()]);
    }
    auto it = llvm::find_if(found, [&](auto &f) { return f.first == buffer; });
    if (!plain || (it != found.end() && it->second != vars))
      mixed.push_back(buffer);
    if (plain && it == found.end())
      found.push_back({buffer, std::move(vars)});
  };
  block.getBody()->walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      note(load.getBuffer(), load.getMap(), load.getIndices());
    else if (auto store = dyn_cast<StoreOp>(op))
      note(store.getBuffer(), store.getMap(), store.getIndices());
  });
  llvm::erase_if(found,
                 [&](auto &f) { return llvm::is_contained(mixed, f.first); });
  return found;
}

/// Renames the blocks of one partition, narrows the domain of the variable
/// bound to its loop variable `iv`, and widens regions as TVM does.
void adjustBlocks(RewriterBase &rewriter, Operation *root, Value iv,
                  StringRef suffix, int64_t lower, int64_t upper) {
  SmallVector<BlockOp> blocks;
  root->walk([&](BlockOp b) { blocks.push_back(b); });
  MLIRContext *ctx = rewriter.getContext();
  for (BlockOp block : blocks) {
    rewriter.modifyOpInPlace(block, [&] {
      block.setBlockName((block.getBlockName() + "_" + suffix).str());
    });
    if (block.getNumIterVars() == 0)
      continue;
    SmallVector<AffineExpr> bindings = block.getBindingExprs();
    for (unsigned i = 0; i < bindings.size(); ++i) {
      auto d = dyn_cast<AffineDimExpr>(bindings[i]);
      if (d && block.getBindingValues()[d.getPosition()] == iv) {
        // A block's init runs where its reduce variables start their
        // domains: only the partition holding the start keeps it (TVM
        // keeps it in every partition, narrowed, so the reduction restarts
        // in each and all but the last part is lost).
        InitOp init = block.getInitOp();
        std::optional<int64_t> start = block.getConstantDomainLower(i);
        if (init && block.getIterType(i) == IterType::Reduce &&
            !(start && lower <= *start && *start < upper))
          rewriter.eraseOp(init);
        // The partition's range, within the domain (a predicate may keep
        // the loop's end outside it).
        std::optional<int64_t> end = block.getConstantDomainUpper(i);
        int64_t lo = start ? std::max(lower, *start) : lower;
        int64_t hi = end ? std::min(upper, *end) : upper;
        if (lo < hi)
          rewriter.modifyOpInPlace(block, [&] {
            setIterVarDomain(block, i, rewriter.getIndexAttr(lo),
                             rewriter.getIndexAttr(hi));
          });
        break;
      }
    }
    Refusal failure;
    FailureOr<BlockAccessRegions> regions = getAccessRegions(block, failure);
    if (::mlir::failed(regions))
      continue;
    auto accesses = plainAccesses(block);
    auto widen = [&](std::pair<Value, RegionExprs> &region) {
      auto it = llvm::find_if(accesses,
                              [&](auto &a) { return a.first == region.first; });
      if (it == accesses.end())
        return;
      RegionExprs wide;
      for (Value v : it->second) {
        auto arg = dyn_cast<BlockArgument>(v);
        if (!arg || arg.getOwner() != block.getBody())
          return;
        auto lo = block.getConstantDomainLower(arg.getArgNumber());
        auto hi = block.getConstantDomainUpper(arg.getArgNumber());
        if (!lo || !hi)
          return;
        wide.starts.push_back(getAffineConstantExpr(*lo, ctx));
        wide.extents.push_back(getAffineConstantExpr(*hi - *lo, ctx));
      }
      region.second = std::move(wide);
    };
    for (auto &r : regions->reads)
      widen(r);
    for (auto &r : regions->writes)
      widen(r);
    rewriter.modifyOpInPlace(block, [&] { setRegions(block, *regions); });
  }
}

} // namespace

FailureOr<SmallVector<ForOp>>
mlir::tir::loopPartition(RewriterBase &rewriter, ForOp loop,
                         ArrayRef<std::optional<int64_t>> factors,
                         ScheduleError &error) {
  auto fail = [&](Operation *culprit, const Twine &why) {
    return refuse(error, culprit, kPrimitive + " " + why);
  };
  std::string name = loopName(loop);
  std::optional<int64_t> lo = loop.getConstantLowerBound();
  std::optional<int64_t> hi = loop.getConstantUpperBound();
  if (!lo || !hi)
    return fail(loop, "needs a loop with constant bounds, but loop " + name +
                          " has a bound known only at run time");
  if (factors.empty())
    return fail(loop, "needs at least one factor");
  int inferred = -1;
  int64_t given = 0;
  for (auto [k, f] : llvm::enumerate(factors)) {
    if (!f) {
      if (inferred >= 0)
        return fail(loop, "infers at most one factor, but factors " +
                              Twine(inferred) + " and " + Twine(k) +
                              " are both None");
      inferred = k;
      continue;
    }
    if (*f <= 0)
      return fail(loop, "needs positive factors, but factor " + Twine(k) +
                            " is " + Twine(*f));
    given += *f;
  }
  int64_t extent = *hi - *lo;
  if (given >= extent)
    return fail(loop, "needs factors that sum to less than the extent " +
                          Twine(extent) + " of loop " + name +
                          " (the last partition would be empty), but they "
                          "sum to " +
                          Twine(given));
  if (loop.getAnnotationsAttr() || loop.getThread())
    return fail(loop,
                "needs a loop without annotations or thread binding, "
                "but loop " +
                    name + " has " +
                    (loop.getThread() ? "a thread binding" : "annotations"));
  // A reduce variable fed through a compound binding (a fused loop) would
  // leave a copy of the block that reduces only part of some outputs, init
  // included (decompose_reduction of such a copy would reset the others'
  // partial sums): refused. A variable bound to the loop itself is cut
  // exactly (see adjustBlocks).
  // A reduction fed by loops above this one would have the partitions'
  // opaque blocks inside its nest: each copy then reduces over loops
  // outside its own scope, which rfactor and decompose_reduction take as
  // whole (refused).
  SmallVector<Value> above;
  for (auto outer = loop->getParentOfType<ForOp>(); outer;
       outer = outer->getParentOfType<ForOp>())
    above.push_back(outer.getInductionVar());
  WalkResult compound = loop.getBody()->walk([&](BlockOp block) {
    if (!block.getInitOp())
      return WalkResult::advance();
    SmallVector<AffineExpr> bindings = block.getBindingExprs();
    bool fedAbove = false;
    for (unsigned i = 0; i < bindings.size(); ++i)
      if (block.getIterType(i) == IterType::Reduce)
        for (Value v : above)
          fedAbove |= bindingUses(block, bindings, i, v);
    if (fedAbove) {
      (void)fail(block, "cannot cut loop " + name + ": block '" +
                            block.getBlockName() +
                            "' reduces over loops above it, and the "
                            "partitions would cut that reduction's nest");
      return WalkResult::interrupt();
    }
    for (unsigned i = 0; i < bindings.size(); ++i) {
      if (block.getIterType(i) != IterType::Reduce ||
          !bindingUses(block, bindings, i, loop.getInductionVar()))
        continue;
      auto d = dyn_cast<AffineDimExpr>(bindings[i]);
      if (d &&
          block.getBindingValues()[d.getPosition()] == loop.getInductionVar()) {
        // The partition holding the domain's start keeps the init.
        if (block.getConstantDomainLower(i))
          continue;
        (void)fail(block, "cannot cut loop " + name + ": reduce variable '" +
                              iterVarName(block, i) + "' of block '" +
                              block.getBlockName() +
                              "' starts where only run time knows, so no "
                              "partition can be known to hold its init");
        return WalkResult::interrupt();
      }
      (void)fail(block, "cannot cut loop " + name +
                            ", which feeds reduce "
                            "variable '" +
                            iterVarName(block, i) + "' of block '" +
                            block.getBlockName() +
                            "' (which has an init) through a compound binding");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (compound.wasInterrupted())
    return failure();
  BlockOp first = firstBlock(loop);
  if (!first)
    return fail(loop, "needs a loop whose nest leads to a block through "
                      "loops of one statement each (the partitions are named "
                      "after that block)");

  SmallVector<int64_t> sizes;
  for (std::optional<int64_t> f : factors)
    sizes.push_back(f.value_or(extent - given));
  if (inferred < 0)
    sizes.push_back(extent - given);
  std::string varName = loop.getVarName().value_or("v").str();
  std::string base = (first.getBlockName() + "_" + varName).str();

  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  BlockRegionsSpec none;
  SmallVector<ForOp> partitions;
  // The blocks are built empty and filled once in place: the copies'
  // blocks are adjusted where region analysis sees their surroundings.
  auto common = BlockOp::create(rewriter, loc, base + "_common", {}, {},
                                nullptr, {}, &none);
  int64_t start = *lo;
  for (auto [k, size] : llvm::enumerate(sizes)) {
    std::string suffix = varName + std::to_string(k);
    int64_t end = start + size;
    rewriter.setInsertionPointToEnd(common.getBody());
    auto holder = BlockOp::create(
        rewriter, loc,
        (first.getBlockName() + "_" + suffix + "_partition").str(), {}, {},
        nullptr, {}, &none);
    rewriter.setInsertionPointToEnd(holder.getBody());
    auto part = ForOp::create(rewriter, loc, start, end, suffix);
    if (loop.getKind() != ForKind::Serial)
      part.setKind(loop.getKind());
    IRMapping map;
    map.map(loop.getInductionVar(), part.getInductionVar());
    rewriter.setInsertionPointToStart(part.getBody());
    for (Operation &op : *loop.getBody())
      rewriter.clone(op, map);
    adjustBlocks(rewriter, part, part.getInductionVar(), suffix, start, end);
    partitions.push_back(part);
    start = end;
  }
  rewriter.eraseOp(loop);
  return partitions;
}
