//===- ReductionTransformOps.cpp - reduction primitives -------------------===//
//
// The C++ of the ops of TIRReductionTransformOps.td: decompose_reduction (a
// reduction block split into its init and its update) and rfactor (a
// reduction factored by one of its loops).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"

using namespace mlir;
using namespace mlir::tir;

LogicalResult tir::DecomposeReductionOp::applyToPayload(
    RewriterBase &rewriter, SchedulePayload &payload, ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  FailureOr<ForOp> loop = payload.single<ForOp>(1, "tir.for", error);
  if (failed(loop))
    return failure();
  FailureOr<BlockOp> init = decomposeReduction(rewriter, *block, *loop, error);
  if (failed(init))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*init));
  return success();
}

LogicalResult tir::RFactorOp::applyToPayload(RewriterBase &rewriter,
                                             SchedulePayload &payload,
                                             ScheduleError &error) {
  FailureOr<ForOp> loop = payload.single<ForOp>(0, "tir.for", error);
  if (failed(loop))
    return failure();
  FailureOr<BlockOp> block = rfactor(rewriter, *loop, getFactorAxis(), error);
  if (failed(block))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*block));
  return success();
}
