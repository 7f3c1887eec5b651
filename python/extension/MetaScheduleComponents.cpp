//===- MetaScheduleComponents.cpp - the library's rules, postprocs, mutators
//===//
//
// Constructors of the schedule rules, postprocessors and mutators the
// MetaSchedule library has (TVM's ScheduleRule.AutoInline(...), ...), and
// the default lists of a rule kind. The Python layer gives each its TVM
// class; the objects are the library's ScheduleRule / Postproc / Mutator.
//
//===----------------------------------------------------------------------===//

#include "MetaSchedule.h"

#include "TensorIR/MetaSchedule/CostModel.h"
#include "TensorIR/MetaSchedule/FeatureExtractor.h"
#include "TensorIR/MetaSchedule/Flops.h"
#include "TensorIR/MetaSchedule/Mutators.h"
#include "TensorIR/MetaSchedule/PerStoreFeature.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/SpaceGenerator.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include <pybind11/stl.h>

#include <map>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

/// TVM's reuse configuration: None, or {"req": "no"|"may"|"must",
/// "levels": [int], "scope": str}.
ms::ReuseConfig reuseConfigOf(py::handle config, const char *what) {
  ms::ReuseConfig reuse;
  if (config.is_none())
    return reuse;
  if (!py::isinstance<py::dict>(config))
    throw py::type_error(std::string("MultiLevelTiling: ") + what +
                         " is a dict (req, levels, scope) or a ReuseType");
  auto dict = py::reinterpret_borrow<py::dict>(config);
  for (const char *key : {"req", "levels", "scope"})
    if (!dict.contains(key))
      throw py::value_error(std::string("MultiLevelTiling: ") + what +
                            " needs keys req, levels and scope; '" + key +
                            "' is missing");
  std::string req = py::str(dict["req"]);
  if (req == "no")
    reuse.req = ms::ReuseConfig::Kind::No;
  else if (req == "may")
    reuse.req = ms::ReuseConfig::Kind::May;
  else if (req == "must")
    reuse.req = ms::ReuseConfig::Kind::Must;
  else
    throw py::value_error("ValueError: Unknown ReuseType: " + req);
  for (py::handle level : dict["levels"])
    reuse.levels.push_back(level.cast<int64_t>());
  reuse.scope = py::str(dict["scope"]);
  return reuse;
}

/// MultiLevelTiling's settings as TVM's Python API gives them.
ms::MultiLevelTilingOptions
tilingOptionsOf(std::string structure,
                std::optional<std::vector<std::string>> tileBinds,
                std::optional<int64_t> maxInnermostFactor,
                std::optional<std::vector<int64_t>> vectorLoadLens,
                py::handle reuseRead, py::handle reuseWrite) {
  ms::MultiLevelTilingOptions options;
  options.structure = std::move(structure);
  options.tileBinds = tileBinds.value_or(std::vector<std::string>());
  options.maxInnermostFactor = maxInnermostFactor.value_or(-1);
  options.vectorLoadLens = vectorLoadLens.value_or(std::vector<int64_t>());
  options.reuseRead = reuseConfigOf(reuseRead, "reuse_read");
  options.reuseWrite = reuseConfigOf(reuseWrite, "reuse_write");
  return options;
}

} // namespace

