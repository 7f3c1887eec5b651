//===- RoundRobin.cpp - the tasks in turn ---------------------------------===//

#include "TensorIR/MetaSchedule/TaskScheduler.h"

using namespace mlir;
using namespace mlir::tir::ms;

FailureOr<int64_t> RoundRobin::nextTaskId(std::string &error) {
  int64_t n = static_cast<int64_t>(tasks.size());
  for (int64_t i = 0; i < n; ++i)
    if (failed(touchTask(i, error)))
      return failure();
  for (int64_t i = 0; i < n; ++i) {
    taskId = (taskId + 1) % n;
    TaskRecord &task = *tasks[taskId];
    if (task.isTerminated)
      continue;
    if (task.runnerFutures && failed(joinRunningTask(taskId, error)))
      return failure();
    return taskId;
  }
  return -1;
}
