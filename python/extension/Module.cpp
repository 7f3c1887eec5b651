//===- Module.cpp - tir modules from Python: parse, print, passes ---------===//
//
// _tensorir.Module: a parsed tir module, printed as MLIR or as TVMScript,
// and transformed by pass pipelines (each run on a copy, so that a failing
// pass leaves the module as it was).
//
//===----------------------------------------------------------------------===//

#include "Extension.h"

#include "TensorIR/Conversion/Passes.h"
#include "TensorIR/InitAllPasses.h"
#include "TensorIR/Target/TVMScript.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

PyModule PyModule::parse(const std::string &text, const std::string &name) {
  DiagnosticCollector diags;
  OwningOpRef<ModuleOp> parsed =
      parseSourceString<ModuleOp>(text, ParserConfig(&context()), name);
  if (!parsed)
    throw py::value_error(diags.take());
  return own(std::move(parsed));
}

PyModule PyModule::own(OwningOpRef<ModuleOp> module) {
  PyModule m;
  m.module = std::make_shared<OwningOpRef<ModuleOp>>(std::move(module));
  return m;
}

PyModule PyModule::clone() const { return own(get().clone()); }

std::vector<std::string> PyModule::functions() const {
  std::vector<std::string> names;
  for (auto func : get().getOps<FunctionOpInterface>())
    names.push_back(func.getName().str());
  return names;
}

ModuleOp tirpy::moduleOf(py::handle object) {
  return object.cast<PyModule &>().get();
}

/// `module` after `pm`, run on a copy; the pass's errors raise ValueError.
static PyModule runOnCopy(const PyModule &module, PassManager &pm) {
  PyModule result = module.clone();
  DiagnosticCollector diags;
  if (failed(pm.run(result.get())))
    throw py::value_error(diags.take());
  return result;
}

void tirpy::bindModule(py::module_ &m) {
  py::class_<PyModule>(m, "Module")
      .def_static("parse", &PyModule::parse, py::arg("text"),
                  py::arg("name") = "<string>")
      .def("__str__", [](const PyModule &self) { return print(self.get()); })
      .def("clone", &PyModule::clone)
      .def(
          "tvmscript",
          [](const PyModule &self, bool asModule, bool showMeta) {
            std::string error;
            std::string text =
                tir::printTVMScript(self.get(), error, asModule, showMeta);
            if (!error.empty())
              throw py::value_error(error);
            return text;
          },
          py::arg("as_module") = false, py::arg("show_meta") = false)
      .def("functions", &PyModule::functions)
      .def(
          "run_passes",
          [](const PyModule &self, const std::string &pipeline) {
            // A textual pass pipeline on the module, written as inside
            // tir-opt's --pass-pipeline="builtin.module(...)" (passes on
            // functions nest: "func.func(canonicalize)").
            PassManager pm(&context());
            std::string message;
            llvm::raw_string_ostream errs(message);
            if (failed(parsePassPipeline(pipeline, pm, errs)))
              throw py::value_error("cannot parse the pass pipeline '" +
                                    pipeline + "': " + message);
            return runOnCopy(self, pm);
          },
          py::arg("pipeline"),
          "The module after a textual pass pipeline, written as inside "
          "tir-opt's --pass-pipeline=\"builtin.module(...)\".")
      .def(
          "legalize_ops",
          [](const PyModule &self, bool fuse) {
            // --tir-legalize-ops: the module stays as it was when an op
            // cannot be legalized.
            PassManager pm(&context());
            tir::TIRLegalizeOpsPassOptions options;
            options.fuse = fuse;
            pm.addPass(tir::createTIRLegalizeOpsPass(options));
            return runOnCopy(self, pm);
          },
          py::arg("fuse") = false,
          "The module with its graph functions' high-level operators turned "
          "into prim_funcs and calls (--tir-legalize-ops); with fuse, "
          "element-wise consumers join their producer's prim_func.");

  // Every pass tir-opt has, for run_passes.
  tir::registerAllPasses();
  m.def(
      "load_pass_plugin",
      [](const std::string &path) {
        auto plugin = PassPlugin::load(path);
        if (!plugin)
          throw py::value_error("cannot load the pass plugin '" + path +
                                "': " + llvm::toString(plugin.takeError()));
        plugin->registerPassRegistryCallbacks();
      },
      py::arg("path"),
      "Loads an MLIR pass plugin (tir-opt's --load-pass-plugin): its "
      "passes join those run_passes knows.");
}
