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
  return callGiven(initializeFn, name, "InitializeWithTuneContext", error,
                   context);
}

FailureOr<std::optional<Trace>>
FunctionMutator::apply(const Trace &trace, RandomEngine::State &randState,
                       std::string &error) {
  return callGiven(applyFn, name, "Apply", error, trace, randState);
}

FailureOr<std::shared_ptr<Mutator>>
FunctionMutator::clone(std::string &error) const {
  return callGiven(cloneFn, name, "Clone", error);
}

std::string FunctionMutator::str() const {
  return strFn ? strFn() : defaultRepr(name, this);
}
