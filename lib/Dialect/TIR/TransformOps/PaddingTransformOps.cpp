//===- PaddingTransformOps.cpp - padding primitives -----------------------===//
//
// The C++ of the ops of TIRPaddingTransformOps.td: decompose_padding (a
// padding block split into a constant fill and the in-bound copy) and
// pad_einsum.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"

using namespace mlir;
using namespace mlir::tir;

LogicalResult tir::DecomposePaddingOp::applyToPayload(RewriterBase &rewriter,
                                                      SchedulePayload &payload,
                                                      ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  FailureOr<ForOp> loop = payload.single<ForOp>(1, "tir.for", error);
  if (failed(loop))
    return failure();
  FailureOr<BlockOp> fill = decomposePadding(rewriter, *block, *loop, error);
  if (failed(fill))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*fill));
  return success();
}

LogicalResult tir::PadEinsumOp::applyToPayload(RewriterBase &rewriter,
                                               SchedulePayload &payload,
                                               ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return padEinsum(rewriter, *block, getPadding(), error);
}