void tirpy::bindMetaScheduleComponents(py::module_ &m) {
  m.def(
      "schedule_rule_auto_inline",
      [](bool intoProducer, bool intoConsumer, bool inlineConstTensor,
         bool disallowIfThenElse, bool requireInjective, bool requireOrdered,
         std::optional<std::vector<std::string>> disallowOps) {
        ms::AutoInlineOptions options;
        options.intoProducer = intoProducer;
        options.intoConsumer = intoConsumer;
        options.inlineConstTensor = inlineConstTensor;
        options.disallowIfThenElse = disallowIfThenElse;
        options.requireInjective = requireInjective;
        options.requireOrdered = requireOrdered;
        options.disallowOps = disallowOps.value_or(std::vector<std::string>());
        return ms::createAutoInline(std::move(options));
      },
      py::arg("into_producer"), py::arg("into_consumer"),
      py::arg("inline_const_tensor"), py::arg("disallow_if_then_else"),
      py::arg("require_injective"), py::arg("require_ordered"),
      py::arg("disallow_op") = py::none());
  m.def("schedule_rule_apply_custom_rule", &ms::createApplyCustomRule);
  m.def(
      "set_custom_rule_lookup",
      [](py::object lookup) {
        // lookup(name): f(sch, block) -> [schedules], or None. None
        // removes it (before the interpreter ends: the library must not
        // hold Python objects past it).
        if (lookup.is_none()) {
          ms::setCustomRuleLookup(nullptr);
          return;
        }
        ms::setCustomRuleLookup([lookup](StringRef name) -> ms::CustomRule {
          py::gil_scoped_acquire gil;
          py::object found;
          try {
            found = lookup(name.str());
          } catch (py::error_already_set &e) {
            // The lookup's error becomes the rule's: it fails with it.
            std::string message = e.what();
            return [message](const ms::Schedule &, Value, std::string &error)
                       -> FailureOr<std::vector<ms::Schedule>> {
              error = message;
              return failure();
            };
          }
          if (found.is_none())
            return nullptr;
          return [found](const ms::Schedule &sch, Value block,
                         std::string &error) {
            py::gil_scoped_acquire gil;
            return callPython<std::vector<ms::Schedule>>(error, [&] {
              auto wrapped = wrap(sch);
              return unwrapAll(found(wrapped, PyHandle{wrapped, block}));
            });
          };
        });
      },
      py::arg("lookup"),
      "Where ApplyCustomRule finds the rule registered under a name: "
      "lookup(name) returns f(sch, block) -> [schedules], or None; None "
      "removes the lookup.");
  m.def("schedule_rule_add_rfactor", &ms::createAddRFactor,
        py::arg("max_jobs_per_core"), py::arg("max_innermost_factor"));
  m.def("schedule_rule_inline_constant_scalars",
        &ms::createInlineConstantScalars);
  m.def(
      "schedule_rule_multi_level_tiling",
      [](std::string structure,
         std::optional<std::vector<std::string>> tileBinds,
         std::optional<int64_t> maxInnermostFactor,
         std::optional<std::vector<int64_t>> vectorLoadLens,
         py::object reuseRead, py::object reuseWrite, py::object filter) {
        ms::MultiLevelTilingOptions options = tilingOptionsOf(
            std::move(structure), std::move(tileBinds), maxInnermostFactor,
            std::move(vectorLoadLens), reuseRead, reuseWrite);
        if (!filter.is_none())
          // filter(sch, block) -> bool, Python's.
          options.filter = [filter](const ms::Schedule &sch, Value block,
                                    std::string &error) -> FailureOr<bool> {
            py::gil_scoped_acquire gil;
            return callPython<bool>(error, [&] {
              auto wrapped = wrap(sch);
              return py::bool_(filter(wrapped, PyHandle{wrapped, block}))
                  .cast<bool>();
            });
          };
        std::string error;
        return check(ms::createMultiLevelTiling(std::move(options), error),
                     error);
      },
      py::arg("structure"), py::arg("tile_binds") = py::none(),
      py::arg("max_innermost_factor") = py::none(),
      py::arg("vector_load_lens") = py::none(),
      py::arg("reuse_read") = py::none(), py::arg("reuse_write") = py::none(),
      py::arg("filter") = py::none());
  m.def(
      "schedule_rule_multi_level_tiling_with_intrin",
      [](std::string intrinName, std::string structure,
         std::optional<std::vector<std::string>> tileBinds,
         std::optional<int64_t> maxInnermostFactor,
         std::optional<std::vector<int64_t>> vectorLoadLens,
         py::object reuseRead, py::object reuseWrite) {
        std::string error;
        return check(
            ms::createMultiLevelTilingWithIntrin(
                std::move(intrinName),
                tilingOptionsOf(std::move(structure), std::move(tileBinds),
                                maxInnermostFactor, std::move(vectorLoadLens),
                                reuseRead, reuseWrite),
                error),
            error);
      },
      py::arg("intrin_name"), py::arg("structure"),
      py::arg("tile_binds") = py::none(),
      py::arg("max_innermost_factor") = py::none(),
      py::arg("vector_load_lens") = py::none(),
      py::arg("reuse_read") = py::none(), py::arg("reuse_write") = py::none());
  m.def(
      "schedule_rule_multi_level_tiling_wide_vector",
      [](std::string structure, int64_t vectorLengthInBits,
         std::optional<int64_t> maxInnermostFactor, py::object reuseRead,
         py::object reuseWrite) {
        std::string error;
        return check(ms::createMultiLevelTilingWideVector(
                         vectorLengthInBits,
                         tilingOptionsOf(std::move(structure), std::nullopt,
                                         maxInnermostFactor, std::nullopt,
                                         reuseRead, reuseWrite),
                         error),
                     error);
      },
      py::arg("structure"), py::arg("vector_length_in_bits"),
      py::arg("max_innermost_factor") = py::none(),
      py::arg("reuse_read") = py::none(), py::arg("reuse_write") = py::none());
  m.def(
      "schedule_rule_multi_level_tiling_tensor_core",
      [](std::vector<std::map<std::string, std::string>> intrinGroups,
         std::string structure,
         std::optional<std::vector<std::string>> tileBinds,
         std::optional<int64_t> maxInnermostFactor,
         std::optional<std::vector<int64_t>> vectorLoadLens,
         py::object reuseRead, py::object reuseWrite,
         bool useSoftwarePipeline) {
        std::vector<ms::TensorCoreIntrinGroup> groups;
        for (const auto &config : intrinGroups) {
          ms::TensorCoreIntrinGroup group;
          for (auto [key, field] : {std::make_pair("init", &group.init),
                                    std::make_pair("load_a", &group.loadA),
                                    std::make_pair("load_b", &group.loadB),
                                    std::make_pair("compute", &group.compute),
                                    std::make_pair("store", &group.store)}) {
            auto it = config.find(key);
            if (it == config.end())
              throw py::value_error(std::string("ValueError: ") + key +
                                    " is not set.");
            *field = it->second;
          }
          groups.push_back(std::move(group));
        }
        std::string error;
        return check(
            ms::createMultiLevelTilingTensorCore(
                std::move(groups),
                tilingOptionsOf(std::move(structure), std::move(tileBinds),
                                maxInnermostFactor, std::move(vectorLoadLens),
                                reuseRead, reuseWrite),
                useSoftwarePipeline, error),
            error);
      },
      py::arg("intrin_groups"), py::arg("structure"),
      py::arg("tile_binds") = py::none(),
      py::arg("max_innermost_factor") = py::none(),
      py::arg("vector_load_lens") = py::none(),
      py::arg("reuse_read") = py::none(), py::arg("reuse_write") = py::none(),
      py::arg("use_software_pipeline") = false);
  m.def(
      "schedule_rule_parallelize_vectorize_unroll",
      [](int64_t maxJobsPerCore, int64_t maxVectorizeExtent,
         std::vector<int64_t> unrollMaxSteps, bool unrollExplicit) {
        ms::ParallelizeVectorizeUnrollOptions options;
        options.maxJobsPerCore = maxJobsPerCore;
        options.maxVectorizeExtent = maxVectorizeExtent;
        options.unrollMaxSteps = std::move(unrollMaxSteps);
        options.unrollExplicit = unrollExplicit;
        return ms::createParallelizeVectorizeUnroll(std::move(options));
      },
      py::arg("max_jobs_per_core"), py::arg("max_vectorize_extent"),
      py::arg("unroll_max_steps"), py::arg("unroll_explicit"));
  m.def("schedule_rule_random_compute_location",
        &ms::createRandomComputeLocation);
  m.def(
      "schedule_rule_cross_thread_reduction",
      [](std::vector<int64_t> threadExtents) {
        std::string error;
        return check(
            ms::createCrossThreadReduction(std::move(threadExtents), error),
            error);
      },
      py::arg("thread_extents"));
  m.def("schedule_rule_auto_bind", &ms::createAutoBind,
        py::arg("max_threadblocks"), py::arg("thread_extents"),
        py::arg("max_threads_per_block"));

  m.def("postproc_disallow_dynamic_loop", &ms::createDisallowDynamicLoop);
  m.def("postproc_disallow_async_strided_mem_copy",
        &ms::createDisallowAsyncStridedMemCopy);
  m.def("postproc_verify_vtcm_limit", &ms::createVerifyVTCMLimit);
  m.def("postproc_rewrite_parallel_vectorize_unroll",
        &ms::createRewriteParallelVectorizeUnroll);
  m.def("postproc_rewrite_reduction_block", &ms::createRewriteReductionBlock);
  m.def("postproc_rewrite_layout", &ms::createRewriteLayout);
  m.def("postproc_rewrite_cooperative_fetch",
        &ms::createRewriteCooperativeFetch);
  m.def("postproc_rewrite_unbound_block", &ms::createRewriteUnboundBlock,
        py::arg("max_threadblocks"));
  m.def("postproc_verify_gpu_code", &ms::createVerifyGPUCode);
  m.def("postproc_rewrite_tensorize", &ms::createRewriteTensorize,
        py::arg("vectorize_init_loop"));

  m.def("mutator_mutate_tile_size", &ms::createMutateTileSize);
  m.def("mutator_mutate_unroll", &ms::createMutateUnroll);
  m.def("mutator_mutate_parallel", &ms::createMutateParallel,
        py::arg("max_jobs_per_core"));
  m.def("mutator_mutate_compute_location", &ms::createMutateComputeLocation);
  m.def("mutator_mutate_thread_binding", &ms::createMutateThreadBinding);

  m.def(
      "estimate_flops",
      [](py::handle module) {
        mlir::OwningOpRef<mlir::ModuleOp> mod = moduleOrNull(module);
        if (!mod)
          throw py::type_error("estimate_flops takes a module");
        return ms::estimateFlops(*mod);
      },
      py::arg("module"),
      "The floating-point and integer operations a module does.");
  m.def("feature_extractor_per_store_feature", &ms::createPerStoreFeature,
        py::arg("buffers_per_store"),
        py::arg("arith_intensity_curve_num_samples"),
        py::arg("cache_line_bytes"), py::arg("extract_workload"));
  m.def(
      "cost_model_xgb",
      [](std::shared_ptr<ms::FeatureExtractor> extractor, int64_t maxDepth,
         double gamma, double minChildWeight, double eta, int64_t seed,
         int64_t numThreads, int64_t numWarmupSamples,
         int64_t earlyStoppingRounds, bool adaptiveTraining) {
        ms::XGBOptions options;
        options.maxDepth = maxDepth;
        options.gamma = gamma;
        options.minChildWeight = minChildWeight;
        options.eta = eta;
        options.seed = seed;
        options.numThreads = numThreads;
        options.numWarmupSamples = numWarmupSamples;
        options.earlyStoppingRounds = earlyStoppingRounds;
        options.adaptiveTraining = adaptiveTraining;
        std::string error;
        return check(ms::createXGBModel(std::move(extractor), options, error),
                     error);
      },
      py::arg("extractor"), py::arg("max_depth"), py::arg("gamma"),
      py::arg("min_child_weight"), py::arg("eta"), py::arg("seed"),
      py::arg("nthread"), py::arg("num_warmup_samples"),
      py::arg("early_stopping_rounds"), py::arg("adaptive_training"));

  m.def(
      "xgb_model_data",
      [](const std::shared_ptr<ms::CostModel> &model) {
        std::string error;
        auto data = check(ms::getXGBModelData(*model, error), error);
        py::list groups;
        for (const ms::XGBModelGroup &group : data.first) {
          py::list features;
          for (const ms::FeatureMatrix &m : group.features)
            features.append(py::make_tuple(m.rows, m.cols, m.data));
          groups.append(py::make_tuple(group.groupHash, features, group.costs));
        }
        return py::make_tuple(groups, data.second);
      },
      py::arg("model"),
      "([(workload hash, [(rows, cols, values)], costs)], candidates) an "
      "XGBModel trained on.");
  m.def(
      "default_components",
      [](const std::string &kind) -> py::object {
        ms::DefaultComponents defaults =
            ms::getDefaultComponents(kind, ms::TuneContext());
        if (!defaults.scheduleRules)
          return py::none();
        py::list probs;
        for (auto &[mutator, prob] : *defaults.mutatorProbs)
          probs.append(py::make_tuple(mutator, prob));
        return py::make_tuple(*defaults.scheduleRules, *defaults.postprocs,
                              probs, defaults.missing);
      },
      py::arg("kind"),
      "The default (rules, postprocs, [(mutator, probability)], what is "
      "missing from TVM's) of a rule kind, or None where the library does "
      "not have them yet.");
}
