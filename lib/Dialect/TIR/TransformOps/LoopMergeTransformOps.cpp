//===- LoopMergeTransformOps.cpp - merging loop nests ---------------------===//
//
// The C++ of the ops of TIRLoopMergeTransformOps.td: merge (loops of several
// nests made one nest) and loop_partition (a loop cut into consecutive
// partitions).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"

using namespace mlir;
using namespace mlir::tir;

LogicalResult tir::MergeOp::applyToPayload(RewriterBase &rewriter,
                                           SchedulePayload &payload,
                                           ScheduleError &error) {
  FailureOr<SmallVector<ForOp>> loops =
      payload.singles<ForOp>("tir.for", error);
  if (failed(loops))
    return failure();
  FailureOr<ForOp> merged = merge(rewriter, *loops, error);
  if (failed(merged))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*merged));
  return success();
}

LogicalResult tir::LoopPartitionOp::verify() {
  ArrayRef<int64_t> factors = getFactors();
  size_t parts = factors.size() + (llvm::is_contained(factors, -1) ? 0 : 1);
  if (getLoops().size() != parts)
    return emitOpError("expects one result per partition (")
           << parts << " for these factors), got " << getLoops().size();
  return success();
}

LogicalResult tir::LoopPartitionOp::applyToPayload(RewriterBase &rewriter,
                                                   SchedulePayload &payload,
                                                   ScheduleError &error) {
  FailureOr<ForOp> loop = payload.single<ForOp>(0, "tir.for", error);
  if (failed(loop))
    return failure();
  FailureOr<SmallVector<ForOp>> loops =
      loopPartition(rewriter, *loop, getFactors(), error);
  if (failed(loops))
    return failure();
  if (loops->size() != payload.results.size()) {
    // Checked before: the partitions are counted from the factors.
    error = {"internal error: loop_partition made another number of "
             "partitions than it has results",
             nullptr};
    return failure();
  }
  for (auto [index, part] : llvm::enumerate(*loops))
    payload.setResult(index, ArrayRef<Operation *>(part));
  return success();
}

void tir::LoopPartitionOp::printPythonArgument(StringRef name, Attribute value,
                                               ArrayRef<std::string>,
                                               raw_ostream &os) {
  if (name != "factors") {
    os << name << "=";
    printPythonValue(value, os);
    return;
  }
  os << "factors=[";
  llvm::interleaveComma(getFactors(), os, [&](int64_t f) {
    if (f == -1)
      os << "None";
    else
      os << f;
  });
  os << "]";
}
