//===- SpaceGeneratorUnion.cpp - the spaces of several generators ---------===//

#include "TensorIR/MetaSchedule/SpaceGenerator.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

LogicalResult
SpaceGeneratorUnion::initializeWithTuneContext(const TuneContext &context,
                                               std::string &error) {
  if (failed(SpaceGenerator::initializeWithTuneContext(context, error)))
    return failure();
  for (const std::shared_ptr<SpaceGenerator> &generator : generators)
    if (failed(generator->initializeWithTuneContext(context, error)))
      return failure();
  return success();
}

FailureOr<std::vector<Schedule>>
SpaceGeneratorUnion::generateDesignSpace(ModuleOp mod, std::string &error) {
  std::vector<Schedule> all;
  for (const std::shared_ptr<SpaceGenerator> &generator : generators) {
    FailureOr<std::vector<Schedule>> space =
        generator->generateDesignSpace(mod, error);
    if (failed(space))
      return failure();
    all.insert(all.end(), space->begin(), space->end());
  }
  return all;
}

FailureOr<std::shared_ptr<SpaceGenerator>>
SpaceGeneratorUnion::clone(std::string &error) const {
  auto copy = std::make_shared<SpaceGeneratorUnion>();
  for (const std::shared_ptr<SpaceGenerator> &generator : generators) {
    FailureOr<std::shared_ptr<SpaceGenerator>> member = generator->clone(error);
    if (failed(member))
      return failure();
    copy->generators.push_back(*member);
  }
  if (failed(cloneComponentsInto(*copy, error)))
    return failure();
  return std::shared_ptr<SpaceGenerator>(copy);
}
