//===- Mutator.cpp - how the search varies a schedule ---------------------===//

#include "TensorIR/MetaSchedule/Mutator.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

Mutator::~Mutator() = default;

LogicalResult Mutator::initializeWithTuneContext(const TuneContext &,
                                                 std::string &) {
  return success();
}

LogicalResult
FunctionMutator::initializeWithTuneContext(const TuneContext &context,
                                           std::string &error) {
  if (!initializeFn) {
    error = notImplemented(name, "InitializeWithTuneContext");
    return failure();
  }
  return initializeFn(context, error);
}

FailureOr<std::optional<Trace>>
FunctionMutator::apply(const Trace &trace, RandomEngine::State &randState,
                       std::string &error) {
  if (!applyFn) {
    error = notImplemented(name, "Apply");
    return failure();
  }
  return applyFn(trace, randState, error);
}

FailureOr<std::shared_ptr<Mutator>>
FunctionMutator::clone(std::string &error) const {
  if (!cloneFn) {
    error = notImplemented(name, "Clone");
    return failure();
  }
  return cloneFn(error);
}

std::string FunctionMutator::str() const {
  return strFn ? strFn() : defaultRepr(name, this);
}
