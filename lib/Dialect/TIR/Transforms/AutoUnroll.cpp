//===- AutoUnroll.cpp - TVM's automatic unrolling under a pragma ----------===//
//
// MetaSchedule's RewriteParallelVectorizeUnroll leaves on the outermost
// loop of a nest `pragma_auto_unroll_max_step` = N (and
// `pragma_unroll_explicit`); TVM's UnrollLoop pass then unrolls, inside
// that loop, the serial loops of constant extent whose unrolled body would
// repeat at most N statements, from the innermost out, stopping at a loop
// that holds a loop not unrolled or holds more than eight unrolled levels.
// Statements are stores (the init's too) and calls made for their effect;
// a vectorized loop counts as its body, once (TVM has made it vector
// statements by then). This
// pass marks those loops `unrolled`, for --tir-unroll-loops to expand, and
// removes the pragmas. The pragma's budget of statements is the limit those
// loops are unrolled under: each also gets "unroll_limit" = 0, so the
// operation limit --tir-unroll-loops puts on loops written `unrolled` (a
// guard against unrolling the wrong loop by hand) does not refuse them; a
// statement of a padded convolution is a hundred operations before folding.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRAUTOUNROLLPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

constexpr llvm::StringLiteral kMaxStepKey = "pragma_auto_unroll_max_step";
constexpr llvm::StringLiteral kExplicitKey = "pragma_unroll_explicit";
/// --tir-unroll-loops' per-loop operation limit (0: none).
constexpr llvm::StringLiteral kUnrollLimitKey = "unroll_limit";
/// TVM's auto_max_depth: a loop holding more unrolled levels stays a loop.
constexpr int64_t kMaxUnrollDepth = 8;

/// What a subtree repeats: its statements, the depth of loops unrolled in
/// it, and whether a loop in it stays a loop (TVM's step_count_,
/// unroll_depth_ and normal_loop_depth_).
struct Steps {
  int64_t statements = 0;
  int64_t unrolledDepth = 0;
  int64_t loopDepth = 0;
};

class AutoUnroller {
public:
  /// The steps of `op`, marking the loops to unroll under a pragma.
  Steps visit(Operation *op) {
    if (auto loop = dyn_cast<ForOp>(op))
      return visitLoop(loop);
    Steps steps;
    // Statements: stores and calls made for their effect (TVM's
    // BufferStore and Evaluate).
    if (isa<StoreOp>(op) || (isa<CallOp>(op) && op->getNumResults() == 0))
      steps.statements = 1;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &inner : block)
          add(steps, visit(&inner));
    return steps;
  }

private:
  /// Statements in sequence: their steps add up, depths are the deepest.
  static void add(Steps &into, const Steps &next) {
    into.statements += next.statements;
    into.unrolledDepth = std::max(into.unrolledDepth, next.unrolledDepth);
    into.loopDepth = std::max(into.loopDepth, next.loopDepth);
  }

  Steps visitLoop(ForOp loop) {
    std::optional<int64_t> savedMaxStep = maxStep;
    if (DictionaryAttr annotations = loop.getAnnotationsAttr()) {
      if (auto step =
              dyn_cast_if_present<IntegerAttr>(annotations.get(kMaxStepKey)))
        maxStep = step.getInt();
      NamedAttrList rest(annotations);
      rest.erase(kMaxStepKey);
      rest.erase(kExplicitKey);
      if (rest.empty())
        loop.removeAnnotationsAttr();
      else
        loop.setAnnotationsAttr(rest.getDictionary(loop.getContext()));
    }
    Steps steps;
    for (Operation &inner : *loop.getBody())
      add(steps, visit(&inner));
    std::optional<int64_t> extent = loop.getConstantExtent();
    bool unroll = loop.getKind() == ForKind::Unrolled;
    if (!unroll && maxStep && loop.getKind() == ForKind::Serial && extent &&
        steps.loopDepth == 0 && steps.unrolledDepth <= kMaxUnrollDepth &&
        *extent * steps.statements <= *maxStep) {
      loop.setKind(ForKind::Unrolled);
      NamedAttrList annotations(loop.getAnnotationsAttr());
      annotations.set(
          kUnrollLimitKey,
          IntegerAttr::get(IntegerType::get(loop.getContext(), 64), 0));
      loop.setAnnotationsAttr(annotations.getDictionary(loop.getContext()));
      unroll = true;
    }
    if (unroll) {
      steps.statements *= extent.value_or(1);
      ++steps.unrolledDepth;
    } else if (loop.getKind() != ForKind::Vectorized) {
      // TVM vectorizes before it unrolls: a vectorized loop is by then its
      // body on vectors (statements, and the loops in it with vector
      // statements), which the loops around it repeat like any other.
      ++steps.loopDepth;
    }
    maxStep = savedMaxStep;
    return steps;
  }

  /// The pragma's limit in the loop being visited; none outside.
  std::optional<int64_t> maxStep;
};

struct TIRAutoUnrollPass
    : public tir::impl::TIRAutoUnrollPassBase<TIRAutoUnrollPass> {
  void runOnOperation() override {
    AutoUnroller unroller;
    getOperation()->walk<WalkOrder::PreOrder>([&](ForOp loop) {
      // Each outermost loop once; the visit covers its nest.
      unroller.visit(loop);
      return WalkResult::skip();
    });
  }
};

} // namespace
