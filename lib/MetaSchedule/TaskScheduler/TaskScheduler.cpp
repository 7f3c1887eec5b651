//===- TaskScheduler.cpp - trials shared among tasks ----------------------===//

#include "TensorIR/MetaSchedule/TaskScheduler.h"
#include "TensorIR/MetaSchedule/Flops.h"
#include "TensorIR/MetaSchedule/Profiler.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

TaskScheduler::~TaskScheduler() = default;

LogicalResult TaskScheduler::checkTaskId(int64_t taskId,
                                         std::string &error) const {
  if (taskId < 0 || taskId >= static_cast<int64_t>(tasks.size())) {
    error = "task id " + std::to_string(taskId) + " is not one of the " +
            std::to_string(tasks.size()) + " tasks";
    return failure();
  }
  return success();
}

LogicalResult
TaskScheduler::tune(const std::vector<std::shared_ptr<TuneContext>> &contexts,
                    const std::vector<double> &weights, int64_t maxTrialsGlobal,
                    int64_t maxTrialsPerTask, int64_t numTrialsPerIter,
                    std::shared_ptr<mlir::tir::ms::Builder> builder,
                    std::shared_ptr<Runner> runner,
                    std::vector<std::shared_ptr<MeasureCallback>> callbacks,
                    std::shared_ptr<Database> db,
                    std::shared_ptr<CostModel> model, std::string &error) {
  if (contexts.size() != weights.size()) {
    error = "task_weights must have as many entries as there are tasks (" +
            std::to_string(contexts.size()) + "), got " +
            std::to_string(weights.size());
    return failure();
  }
  if (!builder || !runner) {
    error = "tuning needs a builder and a runner";
    return failure();
  }
  if (maxTrialsGlobal < 1 || maxTrialsPerTask < 1 || numTrialsPerIter < 1) {
    error = "max_trials_global, max_trials_per_task and num_trials_per_iter "
            "are positive";
    return failure();
  }
  measureCallbacks = std::move(callbacks);
  database = std::move(db);
  costModel = std::move(model);
  tasks.clear();
  remainingTasks = static_cast<int64_t>(contexts.size());
  for (auto [index, ctx] : llvm::enumerate(contexts)) {
    if (!ctx->mod || !ctx->spaceGenerator || !ctx->searchStrategy ||
        !ctx->target) {
      error = "task #" + std::to_string(index) + " (" + ctx->taskName +
              ") needs a module, a target, a space generator and a search "
              "strategy";
      return failure();
    }
    log(LogLevel::Info,
        "Initializing Task #" + std::to_string(index) + ": " + ctx->taskName);
    // As TVM's task records: the components start afresh with the context.
    if (failed(ctx->initialize(error)))
      return failure();
    auto task = std::make_shared<TaskRecord>();
    task->ctx = ctx;
    task->weight = weights[index];
    task->flop = std::max(1.0, estimateFlops(ctx->mod.get()));
    tasks.push_back(task);
    FailureOr<std::vector<Schedule>> spaces = ctx->generateDesignSpace(error);
    if (failed(spaces))
      return failure();
    ctx->log(LogLevel::Info, "Total " + std::to_string(spaces->size()) +
                                 " design space(s) generated");
    for (auto [i, space] : llvm::enumerate(*spaces)) {
      std::string ignored;
      FailureOr<std::vector<std::string>> lines =
          space->getInstructions().simplified(true).asPython(
              space->getContext(), false, ignored);
      if (succeeded(lines)) {
        std::string text = "Design space #" + std::to_string(i) + ":";
        for (const std::string &line : *lines)
          text += "\n" + line;
        ctx->log(LogLevel::Info, text);
      }
    }
    if (checkResults && failed(buildReference(*task, *builder, error)))
      return failure();
    if (failed(ctx->searchStrategy->preTuning(maxTrialsPerTask,
                                              numTrialsPerIter, *spaces,
                                              database, costModel, error)))
      return failure();
  }

  int64_t trialsSoFar = 0;
  while (trialsSoFar < maxTrialsGlobal) {
    FailureOr<int64_t> taskId = nextTaskId(error);
    if (failed(taskId))
      return failure();
    if (*taskId == -1)
      break;
    if (failed(checkTaskId(*taskId, error)))
      return failure();
    TaskRecord &task = *tasks[*taskId];
    log(LogLevel::Info, "TaskScheduler picks Task #" + std::to_string(*taskId) +
                            ": " + task.ctx->taskName);
    if (task.isTerminated || task.runnerFutures) {
      error = "next_task_id picked task #" + std::to_string(*taskId) +
              (task.isTerminated ? ", which is done"
                                 : ", whose batch was not joined");
      return failure();
    }
    if (static_cast<int64_t>(task.latencyMs.size()) >= maxTrialsPerTask) {
      if (failed(terminateTask(*taskId, error)))
        return failure();
      continue;
    }
    FailureOr<std::optional<std::vector<MeasureCandidate>>> batch =
        task.ctx->searchStrategy->generateMeasureCandidates(error);
    if (failed(batch))
      return failure();
    if (!*batch) {
      if (failed(terminateTask(*taskId, error)))
        return failure();
      continue;
    }
    task.candidates = std::move(**batch);
    trialsSoFar += static_cast<int64_t>(task.candidates->size());
    log(LogLevel::Info, "Sending " + std::to_string(task.candidates->size()) +
                            " sample(s) to builder");
    if (failed(sendToBuilder(task, *builder, error)))
      return failure();
    log(LogLevel::Info, "Sending " + std::to_string(task.candidates->size()) +
                            " sample(s) to runner");
    if (failed(sendToRunner(task, *runner, error)))
      return failure();
  }
  for (auto [index, task] : llvm::enumerate(tasks)) {
    if (!task->isTerminated) {
      if (task->runnerFutures &&
          failed(joinRunningTask(static_cast<int64_t>(index), error)))
        return failure();
      if (failed(terminateTask(static_cast<int64_t>(index), error)))
        return failure();
    }
    if (failed(task->ctx->searchStrategy->postTuning(error)))
      return failure();
    if (task->referenceArtifact) {
      (void)llvm::sys::fs::remove(*task->referenceArtifact);
      StringRef folder = llvm::sys::path::parent_path(*task->referenceArtifact);
      if (!folder.empty())
        (void)llvm::sys::fs::remove(folder); // fails unless empty
    }
  }
  return success();
}

