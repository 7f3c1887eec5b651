//===- CostModel.cpp - how the search ranks candidates --------------------===//

#include "TensorIR/MetaSchedule/CostModel.h"

using namespace mlir;
using namespace mlir::tir::ms;

CostModel::~CostModel() = default;

LogicalResult FunctionCostModel::load(StringRef path, std::string &error) {
  if (!loadFn) {
    error = notImplemented(name, "Load");
    return failure();
  }
  return loadFn(path, error);
}

LogicalResult FunctionCostModel::save(StringRef path, std::string &error) {
  if (!saveFn) {
    error = notImplemented(name, "Save");
    return failure();
  }
  return saveFn(path, error);
}

LogicalResult FunctionCostModel::update(
    const TuneContext &context, const std::vector<MeasureCandidate> &candidates,
    const std::vector<RunnerResult> &results, std::string &error) {
  if (!updateFn) {
    error = notImplemented(name, "Update");
    return failure();
  }
  return updateFn(context, candidates, results, error);
}

FailureOr<std::vector<double>>
FunctionCostModel::predict(const TuneContext &context,
                           const std::vector<MeasureCandidate> &candidates,
                           std::string &error) {
  if (!predictFn) {
    error = notImplemented(name, "Predict");
    return failure();
  }
  return predictFn(context, candidates, error);
}

std::string FunctionCostModel::str() const {
  return strFn ? strFn() : defaultRepr(name, this);
}
