//===- MetaScheduleTuning.cpp - builders, runners, task schedulers --------===//
//
// The MetaSchedule library's builders and runners (interfaces; TVM's
// LocalBuilder and LocalRunner are Python's, given as functions), measure
// callbacks and task schedulers as Python sees them. Modules cross as
// _tensorir.Module, targets as Target.export() dicts.
//
//===----------------------------------------------------------------------===//

#include "MetaSchedule.h"

#include "TensorIR/MetaSchedule/TaskScheduler.h"

#include <pybind11/functional.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

using Candidates = std::vector<ms::MeasureCandidate>;
using Futures = std::vector<std::shared_ptr<ms::RunnerFuture>>;

ms::Target targetFrom(py::handle target) {
  std::string error;
  return check(ms::Target::fromJSON(jsonFromPython(target), error), error);
}

py::object schedulerObject(ms::TaskScheduler &scheduler) {
  return py::cast(&scheduler, py::return_value_policy::reference);
}

void bindBuildersAndRunners(py::module_ &m) {
  py::class_<ms::BuilderInput>(m, "BuilderInput", py::dynamic_attr())
      .def(py::init([](py::handle module, py::handle target) {
             auto mod = std::make_shared<OwningOpRef<ModuleOp>>(
                 moduleOf(module).clone());
             return ms::BuilderInput{std::move(mod), targetFrom(target)};
           }),
           py::arg("mod"), py::arg("target"))
      .def_property_readonly("mod",
                             [](const ms::BuilderInput &input) {
                               return PyModule::own(OwningOpRef<ModuleOp>(
                                   input.mod->get().clone()));
                             })
      .def_property_readonly("target", [](const ms::BuilderInput &input) {
        return jsonToPython(input.target.toJSON());
      });

  py::class_<ms::RunnerInput>(m, "RunnerInput", py::dynamic_attr())
      .def(py::init([](std::string path, std::string device,
                       std::vector<ms::TensorInfo> args,
                       std::optional<std::string> reference) {
             return ms::RunnerInput{std::move(path), std::move(device),
                                    std::move(args), std::move(reference)};
           }),
           py::arg("artifact_path"), py::arg("device_type"),
           py::arg("args_info"), py::arg("reference_path") = py::none())
      .def_readonly("reference_path", &ms::RunnerInput::referencePath)
      .def_readonly("artifact_path", &ms::RunnerInput::artifactPath)
      .def_readonly("device_type", &ms::RunnerInput::deviceType)
      .def_readonly("args_info", &ms::RunnerInput::argsInfo);

  py::class_<ms::Builder, std::shared_ptr<ms::Builder>>(m, "Builder",
                                                        py::dynamic_attr())
      .def("build", [](ms::Builder &builder,
                       const std::vector<ms::BuilderInput> &inputs) {
        std::string error;
        return check(builder.build(inputs, error), error);
      });
  py::class_<ms::FunctionBuilder, ms::Builder,
             std::shared_ptr<ms::FunctionBuilder>>(m, "FunctionBuilder",
                                                   py::dynamic_attr())
      .def(py::init([](py::object build) {
             auto builder = std::make_shared<ms::FunctionBuilder>();
             if (!build.is_none())
               builder->buildFn = [build](
                                      const std::vector<ms::BuilderInput> &in,
                                      std::string &error) {
                 return callPython<std::vector<ms::BuilderResult>>(error, [&] {
                   return build(in).cast<std::vector<ms::BuilderResult>>();
                 });
               };
             return builder;
           }),
           py::arg("f_build"));

  py::class_<ms::RunnerFuture, std::shared_ptr<ms::RunnerFuture>>(
      m, "RunnerFuture", py::dynamic_attr())
      .def("done",
           [](ms::RunnerFuture &future) {
             std::string error;
             return check(future.done(error), error);
           })
      .def("result", [](ms::RunnerFuture &future) {
        std::string error;
        return check(future.result(error), error);
      });
  py::class_<ms::FunctionRunnerFuture, ms::RunnerFuture,
             std::shared_ptr<ms::FunctionRunnerFuture>>(
      m, "FunctionRunnerFuture", py::dynamic_attr())
      .def(py::init([](py::object done, py::object result) {
             auto future = std::make_shared<ms::FunctionRunnerFuture>();
             if (!done.is_none())
               future->doneFn = [done](std::string &error) {
                 return callPython<bool>(
                     error, [&] { return py::bool_(done()).cast<bool>(); });
               };
             if (!result.is_none())
               future->resultFn = [result](std::string &error) {
                 return callPython<ms::RunnerResult>(
                     error, [&] { return result().cast<ms::RunnerResult>(); });
               };
             return future;
           }),
           py::arg("f_done"), py::arg("f_result"));

  py::class_<ms::Runner, std::shared_ptr<ms::Runner>>(m, "Runner",
                                                      py::dynamic_attr())
      .def("run",
           [](ms::Runner &runner, const std::vector<ms::RunnerInput> &inputs) {
             std::string error;
             return check(runner.run(inputs, error), error);
           });
  py::class_<ms::FunctionRunner, ms::Runner,
             std::shared_ptr<ms::FunctionRunner>>(m, "FunctionRunner",
                                                  py::dynamic_attr())
      .def(py::init([](py::object run) {
             auto runner = std::make_shared<ms::FunctionRunner>();
             if (!run.is_none())
               runner->runFn = [run](const std::vector<ms::RunnerInput> &in,
                                     std::string &error) {
                 return callPython<Futures>(
                     error, [&] { return run(in).cast<Futures>(); });
               };
             return runner;
           }),
           py::arg("f_run"));
}