LogicalResult TaskScheduler::buildReference(TaskRecord &task,
                                            mlir::tir::ms::Builder &builder,
                                            std::string &error) {
  std::vector<BuilderInput> inputs{BuilderInput{
      std::make_shared<OwningOpRef<ModuleOp>>(task.ctx->mod.get().clone()),
      *task.ctx->target}};
  FailureOr<std::vector<BuilderResult>> built = builder.build(inputs, error);
  if (failed(built))
    return failure();
  const BuilderResult &result = built->front();
  if (result.errorMsg || !result.artifactPath) {
    task.ctx->log(LogLevel::Warning,
                  "the unscheduled program did not build, so candidates are "
                  "not checked against it: " +
                      result.errorMsg.value_or("no artifact"));
    return success();
  }
  task.referenceArtifact = result.artifactPath;
  return success();
}

LogicalResult TaskScheduler::sendToBuilder(TaskRecord &task,
                                           mlir::tir::ms::Builder &builder,
                                           std::string &error) {
  Profiler::TimedScope timer("SendToBuilder");
  std::vector<BuilderInput> inputs;
  for (const MeasureCandidate &candidate : *task.candidates)
    inputs.push_back(BuilderInput{std::make_shared<OwningOpRef<ModuleOp>>(
                                      candidate.sch->getPayload().clone()),
                                  *task.ctx->target});
  FailureOr<std::vector<BuilderResult>> results = builder.build(inputs, error);
  if (failed(results))
    return failure();
  task.builderResults = std::move(*results);
  return success();
}

LogicalResult TaskScheduler::sendToRunner(TaskRecord &task, Runner &runner,
                                          std::string &error) {
  Profiler::TimedScope timer("SendToRunner");
  std::vector<RunnerInput> inputs;
  for (auto [candidate, built] :
       llvm::zip(*task.candidates, *task.builderResults))
    if (!built.errorMsg)
      inputs.push_back(RunnerInput{built.artifactPath.value_or(""),
                                   task.ctx->target->getKind().str(),
                                   candidate.argsInfo, task.referenceArtifact});
  FailureOr<std::vector<std::shared_ptr<RunnerFuture>>> futures =
      runner.run(inputs, error);
  if (failed(futures))
    return failure();
  // A candidate that did not build gets a future done with its error.
  std::vector<std::shared_ptr<RunnerFuture>> all;
  size_t next = 0;
  for (const BuilderResult &built : *task.builderResults)
    all.push_back(built.errorMsg ? makeReadyFuture(RunnerResult{std::nullopt,
                                                                built.errorMsg})
                                 : (*futures)[next++]);
  task.runnerFutures = std::move(all);
  return success();
}

