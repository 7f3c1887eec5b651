//===- MetaScheduleSearch.cpp - search strategies and cost models ---------===//
//
// The MetaSchedule library's measure candidates and results, cost models
// and search strategies as Python sees them; those given as Python
// functions (TVM's PyCostModel, PySearchStrategy) are the library's
// Function* classes.
//
//===----------------------------------------------------------------------===//

#include "MetaSchedule.h"

#include "TensorIR/MetaSchedule/FeatureExtractor.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include <pybind11/functional.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

using Candidates = std::vector<ms::MeasureCandidate>;

std::vector<ms::MeasureCandidate> candidatesOf(py::handle list) {
  std::vector<ms::MeasureCandidate> out;
  for (py::handle item : list)
    out.push_back(item.cast<ms::MeasureCandidate>());
  return out;
}

std::vector<ms::RunnerResult> resultsOf(py::handle list) {
  std::vector<ms::RunnerResult> out;
  for (py::handle item : list)
    out.push_back(item.cast<ms::RunnerResult>());
  return out;
}

void bindMeasure(py::module_ &m) {
  py::class_<ms::MeasureCandidate>(
      m, "MeasureCandidate", py::dynamic_attr(),
      "TVM's MeasureCandidate: a schedule to build and measure, with the "
      "arguments to run it on.")
      .def(py::init([](PySchedule &sch, std::vector<ms::TensorInfo> args) {
             return ms::MeasureCandidate{sch.state, std::move(args)};
           }),
           py::arg("sch"), py::arg("args_info"))
      .def_property_readonly(
          "sch", [](const ms::MeasureCandidate &c) { return wrap(c.sch); })
      .def_readonly("args_info", &ms::MeasureCandidate::argsInfo);
  py::class_<ms::RunnerResult>(m, "RunnerResult", py::dynamic_attr(),
                               "TVM's RunnerResult: run times or an error.")
      .def(py::init([](std::optional<std::vector<double>> runSecs,
                       std::optional<std::string> errorMsg) {
             return ms::RunnerResult{std::move(runSecs), std::move(errorMsg)};
           }),
           py::arg("run_secs"), py::arg("error_msg"))
      .def_readonly("run_secs", &ms::RunnerResult::runSecs)
      .def_readonly("error_msg", &ms::RunnerResult::errorMsg);
  py::class_<ms::BuilderResult>(
      m, "BuilderResult", py::dynamic_attr(),
      "TVM's BuilderResult: the built artifact's path or an error.")
      .def(py::init([](std::optional<std::string> path,
                       std::optional<std::string> errorMsg) {
             return ms::BuilderResult{std::move(path), std::move(errorMsg)};
           }),
           py::arg("artifact_path"), py::arg("error_msg"))
      .def_readonly("artifact_path", &ms::BuilderResult::artifactPath)
      .def_readonly("error_msg", &ms::BuilderResult::errorMsg);
}

void bindCostModels(py::module_ &m) {
  using CM = ms::CostModel;
  py::class_<CM, std::shared_ptr<CM>>(m, "CostModel", py::dynamic_attr(),
                                      "TVM's CostModel.")
      .def("load",
           [](CM &model, const std::string &path) {
             std::string error;
             check(model.load(path, error), error);
           })
      .def("save",
           [](CM &model, const std::string &path) {
             std::string error;
             check(model.save(path, error), error);
           })
      .def("update",
           [](CM &model, const ms::TuneContext &context, py::handle candidates,
              py::handle results) {
             std::string error;
             check(model.update(context, candidatesOf(candidates),
                                resultsOf(results), error),
                   error);
           })
      .def(
          "predict",
          [](CM &model, const ms::TuneContext &context, py::handle candidates) {
            std::string error;
            return check(
                model.predict(context, candidatesOf(candidates), error), error);
          })
      .def("__str__", &CM::str);

  py::class_<ms::FunctionCostModel, CM, std::shared_ptr<ms::FunctionCostModel>>(
      m, "FunctionCostModel", py::dynamic_attr())
      .def(py::init([](py::object load, py::object save, py::object update,
                       py::object predict, py::object str) {
             auto model = std::make_shared<ms::FunctionCostModel>();
             if (!load.is_none())
               model->loadFn = [load](StringRef path, std::string &error) {
                 return callPythonVoid(error, [&] { load(path.str()); });
               };
             if (!save.is_none())
               model->saveFn = [save](StringRef path, std::string &error) {
                 return callPythonVoid(error, [&] { save(path.str()); });
               };
             if (!update.is_none())
               model->updateFn =
                   [update](const ms::TuneContext &context,
                            const Candidates &candidates,
                            const std::vector<ms::RunnerResult> &results,
                            std::string &error) {
                     return callPythonVoid(error, [&] {
                       update(contextObject(context), candidates, results);
                     });
                   };
             if (!predict.is_none())
               model->predictFn = [predict](const ms::TuneContext &context,
                                            const Candidates &candidates,
                                            std::string &error) {
                 return callPython<std::vector<double>>(error, [&] {
                   return predict(contextObject(context), candidates)
                       .cast<std::vector<double>>();
                 });
               };
             if (!str.is_none())
               model->strFn = [str]() {
                 return py::str(str()).cast<std::string>();
               };
             return model;
           }),
           py::arg("f_load"), py::arg("f_save"), py::arg("f_update"),
           py::arg("f_predict"), py::arg("f_as_string"));
}

