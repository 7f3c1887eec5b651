//===- ScheduleFn.cpp - a design space from a function --------------------===//

#include "TensorIR/MetaSchedule/SpaceGenerator.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

FailureOr<std::vector<Schedule>>
ScheduleFn::generateDesignSpace(ModuleOp mod, std::string &error) {
  FailureOr<Schedule> sch =
      createTracedSchedule(mod, RandomEngine(randState).forkSeed(), error);
  if (failed(sch))
    return failure();
  return function(*sch, error);
}

FailureOr<std::shared_ptr<SpaceGenerator>>
ScheduleFn::clone(std::string &error) const {
  auto copy = std::make_shared<ScheduleFn>(function);
  if (failed(cloneComponentsInto(*copy, error)))
    return failure();
  return std::shared_ptr<SpaceGenerator>(copy);
}
