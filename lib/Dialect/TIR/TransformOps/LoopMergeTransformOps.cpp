//===- LoopMergeTransformOps.cpp - merging loop nests ---------------------===//
//
// The C++ of the ops of TIRLoopMergeTransformOps.td: merge (loops of several
// nests made one nest) and loop_partition (a loop cut into consecutive
// partitions).
//
//===----------------------------------------------------------------------===//

#include "FactorList.h"

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
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
  ArrayAttr factors = getFactors();
  bool inferred = false;
  for (auto factor : factors.getAsRange<SplitFactorAttr>()) {
    if (factor.getKind() == SplitFactorKind::Scalable)
      return emitOpError("takes constant, inferred or parameter factors (the "
                         "loop's bounds are constants), got ")
             << factor;
    inferred |= factor.getKind() == SplitFactorKind::Inferred;
  }
  size_t parts = factors.size() + (inferred ? 0 : 1);
  if (getLoops().size() != parts)
    return emitOpError("expects one result per partition (")
           << parts << " for these factors), got " << getLoops().size();
  return verifyFactorList(*this, factors, getFactorParams().size());
}

LogicalResult tir::LoopPartitionOp::applyToPayload(RewriterBase &rewriter,
                                                   SchedulePayload &payload,
                                                   ScheduleError &error) {
  FailureOr<ForOp> loop = payload.single<ForOp>(0, "tir.for", error);
  if (failed(loop))
    return failure();
  // Operand 0 is the loop, the parameters follow.
  FailureOr<SmallVector<SplitFactor>> factors =
      resolveFactorList(getFactors(), payload, 1, "loop_partition", error);
  if (failed(factors))
    return failure();
  SmallVector<std::optional<int64_t>> sizes;
  for (const SplitFactor &factor : *factors)
    sizes.push_back(factor.constant); // the verifier refused scalable ones
  FailureOr<SmallVector<ForOp>> loops =
      loopPartition(rewriter, *loop, sizes, error);
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
                                               ArrayRef<std::string> operands,
                                               raw_ostream &os) {
  if (name != "factors") {
    os << name << "=";
    printPythonValue(value, os);
    return;
  }
  printPythonFactorList(getFactors(), operands, 1, os);
}
