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
  if (!initializeFn) {
    error = notImplemented(name, "InitializeWithTuneContext");
    return failure();
  }
  return initializeFn(context, error);
}

FailureOr<bool> FunctionPostproc::apply(const Schedule &sch,
                                        std::string &error) {
  if (!applyFn) {
    error = notImplemented(name, "Apply");
    return failure();
  }
  return applyFn(sch, error);
}

FailureOr<std::shared_ptr<Postproc>>
FunctionPostproc::clone(std::string &error) const {
  if (!cloneFn) {
    error = notImplemented(name, "Clone");
    return failure();
  }
  return cloneFn(error);
}

std::string FunctionPostproc::str() const {
  return strFn ? strFn() : defaultRepr(name, this);
}
