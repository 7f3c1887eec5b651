//===- PartitionLoops.cpp - predicate-free main parts of tiled loops ------===//
//
// TVM's LoopPartition. A split that does not divide its loop (1000 by 32)
// leaves a predicate (`where i < 1000`) on the block it tiles, evaluated at
// every iteration; a predicated block in an unrolled or vectorized nest
// keeps LLVM from keeping an accumulator in registers or from using full
// vectors, so a tiled GEMM of 1000^3 ran 30 times slower than 1024^3.
//
// This pass cuts such loops where a conjunct of a predicate changes from
// "holds for every value of the other inputs" to "may fail" (or from "may
// hold" to "never holds"): `for i0 in [0, 16)` over `i0 * 64 + i1 < 1000`
// with i1 in [0, 64) becomes [0, 15), where the conjunct always holds, and
// [15, 16). Loops are cut outermost first and both parts are looked at
// again, so the loops inside the last part see its narrow range and are
// cut in turn. Then every conjunct that holds over the ranges its inputs
// now have is dropped, blocks whose predicate can never hold are erased,
// and loops left empty are erased.
//
// The condition under which a block's init runs (every reduce variable at
// the start of its domain) guides cuts the same way, so reduction loops are
// cut after their first iteration; the copies where the init can never
// run lose it, and the first iteration's copy runs it unconditionally once
// its single-iteration loops fold (a GEMM's tile of C then starts from
// zeroed registers instead of being zeroed in memory and loaded back).
//
// The parts of a parallel loop are annotated `partition_group` = N (N per
// loop) so that --tir-merge-parallel-parts, after the conversion to scf,
// makes them one parallel loop again (one fork and join, the tail's
// iterations shared among the threads).
//
// Serial, parallel, unrolled and vectorized loops with constant bounds are
// cut: a vectorized loop whose last lanes never run becomes a narrower one
// (8 of 16 lanes: a vector of 8, where masked loads and stores of the
// accumulator in every iteration cost a GEMM's 8-column tail 40% of its
// time). Thread-bound loops keep their extents (the launch is the user's),
// and nothing in a loop annotated for software pipelining is cut (the
// annotation numbers its statements). Only
// predicates of one conjunction of affine constraints are used for cuts.
// Each cut copies the loop's body: at most kMaxCuts cuts are made in one
// function.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/MathExtras.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRPARTITIONLOOPSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// Cuts made in one function at most: each copies a loop nest.
static constexpr unsigned kMaxCuts = 128;

/// Whether `loop` is annotated for software pipelining: its statements are
/// numbered by the annotation, so nothing in it is cut.
static bool isPipelined(ForOp loop) {
  auto annotations = loop.getAnnotations();
  return annotations && annotations->contains("software_pipeline_stage");
}

static bool isCuttable(ForOp loop) {
  ForKind kind = loop.getKind();
  if (kind != ForKind::Serial && kind != ForKind::Parallel &&
      kind != ForKind::Unrolled && kind != ForKind::Vectorized)
    return false;
  return loop.getConstantLowerBound() && loop.getConstantUpperBound();
}

/// How constraint `expr >= 0` of `block` (over its binding values) depends
/// on `iv`: expr = a * iv + rest, with the range of rest over the current
/// ranges of the other values. nullopt when it does not depend on `iv`
/// linearly or some other value has no known range.
struct LinearDependence {
  int64_t coefficient;
  Interval rest;
};
static std::optional<LinearDependence>
dependenceOn(AffineExpr expr, ValueRange values, Value iv,
             ArrayRef<std::optional<Interval>> ranges) {
  if (!expr.isPureAffine())
    return std::nullopt;
  MLIRContext *ctx = expr.getContext();
  unsigned n = values.size();
  // Every position that reads `iv` as one new dimension n.
  SmallVector<AffineExpr> dims, zeroed;
  SmallVector<std::optional<Interval>> restRanges(ranges);
  bool reads = false;
  for (unsigned p = 0; p < n; ++p) {
    bool isIv = values[p] == iv;
    reads |= isIv;
    dims.push_back(isIv ? getAffineDimExpr(n, ctx) : getAffineDimExpr(p, ctx));
    zeroed.push_back(isIv ? getAffineConstantExpr(0, ctx)
                          : getAffineDimExpr(p, ctx));
    if (isIv)
      restRanges[p] = Interval::point(0);
  }
  if (!reads)
    return std::nullopt;
  AffineExpr merged = expr.replaceDims(dims);
  // The coefficient of dimension n: merged(n + 1) - merged(n).
  SmallVector<AffineExpr> shifted;
  for (unsigned p = 0; p < n; ++p)
    shifted.push_back(getAffineDimExpr(p, ctx));
  shifted.push_back(getAffineDimExpr(n, ctx) + 1);
  AffineExpr diff =
      simplifyIndexExpr(merged.replaceDims(shifted) - merged, n + 1, 0);
  auto coefficient = dyn_cast<AffineConstantExpr>(diff);
  if (!coefficient || coefficient.getValue() == 0)
    return std::nullopt;
  std::optional<Interval> rest = evaluateRange(
      simplifyIndexExpr(expr.replaceDims(zeroed), n, 0), restRanges);
  if (!rest)
    return std::nullopt;
  return LinearDependence{coefficient.getValue(), *rest};
}

