//===- UnrollLoops.cpp - unroll loops tir marked unrolled -----------------===//

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
      if (failed(unrollLoop(rewriter, loop, dynamicFactor))) {
        loop.emitError("could not be unrolled");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
