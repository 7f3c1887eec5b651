//===- MetaScheduleSpace.cpp - tuning contexts and design spaces ----------===//
//
// The MetaSchedule library's TuneContext, space generators, schedule
// rules, postprocessors and mutators as Python sees them. Objects the
// library holds may be Python's: a rule, postprocessor, mutator or space
// generator given as Python functions (TVM's Py* classes) becomes the
// library's Function* class, whose functions call back into Python. A
// Python exception in such a call travels through the library as a
// failure and is raised again, unchanged, where the binding returns.
//
// Schedules cross as _tensorir.Schedule (the library's ScheduleState,
// shared), block handles as _tensorir.Handle; the Python layer
// (tensorir.meta_schedule) wraps them as tir.Schedule and BlockRV.
//
//===----------------------------------------------------------------------===//

#include "MetaSchedule.h"

#include "TensorIR/MetaSchedule/TraceApply.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include <pybind11/functional.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

/// A function TVM's Py* classes take: None, or a callable.
py::object optionalFunction(py::object f, const char *what) {
  if (!f.is_none() && !PyCallable_Check(f.ptr()))
    throw py::type_error(std::string(what) + " is a function or None");
  return f;
}

/// The initialization callback of a Function* class: f(context).
std::function<LogicalResult(const ms::TuneContext &, std::string &)>
initializeCallback(py::object f) {
  if (f.is_none())
    return nullptr;
  return [f](const ms::TuneContext &context, std::string &error) {
    return callPythonVoid(error, [&] { f(contextObject(context)); });
  };
}

std::function<std::string()> strCallback(py::object f) {
  if (f.is_none())
    return nullptr;
  return [f]() -> std::string {
    try {
      return py::str(f()).cast<std::string>();
    } catch (py::error_already_set &e) {
      return std::string("<__str__ raised: ") + e.what() + ">";
    }
  };
}

/// The clone callback of a Function* class: f() returning the native
/// object of class `Base`.
template <typename Base>
std::function<FailureOr<std::shared_ptr<Base>>(std::string &)>
cloneCallback(py::object f) {
  if (f.is_none())
    return nullptr;
  return [f](std::string &error) {
    return callPython<std::shared_ptr<Base>>(
        error, [&] { return f().template cast<std::shared_ptr<Base>>(); });
  };
}

