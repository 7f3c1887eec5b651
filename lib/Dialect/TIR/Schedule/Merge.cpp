//===- Merge.cpp - TVM's merge --------------------------------------------===//
//
// Loops of several nests merged into one nest: for loops l1, ..., ln (one
// per nest, each at the same depth below the nests' lowest common
// ancestor, with the same extents level by level), the nests from their
// common ancestor down to the given loops become one nest of loops named
// `<first nest's loop>_m`, whose innermost body runs the given loops'
// bodies in the given order:
//
//   for i_0 in 8: for j_0 in 8: C        for i_0_m in 8:
//   for i_0 in 8: for j_0 in 8: D   =>     for j_0 in 8: C
//                                           for j_0 in 8: D   (merge at i_0)
//
// The bodies then interleave: iteration m of the merged loop runs every
// nest's iteration m. TVM does not check that this keeps the program's
// meaning; here nests (and statements between them) that share a buffer
// one of them writes are refused.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {
/// The buffers an op reads and writes, loads and stores anywhere under it
/// (an opaque use, such as a call's operand, counts as both).
struct Accesses {
  llvm::SetVector<Value> reads, writes;

  explicit Accesses(Operation *root) {
    root->walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op))
        reads.insert(load.getBuffer());
      else if (auto store = dyn_cast<StoreOp>(op))
        writes.insert(store.getBuffer());
      else if (!isa<BlockOp, AllocBufferOp>(op))
        for (Value v : op->getOperands())
          if (isa<MemRefType>(v.getType())) {
            reads.insert(v);
            writes.insert(v);
          }
    });
  }

  /// A buffer one of the two writes and the other accesses (none: null).
  Value conflictWith(const Accesses &other) const {
    for (Value w : writes)
      if (other.reads.contains(w) || other.writes.contains(w))
        return w;
    for (Value w : other.writes)
      if (reads.contains(w))
        return w;
    return Value();
  }
};
} // namespace

/// The lowest op that contains every loop.
static Operation *getCommonAncestor(ArrayRef<ForOp> loops) {
  for (Operation *op = loops.front()->getParentOp(); op; op = op->getParentOp())
    if (llvm::all_of(loops, [&](ForOp l) { return op->isProperAncestor(l); }))
      return op;
  return nullptr;
}

