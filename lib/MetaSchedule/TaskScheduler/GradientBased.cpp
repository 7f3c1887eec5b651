//===- GradientBased.cpp - trials where latency falls fastest -------------===//
//
// TVM's GradientBased: one round in turn, then the task whose weighted
// gradient of best latency is largest: alpha times how much the best fell
// over the last window_size trials, plus (1 - alpha) times the best over
// the trials so far (tasks without a success rank last; ties are drawn).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/TaskScheduler.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

LogicalResult
GradientBased::tune(const std::vector<std::shared_ptr<TuneContext>> &contexts,
                    const std::vector<double> &weights, int64_t maxTrialsGlobal,
                    int64_t maxTrialsPerTask, int64_t numTrialsPerIter,
                    std::shared_ptr<mlir::tir::ms::Builder> builder,
                    std::shared_ptr<Runner> runner,
                    std::vector<std::shared_ptr<MeasureCallback>> callbacks,
                    std::shared_ptr<Database> db,
                    std::shared_ptr<CostModel> model, std::string &error) {
  roundRobinRounds = 0;
  bestLatencyHistory.assign(contexts.size(), {});
  return TaskScheduler::tune(
      contexts, weights, maxTrialsGlobal, maxTrialsPerTask, numTrialsPerIter,
      std::move(builder), std::move(runner), std::move(callbacks),
      std::move(db), std::move(model), error);
}

FailureOr<int64_t> GradientBased::nextTaskId(std::string &error) {
  int64_t n = static_cast<int64_t>(tasks.size());
  if (roundRobinRounds == 0)
    printTuningStatistics();
  if (roundRobinRounds < n)
    return roundRobinRounds++;
  if (roundRobinRounds == n) {
    for (int64_t i = 0; i < n; ++i)
      if (tasks[i]->runnerFutures && failed(joinRunningTask(i, error)))
        return failure();
    ++roundRobinRounds;
  }
  std::vector<int64_t> alive;
  for (int64_t i = 0; i < n; ++i) {
    if (failed(touchTask(i, error)))
      return failure();
    if (!tasks[i]->isTerminated)
      alive.push_back(i);
  }
  if (alive.empty())
    return -1;
  std::vector<double> grad;
  for (int64_t id : alive) {
    const std::vector<double> &best = bestLatencyHistory[id];
    int64_t count = static_cast<int64_t>(best.size());
    if (count > 0 && best.back() < 1e9) {
      double last = best.back();
      double g1 = count >= 1 + windowSize
                      ? (best[count - 1 - windowSize] - last) / windowSize
                      : 0.0;
      double g2 = last / count;
      grad.push_back((alpha * g1 + (1 - alpha) * g2) * tasks[id]->weight);
    } else {
      grad.push_back(-1e9);
    }
  }
  auto [minIt, maxIt] = std::minmax_element(grad.begin(), grad.end());
  int64_t picked =
      *minIt == *maxIt
          ? alive[sampleInt(randState, 0, static_cast<int64_t>(alive.size()))]
          : alive[maxIt - grad.begin()];
  if (tasks[picked]->runnerFutures && failed(joinRunningTask(picked, error)))
    return failure();
  return picked;
}

FailureOr<std::vector<RunnerResult>>
GradientBased::joinRunningTask(int64_t taskId, std::string &error) {
  FailureOr<std::vector<RunnerResult>> results =
      TaskScheduler::joinRunningTask(taskId, error);
  if (failed(results))
    return failure();
  const std::vector<double> &latency = tasks[taskId]->latencyMs;
  if (!latency.empty())
    bestLatencyHistory[taskId].push_back(
        *std::min_element(latency.begin(), latency.end()));
  return results;
}