void bindComponents(py::module_ &m) {
  py::class_<ms::ScheduleRule, std::shared_ptr<ms::ScheduleRule>>(
      m, "ScheduleRule", py::dynamic_attr(),
      "TVM's ScheduleRule: the schedules it makes of one block.")
      .def(
          "initialize_with_tune_context",
          [](ms::ScheduleRule &rule, const ms::TuneContext &context) {
            std::string error;
            check(rule.initializeWithTuneContext(context, error), error);
          },
          py::arg("context"))
      .def(
          "apply",
          [](ms::ScheduleRule &rule, PySchedule &sch, const PyHandle &block) {
            std::string error;
            return wrapAll(
                check(rule.apply(sch.state, sch.unwrap(block), error), error));
          },
          py::arg("sch"), py::arg("block"))
      .def("clone",
           [](const ms::ScheduleRule &rule) {
             std::string error;
             return check(rule.clone(error), error);
           })
      .def("__str__", &ms::ScheduleRule::str);

  py::class_<ms::FunctionScheduleRule, ms::ScheduleRule,
             std::shared_ptr<ms::FunctionScheduleRule>>(
      m, "FunctionScheduleRule", py::dynamic_attr(),
      "A rule given as Python functions (TVM's PyScheduleRule): "
      "f_apply(sch, block) returns a list of schedules.")
      .def(py::init([](std::string name, py::object init, py::object apply,
                       py::object clone, py::object str) {
             auto rule = std::make_shared<ms::FunctionScheduleRule>();
             rule->name = std::move(name);
             rule->initializeFn = initializeCallback(
                 optionalFunction(init, "f_initialize_with_tune_context"));
             if (!optionalFunction(apply, "f_apply").is_none())
               rule->applyFn = [apply](const ms::Schedule &sch, Value block,
                                       std::string &error) {
                 return callPython<std::vector<ms::Schedule>>(error, [&] {
                   auto wrapped = wrap(sch);
                   return unwrapAll(apply(wrapped, PyHandle{wrapped, block}));
                 });
               };
             rule->cloneFn = cloneCallback<ms::ScheduleRule>(
                 optionalFunction(clone, "f_clone"));
             rule->strFn = strCallback(optionalFunction(str, "f_as_string"));
             return rule;
           }),
           py::arg("name"), py::arg("f_initialize_with_tune_context"),
           py::arg("f_apply"), py::arg("f_clone"), py::arg("f_as_string"));

  py::class_<ms::Postproc, std::shared_ptr<ms::Postproc>>(
      m, "Postproc", py::dynamic_attr(),
      "TVM's Postproc: completes a sampled schedule, or rejects it.")
      .def(
          "initialize_with_tune_context",
          [](ms::Postproc &postproc, const ms::TuneContext &context) {
            std::string error;
            check(postproc.initializeWithTuneContext(context, error), error);
          },
          py::arg("context"))
      .def(
          "apply",
          [](ms::Postproc &postproc, PySchedule &sch) {
            std::string error;
            return check(postproc.apply(sch.state, error), error);
          },
          py::arg("sch"))
      .def("clone",
           [](const ms::Postproc &postproc) {
             std::string error;
             return check(postproc.clone(error), error);
           })
      .def("__str__", &ms::Postproc::str);

  py::class_<ms::FunctionPostproc, ms::Postproc,
             std::shared_ptr<ms::FunctionPostproc>>(
      m, "FunctionPostproc", py::dynamic_attr(),
      "A postprocessor given as Python functions (TVM's PyPostproc).")
      .def(py::init([](std::string name, py::object init, py::object apply,
                       py::object clone, py::object str) {
             auto postproc = std::make_shared<ms::FunctionPostproc>();
             postproc->name = std::move(name);
             postproc->initializeFn = initializeCallback(
                 optionalFunction(init, "f_initialize_with_tune_context"));
             if (!optionalFunction(apply, "f_apply").is_none())
               postproc->applyFn = [apply](const ms::Schedule &sch,
                                           std::string &error) {
                 return callPython<bool>(error, [&] {
                   return py::bool_(apply(wrap(sch))).cast<bool>();
                 });
               };
             postproc->cloneFn = cloneCallback<ms::Postproc>(
                 optionalFunction(clone, "f_clone"));
             postproc->strFn =
                 strCallback(optionalFunction(str, "f_as_string"));
             return postproc;
           }),
           py::arg("name"), py::arg("f_initialize_with_tune_context"),
           py::arg("f_apply"), py::arg("f_clone"), py::arg("f_as_string"));

  py::class_<ms::Mutator, std::shared_ptr<ms::Mutator>>(
      m, "Mutator", py::dynamic_attr(),
      "TVM's Mutator: a trace with one decision changed, or None.")
      .def(
          "initialize_with_tune_context",
          [](ms::Mutator &mutator, const ms::TuneContext &context) {
            std::string error;
            check(mutator.initializeWithTuneContext(context, error), error);
          },
          py::arg("context"))
      .def(
          "apply",
          [](ms::Mutator &mutator, const PyTraceModel &trace,
             int64_t randState) -> py::object {
            std::optional<tir::RandomEngine::State> state =
                tir::RandomEngine::normalizeSeed(randState);
            if (!state)
              throw py::value_error("rand_state is -1 or a seed >= 0");
            std::string error;
            std::optional<tir::Trace> mutated =
                check(mutator.apply(trace.trace, *state, error), error);
            if (!mutated)
              return py::none();
            return py::cast(PyTraceModel{std::move(*mutated), trace.carried});
          },
          py::arg("trace"), py::arg("rand_state") = -1)
      .def("clone",
           [](const ms::Mutator &mutator) {
             std::string error;
             return check(mutator.clone(error), error);
           })
      .def("__str__", &ms::Mutator::str);

  py::class_<ms::FunctionMutator, ms::Mutator,
             std::shared_ptr<ms::FunctionMutator>>(
      m, "FunctionMutator", py::dynamic_attr(),
      "A mutator given as Python functions (TVM's PyMutator): "
      "f_apply(trace, rand_state) returns a trace or None.")
      .def(py::init([](std::string name, py::object init, py::object apply,
                       py::object clone, py::object str) {
             auto mutator = std::make_shared<ms::FunctionMutator>();
             mutator->name = std::move(name);
             mutator->initializeFn = initializeCallback(
                 optionalFunction(init, "f_initialize_with_tune_context"));
             if (!optionalFunction(apply, "f_apply").is_none())
               mutator->applyFn = [apply](const tir::Trace &trace,
                                          tir::RandomEngine::State &randState,
                                          std::string &error) {
                 return callPython<std::optional<tir::Trace>>(
                     error, [&]() -> std::optional<tir::Trace> {
                       py::object result =
                           apply(PyTraceModel{trace, nullptr}, randState);
                       if (result.is_none())
                         return std::nullopt;
                       return result.cast<PyTraceModel &>().trace;
                     });
               };
             mutator->cloneFn =
                 cloneCallback<ms::Mutator>(optionalFunction(clone, "f_clone"));
             mutator->strFn = strCallback(optionalFunction(str, "f_as_string"));
             return mutator;
           }),
           py::arg("name"), py::arg("f_initialize_with_tune_context"),
           py::arg("f_apply"), py::arg("f_clone"), py::arg("f_as_string"));
}