/// The median of the run times, in ms.
static double medianRunMs(const std::vector<double> &runSecs) {
  std::vector<double> sorted = runSecs;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  double median =
      n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return median * 1e3;
}

FailureOr<std::vector<RunnerResult>>
TaskScheduler::joinRunningTask(int64_t taskId, std::string &error) {
  if (failed(checkTaskId(taskId, error)))
    return failure();
  TaskRecord &task = *tasks[taskId];
  if (!task.runnerFutures || !task.candidates || !task.builderResults) {
    error = "task #" + std::to_string(taskId) + " has no batch running";
    return failure();
  }
  std::vector<RunnerResult> results;
  for (const std::shared_ptr<RunnerFuture> &future : *task.runnerFutures) {
    FailureOr<RunnerResult> result = future->result(error);
    if (failed(result))
      return failure();
    results.push_back(std::move(*result));
  }
  if (failed(task.ctx->searchStrategy->notifyRunnerResults(*task.candidates,
                                                           results, error)))
    return failure();
  for (const std::shared_ptr<MeasureCallback> &callback : measureCallbacks)
    if (failed(callback->apply(*this, taskId, *task.candidates,
                               *task.builderResults, results, error)))
      return failure();
  const std::string &name = task.ctx->taskName;
  for (size_t i = 0; i < results.size(); ++i) {
    const BuilderResult &built = (*task.builderResults)[i];
    const RunnerResult &ran = results[i];
    std::optional<std::string> message = built.errorMsg;
    double runMs = 1e9;
    if (message) {
      ++task.buildErrorCount;
    } else if ((message = ran.errorMsg)) {
      ++task.runErrorCount;
    } else if (ran.runSecs && !ran.runSecs->empty()) {
      runMs = medianRunMs(*ran.runSecs);
    }
    task.latencyMs.push_back(runMs);
    std::string head = "[Task #" + std::to_string(taskId) + ": " + name +
                       "] Trial #" + std::to_string(task.latencyMs.size());
    if (message) {
      task.ctx->log(LogLevel::Info,
                    head + ": Error in " +
                        (built.errorMsg ? "building" : "running") + ":\n" +
                        *message);
      continue;
    }
    double best =
        *std::min_element(task.latencyMs.begin(), task.latencyMs.end());
    std::string text;
    llvm::raw_string_ostream os(text);
    os << head << ": GFLOPs: " << llvm::format("%.4f", task.flop / runMs / 1e6)
       << ". Time: " << llvm::format("%.4f", runMs * 1e3)
       << " us. Best GFLOPs: " << llvm::format("%.4f", task.flop / best / 1e6);
    task.ctx->log(LogLevel::Info, text);
  }
  task.candidates.reset();
  task.builderResults.reset();
  task.runnerFutures.reset();
  printTuningStatistics();
  return results;
}

LogicalResult TaskScheduler::touchTask(int64_t taskId, std::string &error) {
  if (failed(checkTaskId(taskId, error)))
    return failure();
  TaskRecord &task = *tasks[taskId];
  if (task.isTerminated || !task.runnerFutures)
    return success();
  for (const std::shared_ptr<RunnerFuture> &future : *task.runnerFutures) {
    FailureOr<bool> done = future->done(error);
    if (failed(done))
      return failure();
    if (!*done)
      return success();
  }
  return success(succeeded(joinRunningTask(taskId, error)));
}

LogicalResult TaskScheduler::terminateTask(int64_t taskId, std::string &error) {
  if (failed(checkTaskId(taskId, error)))
    return failure();
  TaskRecord &task = *tasks[taskId];
  if (task.isTerminated) {
    error = "task #" + std::to_string(taskId) + " is done already";
    return failure();
  }
  task.isTerminated = true;
  --remainingTasks;
  log(LogLevel::Info, "Task #" + std::to_string(taskId) +
                          " has finished. Remaining task(s): " +
                          std::to_string(remainingTasks));
  printTuningStatistics();
  return success();
}

