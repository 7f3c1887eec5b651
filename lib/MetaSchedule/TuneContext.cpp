//===- TuneContext.cpp - one task of tuning -------------------------------===//

#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

LogicalResult TuneContext::seed(int64_t seed, std::string &error) {
  std::optional<RandomEngine::State> state = RandomEngine::normalizeSeed(seed);
  if (!state) {
    error = "rand_state is -1 (a random seed) or a seed >= 0, got " +
            std::to_string(seed);
    return failure();
  }
  randState = *state;
  return success();
}

LogicalResult TuneContext::initialize(std::string &error) {
  if (spaceGenerator &&
      failed(spaceGenerator->initializeWithTuneContext(*this, error)))
    return failure();
  if (searchStrategy &&
      failed(searchStrategy->initializeWithTuneContext(*this, error)))
    return failure();
  return success();
}

FailureOr<std::vector<Schedule>>
TuneContext::generateDesignSpace(std::string &error) {
  if (!mod) {
    error = "the tune context has no module to generate a design space of";
    return failure();
  }
  if (!spaceGenerator) {
    error = "the tune context has no space generator";
    return failure();
  }
  return spaceGenerator->generateDesignSpace(*mod, error);
}

FailureOr<std::shared_ptr<TuneContext>> TuneContext::clone(std::string &error) {
  auto copy = std::make_shared<TuneContext>();
  if (mod)
    copy->mod = mod->clone();
  copy->target = target;
  if (spaceGenerator) {
    FailureOr<std::shared_ptr<SpaceGenerator>> generator =
        spaceGenerator->clone(error);
    if (failed(generator))
      return failure();
    copy->spaceGenerator = *generator;
  }
  if (searchStrategy) {
    FailureOr<std::shared_ptr<SearchStrategy>> strategy =
        searchStrategy->clone(error);
    if (failed(strategy))
      return failure();
    copy->searchStrategy = *strategy;
  }
  copy->taskName = taskName;
  copy->numThreads = numThreads;
  copy->randState =
      *RandomEngine::normalizeSeed(RandomEngine(randState).forkSeed());
  copy->logger = logger;
  if (failed(copy->initialize(error)))
    return failure();
  return copy;
}