using Rules = std::vector<std::shared_ptr<ms::ScheduleRule>>;
using Postprocs = std::vector<std::shared_ptr<ms::Postproc>>;

void bindSpaceGenerators(py::module_ &m) {
  using SG = ms::SpaceGenerator;
  py::class_<SG, std::shared_ptr<SG>>(
      m, "SpaceGenerator", py::dynamic_attr(),
      "TVM's SpaceGenerator: the design space of a module, with the rules, "
      "postprocessors and mutators (None: the target's defaults).")
      .def_readwrite("sch_rules", &SG::scheduleRules)
      .def_readwrite("postprocs", &SG::postprocs)
      .def_readwrite("mutator_probs", &SG::mutatorProbs)
      .def(
          "initialize_with_tune_context",
          [](SG &generator, const ms::TuneContext &context) {
            std::string error;
            check(generator.initializeWithTuneContext(context, error), error);
          },
          py::arg("context"))
      .def(
          "generate_design_space",
          [](SG &generator, py::handle module) {
            std::string error;
            return wrapAll(check(
                generator.generateDesignSpace(moduleOf(module), error), error));
          },
          py::arg("mod"))
      .def("clone", [](const SG &generator) {
        std::string error;
        return check(generator.clone(error), error);
      });

  py::class_<ms::PostOrderApply, SG, std::shared_ptr<ms::PostOrderApply>>(
      m, "PostOrderApply", py::dynamic_attr())
      .def(py::init([](py::object filter) {
             auto generator = std::make_shared<ms::PostOrderApply>();
             if (!optionalFunction(filter, "f_block_filter").is_none())
               // Python's filter takes the schedule, the function's name
               // and the block's index among its blocks in pre-order (-1:
               // the function).
               generator->blockFilter = [filter](const ms::Schedule &sch,
                                                 Operation *op,
                                                 std::string &error) {
                 return callPython<bool>(error, [&] {
                   auto func = isa<FunctionOpInterface>(op)
                                   ? cast<FunctionOpInterface>(op)
                                   : op->getParentOfType<FunctionOpInterface>();
                   int index = -1;
                   if (op != func.getOperation()) {
                     int seen = 0;
                     func->walk<WalkOrder::PreOrder>([&](tir::BlockOp block) {
                       if (block.getOperation() == op) {
                         index = seen;
                         return WalkResult::interrupt();
                       }
                       ++seen;
                       return WalkResult::advance();
                     });
                   }
                   return py::bool_(
                              filter(wrap(sch), func.getName().str(), index))
                       .cast<bool>();
                 });
               };
             return generator;
           }),
           py::arg("f_block_filter") = py::none());

  py::class_<ms::ScheduleFn, SG, std::shared_ptr<ms::ScheduleFn>>(
      m, "ScheduleFn", py::dynamic_attr())
      .def(py::init([](py::object function) {
             if (!PyCallable_Check(function.ptr()))
               throw py::type_error("ScheduleFn takes a function of a "
                                    "schedule");
             // Python's function returns the list of schedules.
             return std::make_shared<ms::ScheduleFn>(
                 [function](const ms::Schedule &sch, std::string &error) {
                   return callPython<std::vector<ms::Schedule>>(
                       error, [&] { return unwrapAll(function(wrap(sch))); });
                 });
           }),
           py::arg("sch_fn"));

  py::class_<ms::SpaceGeneratorUnion, SG,
             std::shared_ptr<ms::SpaceGeneratorUnion>>(m, "SpaceGeneratorUnion",
                                                       py::dynamic_attr())
      .def(py::init([](std::vector<std::shared_ptr<SG>> generators) {
             auto generator = std::make_shared<ms::SpaceGeneratorUnion>();
             generator->generators = std::move(generators);
             return generator;
           }),
           py::arg("space_generators"))
      .def_readonly("space_generators", &ms::SpaceGeneratorUnion::generators);

  py::class_<ms::FunctionSpaceGenerator, SG,
             std::shared_ptr<ms::FunctionSpaceGenerator>>(
      m, "FunctionSpaceGenerator", py::dynamic_attr())
      .def(py::init([](std::string name, py::object init, py::object generate,
                       py::object clone) {
             auto generator = std::make_shared<ms::FunctionSpaceGenerator>();
             generator->name = std::move(name);
             generator->initializeFn = initializeCallback(
                 optionalFunction(init, "f_initialize_with_tune_context"));
             if (!optionalFunction(generate, "f_generate_design_space")
                      .is_none())
               generator->generateFn = [generate](ModuleOp mod,
                                                  std::string &error) {
                 return callPython<std::vector<ms::Schedule>>(error, [&] {
                   return unwrapAll(generate(
                       PyModule::own(OwningOpRef<ModuleOp>(mod.clone()))));
                 });
               };
             generator->cloneFn =
                 cloneCallback<SG>(optionalFunction(clone, "f_clone"));
             return generator;
           }),
           py::arg("name"), py::arg("f_initialize_with_tune_context"),
           py::arg("f_generate_design_space"), py::arg("f_clone"));
}

