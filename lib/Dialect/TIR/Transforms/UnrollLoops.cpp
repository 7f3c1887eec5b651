//===- UnrollLoops.cpp - unroll loops tir marked unrolled -----------------===//
//
// A loop with a constant trip count is unrolled completely, within a limit:
// the unrolled code (trip count times the operations of the body, inner
// unrolled loops already expanded) may have at most `max-unrolled-ops`
// operations (a pass option, 16384 by default). Beyond it the pass refuses the
// loop with an error that names the loop, the count and the limit, rather than
// spending minutes and gigabytes on it: unrolling 10^5 iterations is almost
// always a mistake (T.unroll on the wrong loop). A loop annotation asks for
// more explicitly:
//
//   for i in T.unroll(100000, annotations={"unroll_limit": 0}):   # no limit
//   transform.tir.annotate "unroll_limit" = 1000000 : i64 to %loop
//
// "unroll_limit" = N raises (or lowers) the limit for that loop to N
// operations; 0 removes it.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRUNROLLLOOPSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// The loop annotation that sets the limit for one loop (0: none).
static constexpr llvm::StringLiteral kUnrollLimitKey = "unroll_limit";
static constexpr llvm::StringLiteral kRegisterTileKey = "register_tile";

LogicalResult mlir::tir::unrollLoop(RewriterBase &rewriter, scf::ForOp loop,
                                    unsigned dynamicFactor) {
  loop->removeAttr(TIRDialect::kLoopKindAttrName);
  if (loop.getStaticTripCount())
    return loopUnrollFull(loop);
  loop.emitRemark("trip count is not a constant; unrolled by ")
      << dynamicFactor << " with a remainder loop";
  if (dynamicFactor <= 1)
    return success();
  return success(succeeded(loopUnrollByFactor(loop, dynamicFactor)));
}

/// The limit for `loop`: its "unroll_limit" annotation, or the pass's
/// `defaultLimit`. Fails (with an error) on an annotation that is not a
/// non-negative integer.
static FailureOr<uint64_t> unrollLimit(scf::ForOp loop, uint64_t defaultLimit) {
  auto annotations =
      loop->getAttrOfType<DictionaryAttr>(TIRDialect::kAnnotationsAttrName);
  Attribute value = annotations ? annotations.get(kUnrollLimitKey) : nullptr;
  if (!value)
    return defaultLimit;
  auto integer = dyn_cast<IntegerAttr>(value);
  if (!integer || !integer.getType().isSignlessInteger() ||
      integer.getValue().isNegative())
    return loop.emitError("annotation \"")
           << kUnrollLimitKey << "\" is " << value
           << "; it is a number of operations (0: no limit)";
  return integer.getValue().getZExtValue();
}

/// Whether `loop` carries the annotation `key`.
static bool hasAnnotation(scf::ForOp loop, StringRef key) {
  auto annotations =
      loop->getAttrOfType<DictionaryAttr>(TIRDialect::kAnnotationsAttrName);
  return annotations && annotations.get(key);
}

/// Refuses a full unroll of `loop` beyond its limit; with `quiet`, fails
/// without a diagnostic.
static LogicalResult checkUnrollSize(scf::ForOp loop, uint64_t defaultLimit,
                                     bool quiet = false) {
  std::optional<APInt> tripCount = loop.getStaticTripCount();
  if (!tripCount)
    return success();
  FailureOr<uint64_t> limit = unrollLimit(loop, defaultLimit);
  if (failed(limit))
    return failure();
  if (*limit == 0)
    return success();
  uint64_t bodyOps = 0;
  loop.getBody()->walk([&](Operation *op) {
    if (!isa<scf::YieldOp>(op))
      ++bodyOps;
  });
  uint64_t iterations =
      tripCount->getActiveBits() > 63 ? UINT64_MAX : tripCount->getZExtValue();
  uint64_t total;
  if (__builtin_mul_overflow(iterations, std::max<uint64_t>(bodyOps, 1),
                             &total))
    total = UINT64_MAX;
  if (total <= *limit)
    return success();
  if (quiet)
    return failure();
  InFlightDiagnostic diag = loop.emitError("unrolling this loop fully (");
  if (iterations == UINT64_MAX)
    diag << "more than 2^63";
  else
    diag << iterations;
  diag << " iterations of " << bodyOps << " operations";
  if (total == UINT64_MAX)
    diag << ", more than 2^64 in all";
  else
    diag << " = " << total << " operations";
  diag << ") exceeds the limit of " << *limit
       << " operations; unroll a shorter loop (split it first), or ask for "
          "it explicitly with the loop annotation \""
       << kUnrollLimitKey << "\" = <operations> (0: no limit)";
  return diag;
}

namespace {
struct TIRUnrollLoopsPass
    : public tir::impl::TIRUnrollLoopsPassBase<TIRUnrollLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    // Post-order: inner loops are unrolled before the loops around them.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      auto kind =
          loop->getAttrOfType<ForKindAttr>(TIRDialect::kLoopKindAttrName);
      if (kind && kind.getValue() == ForKind::Unrolled)
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) {
      // A loop the GPU lowering chose to unroll (over a thread's register
      // tiles) stays a loop where it would be too large.
      if (hasAnnotation(loop, kRegisterTileKey) &&
          failed(checkUnrollSize(loop, maxUnrolledOps, /*quiet=*/true))) {
        loop->removeAttr(TIRDialect::kLoopKindAttrName);
        continue;
      }
      if (failed(checkUnrollSize(loop, maxUnrolledOps)))
        return signalPassFailure();
      if (failed(unrollLoop(rewriter, loop, dynamicFactor))) {
        loop.emitError("could not be unrolled");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
