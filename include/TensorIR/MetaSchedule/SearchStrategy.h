//===- SearchStrategy.h - what to measure next ------------------*- C++ -*-===//
//
// TVM's SearchStrategy: between pre_tuning (the design spaces, the trial
// budget, the database and the cost model) and post_tuning, each
// generateMeasureCandidates() gives the next batch to build and measure
// (std::nullopt when the search is over), and notifyRunnerResults() what
// was measured.
//
//  - ReplayTrace: design-space traces replayed with fresh decisions.
//  - ReplayFunc: the space generator asked again for each candidate.
//  - EvolutionarySearch: TVM's genetic search; an initial population from
//    the database's best records and fresh samples evolves by mutation
//    over several rounds, ranked by the cost model; the batch is the best
//    of it not measured yet, with an epsilon-greedy share of fresh
//    samples; five batches with nothing new end it.
//  - FunctionSearchStrategy: one given as functions (TVM's
//    PySearchStrategy).
//
// A candidate is a design-space trace replayed on the task's module
// followed by the postprocessors; one a postprocessor rejects is not
// sent.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_SEARCHSTRATEGY_H
#define TENSORIR_METASCHEDULE_SEARCHSTRATEGY_H

#include "TensorIR/MetaSchedule/CostModel.h"
#include "TensorIR/MetaSchedule/Database.h"
#include "TensorIR/MetaSchedule/SpaceGenerator.h"

namespace mlir::tir::ms {

class SearchStrategy {
public:
  virtual ~SearchStrategy();
  virtual LogicalResult initializeWithTuneContext(const TuneContext &context,
                                                  std::string &error) = 0;
  virtual LogicalResult preTuning(int64_t maxTrials, int64_t numTrialsPerIter,
                                  const std::vector<Schedule> &designSpaces,
                                  std::shared_ptr<Database> database,
                                  std::shared_ptr<CostModel> costModel,
                                  std::string &error) = 0;
  virtual LogicalResult postTuning(std::string &error) = 0;
  /// The next batch; std::nullopt when the search is over.
  virtual FailureOr<std::optional<std::vector<MeasureCandidate>>>
  generateMeasureCandidates(std::string &error) = 0;
  virtual LogicalResult
  notifyRunnerResults(const std::vector<MeasureCandidate> &candidates,
                      const std::vector<RunnerResult> &results,
                      std::string &error) = 0;
  virtual FailureOr<std::shared_ptr<SearchStrategy>>
  clone(std::string &error) const = 0;
};

/// What every strategy of the library keeps: the context's module,
/// postprocessors and random state, the batch bounds.
class ReplayStrategyBase : public SearchStrategy {
public:
  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  LogicalResult postTuning(std::string &error) override;
  LogicalResult
  notifyRunnerResults(const std::vector<MeasureCandidate> &candidates,
                      const std::vector<RunnerResult> &results,
                      std::string &error) override;

protected:
  /// The trials [st, ed) of the next batch; false when the budget is
  /// spent.
  bool nextBatch();
  LogicalResult startTuning(int64_t maxTrials, int64_t numTrialsPerIter,
                            std::string &error);
  /// Fails unless the context the strategy was initialized with is alive.
  LogicalResult checkContext(std::string &error);
  /// The postprocessors of the context's space generator (none when it
  /// has none).
  ArrayRef<std::shared_ptr<Postproc>> getPostprocs() const;
  /// The batch, or the end of the search when it is empty: the
  /// postprocessors rejected every sample (`attempts` per candidate), and
  /// empty batches would follow forever; logged as `strategy`'s.
  std::optional<std::vector<MeasureCandidate>>
  endIfEmpty(std::vector<MeasureCandidate> batch, StringRef strategy,
             int64_t attempts) const;

  /// The context the strategy was initialized with, alive while tuning
  /// (checked through `contextRef` when the context is shared: a strategy
  /// that outlives its context refuses to tune).
  const TuneContext *context = nullptr;
  std::weak_ptr<const TuneContext> contextRef;
  RandomEngine::State randState = 1;
  bool tuning = false;
  int64_t maxTrials = 0, numTrialsPerIter = 0, st = 0, ed = 0;
};

class ReplayTrace : public ReplayStrategyBase {
public:
  /// How many samples a candidate gets before it is left out of the batch
  /// (postprocessors rejected them all); a batch left empty ends the search.
  int64_t maxFailCount = 100;

  LogicalResult preTuning(int64_t maxTrials, int64_t numTrialsPerIter,
                          const std::vector<Schedule> &designSpaces,
                          std::shared_ptr<Database> database,
                          std::shared_ptr<CostModel> costModel,
                          std::string &error) override;
  FailureOr<std::optional<std::vector<MeasureCandidate>>>
  generateMeasureCandidates(std::string &error) override;
  FailureOr<std::shared_ptr<SearchStrategy>>
  clone(std::string &error) const override;

private:
  std::vector<Trace> designSpaces;
};

class ReplayFunc : public ReplayStrategyBase {
public:
  int64_t maxFailCount = 100;