FailureOr<ForOp> mlir::tir::merge(RewriterBase &rewriter, ArrayRef<ForOp> loops,
                                  ScheduleError &error) {
  if (loops.size() < 2)
    return refuse(error,
                  loops.empty() ? nullptr : ForOp(loops.front()).getOperation(),
                  "merge needs at least two loops");
  Operation *scope = getScopeRoot(loops.front());
  for (ForOp loop : loops) {
    if (getScopeRoot(loop) != scope)
      return refuse(error, loop,
                    "merge needs the loops under one block scope, but loop " +
                        loopName(loop) + " is under another than loop " +
                        loopName(loops.front()));
    if (llvm::count(loops, loop) > 1)
      return refuse(error, loop, "merge got loop " + loopName(loop) + " twice");
  }
  Operation *ancestor = getCommonAncestor(loops);
  // Each nest: the loops from its given loop up to the common ancestor,
  // outermost first.
  SmallVector<SmallVector<ForOp>> nests;
  for (ForOp loop : loops) {
    SmallVector<ForOp> nest;
    for (Operation *op = loop; op != ancestor; op = op->getParentOp()) {
      auto l = dyn_cast<ForOp>(op);
      if (!l)
        return refuse(error, loop,
                      "merge needs only loops between loop " + loopName(loop) +
                          " and the loops' common ancestor");
      nest.insert(nest.begin(), l);
    }
    if (llvm::is_contained(loops, ancestor))
      return refuse(error, ancestor,
                    "merge got loop " + loopName(cast<ForOp>(ancestor)) +
                        ", which holds another loop it got");
    for (auto [k, l] : llvm::enumerate(nest)) {
      if (l.getAnnotationsAttr() || l.getKind() == ForKind::ThreadBinding)
        return refuse(error, l,
                      "merge needs loops without annotations or thread "
                      "bindings, but loop " +
                          loopName(l) + " has one");
      if (l.getConstantLowerBound() != 0)
        return refuse(error, l,
                      "merge needs loops that start at 0, but loop " +
                          loopName(l) + " does not");
      if (k + 1 < nest.size() &&
          !llvm::hasSingleElement(l.getBody()->without_terminator()))
        return refuse(error, l,
                      "merge needs loop " + loopName(nest[k + 1]) +
                          " to be the only statement of loop " + loopName(l));
    }
    nests.push_back(std::move(nest));
  }
  SmallVector<ForOp> first = nests.front();
  for (auto [i, nest] : llvm::enumerate(nests)) {
    if (nest.size() != first.size())
      return refuse(error, loops[i],
                    "merge needs the loops at the same depth below their "
                    "common ancestor, but loop " +
                        loopName(loops[i]) + " is " + Twine(nest.size()) +
                        " loops down and loop " + loopName(loops.front()) +
                        " " + Twine(first.size()));
    for (unsigned k = 0; k < nest.size(); ++k) {
      ForOp a = first[k], b = nest[k];
      if (a.getMixedUpperBound() != b.getMixedUpperBound())
        return refuse(error, b,
                      "merge needs the same extents level by level, but "
                      "loop " +
                          loopName(b) + " differs from loop " + loopName(a));
    }
  }

  // The bodies interleave, and move to the last nest's place: the nests,
  // and the statements they move across, must not share a buffer one of
  // them writes.
  SmallVector<Operation *> tops;
  for (SmallVector<ForOp> &nest : nests)
    tops.push_back(nest.front());
  SmallVector<Accesses> accesses;
  for (Operation *top : tops)
    accesses.emplace_back(top);
  auto conflict = [&](Operation *a, Operation *b, Value buffer) {
    return refuse(error, b,
                  "merge would interleave the iterations of loop " +
                      loopName(cast<ForOp>(a)) + "'s nest with " +
                      (isa<ForOp>(b)
                           ? "loop " + loopName(cast<ForOp>(b)) + "'s nest"
                           : std::string("a statement between them")) +
                      ", and both access buffer '" + getBufferName(buffer) +
                      "', which one of them writes");
  };
  for (unsigned i = 0; i < tops.size(); ++i)
    for (unsigned j = i + 1; j < tops.size(); ++j)
      if (Value buffer = accesses[i].conflictWith(accesses[j]))
        return conflict(tops[i], tops[j], buffer);
  Operation *begin = *llvm::min_element(
      tops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op = begin->getNextNode(); op && op != tops.back();
       op = op->getNextNode()) {
    if (llvm::is_contained(tops, op) || isMemoryEffectFree(op))
      continue;
    Accesses between(op);
    for (auto [i, top] : llvm::enumerate(tops))
      if (Value buffer = accesses[i].conflictWith(between))
        return conflict(top, op, buffer);
  }

  // The merged nest where the last nest was; the bodies move in, in the
  // given order, their loop variables replaced by the merged ones.
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(tops.back());
  Location loc = ForOp(loops.back()).getLoc();
  ForOp inner;
  SmallVector<Value> vars;
  for (ForOp l : first) {
    inner = ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                          l.getMixedUpperBound(),
                          (l.getVarName().value_or("i") + "_m").str());
    rewriter.setInsertionPointToStart(inner.getBody());
    vars.push_back(inner.getInductionVar());
  }
  Block *body = inner.getBody();
  for (SmallVector<ForOp> &nest : nests) {
    Block *from = nest.back().getBody();
    for (Operation &op : llvm::make_early_inc_range(from->without_terminator()))
      rewriter.moveOpBefore(&op, body, body->without_terminator().end());
    for (auto [l, v] : llvm::zip(nest, vars))
      rewriter.replaceAllUsesWith(l.getInductionVar(), v);
  }
  for (SmallVector<ForOp> &nest : nests)
    rewriter.eraseOp(nest.front());
  return inner;
}
