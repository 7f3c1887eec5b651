//===- Builder.cpp - building candidates ----------------------------------===//

#include "TensorIR/MetaSchedule/Builder.h"

using namespace mlir;
using namespace mlir::tir::ms;

mlir::tir::ms::Builder::~Builder() = default;

FailureOr<std::vector<BuilderResult>>
FunctionBuilder::build(const std::vector<BuilderInput> &inputs,
                       std::string &error) {
  if (!buildFn) {
    error = notImplemented(name, "Build");
    return failure();
  }
  FailureOr<std::vector<BuilderResult>> results = buildFn(inputs, error);
  if (succeeded(results) && results->size() != inputs.size()) {
    error = name + " gave " + std::to_string(results->size()) +
            " results for " + std::to_string(inputs.size()) + " inputs";
    return failure();
  }
  return results;
}
