//===- SpaceGenerator.cpp - what every space generator shares -------------===//
//
// The defaults a TuneContext gives a space generator (by the target's rule
// kind), the schedule a design space starts from, and the generator given
// as functions.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/SpaceGenerator.h"
#include "TensorIR/MetaSchedule/Mutators.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

SpaceGenerator::~SpaceGenerator() = default;

DefaultComponents mlir::tir::ms::getDefaultComponents(StringRef ruleKind,
                                                      const TuneContext &) {
  // TVM's ScheduleRule / Postproc / Mutator ::DefaultLLVM, DefaultCUDA and
  // DefaultCUDATensorCore (its WMMA f16 groups).
  // Other kinds are not in the library yet: their rules stay unset (a
  // generator that needs them says so), their postprocessors and mutators
  // are none.
  DefaultComponents defaults;
  std::string error;
  // TVM's cuda-tensorcore list is its tensor-core tiling rules followed by
  // the cuda list; without the former (the intrinsics not registered), it
  // is the cuda list, and a warning says what is missing.
  bool tensorCore = ruleKind == "cuda-tensorcore";
  FailureOr<std::vector<std::shared_ptr<ScheduleRule>>> rules =
      getDefaultScheduleRules(ruleKind, error);
  if (tensorCore && failed(rules)) {
    defaults.missing =
        "the tensor-core rules of rule kind 'cuda-tensorcore' "
        "(MultiLevelTilingTensorCore over TVM's WMMA intrinsic groups) are "
        "not available: " +
        error +
        " (import tvm.tir.tensor_intrin); its blocks are tiled for CUDA "
        "cores, with the rules of 'cuda'";
    tensorCore = false;
    ruleKind = "cuda";
    rules = getDefaultScheduleRules(ruleKind, error);
  }
  if (failed(rules)) {
    defaults.postprocs.emplace();
    defaults.mutatorProbs.emplace();
    defaults.missing = ("the default schedule rules, postprocessors and "
                        "mutators of rule kind '" +
                        ruleKind + "' are not available yet")
                           .str();
    return defaults;
  }
  defaults.scheduleRules = std::move(*rules);
  if (ruleKind == "cuda" || ruleKind == "cuda-tensorcore") {
    defaults.postprocs = {createDisallowDynamicLoop(),
                          createRewriteCooperativeFetch(),
                          createRewriteUnboundBlock(/*maxThreadblocks=*/256),
                          createRewriteParallelVectorizeUnroll(),
                          createRewriteReductionBlock(),
                          createVerifyGPUCode()};
    if (tensorCore)
      defaults.postprocs->push_back(
          createRewriteTensorize(/*vectorizeInitLoop=*/false));
    defaults.mutatorProbs = MutatorProbs{{createMutateTileSize(), 0.9},
                                         {createMutateUnroll(), 0.08},
                                         {createMutateThreadBinding(), 0.02}};
    return defaults;
  }
  defaults.postprocs = {createDisallowDynamicLoop(),
                        createRewriteParallelVectorizeUnroll(),
                        createRewriteReductionBlock(), createRewriteLayout()};
  defaults.mutatorProbs =
      MutatorProbs{{createMutateTileSize(), 0.9},
                   {createMutateComputeLocation(), 0.05},
                   {createMutateUnroll(), 0.03},
                   {createMutateParallel(/*maxJobsPerCore=*/16), 0.02}};
  return defaults;
}

LogicalResult
SpaceGenerator::initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) {
  randState = context.forkSeed();
  if (context.target && !(scheduleRules && postprocs && mutatorProbs)) {
    FailureOr<std::string> kind = context.target->getRuleKind(error);
    if (failed(kind))
      return failure();
    DefaultComponents defaults = getDefaultComponents(*kind, context);
    if (!defaults.missing.empty())
      context.log(LogLevel::Warning, defaults.missing);
    if (!scheduleRules && defaults.scheduleRules)
      scheduleRules = std::move(defaults.scheduleRules);
    if (!scheduleRules)
      missingDefaults = defaults.missing;
    if (!postprocs && defaults.postprocs)
      postprocs = std::move(defaults.postprocs);
    if (!mutatorProbs && defaults.mutatorProbs)
      mutatorProbs = std::move(defaults.mutatorProbs);
  }
  if (scheduleRules)
    for (const std::shared_ptr<ScheduleRule> &rule : *scheduleRules)
      if (failed(rule->initializeWithTuneContext(context, error)))
        return failure();
  if (postprocs)
    for (const std::shared_ptr<Postproc> &postproc : *postprocs)
      if (failed(postproc->initializeWithTuneContext(context, error)))
        return failure();
  if (mutatorProbs)
    for (const auto &[mutator, probability] : *mutatorProbs)
      if (failed(mutator->initializeWithTuneContext(context, error)))
        return failure();
  return success();
}

LogicalResult SpaceGenerator::cloneComponentsInto(SpaceGenerator &other,
                                                  std::string &error) const {
  other.missingDefaults = missingDefaults;
  other.randState = randState;
  if (scheduleRules) {
    other.scheduleRules.emplace();
    for (const std::shared_ptr<ScheduleRule> &rule : *scheduleRules) {
      FailureOr<std::shared_ptr<ScheduleRule>> copy = rule->clone(error);
      if (failed(copy))
        return failure();
      other.scheduleRules->push_back(*copy);
    }
  }
  if (postprocs) {
    other.postprocs.emplace();
    for (const std::shared_ptr<Postproc> &postproc : *postprocs) {
      FailureOr<std::shared_ptr<Postproc>> copy = postproc->clone(error);
      if (failed(copy))
        return failure();
      other.postprocs->push_back(*copy);
    }
  }
  if (mutatorProbs) {
    other.mutatorProbs.emplace();
    for (const auto &[mutator, probability] : *mutatorProbs) {
      FailureOr<std::shared_ptr<Mutator>> copy = mutator->clone(error);
      if (failed(copy))
        return failure();
      other.mutatorProbs->emplace_back(*copy, probability);
    }
  }
  return success();
}

FailureOr<Schedule>
mlir::tir::ms::createTracedSchedule(ModuleOp mod, int64_t seed,
                                    std::string &error,
                                    ScheduleOptions::ErrorRendering rendering) {
  ScheduleOptions options;
  options.verifyEachStep = getenv("TIR_VERIFY_STEPS") != nullptr;
  options.errorRendering = rendering;
  auto sch = std::make_shared<ScheduleState>(OwningOpRef<ModuleOp>(mod.clone()),
                                             options);
  if (failed(sch->seed(seed, error)))
    return failure();
  return sch;
}

//===----------------------------------------------------------------------===//
// FunctionSpaceGenerator
//===----------------------------------------------------------------------===//

LogicalResult
FunctionSpaceGenerator::initializeWithTuneContext(const TuneContext &context,
                                                  std::string &error) {
  return callGiven(initializeFn, name, "InitializeWithTuneContext", error,
                   context);
}

FailureOr<std::vector<Schedule>>
FunctionSpaceGenerator::generateDesignSpace(ModuleOp mod, std::string &error) {
  return callGiven(generateFn, name, "GenerateDesignSpace", error, mod);
}

FailureOr<std::shared_ptr<SpaceGenerator>>
FunctionSpaceGenerator::clone(std::string &error) const {
  return callGiven(cloneFn, name, "Clone", error);
}
