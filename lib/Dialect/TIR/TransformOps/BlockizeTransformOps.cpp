//===- BlockizeTransformOps.cpp - subtrees as blocks ----------------------===//
//
// The C++ of the ops of TIRBlockizeTransformOps.td: blockize (the subtree
// under a loop, or blocks, made a block) and tensorize (a block replaced by
// a tensor intrinsic).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/TensorIntrin.h"
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"

using namespace mlir;
using namespace mlir::tir;

LogicalResult tir::BlockizeOp::applyToPayload(RewriterBase &rewriter,
                                              SchedulePayload &payload,
                                              ScheduleError &error) {
  // One loop, or blocks (one per operand).
  FailureOr<Operation *> first =
      payload.singleOp(0, "tir.for or tir.block", error);
  if (failed(first))
    return failure();
  FailureOr<BlockOp> block = failure();
  if (auto loop = dyn_cast<ForOp>(*first)) {
    if (getTarget().size() != 1) {
      error = {"blockize takes one loop, or blocks", loop};
      return failure();
    }
    block = blockize(rewriter, loop, getPreserveUnitIters(), error);
  } else {
    FailureOr<SmallVector<BlockOp>> blocks =
        payload.singles<BlockOp>("tir.block", error);
    if (failed(blocks))
      return failure();
    block = blockize(rewriter, *blocks, getPreserveUnitIters(), error);
  }
  if (failed(block))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*block));
  return success();
}

LogicalResult tir::TensorizeOp::applyToPayload(RewriterBase &rewriter,
                                               SchedulePayload &payload,
                                               ScheduleError &error) {
  FailureOr<Operation *> target =
      payload.singleOp(0, "tir.for or tir.block", error);
  if (failed(target))
    return failure();
  FailureOr<TensorIntrin> intrin =
      lookupTensorIntrin(getOperation(), getTensorIntrin(), *target, error);
  if (failed(intrin))
    return failure();
  FailureOr<BlockOp> block =
      tensorize(rewriter, *target, *intrin, getTensorIntrin(),
                getPreserveUnitIters(), error);
  if (failed(block)) {
    forgetAddedTensorIntrin(*intrin);
    return failure();
  }
  payload.setResult(0, ArrayRef<Operation *>(*block));
  return success();
}