/// The predicate of `block` as one conjunction, or null.
static IntegerSet singleConjunction(BlockOp block) {
  SmallVector<IntegerSet> sets = block.getPredicateSets();
  if (sets.size() != 1 || block.getCondition() ||
      sets.front().getNumSymbols() != 0)
    return IntegerSet();
  if (sets.front().getNumInputs() > block.getBindingValues().size())
    return IntegerSet();
  return sets.front();
}

/// When `block`'s init runs, as constraints `expr >= 0` over its binding
/// values: every reduce variable at the start of its domain (binding <=
/// lower; binding >= lower always holds). Empty when the block has no init,
/// a reduce variable's domain starts at a runtime value or the block has no
/// reduce variable (its init then runs in every iteration).
static SmallVector<AffineExpr> initConstraints(BlockOp block) {
  SmallVector<AffineExpr> constraints;
  if (!block.getInitOp())
    return constraints;
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    if (block.getIterType(i) != IterType::Reduce)
      continue;
    std::optional<int64_t> lower = block.getConstantDomainLower(i);
    if (!lower)
      return {};
    constraints.push_back(*lower - bindings[i]);
  }
  return constraints;
}

/// Where to cut `loop` ([lo, hi)): the smallest value strictly inside at
/// which some conjunct of a block under it (of its predicate, or of the
/// condition under which its init runs) starts or stops holding for every
/// value of the other inputs, or starts never holding.
static std::optional<int64_t> findCut(ForOp loop) {
  int64_t lo = *loop.getConstantLowerBound();
  int64_t hi = *loop.getConstantUpperBound();
  Value iv = loop.getInductionVar();
  std::optional<int64_t> best;
  auto offer = [&](int64_t at) {
    if (at > lo && at < hi && (!best || at < *best))
      best = at;
  };
  loop.walk([&](BlockOp block) {
    SmallVector<AffineExpr> constraints = initConstraints(block);
    if (IntegerSet set = singleConjunction(block))
      for (auto [expr, isEq] :
           llvm::zip(set.getConstraints(), set.getEqFlags()))
        if (!isEq)
          constraints.push_back(expr);
    if (constraints.empty())
      return;
    ValueRange values = block.getBindingValues();
    SmallVector<std::optional<Interval>> ranges = getValueRanges(values);
    for (AffineExpr expr : constraints) {
      std::optional<LinearDependence> dep =
          dependenceOn(expr, values, iv, ranges);
      if (!dep)
        continue;
      int64_t a = dep->coefficient;
      // a * x + rest >= 0 for every rest when a * x + rest.lo >= 0, and
      // for none when a * x + rest.hi < 0.
      if (a < 0) {
        // It holds below the first cut, and never holds from the second.
        offer(llvm::divideFloorSigned(dep->rest.lo, -a) + 1);
        offer(llvm::divideFloorSigned(dep->rest.hi, -a) + 1);
      } else {
        offer(llvm::divideCeilSigned(-dep->rest.lo, a)); // holds from here
        offer(llvm::divideCeilSigned(-dep->rest.hi, a)); // never holds below
      }
    }
  });
  return best;
}

/// Marks `loop` (parallel, about to be cut) as a part of group `next` (and
/// counts it) unless it already is one: the parts of one parallel loop
/// share a group, which --tir-merge-parallel-parts makes one loop again.
static void markParallelPart(ForOp loop, int64_t &next) {
  if (loop.getKind() != ForKind::Parallel)
    return;
  DictionaryAttr annotations = loop.getAnnotationsAttr();
  if (annotations && annotations.contains(TIRDialect::kPartitionGroupKey))
    return;
  NamedAttrList entries(annotations);
  entries.set(
      TIRDialect::kPartitionGroupKey,
      IntegerAttr::get(IntegerType::get(loop.getContext(), 64), next++));
  loop.setAnnotationsAttr(entries.getDictionary(loop.getContext()));
}

