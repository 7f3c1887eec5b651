//===- InferAccessRegions.cpp - fill in tir.block reads/writes ------------===//
//
// The pass over inferAccessRegions (TensorIR/Dialect/TIR/Analysis/
// AccessRegions.h): every block that leaves its reads or writes out gets
// them.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRINFERACCESSREGIONSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
struct TIRInferAccessRegionsPass
    : public tir::impl::TIRInferAccessRegionsPassBase<
          TIRInferAccessRegionsPass> {
  void runOnOperation() override {
    // Post-order: inner blocks first, so that outer blocks see their
    // regions.
    WalkResult result = getOperation()->walk([&](BlockOp block) {
      if (block.hasAccessRegions())
        return WalkResult::advance();
      return failed(inferAccessRegions(block)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
