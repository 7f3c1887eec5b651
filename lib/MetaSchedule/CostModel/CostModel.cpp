//===- CostModel.cpp - how the search ranks candidates --------------------===//

#include "TensorIR/MetaSchedule/CostModel.h"

using namespace mlir;
using namespace mlir::tir::ms;

CostModel::~CostModel() = default;

LogicalResult FunctionCostModel::load(StringRef path, std::string &error) {
  return callGiven(loadFn, name, "Load", error, path);
}

LogicalResult FunctionCostModel::save(StringRef path, std::string &error) {
  return callGiven(saveFn, name, "Save", error, path);
}

LogicalResult FunctionCostModel::update(
    const TuneContext &context, const std::vector<MeasureCandidate> &candidates,
    const std::vector<RunnerResult> &results, std::string &error) {
  return callGiven(updateFn, name, "Update", error, context, candidates,
                   results);
}

FailureOr<std::vector<double>>
FunctionCostModel::predict(const TuneContext &context,
                           const std::vector<MeasureCandidate> &candidates,
                           std::string &error) {
  return callGiven(predictFn, name, "Predict", error, context, candidates);
}

std::string FunctionCostModel::str() const {
  return strFn ? strFn() : defaultRepr(name, this);
}