  LogicalResult preTuning(int64_t maxTrials, int64_t numTrialsPerIter,
                          const std::vector<Schedule> &designSpaces,
                          std::shared_ptr<Database> database,
                          std::shared_ptr<CostModel> costModel,
                          std::string &error) override;
  FailureOr<std::optional<std::vector<MeasureCandidate>>>
  generateMeasureCandidates(std::string &error) override;
  FailureOr<std::shared_ptr<SearchStrategy>>
  clone(std::string &error) const override;
};

/// TVM's EvolutionarySearch, with TVM's parameters.
class EvolutionarySearch : public ReplayStrategyBase {
public:
  int64_t populationSize = 512;
  double initMeasuredRatio = 0.2;
  int64_t initMinUnmeasured = 50;
  int64_t maxFailCount = 5;
  int64_t geneticNumIters = 4;
  double geneticMutateProb = 0.85;
  int64_t geneticMaxFailCount = 10;
  double epsGreedy = 0.05;
  /// Batches with nothing new (in all) before the search stops.
  int64_t numEmptyItersBeforeEarlyStop = 5;
  /// Beyond TVM (off by default, as TVM): the first batch also measures
  /// the program as it is (through the postprocessors), so that the tuning
  /// never returns a program slower than no tuning at all.
  bool measureUnscheduled = false;

  /// Fails naming the parameter out of range.
  LogicalResult verifyParameters(std::string &error) const;

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  LogicalResult preTuning(int64_t maxTrials, int64_t numTrialsPerIter,
                          const std::vector<Schedule> &designSpaces,
                          std::shared_ptr<Database> database,
                          std::shared_ptr<CostModel> costModel,
                          std::string &error) override;
  LogicalResult postTuning(std::string &error) override;
  FailureOr<std::optional<std::vector<MeasureCandidate>>>
  generateMeasureCandidates(std::string &error) override;
  FailureOr<std::shared_ptr<SearchStrategy>>
  clone(std::string &error) const override;

private:
  struct State;
  std::shared_ptr<State> state;
};

/// A strategy given as functions (TVM's PySearchStrategy).
class FunctionSearchStrategy : public SearchStrategy {
public:
  std::string name = "PySearchStrategy";
  std::function<LogicalResult(const TuneContext &, std::string &)> initializeFn;
  std::function<LogicalResult(int64_t, int64_t, const std::vector<Schedule> &,
                              std::shared_ptr<Database>,
                              std::shared_ptr<CostModel>, std::string &)>
      preTuningFn;
  std::function<LogicalResult(std::string &)> postTuningFn;
  std::function<FailureOr<std::optional<std::vector<MeasureCandidate>>>(
      std::string &)>
      generateFn;
  std::function<LogicalResult(const std::vector<MeasureCandidate> &,
                              const std::vector<RunnerResult> &, std::string &)>
      notifyFn;
  std::function<FailureOr<std::shared_ptr<SearchStrategy>>(std::string &)>
      cloneFn;

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  LogicalResult preTuning(int64_t maxTrials, int64_t numTrialsPerIter,
                          const std::vector<Schedule> &designSpaces,
                          std::shared_ptr<Database> database,
                          std::shared_ptr<CostModel> costModel,
                          std::string &error) override;
  LogicalResult postTuning(std::string &error) override;
  FailureOr<std::optional<std::vector<MeasureCandidate>>>
  generateMeasureCandidates(std::string &error) override;
  LogicalResult
  notifyRunnerResults(const std::vector<MeasureCandidate> &candidates,
                      const std::vector<RunnerResult> &results,
                      std::string &error) override;
  FailureOr<std::shared_ptr<SearchStrategy>>
  clone(std::string &error) const override;
};

/// TVM's ThreadedTraceApply: `trace` (up to postprocessing) replayed on
/// `mod` with its decisions (fresh ones where it has none), then the
/// postprocessors; null when one rejects it or the trace does not apply,
/// whose count goes to `failures` (one entry per postprocessor, one more:
/// the trace did not apply). Fails only when a postprocessor fails.
/// Marks where postprocessing starts in `sch` (enter_postproc) and applies
/// `postprocs` to it in place; false when the mark does not apply or a
/// postprocessor rejects it, counted in `failures` as
/// applyTraceAndPostprocs counts. Fails only when a postprocessor fails.
FailureOr<bool> applyPostprocs(const Schedule &sch,
                               ArrayRef<std::shared_ptr<Postproc>> postprocs,
                               std::vector<int64_t> &failures,
                               std::string &error);

/// The instructions of `trace` without their decisions: replayed, every
/// sampling step draws anew.
Trace withoutDecisions(const Trace &trace);

/// A fresh traced schedule of `mod` (seeded from `randState`), `steps`
/// applied to it, then the postprocessors: null when `steps` returns false
/// or a postprocessor rejects it (counted in `failures`). Fails only when
/// a postprocessor fails.
FailureOr<Schedule>
buildCandidate(ModuleOp mod, RandomEngine::State &randState,
               ArrayRef<std::shared_ptr<Postproc>> postprocs,
               std::vector<int64_t> &failures, std::string &error,
               llvm::function_ref<bool(ScheduleState &)> steps);

FailureOr<Schedule>
applyTraceAndPostprocs(ModuleOp mod, const Trace &trace,
                       RandomEngine::State &randState,
                       ArrayRef<std::shared_ptr<Postproc>> postprocs,
                       std::vector<int64_t> &failures, std::string &error);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_SEARCHSTRATEGY_H
