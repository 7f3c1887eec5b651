//===- FeatureExtractor.cpp - what a cost model sees of a candidate -------===//

#include "TensorIR/MetaSchedule/FeatureExtractor.h"

using namespace mlir;
using namespace mlir::tir::ms;

FeatureExtractor::~FeatureExtractor() = default;

FailureOr<std::vector<FeatureMatrix>> FunctionFeatureExtractor::extractFrom(
    const TuneContext &context, const std::vector<MeasureCandidate> &candidates,
    std::string &error) {
  if (!extractFn) {
    error = notImplemented(name, "ExtractFrom");
    return failure();
  }
  FailureOr<std::vector<FeatureMatrix>> features =
      extractFn(context, candidates, error);
  if (failed(features))
    return failure();
  for (const FeatureMatrix &matrix : *features)
    if (matrix.rows < 0 || matrix.cols < 0 ||
        static_cast<int64_t>(matrix.data.size()) != matrix.rows * matrix.cols) {
      error = name + " gave a feature matrix whose data is not rows x cols";
      return failure();
    }
  return features;
}

std::string FunctionFeatureExtractor::str() const {
  return strFn ? strFn() : defaultRepr(name, this);
}