void bindSearchStrategies(py::module_ &m) {
  using SS = ms::SearchStrategy;
  using Batch = std::optional<Candidates>;
  py::class_<SS, std::shared_ptr<SS>>(m, "SearchStrategy", py::dynamic_attr(),
                                      "TVM's SearchStrategy.")
      .def("initialize_with_tune_context",
           [](SS &strategy, const ms::TuneContext &context) {
             std::string error;
             check(strategy.initializeWithTuneContext(context, error), error);
           })
      .def(
          "pre_tuning",
          [](SS &strategy, int64_t maxTrials, int64_t numTrialsPerIter,
             py::handle designSpaces, std::shared_ptr<ms::Database> database,
             std::shared_ptr<ms::CostModel> costModel) {
            std::string error;
            check(strategy.preTuning(maxTrials, numTrialsPerIter,
                                     unwrapAll(designSpaces), database,
                                     costModel, error),
                  error);
          },
          py::arg("max_trials"), py::arg("num_trials_per_iter"),
          py::arg("design_spaces"), py::arg("database") = nullptr,
          py::arg("cost_model") = nullptr)
      .def("post_tuning",
           [](SS &strategy) {
             std::string error;
             check(strategy.postTuning(error), error);
           })
      .def("generate_measure_candidates",
           [](SS &strategy) {
             std::string error;
             return check(strategy.generateMeasureCandidates(error), error);
           })
      .def("notify_runner_results",
           [](SS &strategy, py::handle candidates, py::handle results) {
             std::string error;
             check(strategy.notifyRunnerResults(candidatesOf(candidates),
                                                resultsOf(results), error),
                   error);
           })
      .def("clone", [](const SS &strategy) {
        std::string error;
        return check(strategy.clone(error), error);
      });

  py::class_<ms::ReplayTrace, SS, std::shared_ptr<ms::ReplayTrace>>(
      m, "ReplayTrace", py::dynamic_attr())
      .def(py::init([](int64_t maxFailCount) {
             auto strategy = std::make_shared<ms::ReplayTrace>();
             strategy->maxFailCount = maxFailCount;
             return strategy;
           }),
           py::arg("max_fail_count") = 100);
  py::class_<ms::ReplayFunc, SS, std::shared_ptr<ms::ReplayFunc>>(
      m, "ReplayFunc", py::dynamic_attr())
      .def(py::init([]() { return std::make_shared<ms::ReplayFunc>(); }));
  py::class_<ms::EvolutionarySearch, SS,
             std::shared_ptr<ms::EvolutionarySearch>>(m, "EvolutionarySearch",
                                                      py::dynamic_attr())
      .def(py::init([](int64_t populationSize, double initMeasuredRatio,
                       int64_t initMinUnmeasured, int64_t maxFailCount,
                       int64_t geneticNumIters, double geneticMutateProb,
                       int64_t geneticMaxFailCount, double epsGreedy,
                       bool measureUnscheduled) {
             auto strategy = std::make_shared<ms::EvolutionarySearch>();
             strategy->populationSize = populationSize;
             strategy->initMeasuredRatio = initMeasuredRatio;
             strategy->initMinUnmeasured = initMinUnmeasured;
             strategy->maxFailCount = maxFailCount;
             strategy->geneticNumIters = geneticNumIters;
             strategy->geneticMutateProb = geneticMutateProb;
             strategy->geneticMaxFailCount = geneticMaxFailCount;
             strategy->epsGreedy = epsGreedy;
             strategy->measureUnscheduled = measureUnscheduled;
             std::string error;
             check(strategy->verifyParameters(error), error);
             return strategy;
           }),
           py::arg("population_size"), py::arg("init_measured_ratio"),
           py::arg("init_min_unmeasured"), py::arg("max_fail_count"),
           py::arg("genetic_num_iters"), py::arg("genetic_mutate_prob"),
           py::arg("genetic_max_fail_count"), py::arg("eps_greedy"),
           py::arg("measure_unscheduled") = false)
      .def_readonly("population_size", &ms::EvolutionarySearch::populationSize)
      .def_readonly("init_measured_ratio",
                    &ms::EvolutionarySearch::initMeasuredRatio)
      .def_readonly("init_min_unmeasured",
                    &ms::EvolutionarySearch::initMinUnmeasured)
      .def_readonly("max_fail_count", &ms::EvolutionarySearch::maxFailCount)
      .def_readonly("genetic_num_iters",
                    &ms::EvolutionarySearch::geneticNumIters)
      .def_readonly("genetic_mutate_prob",
                    &ms::EvolutionarySearch::geneticMutateProb)
      .def_readonly("genetic_max_fail_count",
                    &ms::EvolutionarySearch::geneticMaxFailCount)
      .def_readonly("eps_greedy", &ms::EvolutionarySearch::epsGreedy)
      .def_readonly("measure_unscheduled",
                    &ms::EvolutionarySearch::measureUnscheduled);

  py::class_<ms::FunctionSearchStrategy, SS,
             std::shared_ptr<ms::FunctionSearchStrategy>>(
      m, "FunctionSearchStrategy", py::dynamic_attr())
      .def(py::init([](py::object init, py::object pre, py::object post,
                       py::object generate, py::object notify,
                       py::object clone) {
             auto strategy = std::make_shared<ms::FunctionSearchStrategy>();
             if (!init.is_none())
               strategy->initializeFn = [init](const ms::TuneContext &context,
                                               std::string &error) {
                 return callPythonVoid(error,
                                       [&] { init(contextObject(context)); });
               };
             if (!pre.is_none())
               strategy->preTuningFn =
                   [pre](int64_t maxTrials, int64_t perIter,
                         const std::vector<ms::Schedule> &spaces,
                         std::shared_ptr<ms::Database> database,
                         std::shared_ptr<ms::CostModel> costModel,
                         std::string &error) {
                     return callPythonVoid(error, [&] {
                       pre(maxTrials, perIter, wrapAll(spaces), database,
                           costModel);
                     });
                   };
             if (!post.is_none())
               strategy->postTuningFn = [post](std::string &error) {
                 return callPythonVoid(error, [&] { post(); });
               };
             if (!generate.is_none())
               strategy->generateFn = [generate](std::string &error) {
                 return callPython<Batch>(error, [&]() -> Batch {
                   py::object batch = generate();
                   if (batch.is_none())
                     return std::nullopt;
                   return candidatesOf(batch);
                 });
               };
             if (!notify.is_none())
               strategy->notifyFn =
                   [notify](const Candidates &candidates,
                            const std::vector<ms::RunnerResult> &results,
                            std::string &error) {
                     return callPythonVoid(
                         error, [&] { notify(candidates, results); });
                   };
             if (!clone.is_none())
               strategy->cloneFn = [clone](std::string &error) {
                 return callPython<std::shared_ptr<SS>>(error, [&] {
                   return clone().cast<std::shared_ptr<SS>>();
                 });
               };
             return strategy;
           }),
           py::arg("f_initialize_with_tune_context"), py::arg("f_pre_tuning"),
           py::arg("f_post_tuning"), py::arg("f_generate_measure_candidates"),
           py::arg("f_notify_runner_results"), py::arg("f_clone"));
}

