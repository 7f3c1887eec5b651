//===- Postproc.cpp - what completes a sampled schedule -------------------===//

#include "TensorIR/MetaSchedule/Postproc.h"

using namespace mlir;
using namespace mlir::tir::ms;

Postproc::~Postproc() = default;

LogicalResult Postproc::initializeWithTuneContext(const TuneContext &,
                                                  std::string &) {
  return success();
}

LogicalResult
FunctionPostproc::initializeWithTuneContext(const TuneContext &context,
                                            std::string &error) {
  return callGiven(initializeFn, name, "InitializeWithTuneContext", error,
                   context);
}

FailureOr<bool> FunctionPostproc::apply(const Schedule &sch,
                                        std::string &error) {
  return callGiven(applyFn, name, "Apply", error, sch);
}

FailureOr<std::shared_ptr<Postproc>>
FunctionPostproc::clone(std::string &error) const {
  return callGiven(cloneFn, name, "Clone", error);
}

std::string FunctionPostproc::str() const {
  return strFn ? strFn() : defaultRepr(name, this);
}
