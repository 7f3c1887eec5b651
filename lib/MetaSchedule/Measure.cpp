//===- Measure.cpp - what is built and measured ---------------------------===//

#include "TensorIR/MetaSchedule/Measure.h"

using namespace mlir;
using namespace mlir::tir::ms;

FailureOr<MeasureCandidate>
mlir::tir::ms::makeMeasureCandidate(const Schedule &sch, std::string &error) {
  FailureOr<std::vector<TensorInfo>> args =
      getEntryArgInfo(sch->getPayload(), error);
  if (failed(args))
    return failure();
  return MeasureCandidate{sch, std::move(*args)};
}