/// A feature matrix as (rows, cols, row-major data), and back.
py::tuple matrixToPython(const ms::FeatureMatrix &matrix) {
  return py::make_tuple(matrix.rows, matrix.cols, matrix.data);
}

ms::FeatureMatrix matrixFromPython(py::handle tuple) {
  auto [rows, cols, data] =
      tuple.cast<std::tuple<int64_t, int64_t, std::vector<double>>>();
  return ms::FeatureMatrix{rows, cols, std::move(data)};
}

void bindFeatureExtractors(py::module_ &m) {
  using FE = ms::FeatureExtractor;
  py::class_<FE, std::shared_ptr<FE>>(m, "FeatureExtractor", py::dynamic_attr(),
                                      "TVM's FeatureExtractor.")
      .def("extract_from",
           [](FE &extractor, const ms::TuneContext &context,
              py::handle candidates) {
             std::string error;
             std::vector<py::tuple> out;
             for (const ms::FeatureMatrix &matrix :
                  check(extractor.extractFrom(context, candidatesOf(candidates),
                                              error),
                        error))
               out.push_back(matrixToPython(matrix));
             return out;
           })
      .def("__str__", &FE::str);
  py::class_<ms::FunctionFeatureExtractor, FE,
             std::shared_ptr<ms::FunctionFeatureExtractor>>(
      m, "FunctionFeatureExtractor", py::dynamic_attr())
      .def(py::init([](py::object extract, py::object str) {
             auto extractor = std::make_shared<ms::FunctionFeatureExtractor>();
             if (!extract.is_none())
               extractor->extractFn = [extract](const ms::TuneContext &context,
                                                const Candidates &candidates,
                                                std::string &error) {
                 return callPython<std::vector<ms::FeatureMatrix>>(error, [&] {
                   std::vector<ms::FeatureMatrix> out;
                   for (py::handle matrix :
                        extract(contextObject(context), candidates))
                     out.push_back(matrixFromPython(matrix));
                   return out;
                 });
               };
             if (!str.is_none())
               extractor->strFn = [str]() {
                 return py::str(str()).cast<std::string>();
               };
             return extractor;
           }),
           py::arg("f_extract_from"), py::arg("f_as_string"));
}

} // namespace

void tirpy::bindMetaScheduleSearch(py::module_ &m) {
  bindMeasure(m);
  bindFeatureExtractors(m);
  bindCostModels(m);
  bindSearchStrategies(m);
}