void bindMeasureCallbacks(py::module_ &m) {
  using MC = ms::MeasureCallback;
  py::class_<MC, std::shared_ptr<MC>>(m, "MeasureCallback", py::dynamic_attr())
      .def("apply",
           [](MC &callback, ms::TaskScheduler &scheduler, int64_t taskId,
              const Candidates &candidates,
              const std::vector<ms::BuilderResult> &built,
              const std::vector<ms::RunnerResult> &ran) {
             std::string error;
             check(callback.apply(scheduler, taskId, candidates, built, ran,
                                  error),
                   error);
           })
      .def("__str__", &MC::str);
  py::class_<ms::AddToDatabase, MC, std::shared_ptr<ms::AddToDatabase>>(
      m, "AddToDatabase", py::dynamic_attr())
      .def(py::init<>());
  py::class_<ms::UpdateCostModel, MC, std::shared_ptr<ms::UpdateCostModel>>(
      m, "UpdateCostModel", py::dynamic_attr())
      .def(py::init<>());
  py::class_<ms::RemoveBuildArtifact, MC,
             std::shared_ptr<ms::RemoveBuildArtifact>>(m, "RemoveBuildArtifact",
                                                       py::dynamic_attr())
      .def(py::init<>());
  py::class_<ms::FunctionMeasureCallback, MC,
             std::shared_ptr<ms::FunctionMeasureCallback>>(
      m, "FunctionMeasureCallback", py::dynamic_attr())
      .def(py::init([](py::object apply, py::object str) {
             auto callback = std::make_shared<ms::FunctionMeasureCallback>();
             if (!apply.is_none())
               callback->applyFn =
                   [apply](ms::TaskScheduler &scheduler, int64_t taskId,
                           const Candidates &candidates,
                           const std::vector<ms::BuilderResult> &built,
                           const std::vector<ms::RunnerResult> &ran,
                           std::string &error) {
                     return callPythonVoid(error, [&] {
                       apply(schedulerObject(scheduler), taskId, candidates,
                             built, ran);
                     });
                   };
             if (!str.is_none())
               callback->strFn = [str]() {
                 return py::str(str()).cast<std::string>();
               };
             return callback;
           }),
           py::arg("f_apply"), py::arg("f_as_string"));
}

