//===- DisallowDynamicLoop.cpp - no loop of a runtime extent --------------===//
//
// TVM's DisallowDynamicLoop: a schedule is rejected when a loop of one of
// its scheduled functions has an extent that is not a constant (a bound
// given by a function parameter, or by an outer loop's variable).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/Postprocs.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

class DisallowDynamicLoop : public Postproc {
public:
  FailureOr<bool> apply(const Schedule &sch, std::string &) override {
    for (FunctionOpInterface func : getScheduledFunctions(sch->getPayload())) {
      WalkResult found = func->walk([](ForOp loop) {
        return loop.getConstantExtent() ? WalkResult::advance()
                                        : WalkResult::interrupt();
      });
      if (found.wasInterrupted())
        return false;
    }
    return true;
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    return std::shared_ptr<Postproc>(std::make_shared<DisallowDynamicLoop>());
  }

  std::string str() const override {
    return defaultRepr("DisallowDynamicLoop", this);
  }
};

} // namespace

std::shared_ptr<Postproc> mlir::tir::ms::createDisallowDynamicLoop() {
  return std::make_shared<DisallowDynamicLoop>();
}