void TaskScheduler::printTuningStatistics() {
  log(LogLevel::Info, getTuningStatistics());
}

std::string TaskScheduler::getTuningStatistics() const {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"ID", "Name", "FLOP", "Weight", "Speed (GFLOPS)",
                  "Latency (us)", "Weighted Latency (us)", "Trials", "Done"});
  auto fixed = [](double value) {
    std::string text;
    llvm::raw_string_ostream(text) << llvm::format("%.4f", value);
    return text;
  };
  int64_t totalTrials = 0;
  double totalLatency = 0;
  for (auto [index, task] : llvm::enumerate(tasks)) {
    std::vector<std::string> row{
        std::to_string(index), task->ctx->taskName,
        std::to_string(static_cast<int64_t>(task->flop)),
        std::to_string(static_cast<int64_t>(task->weight))};
    double latencyMs =
        task->latencyMs.empty()
            ? 1e9
            : *std::min_element(task->latencyMs.begin(), task->latencyMs.end());
    int64_t trials = static_cast<int64_t>(task->latencyMs.size());
    if (latencyMs >= 1e9) {
      row.insert(row.end(), {"N/A", "N/A", "N/A"});
    } else {
      double latencyUs = latencyMs * 1000.0;
      double weighted = latencyUs * task->weight;
      row.insert(row.end(), {fixed(task->flop / latencyUs / 1000.0),
                             fixed(latencyUs), fixed(weighted)});
      totalLatency += weighted;
      totalTrials += trials;
    }
    row.push_back(std::to_string(trials));
    row.push_back(task->isTerminated ? "Y" : "");
    rows.push_back(std::move(row));
  }
  std::vector<size_t> widths(rows.front().size(), 0);
  for (const auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  std::string text;
  llvm::raw_string_ostream os(text);
  auto separator = [&] {
    for (size_t w : widths)
      os << std::string(w + 3, '-');
    os << "\n";
  };
  for (auto [index, row] : llvm::enumerate(rows)) {
    for (size_t i = 0; i < row.size(); ++i)
      os << " " << llvm::right_justify(row[i], widths[i]) << " |";
    os << "\n";
    if (index == 0)
      separator();
  }
  separator();
  os << "Total trials: " << totalTrials << "\n"
     << "Total latency (us): " << fixed(totalLatency) << "\n";
  return text;
}

//===----------------------------------------------------------------------===//
// FunctionTaskScheduler
//===----------------------------------------------------------------------===//

LogicalResult FunctionTaskScheduler::tune(
    const std::vector<std::shared_ptr<TuneContext>> &contexts,
    const std::vector<double> &weights, int64_t maxTrialsGlobal,
    int64_t maxTrialsPerTask, int64_t numTrialsPerIter,
    std::shared_ptr<mlir::tir::ms::Builder> builder,
    std::shared_ptr<Runner> runner,
    std::vector<std::shared_ptr<MeasureCallback>> callbacks,
    std::shared_ptr<Database> db, std::shared_ptr<CostModel> model,
    std::string &error) {
  if (!tuneFn)
    return TaskScheduler::tune(
        contexts, weights, maxTrialsGlobal, maxTrialsPerTask, numTrialsPerIter,
        std::move(builder), std::move(runner), std::move(callbacks),
        std::move(db), std::move(model), error);
  return tuneFn(contexts, weights, maxTrialsGlobal, maxTrialsPerTask,
                numTrialsPerIter, std::move(builder), std::move(runner),
                std::move(callbacks), std::move(db), std::move(model), error);
}

FailureOr<int64_t> FunctionTaskScheduler::nextTaskId(std::string &error) {
  if (!nextTaskIdFn) {
    error = name + "'s next_task_id is not defined";
    return failure();
  }
  return nextTaskIdFn(error);
}

FailureOr<std::vector<RunnerResult>>
FunctionTaskScheduler::joinRunningTask(int64_t taskId, std::string &error) {
  if (!joinRunningTaskFn)
    return TaskScheduler::joinRunningTask(taskId, error);
  return joinRunningTaskFn(taskId, error);
}
