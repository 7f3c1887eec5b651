//===- MergeParallelParts.cpp - one parallel loop per partitioned loop ----===//
//
// --tir-partition-loops cuts a parallel loop like any other: `for i in
// [0, 8) parallel` over a predicate that fails only at i = 7 becomes
// [0, 7) and [7, 8), two parallel loops one after the other. Each is a
// fork and a join, and the tail's single iteration runs on one thread while
// the others wait: on two threads, 8 row blocks of a GEMM took 4 + 1 block
// times instead of 4.
//
// The parts carry the annotation `partition_group` = N (the same N for
// every part of one loop). After the conversion to scf, this pass merges
// each run of scf.parallel siblings of one group (only pure ops, such as the
// bounds' constants, between them), with constant
// contiguous bounds and step 1, back into one scf.parallel over their union
// whose body picks the part's code with a chain of scf.if on the induction
// variable; each part's body keeps what partitioning simplified in it. The
// annotation is dropped everywhere.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRMERGEPARALLELPARTSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// The group of the parts of a partitioned parallel loop, or nullopt.
static std::optional<int64_t> partitionGroup(Operation *op) {
  auto annotations =
      op->getAttrOfType<DictionaryAttr>(TIRDialect::kAnnotationsAttrName);
  if (!annotations)
    return std::nullopt;
  auto group = dyn_cast_if_present<IntegerAttr>(
      annotations.get(TIRDialect::kPartitionGroupKey));
  if (!group)
    return std::nullopt;
  return group.getInt();
}

/// Removes the group annotation (and the annotations when nothing is left).
static void dropPartitionGroup(Operation *op) {
  auto annotations =
      op->getAttrOfType<DictionaryAttr>(TIRDialect::kAnnotationsAttrName);
  if (!annotations)
    return;
  NamedAttrList kept(annotations);
  kept.erase(TIRDialect::kPartitionGroupKey);
  if (kept.empty())
    op->removeAttr(TIRDialect::kAnnotationsAttrName);
  else
    op->setAttr(TIRDialect::kAnnotationsAttrName,
                kept.getDictionary(op->getContext()));
}

/// [lower, upper) of a one-dimensional scf.parallel with constant bounds,
/// step 1 and no reductions, or nullopt.
static std::optional<std::pair<int64_t, int64_t>>
constantRange(scf::ParallelOp loop) {
  if (loop.getNumLoops() != 1 || loop.getNumResults() != 0)
    return std::nullopt;
  std::optional<int64_t> lower =
      getConstantIntValue(loop.getLowerBound().front());
  std::optional<int64_t> upper =
      getConstantIntValue(loop.getUpperBound().front());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep().front());
  if (!lower || !upper || !step || *step != 1)
    return std::nullopt;
  return std::make_pair(*lower, *upper);
}

/// Moves the body of `part` (without its terminator) before `before`, its
/// induction variable replaced by `iv`.
static void moveBody(scf::ParallelOp part, Operation *before, Value iv) {
  Block *body = part.getBody();
  body->getArgument(0).replaceAllUsesWith(iv);
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator()))
    op.moveBefore(before);
}

/// The part of a group before `loop` in its block, past the pure ops the
/// conversion put between them (the bounds' constants), or null.
static Operation *previousPart(scf::ParallelOp loop) {
  Operation *op = loop->getPrevNode();
  while (op && op->getNumRegions() == 0 && isPure(op))
    op = op->getPrevNode();
  return isa_and_present<scf::ParallelOp>(op) ? op : nullptr;
}

/// Merges `parts` (in order in one block, only pure ops between them,
/// contiguous) into one loop where the last stands: every bound dominates
/// it, and the ops between the parts have no effects to reorder.
static void merge(MutableArrayRef<scf::ParallelOp> parts) {
  scf::ParallelOp first = parts.front();
  OpBuilder b(parts.back());
  Location loc = first.getLoc();
  auto merged =
      scf::ParallelOp::create(b, loc, first.getLowerBound(),
                              parts.back().getUpperBound(), first.getStep());
  if (Attribute annotations =
          first->getAttr(TIRDialect::kAnnotationsAttrName)) {
    merged->setAttr(TIRDialect::kAnnotationsAttrName, annotations);
    dropPartitionGroup(merged);
  }
  Value iv = merged.getBody()->getArgument(0);
  Operation *insertBefore = merged.getBody()->getTerminator();
  // if (iv < upper_0) part 0 else if (iv < upper_1) part 1 ... else last.
  for (auto [index, part] : llvm::enumerate(parts)) {
    if (index + 1 == parts.size()) {
      moveBody(part, insertBefore, iv);
      break;
    }
    b.setInsertionPoint(insertBefore);
    Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                        part.getUpperBound().front());
    auto branch = scf::IfOp::create(b, loc, below, /*withElseRegion=*/true);
    moveBody(part, branch.thenBlock()->getTerminator(), iv);
    insertBefore = branch.elseBlock()->getTerminator();
  }
  for (scf::ParallelOp part : parts)
    part->erase();
}

namespace {
struct TIRMergeParallelPartsPass
    : public tir::impl::TIRMergeParallelPartsPassBase<
          TIRMergeParallelPartsPass> {
  void runOnOperation() override {
    // Runs of adjacent parts of one group, innermost loops first (a part
    // may hold parts of a loop inside it; merging moves them, whole).
    SmallVector<SmallVector<scf::ParallelOp>> runs;
    DenseMap<Operation *, unsigned> runOf;
    getOperation()->walk([&](scf::ParallelOp loop) {
      std::optional<int64_t> group = partitionGroup(loop);
      if (!group)
        return;
      auto previous = runOf.find(previousPart(loop));
      if (previous != runOf.end() && partitionGroup(previous->first) == group) {
        runs[previous->second].push_back(loop);
        runOf[loop] = previous->second;
        return;
      }
      runOf[loop] = runs.size();
      runs.push_back({loop});
    });
    for (MutableArrayRef<scf::ParallelOp> run : runs) {
      bool contiguous = run.size() > 1;
      std::optional<int64_t> end;
      for (scf::ParallelOp part : run) {
        auto range = constantRange(part);
        if (!range || (end && *end != range->first)) {
          contiguous = false;
          break;
        }
        end = range->second;
      }
      if (contiguous) {
        merge(run);
        continue;
      }
      for (scf::ParallelOp part : run)
        dropPartitionGroup(part);
    }
  }
};
} // namespace