void bindTaskSchedulers(py::module_ &m) {
  py::class_<ms::TaskRecord, std::shared_ptr<ms::TaskRecord>>(
      m, "TaskRecord", py::dynamic_attr())
      .def_readonly("ctx", &ms::TaskRecord::ctx)
      .def_readonly("task_weight", &ms::TaskRecord::weight)
      .def_readonly("flop", &ms::TaskRecord::flop)
      .def_readonly("is_terminated", &ms::TaskRecord::isTerminated)
      .def_readonly("build_error_count", &ms::TaskRecord::buildErrorCount)
      .def_readonly("run_error_count", &ms::TaskRecord::runErrorCount)
      // Copies: the record's batch is reset when it is joined.
      .def_property_readonly(
          "measure_candidates",
          [](const ms::TaskRecord &r) { return r.candidates; })
      .def_property_readonly(
          "builder_results",
          [](const ms::TaskRecord &r) { return r.builderResults; })
      .def_property_readonly(
          "runner_futures",
          [](const ms::TaskRecord &r) { return r.runnerFutures; })
      .def_readonly("latency_ms", &ms::TaskRecord::latencyMs)
      .def_readonly("reference_artifact", &ms::TaskRecord::referenceArtifact);

  using TS = ms::TaskScheduler;
  py::class_<TS, std::shared_ptr<TS>>(m, "TaskScheduler", py::dynamic_attr())
      .def_readonly("tasks", &TS::tasks)
      .def_readonly("remaining_tasks", &TS::remainingTasks)
      .def_readwrite("check_results", &TS::checkResults)
      .def_property(
          "logger", [](const TS &) { return py::none(); },
          [](TS &scheduler, py::object logger) {
            if (logger.is_none()) {
              scheduler.logger = nullptr;
              return;
            }
            scheduler.logger =
                pythonLogger(logger, "the task scheduler's logger");
          })
      .def("tune",
           [](TS &scheduler,
              const std::vector<std::shared_ptr<ms::TuneContext>> &tasks,
              const std::vector<double> &weights, int64_t maxTrialsGlobal,
              int64_t maxTrialsPerTask, int64_t numTrialsPerIter,
              std::shared_ptr<ms::Builder> builder,
              std::shared_ptr<ms::Runner> runner,
              std::vector<std::shared_ptr<ms::MeasureCallback>> callbacks,
              std::shared_ptr<ms::Database> database,
              std::shared_ptr<ms::CostModel> costModel) {
             std::string error;
             check(scheduler.tune(tasks, weights, maxTrialsGlobal,
                                  maxTrialsPerTask, numTrialsPerIter, builder,
                                  runner, callbacks, database, costModel,
                                  error),
                   error);
           })
      .def("next_task_id",
           [](TS &scheduler) {
             std::string error;
             return check(scheduler.nextTaskId(error), error);
           })
      .def("join_running_task",
           [](TS &scheduler, int64_t taskId) {
             std::string error;
             return check(scheduler.joinRunningTask(taskId, error), error);
           })
      .def("touch_task",
           [](TS &scheduler, int64_t taskId) {
             std::string error;
             check(scheduler.touchTask(taskId, error), error);
           })
      .def("terminate_task",
           [](TS &scheduler, int64_t taskId) {
             std::string error;
             check(scheduler.terminateTask(taskId, error), error);
           })
      .def("print_tuning_statistics", &TS::printTuningStatistics)
      .def("tuning_statistics", &TS::getTuningStatistics)
      // The base class's join, for a scheduler given as functions that
      // overrides it and calls the default.
      .def("join_running_task_default", [](TS &scheduler, int64_t taskId) {
        std::string error;
        return check(scheduler.TS::joinRunningTask(taskId, error), error);
      });

  py::class_<ms::RoundRobin, TS, std::shared_ptr<ms::RoundRobin>>(
      m, "RoundRobin", py::dynamic_attr())
      .def(py::init<>());
  py::class_<ms::GradientBased, TS, std::shared_ptr<ms::GradientBased>>(
      m, "GradientBased", py::dynamic_attr())
      .def(py::init([](double alpha, int64_t windowSize, int64_t seed) {
             auto scheduler = std::make_shared<ms::GradientBased>();
             scheduler->alpha = alpha;
             scheduler->windowSize = windowSize;
             std::optional<tir::RandomEngine::State> state =
                 tir::RandomEngine::normalizeSeed(seed);
             if (!state)
               throw py::value_error("seed is -1 or a seed >= 0");
             scheduler->randState = *state;
             return scheduler;
           }),
           py::arg("alpha") = 0.2, py::arg("window_size") = 3,
           py::arg("seed") = -1)
      .def_readonly("alpha", &ms::GradientBased::alpha)
      .def_readonly("window_size", &ms::GradientBased::windowSize);

  py::class_<ms::FunctionTaskScheduler, TS,
             std::shared_ptr<ms::FunctionTaskScheduler>>(
      m, "FunctionTaskScheduler", py::dynamic_attr())
      .def(py::init([](py::object tune, py::object next, py::object join) {
             auto scheduler = std::make_shared<ms::FunctionTaskScheduler>();
             if (!tune.is_none())
               scheduler->tuneFn =
                   [tune](const std::vector<std::shared_ptr<ms::TuneContext>>
                              &tasks,
                          const std::vector<double> &weights, int64_t global,
                          int64_t perTask, int64_t perIter,
                          std::shared_ptr<ms::Builder> builder,
                          std::shared_ptr<ms::Runner> runner,
                          std::vector<std::shared_ptr<ms::MeasureCallback>>
                              callbacks,
                          std::shared_ptr<ms::Database> database,
                          std::shared_ptr<ms::CostModel> costModel,
                          std::string &error) {
                     return callPythonVoid(error, [&] {
                       tune(tasks, weights, global, perTask, perIter, builder,
                            runner, callbacks, database, costModel);
                     });
                   };
             if (!next.is_none())
               scheduler->nextTaskIdFn = [next](std::string &error) {
                 return callPython<int64_t>(
                     error, [&] { return py::int_(next()).cast<int64_t>(); });
               };
             if (!join.is_none())
               scheduler->joinRunningTaskFn = [join](int64_t taskId,
                                                     std::string &error) {
                 return callPython<std::vector<ms::RunnerResult>>(error, [&] {
                   return join(taskId).cast<std::vector<ms::RunnerResult>>();
                 });
               };
             return scheduler;
           }),
           py::arg("f_tune"), py::arg("f_next_task_id"),
           py::arg("f_join_running_task"));
}

} // namespace

void tirpy::bindMetaScheduleTuning(py::module_ &m) {
  bindBuildersAndRunners(m);
  bindMeasureCallbacks(m);
  bindTaskSchedulers(m);
}
