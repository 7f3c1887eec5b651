//===- Runner.cpp - measuring built candidates ----------------------------===//

#include "TensorIR/MetaSchedule/Runner.h"

using namespace mlir;
using namespace mlir::tir::ms;

RunnerFuture::~RunnerFuture() = default;
Runner::~Runner() = default;

FailureOr<bool> FunctionRunnerFuture::done(std::string &error) {
  return callGiven(doneFn, name, "Done", error);
}

FailureOr<RunnerResult> FunctionRunnerFuture::result(std::string &error) {
  return callGiven(resultFn, name, "Result", error);
}

namespace {
class ReadyFuture : public RunnerFuture {
public:
  explicit ReadyFuture(RunnerResult result) : value(std::move(result)) {}
  FailureOr<bool> done(std::string &) override { return true; }
  FailureOr<RunnerResult> result(std::string &) override { return value; }

private:
  RunnerResult value;
};
} // namespace

std::shared_ptr<RunnerFuture>
mlir::tir::ms::makeReadyFuture(RunnerResult result) {
  return std::make_shared<ReadyFuture>(std::move(result));
}

FailureOr<std::vector<std::shared_ptr<RunnerFuture>>>
FunctionRunner::run(const std::vector<RunnerInput> &inputs,
                    std::string &error) {
  if (!runFn) {
    error = notImplemented(name, "Run");
    return failure();
  }
  auto futures = runFn(inputs, error);
  if (succeeded(futures) && futures->size() != inputs.size()) {
    error = name + " gave " + std::to_string(futures->size()) +
            " futures for " + std::to_string(inputs.size()) + " inputs";
    return failure();
  }
  return futures;
}