/// Cuts `loop` and the loops inside it, outermost first.
static void partition(ForOp loop, unsigned &cuts, int64_t &groups) {
  if (isPipelined(loop))
    return;
  if (cuts < kMaxCuts && isCuttable(loop)) {
    if (std::optional<int64_t> at = findCut(loop)) {
      int64_t lo = *loop.getConstantLowerBound();
      int64_t hi = *loop.getConstantUpperBound();
      markParallelPart(loop, groups);
      OpBuilder builder(loop->getContext());
      builder.setInsertionPointAfter(loop);
      auto tail = cast<ForOp>(builder.clone(*loop.getOperation()));
      loop.setStaticBounds({lo, *at});
      tail.setStaticBounds({*at, hi});
      ++cuts;
      partition(loop, cuts, groups);
      partition(tail, cuts, groups);
      return;
    }
  }
  SmallVector<ForOp> inner;
  for (Operation &op : loop.getBody()->getOperations())
    op.walk<WalkOrder::PreOrder>([&](ForOp nested) {
      inner.push_back(nested);
      return WalkResult::skip();
    });
  for (ForOp nested : inner)
    partition(nested, cuts, groups);
}

/// Drops the conjuncts of `block`'s predicate that hold over the ranges of
/// their inputs. Returns false when the predicate can never hold.
static bool simplifyPredicate(BlockOp block) {
  IntegerSet set = singleConjunction(block);
  if (!set)
    return true;
  SmallVector<std::optional<Interval>> ranges =
      getValueRanges(block.getBindingValues());
  ranges.resize(set.getNumInputs());
  SmallVector<AffineExpr> kept;
  SmallVector<bool> keptEq;
  for (auto [expr, isEq] : llvm::zip(set.getConstraints(), set.getEqFlags())) {
    std::optional<Interval> range =
        evaluateRange(expr, ArrayRef(ranges).take_front(set.getNumDims()),
                      ArrayRef(ranges).drop_front(set.getNumDims()));
    if (range) {
      if (isEq ? (range->lo > 0 || range->hi < 0) : range->hi < 0)
        return false;
      if (isEq ? (range->lo == 0 && range->hi == 0) : range->lo >= 0)
        continue;
    }
    kept.push_back(expr);
    keptEq.push_back(isEq);
  }
  if (kept.size() == set.getNumConstraints())
    return true;
  if (kept.empty()) {
    block.removePredicateAttr();
    return true;
  }
  IntegerSet reduced =
      IntegerSet::get(set.getNumDims(), set.getNumSymbols(), kept, keptEq);
  block.setPredicateAttr(
      ArrayAttr::get(block.getContext(), {IntegerSetAttr::get(reduced)}));
  return true;
}

/// Erases `block`'s init when it can never run over the ranges of the
/// block's binding values (a part of a reduction loop after its first
/// iteration).
static void dropUnreachableInit(BlockOp block) {
  SmallVector<AffineExpr> constraints = initConstraints(block);
  if (constraints.empty())
    return;
  ValueRange values = block.getBindingValues();
  SmallVector<std::optional<Interval>> ranges = getValueRanges(values);
  for (AffineExpr expr : constraints) {
    std::optional<Interval> range = evaluateRange(expr, ranges);
    if (range && range->hi < 0) {
      block.getInitOp()->erase();
      return;
    }
  }
}

namespace {
struct TIRPartitionLoopsPass
    : public tir::impl::TIRPartitionLoopsPassBase<TIRPartitionLoopsPass> {
  void runOnOperation() override {
    // Per function: the outermost loops of each.
    SmallVector<Operation *> scopes;
    getOperation()->walk([&](Operation *op) {
      if (op->hasTrait<OpTrait::IsIsolatedFromAbove>())
        scopes.push_back(op);
    });
    int64_t groups = 0;
    for (Operation *scope : scopes) {
      SmallVector<ForOp> outer;
      scope->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op != scope && op->hasTrait<OpTrait::IsIsolatedFromAbove>())
          return WalkResult::skip();
        if (auto loop = dyn_cast<ForOp>(op)) {
          outer.push_back(loop);
          return WalkResult::skip();
        }
        return WalkResult::advance();
      });
      unsigned cuts = 0;
      for (ForOp loop : outer)
        partition(loop, cuts, groups);
    }
    SmallVector<BlockOp> dead;
    getOperation()->walk([&](BlockOp block) {
      if (!simplifyPredicate(block))
        dead.push_back(block);
    });
    // Outer dead blocks first (an inner one goes with them); then the
    // inits that can never run, once no erased block is referred to.
    IRRewriter rewriter(&getContext());
    DenseSet<Operation *> deadSet;
    for (BlockOp block : dead)
      deadSet.insert(block);
    // (Decided before anything is erased: an erased op is not looked at.)
    SmallVector<BlockOp> outermost;
    for (BlockOp block : dead) {
      bool nested = false;
      for (Operation *p = block->getParentOp(); p && !nested;
           p = p->getParentOp())
        nested = deadSet.contains(p);
      if (!nested)
        outermost.push_back(block);
    }
    for (BlockOp block : outermost) {
      Operation *parent = block->getParentOp();
      rewriter.eraseOp(block);
      eraseEmptyLoops(rewriter, parent);
    }
    getOperation()->walk([&](BlockOp block) { dropUnreachableInit(block); });
  }
};
} // namespace
