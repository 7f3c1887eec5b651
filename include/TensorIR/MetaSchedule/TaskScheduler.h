//===- TaskScheduler.h - trials shared among tasks --------------*- C++ -*-===//
//
// TVM's TaskScheduler: tune() prepares each task (its design space and
// the search strategy's pre_tuning), then, until the global trial budget
// is spent or every task is done, picks a task (nextTaskId), asks its
// strategy for a batch, builds it and sends it to the runner; a task's
// batch is joined (results to the strategy and the measure callbacks)
// before the task is picked again. Unless told otherwise, each task's
// unscheduled module is built first and the runner checks every candidate's
// results against it. Each task records its latencies, and
// the statistics table (FLOP, GFLOP/s, latency, trials) is logged as
// tasks finish.
//
//  - RoundRobin: the tasks in turn.
//  - GradientBased: TVM's gradient of each task's best latency (weighted),
//    after one round in turn.
//  - FunctionTaskScheduler: one given as functions (TVM's
//    PyTaskScheduler); only nextTaskId must be given.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_TASKSCHEDULER_H
#define TENSORIR_METASCHEDULE_TASKSCHEDULER_H

#include "TensorIR/MetaSchedule/Builder.h"
#include "TensorIR/MetaSchedule/MeasureCallback.h"
#include "TensorIR/MetaSchedule/Runner.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

namespace mlir::tir::ms {

/// TVM's TaskRecord: a task and where its tuning stands.
struct TaskRecord {
  std::shared_ptr<TuneContext> ctx;
  double weight = 1.0;
  double flop = 0.0;
  bool isTerminated = false;
  int64_t buildErrorCount = 0, runErrorCount = 0;
  std::optional<std::vector<MeasureCandidate>> candidates;
  std::optional<std::vector<BuilderResult>> builderResults;
  std::optional<std::vector<std::shared_ptr<RunnerFuture>>> runnerFutures;
  /// The median latency of each trial in ms (1e9: it failed).
  std::vector<double> latencyMs;
  /// The unscheduled module, built, that candidates are checked against.
  std::optional<std::string> referenceArtifact;
};

class TaskScheduler {
public:
  virtual ~TaskScheduler();

  std::function<void(LogLevel, const std::string &)> logger;
  std::vector<std::shared_ptr<TaskRecord>> tasks;
  std::vector<std::shared_ptr<MeasureCallback>> measureCallbacks;
  std::shared_ptr<Database> database;
  std::shared_ptr<CostModel> costModel;
  int64_t remainingTasks = 0;
  /// Whether each task's unscheduled module is built first and every
  /// candidate's results are checked against it by the runner (beyond
  /// TVM; a candidate that computes something else is recorded as failed).
  bool checkResults = true;

  virtual LogicalResult
  tune(const std::vector<std::shared_ptr<TuneContext>> &contexts,
       const std::vector<double> &weights, int64_t maxTrialsGlobal,
       int64_t maxTrialsPerTask, int64_t numTrialsPerIter,
       std::shared_ptr<Builder> builder, std::shared_ptr<Runner> runner,
       std::vector<std::shared_ptr<MeasureCallback>> callbacks,
       std::shared_ptr<Database> database, std::shared_ptr<CostModel> costModel,
       std::string &error);
  /// The task to tune next (-1: none is left).
  virtual FailureOr<int64_t> nextTaskId(std::string &error) = 0;
  /// Waits for the task's batch and hands the results on.
  virtual FailureOr<std::vector<RunnerResult>>
  joinRunningTask(int64_t taskId, std::string &error);
  /// Joins the task's batch if all of it is done.
  virtual LogicalResult touchTask(int64_t taskId, std::string &error);
  virtual LogicalResult terminateTask(int64_t taskId, std::string &error);
  /// Logs the statistics table.
  virtual void printTuningStatistics();
  /// TVM's table: per task its FLOP, weight, best GFLOP/s and latency,
  /// trials and whether it is done, then the totals.
  std::string getTuningStatistics() const;

  void log(LogLevel level, const std::string &message) const {
    if (logger)
      logger(level, message);
  }

protected:
  LogicalResult checkTaskId(int64_t taskId, std::string &error) const;

private:
  LogicalResult buildReference(TaskRecord &task, Builder &builder,
                               std::string &error);
  LogicalResult sendToBuilder(TaskRecord &task, Builder &builder,
                              std::string &error);
  LogicalResult sendToRunner(TaskRecord &task, Runner &runner,
                             std::string &error);
};

class RoundRobin : public TaskScheduler {
public:
  FailureOr<int64_t> nextTaskId(std::string &error) override;

private:
  int64_t taskId = -1;
};

class GradientBased : public TaskScheduler {
public:
  double alpha = 0.2;
  int64_t windowSize = 3;
  RandomEngine::State randState = 1;

  LogicalResult tune(const std::vector<std::shared_ptr<TuneContext>> &contexts,
                     const std::vector<double> &weights,
                     int64_t maxTrialsGlobal, int64_t maxTrialsPerTask,
                     int64_t numTrialsPerIter, std::shared_ptr<Builder> builder,
                     std::shared_ptr<Runner> runner,
                     std::vector<std::shared_ptr<MeasureCallback>> callbacks,
                     std::shared_ptr<Database> database,
                     std::shared_ptr<CostModel> costModel,
                     std::string &error) override;
  FailureOr<int64_t> nextTaskId(std::string &error) override;
  FailureOr<std::vector<RunnerResult>>
  joinRunningTask(int64_t taskId, std::string &error) override;

private:
  int64_t roundRobinRounds = 0;
  std::vector<std::vector<double>> bestLatencyHistory;
};

class FunctionTaskScheduler : public TaskScheduler {
public:
  std::string name = "PyTaskScheduler";
  std::function<LogicalResult(
      const std::vector<std::shared_ptr<TuneContext>> &,
      const std::vector<double> &, int64_t, int64_t, int64_t,
      std::shared_ptr<Builder>, std::shared_ptr<Runner>,
      std::vector<std::shared_ptr<MeasureCallback>>, std::shared_ptr<Database>,
      std::shared_ptr<CostModel>, std::string &)>
      tuneFn;
  std::function<FailureOr<int64_t>(std::string &)> nextTaskIdFn;
  std::function<FailureOr<std::vector<RunnerResult>>(int64_t, std::string &)>
      joinRunningTaskFn;

  LogicalResult tune(const std::vector<std::shared_ptr<TuneContext>> &contexts,
                     const std::vector<double> &weights,
                     int64_t maxTrialsGlobal, int64_t maxTrialsPerTask,
                     int64_t numTrialsPerIter, std::shared_ptr<Builder> builder,
                     std::shared_ptr<Runner> runner,
                     std::vector<std::shared_ptr<MeasureCallback>> callbacks,
                     std::shared_ptr<Database> database,
                     std::shared_ptr<CostModel> costModel,
                     std::string &error) override;
  FailureOr<int64_t> nextTaskId(std::string &error) override;
  FailureOr<std::vector<RunnerResult>>
  joinRunningTask(int64_t taskId, std::string &error) override;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_TASKSCHEDULER_H
