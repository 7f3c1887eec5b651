//===- NarrowPredicatedLoops.cpp - loop ranges from block predicates ------===//
//
// A split whose factors overshoot the loop (an extent of 3 split by
// [6, 6, 7, 6]) leaves a nest of 1,512 iterations whose block predicate
// keeps 3. The program is right, but LLVM's full unrolling sees that the
// predicate folds to false in almost every iteration, unrolls the nest, and
// then spends minutes in jump threading on the unrolled function (the
// differential tester's F4: 150 s for a 15-element stencil).
//
// This pass gives such loops the range the predicate allows. For a chain
// of tir.for loops, each of whose bodies is only the next loop, ending in
// one predicated tir.block, the predicate (each of its disjuncts, with the
// ranges of every value it reads) is projected onto each loop variable
// with Presburger arithmetic; a constant loop is narrowed to the hull of
// those projections. Iterations outside it run no block, so nothing else
// changes: the predicate stays (it still decides inside the range), and
// the block's bindings and iteration domains are untouched.
//
// Vectorized and thread-bound loops keep their extents (their lane count
// and launch size are the user's choice); serial, parallel and unrolled
// loops are narrowed. Predicates that are not affine are left alone.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRNARROWPREDICATEDLOOPSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;
using presburger::BoundType;

/// The loops around `block` that only hold the next loop (or the block),
/// outermost first, stopping at the first that holds anything else.
static SmallVector<ForOp> enclosingChain(BlockOp block) {
  SmallVector<ForOp> chain;
  Operation *inner = block;
  while (auto loop = dyn_cast_if_present<ForOp>(inner->getParentOp())) {
    if (!llvm::hasSingleElement(loop.getBody()->getOperations()))
      break;
    chain.push_back(loop);
    inner = loop;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

static bool isNarrowable(ForOp loop) {
  ForKind kind = loop.getKind();
  return (kind == ForKind::Serial || kind == ForKind::Parallel ||
          kind == ForKind::Unrolled) &&
         loop.getConstantLowerBound() && loop.getConstantUpperBound();
}

/// The hull, over the predicate's disjuncts, of the values each of
/// `block`'s binding values takes where the disjunct holds: nullopt for a
/// value no disjunct bounds on some side; an empty hull (lo > hi) when no
/// disjunct can hold. Fails when a disjunct is not affine.
static FailureOr<SmallVector<std::optional<Interval>>>
predicateHull(BlockOp block) {
  ValueRange values = block.getBindingValues();
  SmallVector<std::optional<Interval>> ranges = getValueRanges(values);
  SmallVector<std::optional<Interval>> hull(values.size(), Interval{1, 0});
  unsigned numRead = 0;
  for (IntegerSet set : block.getPredicateSets()) {
    numRead = std::max(numRead, set.getNumInputs());
    for (AffineExpr e : set.getConstraints())
      if (!e.isPureAffine())
        return failure();
    if (set.getNumInputs() > values.size())
      return failure();
    FlatLinearValueConstraints cst(set);
    for (unsigned pos = 0, e = set.getNumInputs(); pos < e; ++pos) {
      if (!ranges[pos])
        continue;
      cst.addBound(BoundType::LB, pos, ranges[pos]->lo);
      cst.addBound(BoundType::UB, pos, ranges[pos]->hi);
    }
    if (cst.isIntegerEmpty())
      continue;
    for (unsigned pos = 0, e = set.getNumInputs(); pos < e; ++pos) {
      std::optional<Interval> &h = hull[pos];
      if (!h)
        continue;
      std::optional<int64_t> lo = cst.getConstantBound64(BoundType::LB, pos);
      std::optional<int64_t> hi = cst.getConstantBound64(BoundType::UB, pos);
      if (!lo || !hi) {
        h.reset();
        continue;
      }
      if (h->lo > h->hi)
        h = Interval{*lo, *hi};
      else
        h = Interval{std::min(h->lo, *lo), std::max(h->hi, *hi)};
    }
  }
  // Inputs the sets do not read are free.
  for (unsigned pos = numRead, e = values.size(); pos < e; ++pos)
    hull[pos].reset();
  return hull;
}

/// Narrows the constant loops of the chain above `block` to the range its
/// predicate allows their variables.
static void narrowLoopsAbove(BlockOp block) {
  if (!block.getPredicate())
    return;
  SmallVector<ForOp> chain = enclosingChain(block);
  if (!llvm::any_of(chain, isNarrowable))
    return;
  FailureOr<SmallVector<std::optional<Interval>>> hull = predicateHull(block);
  if (failed(hull))
    return;
  ValueRange values = block.getBindingValues();
  for (ForOp loop : chain) {
    if (!isNarrowable(loop))
      continue;
    // A variable read at several positions is bounded by each.
    std::optional<Interval> allowed;
    for (auto [value, h] : llvm::zip(values, *hull))
      if (value == loop.getInductionVar() && h)
        allowed = allowed ? Interval{std::max(allowed->lo, h->lo),
                                     std::min(allowed->hi, h->hi)}
                          : *h;
    if (!allowed)
      continue;
    int64_t lo = *loop.getConstantLowerBound();
    int64_t hi = *loop.getConstantUpperBound();
    int64_t newLo = std::max(lo, allowed->lo);
    int64_t newHi = std::min(hi, allowed->hi + 1);
    if (allowed->lo > allowed->hi || newHi < newLo) // the block never runs
      newHi = newLo = lo;
    if (newLo == lo && newHi == hi)
      continue;
    loop.setStaticBounds({newLo, newHi});
  }
}

namespace {
struct TIRNarrowPredicatedLoopsPass
    : public tir::impl::TIRNarrowPredicatedLoopsPassBase<
          TIRNarrowPredicatedLoopsPass> {
  void runOnOperation() override {
    getOperation()->walk([](BlockOp block) { narrowLoopsAbove(block); });
  }
};
} // namespace
