//===- Runner.h - measuring built candidates --------------------*- C++ -*-===//
//
// TVM's Runner: built artifacts measured on the device, each as a future
// the task scheduler joins (done() without waiting, result() waiting).
// FunctionRunner and FunctionRunnerFuture are given as functions (TVM's
// PyRunner, PyRunnerFuture; LocalRunner is written so).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_RUNNER_H
#define TENSORIR_METASCHEDULE_RUNNER_H

#include "TensorIR/MetaSchedule/Measure.h"

namespace mlir::tir::ms {

struct RunnerInput {
  std::string artifactPath;
  std::string deviceType;
  std::vector<TensorInfo> argsInfo;
  /// The unscheduled program, built: a runner that has it runs both on the
  /// same random inputs and reports a candidate whose results differ as an
  /// error (none: not checked).
  std::optional<std::string> referencePath;
};

class RunnerFuture {
public:
  virtual ~RunnerFuture();
  virtual FailureOr<bool> done(std::string &error) = 0;
  virtual FailureOr<RunnerResult> result(std::string &error) = 0;
};

class FunctionRunnerFuture : public RunnerFuture {
public:
  std::string name = "PyRunnerFuture";
  std::function<FailureOr<bool>(std::string &)> doneFn;
  std::function<FailureOr<RunnerResult>(std::string &)> resultFn;
  FailureOr<bool> done(std::string &error) override;
  FailureOr<RunnerResult> result(std::string &error) override;
};

/// A future already done with `result` (a candidate that did not build).
std::shared_ptr<RunnerFuture> makeReadyFuture(RunnerResult result);

class Runner {
public:
  virtual ~Runner();
  /// One future per input, in order.
  virtual FailureOr<std::vector<std::shared_ptr<RunnerFuture>>>
  run(const std::vector<RunnerInput> &inputs, std::string &error) = 0;
};

class FunctionRunner : public Runner {
public:
  std::string name = "PyRunner";
  std::function<FailureOr<std::vector<std::shared_ptr<RunnerFuture>>>(
      const std::vector<RunnerInput> &, std::string &)>
      runFn;
  FailureOr<std::vector<std::shared_ptr<RunnerFuture>>>
  run(const std::vector<RunnerInput> &inputs, std::string &error) override;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_RUNNER_H
