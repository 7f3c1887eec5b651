//===- MeasureCallback.h - what follows a measurement -----------*- C++ -*-===//
//
// TVM's MeasureCallback: called by the task scheduler with each task's
// measured batch. AddToDatabase records every candidate (a failed one with
// the stand-in time 1e10), UpdateCostModel trains the cost model on the
// successful ones, RemoveBuildArtifact deletes the built artifacts;
// FunctionMeasureCallback is one given as functions (TVM's
// PyMeasureCallback).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_MEASURECALLBACK_H
#define TENSORIR_METASCHEDULE_MEASURECALLBACK_H

#include "TensorIR/MetaSchedule/Measure.h"

namespace mlir::tir::ms {

class TaskScheduler;

class MeasureCallback {
public:
  virtual ~MeasureCallback();
  virtual LogicalResult apply(TaskScheduler &scheduler, int64_t taskId,
                              const std::vector<MeasureCandidate> &candidates,
                              const std::vector<BuilderResult> &builderResults,
                              const std::vector<RunnerResult> &runnerResults,
                              std::string &error) = 0;
  virtual std::string str() const = 0;
};

class AddToDatabase : public MeasureCallback {
public:
  LogicalResult apply(TaskScheduler &scheduler, int64_t taskId,
                      const std::vector<MeasureCandidate> &candidates,
                      const std::vector<BuilderResult> &builderResults,
                      const std::vector<RunnerResult> &runnerResults,
                      std::string &error) override;
  std::string str() const override;
};

class UpdateCostModel : public MeasureCallback {
public:
  LogicalResult apply(TaskScheduler &scheduler, int64_t taskId,
                      const std::vector<MeasureCandidate> &candidates,
                      const std::vector<BuilderResult> &builderResults,
                      const std::vector<RunnerResult> &runnerResults,
                      std::string &error) override;
  std::string str() const override;
};

class RemoveBuildArtifact : public MeasureCallback {
public:
  LogicalResult apply(TaskScheduler &scheduler, int64_t taskId,
                      const std::vector<MeasureCandidate> &candidates,
                      const std::vector<BuilderResult> &builderResults,
                      const std::vector<RunnerResult> &runnerResults,
                      std::string &error) override;
  std::string str() const override;
};

class FunctionMeasureCallback : public MeasureCallback {
public:
  std::string name = "PyMeasureCallback";
  std::function<LogicalResult(TaskScheduler &, int64_t,
                              const std::vector<MeasureCandidate> &,
                              const std::vector<BuilderResult> &,
                              const std::vector<RunnerResult> &, std::string &)>
      applyFn;
  std::function<std::string()> strFn;
  LogicalResult apply(TaskScheduler &scheduler, int64_t taskId,
                      const std::vector<MeasureCandidate> &candidates,
                      const std::vector<BuilderResult> &builderResults,
                      const std::vector<RunnerResult> &runnerResults,
                      std::string &error) override;
  std::string str() const override;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_MEASURECALLBACK_H