void bindTuneContext(py::module_ &m) {
  using TC = ms::TuneContext;
  py::class_<TC, std::shared_ptr<TC>>(
      m, "TuneContext", py::dynamic_attr(),
      "TVM's TuneContext: the module, target and space generator of one "
      "task, its name, threads and random state.")
      .def(py::init<>())
      .def_property(
          "mod",
          [](const TC &context) -> py::object {
            if (!context.mod)
              return py::none();
            return py::cast(PyModule::own(
                OwningOpRef<ModuleOp>(context.mod.get().clone())));
          },
          [](TC &context, py::object module) {
            context.mod = moduleOrNull(module);
          })
      .def_property(
          "target",
          [](const TC &context) -> py::object {
            if (!context.target)
              return py::none();
            return jsonToPython(context.target->toJSON());
          },
          [](TC &context, py::object target) {
            if (target.is_none()) {
              context.target.reset();
              return;
            }
            std::string error;
            context.target = check(
                ms::Target::fromJSON(jsonFromPython(target), error), error);
          },
          "The target as TVM's Target.export() (a dict with \"kind\"), or "
          "None.")
      .def_readwrite("space_generator", &TC::spaceGenerator)
      .def_readwrite("search_strategy", &TC::searchStrategy)
      .def_readwrite("task_name", &TC::taskName)
      .def_readwrite("num_threads", &TC::numThreads)
      .def_property(
          "rand_state", [](const TC &context) { return context.randState; },
          [](TC &context, int64_t seed) {
            std::string error;
            check(context.seed(seed, error), error);
          })
      .def_property(
          "logger", [](const TC &) { return py::none(); },
          [](TC &context, py::object logger) {
            if (logger.is_none()) {
              context.logger = nullptr;
              return;
            }
            context.logger = pythonLogger(logger, "the tune context's logger");
          })
      .def("initialize",
           [](TC &context) {
             std::string error;
             check(context.initialize(error), error);
           })
      .def("generate_design_space",
           [](TC &context) {
             std::string error;
             return wrapAll(check(context.generateDesignSpace(error), error));
           })
      .def("clone", [](TC &context) {
        std::string error;
        return check(context.clone(error), error);
      });
  m.def(
      "target_rule_kind",
      [](py::object target) {
        std::string error;
        ms::Target parsed =
            check(ms::Target::fromJSON(jsonFromPython(target), error), error);
        return check(parsed.getRuleKind(error), error);
      },
      py::arg("target"),
      "TVM's GetRuleKindFromTarget: the default rule set a target (as "
      "Target.export()) is tuned with.");
}

} // namespace

void tirpy::bindMetaScheduleSpace(py::module_ &m) {
  bindComponents(m);
  bindSpaceGenerators(m);
  bindTuneContext(m);
  m.def(
      "schedule_using_anchor_trace",
      [](PySchedule &sch, const PyTraceModel &anchor, py::handle target) {
        std::string error;
        ms::Target parsed =
            check(ms::Target::fromJSON(jsonFromPython(target), error), error);
        if (failed(ms::scheduleUsingAnchorTrace(*sch.state, anchor.trace,
                                                parsed, error)))
          throw ScheduleError(error);
      },
      py::arg("sch"), py::arg("anchor_trace"), py::arg("target"));
}
