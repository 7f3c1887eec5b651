//===- CompactBuffers.cpp - buffers allocated where they are used ---------===//
//
// The plan of TVM's PlanAndUpdateBufferAllocationLocation +
// CompactBufferAllocation (see CompactBuffers.h); convert-tir-to-scf
// allocates the buffers where the plan says and shifts their indices.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToSCF/CompactBuffers.h"
#include "TensorIR/Dialect/TIR/Analysis/BufferCompaction.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tir;

/// Whether only loops lie between `block` and `loop` (which contains it).
static bool onlyLoopsBetween(BlockOp block, ForOp loop) {
  for (Operation *op = block->getParentOp(); op != loop.getOperation();
       op = op->getParentOp())
    if (!op || !isa<ForOp>(op))
      return false;
  return true;
}

/// Whether every iteration of the loops from `plan.loop` out to `scope`
/// touches a part of its own: each such loop of more than one iteration
/// moves the start of exactly one dimension, linearly, and in each
/// dimension the moves, smallest first, form a mixed radix (each at least
/// the previous times its loop's trip count) whose smallest step is at
/// least the part's extent. Then two different iterations differ in some
/// dimension by at least its extent. Other values the starts use must be
/// fixed while those loops run (defined outside them). No loop on the way
/// may be vectorized. Sets `plan.home`, the innermost parallel loop.
static bool disjointIterations(CompactedBuffer &plan, ArrayRef<int64_t> shape,
                               Operation *scope) {
  ForOp loop0 = plan.loop;
  MLIRContext *ctx = loop0.getContext();
  unsigned n = plan.inputs.size();
  struct Step {
    int64_t step, trips;
  };
  SmallVector<SmallVector<Step>> steps(shape.size());
  SmallVector<Value> ivs;
  Operation *outermost = loop0;
  for (Operation *op = loop0; op && op != scope; op = op->getParentOp()) {
    auto loop = dyn_cast<ForOp>(op);
    if (!loop)
      continue;
    outermost = loop;
    ivs.push_back(loop.getInductionVar());
    std::optional<int64_t> lo = loop.getConstantLowerBound();
    std::optional<int64_t> up = loop.getConstantUpperBound();
    if (lo && up && *up - *lo <= 1)
      continue;
    if (loop.getKind() == ForKind::Vectorized)
      return false;
    if (loop.getKind() == ForKind::Parallel && !plan.home)
      plan.home = loop;
    auto it = llvm::find(plan.inputs, loop.getInductionVar());
    if (it == plan.inputs.end())
      return false;
    unsigned k = it - plan.inputs.begin();
    SmallVector<AffineExpr> next;
    for (unsigned i = 0; i < n; ++i)
      next.push_back(getAffineDimExpr(i, ctx) + (i == k ? 1 : 0));
    std::optional<unsigned> moved;
    for (unsigned d = 0, e = shape.size(); d < e; ++d) {
      std::optional<int64_t> step = getConstantDifference(
          plan.lowers[d].replaceDims(next), plan.lowers[d], n, 0);
      if (!step)
        return false;
      if (*step == 0)
        continue;
      if (moved)
        return false;
      moved = d;
      steps[d].push_back({std::abs(*step), lo && up ? *up - *lo : int64_t(-1)});
    }
    if (!moved)
      return false;
  }
  for (Value v : plan.inputs)
    if (!llvm::is_contained(ivs, v)) {
      Operation *def = isa<BlockArgument>(v)
                           ? cast<BlockArgument>(v).getOwner()->getParentOp()
                           : v.getDefiningOp();
      if (def && outermost->isAncestor(def))
        return false;
    }
  for (auto [d, list] : llvm::enumerate(steps)) {
    llvm::sort(list, [](Step a, Step b) { return a.step < b.step; });
    for (auto [i, s] : llvm::enumerate(list)) {
      if (i == 0 && s.step < shape[d])
        return false;
      if (i > 0 && (list[i - 1].trips < 0 ||
                    s.step < list[i - 1].step * list[i - 1].trips))
        return false;
    }
  }
  return true;
}

/// The plan for `buffer` at `loop`, if the iterations of `loop` touch
/// disjoint boxes of constant extents.
static std::optional<CompactedBuffer> planAtLoop(Value buffer, ForOp loop,
                                                 ArrayRef<BlockOp> blocks,
                                                 Operation *scope) {
  // (Buffers of runtime size stay whole on the CPU.)
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.hasStaticShape())
    return std::nullopt;
  Refusal ignored;
  FailureOr<CompactPart> part = getCompactPart(loop, buffer, blocks, ignored);
  if (failed(part))
    return std::nullopt;
  CompactedBuffer plan;
  plan.loop = loop;
  plan.inputs = part->inputs;
  plan.lowers = part->lowers;
  ArrayRef<int64_t> shape = part->shape;
  if (llvm::equal(shape, type.getShape()) ||
      !disjointIterations(plan, shape, scope))
    return std::nullopt;
  plan.type = MemRefType::get(shape, type.getElementType(), AffineMap(),
                              type.getMemorySpace());
  return plan;
}

llvm::MapVector<Value, CompactedBuffer>
mlir::tir::planBufferCompaction(Operation *root) {
  llvm::MapVector<Value, CompactedBuffer> plans;
  root->walk([&](AllocBufferOp alloc) {
    Value buffer = alloc.getBuffer();
    MemRefType type = alloc.getBuffer().getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return;
    SmallVector<BlockOp> blocks = getAccessingBlocks(buffer);
    if (blocks.empty())
      return;
    Operation *scope = alloc->getParentOp();
    // Loops around the first block, innermost first, inside the scope;
    // those around every block are candidates.
    for (auto loop = blocks.front()->getParentOfType<ForOp>();
         loop && scope->isProperAncestor(loop);
         loop = loop->getParentOfType<ForOp>()) {
      if (loop.getKind() == ForKind::ThreadBinding)
        return;
      if (!llvm::all_of(blocks, [&](BlockOp b) {
            return loop->isProperAncestor(b) && onlyLoopsBetween(b, loop);
          }))
        continue;
      if (std::optional<CompactedBuffer> plan =
              planAtLoop(buffer, loop, blocks, scope)) {
        plans.insert({buffer, *plan});
        return;
      }
    }
  });
  return plans;
}
