//===- SearchStrategy.cpp - what every search strategy shares -------------===//
//
// The replay of a trace with the postprocessors (TVM's ThreadedTraceApply),
// the batch bookkeeping of the library's strategies, and the strategy
// given as functions.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/SearchStrategy.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

SearchStrategy::~SearchStrategy() = default;

FailureOr<Schedule> mlir::tir::ms::applyTraceAndPostprocs(
    ModuleOp mod, const Trace &trace, RandomEngine::State &randState,
    ArrayRef<std::shared_ptr<Postproc>> postprocs,
    std::vector<int64_t> &failures, std::string &error) {
  failures.resize(postprocs.size() + 1, 0);
  return buildCandidate(
      mod, randState, postprocs, failures, error, [&](ScheduleState &state) {
        std::string ignored;
        if (succeeded(state.applyTrace(trace, /*removePostproc=*/true, nullptr,
                                       ignored)))
          return true;
        ++failures.back();
        return false;
      });
}

FailureOr<Schedule>
mlir::tir::ms::buildCandidate(ModuleOp mod, RandomEngine::State &randState,
                              ArrayRef<std::shared_ptr<Postproc>> postprocs,
                              std::vector<int64_t> &failures,
                              std::string &error,
                              llvm::function_ref<bool(ScheduleState &)> steps) {
  FailureOr<Schedule> sch =
      createTracedSchedule(mod, RandomEngine(randState).forkSeed(), error,
                           ScheduleOptions::ErrorRendering::None);
  if (failed(sch))
    return failure();
  if (!steps(**sch))
    return Schedule();
  FailureOr<bool> accepted = applyPostprocs(*sch, postprocs, failures, error);
  if (failed(accepted))
    return failure();
  return *accepted ? *sch : Schedule();
}

FailureOr<bool> mlir::tir::ms::applyPostprocs(
    const Schedule &sch, ArrayRef<std::shared_ptr<Postproc>> postprocs,
    std::vector<int64_t> &failures, std::string &error) {
  failures.resize(postprocs.size() + 1, 0);
  std::string ignored;
  if (failed(sch->apply("enter_postproc", {}, {}, 0, ignored))) {
    ++failures.back();
    return false;
  }
  for (auto [index, postproc] : llvm::enumerate(postprocs)) {
    FailureOr<bool> accepted = postproc->apply(sch, error);
    if (failed(accepted))
      return failure();
    if (!*accepted) {
      ++failures[index];
      return false;
    }
  }
  return true;
}

Trace mlir::tir::ms::withoutDecisions(const Trace &trace) {
  Trace fresh;
  for (const InstructionRef &inst : trace.getInstructions())
    fresh.append(inst);
  return fresh;
}

ArrayRef<std::shared_ptr<Postproc>> ReplayStrategyBase::getPostprocs() const {
  if (context && context->spaceGenerator && context->spaceGenerator->postprocs)
    return *context->spaceGenerator->postprocs;
  return {};
}

//===----------------------------------------------------------------------===//
// ReplayStrategyBase
//===----------------------------------------------------------------------===//

LogicalResult
ReplayStrategyBase::initializeWithTuneContext(const TuneContext &ctx,
                                              std::string &error) {
  if (!ctx.mod) {
    error = "the search strategy's tune context has no module";
    return failure();
  }
  context = &ctx;
  contextRef = ctx.weak_from_this();
  randState = ctx.forkSeed();
  tuning = false;
  return success();
}

LogicalResult ReplayStrategyBase::startTuning(int64_t trials,
                                              int64_t trialsPerIter,
                                              std::string &error) {
  if (failed(checkContext(error)))
    return failure();
  if (tuning) {
    error = "pre_tuning was called again without post_tuning";
    return failure();
  }
  if (trials < 1 || trialsPerIter < 1) {
    error = "max_trials and num_trials_per_iter are positive, got " +
            std::to_string(trials) + " and " + std::to_string(trialsPerIter);
    return failure();
  }
  maxTrials = trials;
  numTrialsPerIter = trialsPerIter;
  st = 0;
  ed = trialsPerIter;
  tuning = true;
  return success();
}

LogicalResult ReplayStrategyBase::checkContext(std::string &error) {
  if (!context) {
    error = "the search strategy was not initialized with a tune context "
            "(TuneContext(search_strategy=...) initializes it)";
    return failure();
  }
  // A context owned by shared pointers (Python's, a task scheduler's) that
  // is gone; one that never was is kept alive by its caller.
  bool neverShared = !contextRef.owner_before(std::weak_ptr<TuneContext>()) &&
                     !std::weak_ptr<TuneContext>().owner_before(contextRef);
  if (!neverShared && contextRef.expired()) {
    error = "the search strategy's tune context no longer exists";
    context = nullptr;
    return failure();
  }
  return success();
}

std::optional<std::vector<MeasureCandidate>>
ReplayStrategyBase::endIfEmpty(std::vector<MeasureCandidate> batch,
                               StringRef strategy, int64_t attempts) const {
  if (!batch.empty())
    return batch;
  context->log(LogLevel::Warning,
               (strategy +
                ": no sample of the design spaces passed the "
                "postprocessors in " +
                Twine(attempts) + " attempts per candidate; the search ends")
                   .str());
  return std::nullopt;
}

bool ReplayStrategyBase::nextBatch() {
  if (st >= maxTrials)
    return false;
  ed = std::min(ed, maxTrials);
  return st < ed;
}

LogicalResult ReplayStrategyBase::postTuning(std::string &) {
  tuning = false;
  return success();
}

LogicalResult ReplayStrategyBase::notifyRunnerResults(
    const std::vector<MeasureCandidate> &,
    const std::vector<RunnerResult> &results, std::string &error) {
  if (!tuning) {
    error = "notify_runner_results outside pre_tuning / post_tuning";
    return failure();
  }
  st += static_cast<int64_t>(results.size());
  ed += static_cast<int64_t>(results.size());
  return success();
}

//===----------------------------------------------------------------------===//
// FunctionSearchStrategy
//===----------------------------------------------------------------------===//

LogicalResult
FunctionSearchStrategy::initializeWithTuneContext(const TuneContext &context,
                                                  std::string &error) {
  return callGiven(initializeFn, name, "InitializeWithTuneContext", error,
                   context);
}

LogicalResult
FunctionSearchStrategy::preTuning(int64_t maxTrials, int64_t numTrialsPerIter,
                                  const std::vector<Schedule> &designSpaces,
                                  std::shared_ptr<Database> database,
                                  std::shared_ptr<CostModel> costModel,
                                  std::string &error) {
  return callGiven(preTuningFn, name, "PreTuning", error, maxTrials,
                   numTrialsPerIter, designSpaces, std::move(database),
                   std::move(costModel));
}

LogicalResult FunctionSearchStrategy::postTuning(std::string &error) {
  return callGiven(postTuningFn, name, "PostTuning", error);
}

FailureOr<std::optional<std::vector<MeasureCandidate>>>
FunctionSearchStrategy::generateMeasureCandidates(std::string &error) {
  return callGiven(generateFn, name, "GenerateMeasureCandidates", error);
}

LogicalResult FunctionSearchStrategy::notifyRunnerResults(
    const std::vector<MeasureCandidate> &candidates,
    const std::vector<RunnerResult> &results, std::string &error) {
  return callGiven(notifyFn, name, "NotifyRunnerResults", error, candidates,
                   results);
}

FailureOr<std::shared_ptr<SearchStrategy>>
FunctionSearchStrategy::clone(std::string &error) const {
  return callGiven(cloneFn, name, "Clone", error);
}
