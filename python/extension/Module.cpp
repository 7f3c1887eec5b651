//===- Module.cpp - tir modules from Python: parse, print, passes ---------===//
//
// _tensorir.Module: a parsed tir module, printed as MLIR or as TVMScript,
// and transformed by pass pipelines (each run on a copy, so that a failing
// pass leaves the module as it was).
//
//===----------------------------------------------------------------------===//

#include "Extension.h"

#include "TensorIR/Conversion/Passes.h"
#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/InitAllPasses.h"
#include "TensorIR/Target/TVMScript.h"

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/OutlineComputations.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Intrinsics.h"

#include <pybind11/stl.h>

#include <dlfcn.h>

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

/// The function `name` of `module`; KeyError when there is none.
static func::FuncOp functionNamed(ModuleOp module, const std::string &name) {
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func)
    throw py::key_error("no function named '" + name + "' in the module");
  return func;
}

/// A module of copies of the functions (module, name, new name) name.
static PyModule compose(
    const std::vector<std::tuple<PyModule, std::string, std::string>> &items) {
  OwningOpRef<ModuleOp> out = ModuleOp::create(UnknownLoc::get(&context()));
  OpBuilder builder = OpBuilder::atBlockEnd(out->getBody());
  llvm::StringSet<> names;
  for (const auto &[module, name, newName] : items) {
    if (!names.insert(newName).second)
      throw py::value_error("two functions named '" + newName + "'");
    auto copy =
        cast<func::FuncOp>(builder.clone(*functionNamed(module.get(), name)));
    copy.setName(newName);
    // The external functions a graph function calls (R.call_dps_packed)
    // come with it: the module only declares them.
    copy.walk([&](tir::CallTirOp call) {
      auto callee =
          module.get().lookupSymbol<func::FuncOp>(call.getCalleeAttr());
      if (callee && callee.isExternal() &&
          names.insert(call.getCallee()).second) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(copy);
        builder.clone(*callee);
      }
    });
  }
  return PyModule::own(std::move(out));
}

/// `module` after `pm`, run on a copy; the pass's errors raise ValueError.
static PyModule runOnCopy(const PyModule &module, PassManager &pm) {
  PyModule result = module.clone();
  DiagnosticCollector diags;
  if (failed(pm.run(result.get())))
    throw py::value_error(diags.take());
  return result;
}

/// An MLIR type as it prints ("f32").
static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// The linalg.transpose on tensors that gives `value`, or null.
static linalg::TransposeOp producingTranspose(Value value) {
  auto transpose = value.getDefiningOp<linalg::TransposeOp>();
  return transpose && transpose.hasPureTensorSemantics()
             ? transpose
             : linalg::TransposeOp();
}

/// The linalg.transpose on tensors that alone uses `value`, or null.
static linalg::TransposeOp onlyTransposeOf(Value value) {
  if (!value.hasOneUse())
    return {};
  auto transpose = dyn_cast<linalg::TransposeOp>(*value.getUsers().begin());
  return transpose && transpose.hasPureTensorSemantics() &&
                 transpose.getInput() == value
             ? transpose
             : linalg::TransposeOp();
}

/// Module.replace_composites: composite k of graph function `name` a
/// tir.call_tir of calls[k]'s callee, the inputs calls[k] lists taken
/// before the transposes that give them, the result after the transpose
/// alone using it where calls[k] says so.
static PyModule replaceComposites(
    const PyModule &module, const std::string &name,
    const std::map<size_t, std::tuple<std::string, std::vector<size_t>, bool>>
        &calls) {
  PyModule result = module.clone();
  SmallVector<tir::CompositeOp> ops;
  functionNamed(result.get(), name)->walk([&](tir::CompositeOp op) {
    ops.push_back(op);
  });
  IRRewriter rewriter(&context());
  for (const auto &[index, call] : calls) {
    const auto &[callee, throughInputs, throughResult] = call;
    if (index >= ops.size())
      throw py::index_error("@" + name + " has " + std::to_string(ops.size()) +
                            " composite operator(s), not " +
                            std::to_string(index + 1));
    tir::CompositeOp op = ops[index];
    std::string what = "relax." + op.getName().str();
    SmallVector<Value> inputs(op.getInputs());
    // (A transpose may give several inputs: each is erased once.)
    llvm::SetVector<Operation *> bypassed;
    for (size_t k : throughInputs) {
      linalg::TransposeOp transpose = k < inputs.size()
                                          ? producingTranspose(inputs[k])
                                          : linalg::TransposeOp();
      if (!transpose)
        throw py::value_error(what + ": input " + std::to_string(k) +
                              " is no transpose's result");
      inputs[k] = transpose.getInput();
      bypassed.insert(transpose);
    }
    linalg::TransposeOp after;
    SmallVector<Type> types(op.getResultTypes());
    if (throughResult) {
      after = op.getNumResults() == 1 ? onlyTransposeOf(op.getResult(0))
                                      : linalg::TransposeOp();
      if (!after)
        throw py::value_error(what + ": its result is not used by one "
                                     "transpose alone");
      types.assign({after.getResult()[0].getType()});
    }
    for (Type type : types)
      if (!cast<RankedTensorType>(type).hasStaticShape())
        throw py::value_error(what + ": a result of dynamic shape; only "
                                     "operators of static shapes are "
                                     "replaced by calls");
    rewriter.setInsertionPoint(after ? after.getOperation()
                                     : op.getOperation());
    auto callOp = tir::CallTirOp::create(rewriter, op.getLoc(), types, callee,
                                         inputs, ValueRange());
    if (after) {
      rewriter.replaceOp(after, callOp->getResults());
      rewriter.eraseOp(op);
    } else {
      rewriter.replaceOp(op, callOp->getResults());
    }
    for (Operation *transpose : bypassed)
      if (transpose->use_empty())
        rewriter.eraseOp(transpose);
  }
  DiagnosticCollector diags;
  if (failed(verify(result.get())))
    throw py::value_error(diags.take());
  return result;
}

/// A function attribute as a Python value: bools, ints, floats, strings,
/// and lists and dicts of them (R.func_attr's).
static py::object pythonValue(Attribute attr) {
  if (auto b = dyn_cast<BoolAttr>(attr))
    return py::bool_(b.getValue());
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return py::int_(i.getValue().getSExtValue());
  if (auto f = dyn_cast<FloatAttr>(attr))
    return py::float_(f.getValueAsDouble());
  if (auto str = dyn_cast<StringAttr>(attr))
    return py::str(str.str());
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    py::list items;
    for (Attribute item : array)
      items.append(pythonValue(item));
    return items;
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    py::dict items;
    for (NamedAttribute item : dict)
      items[py::str(item.getName().str())] = pythonValue(item.getValue());
    return items;
  }
  return wrapAttribute(attr);
}

void tirpy::bindModule(py::module_ &m) {
  m.def(
      "llvm_lookup_intrinsic_id",
      [](const std::string &name) {
        return static_cast<unsigned>(llvm::Intrinsic::lookupIntrinsicID(name));
      },
      py::arg("name"),
      "LLVM's id of the intrinsic `name` (llvm.x86.avx512.vpdpbusd.512), 0 "
      "for a name LLVM does not know.");
  m.def("llvm_version_major", [] { return LLVM_VERSION_MAJOR; });
  m.def(
      "set_multithreading",
      [](bool enabled) { context().disableMultithreading(!enabled); },
      py::arg("enabled"),
      "Whether the MLIR context compiles on several threads. Off before "
      "forking workers (MetaSchedule's local builder): a forked child has "
      "none of the parent's threads, so a thread pool would wait forever.");
  m.def(
      "multithreading_enabled",
      []() { return context().isMultithreadingEnabled(); },
      "Whether the MLIR context compiles on several threads.");
  py::class_<PyModule>(m, "Module")
      .def_static("parse", &PyModule::parse, py::arg("text"),
                  py::arg("name") = "<string>")
      .def_static(
          "empty",
          [] {
            return PyModule::own(ModuleOp::create(UnknownLoc::get(&context())));
          },
          "A module holding nothing.")
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
      .def(
          "tvmscript_fragment",
          [](const PyModule &self, const std::string &name) {
            auto func = self.get().lookupSymbol<func::FuncOp>(name);
            if (!func)
              throw py::value_error("no function @" + name);
            std::string error;
            std::string text = tir::printTVMScriptFragment(func, error);
            if (!error.empty())
              throw py::value_error(error);
            return text;
          },
          py::arg("name") = "fragment",
          "The body of function `name` alone as TVMScript (a node printed "
          "on its own; see fragment_from_nodes).")
      .def("functions", &PyModule::functions)
      .def(
          "set_function_attr",
          [](PyModule &self, const std::string &name, const std::string &key,
             const std::vector<int64_t> &values) {
            auto func = self.get().lookupSymbol<func::FuncOp>(name);
            if (!func)
              throw py::value_error("no function @" + name);
            Builder b(&context());
            func->setAttr(key, b.getI64ArrayAttr(values));
          },
          py::arg("name"), py::arg("key"), py::arg("values"),
          "Sets function `name`'s attribute `key` to a list of integers (a "
          "TVMScript T.func_attr the compiler reads: layout_free_buffers).")
      .def(
          "extract",
          [](const PyModule &self, const std::string &name) {
            return compose({{self, name, name}});
          },
          py::arg("name"), "A module of function `name` alone (a copy).")
      .def_static("compose", &compose, py::arg("items"),
                  "A module of the functions (module, name, new name) name, "
                  "copied in order, each renamed (its definition) to its new "
                  "name.")
      .def(
          "verify",
          [](const PyModule &self) {
            DiagnosticCollector diags;
            if (failed(verify(self.get())))
              throw py::value_error(diags.take());
          },
          "Runs the verifier (ValueError with its errors); a composed "
          "module whose graph functions call its prim_funcs checks here.")
      .def(
          "with_visibility",
          [](const PyModule &self, const std::string &name, bool isPrivate) {
            PyModule copy = self.clone();
            func::FuncOp func = functionNamed(copy.get(), name);
            isPrivate ? func.setPrivate() : func.setPublic();
            return copy;
          },
          py::arg("name"), py::arg("private"),
          "A copy with function `name` private (or public).")
      .def(
          "is_private",
          [](const PyModule &self, const std::string &name) {
            return functionNamed(self.get(), name).isPrivate();
          },
          py::arg("name"))
      .def(
          "is_declaration",
          [](const PyModule &self, const std::string &name) {
            return functionNamed(self.get(), name).isExternal();
          },
          py::arg("name"),
          "Whether function `name` is only declared (a packed function, "
          "an external one): it has no body.")
      .def(
          "is_graph_function",
          [](const PyModule &self, const std::string &name) {
            return tir::isGraphFunction(functionNamed(self.get(), name));
          },
          py::arg("name"),
          "Whether function `name` is a graph function (on tensors).")
      .def(
          "graph_parameters",
          [](const PyModule &self, const std::string &name) {
            func::FuncOp func = functionNamed(self.get(), name);
            std::vector<std::tuple<std::string, py::list, std::string>> params;
            for (unsigned k = 0, e = func.getNumArguments(); k < e; ++k) {
              auto type =
                  dyn_cast<RankedTensorType>(func.getArgument(k).getType());
              if (!type)
                throw py::value_error("@" + name + ": parameter " +
                                      std::to_string(k) + " is not a tensor");
              auto hint = func.getArgAttrOfType<StringAttr>(
                  k, tir::TIRDialect::kNameAttrName);
              // A dynamic dimension by its shape variable's name (None
              // where it has none).
              py::list shape;
              for (auto [d, size] : llvm::enumerate(type.getShape())) {
                std::string var = tir::getShapeVarName(func.getArgument(k), d);
                if (!ShapedType::isDynamic(size))
                  shape.append(size);
                else if (!var.empty())
                  shape.append(var);
                else
                  shape.append(py::none());
              }
              params.emplace_back(hint ? hint.str() : "arg" + std::to_string(k),
                                  shape, typeText(type.getElementType()));
            }
            return params;
          },
          py::arg("name"),
          "Graph function `name`'s parameters: (name, shape, element type "
          "as MLIR prints it) each; a dynamic dimension is its shape "
          "variable's name.")
      .def(
          "graph_function_attrs",
          [](const PyModule &self, const std::string &name) -> py::object {
            auto attrs = functionNamed(self.get(), name)
                             ->getAttrOfType<DictionaryAttr>(
                                 tir::TIRDialect::kFuncAttrsAttrName);
            if (!attrs)
              return py::dict();
            return pythonValue(attrs);
          },
          py::arg("name"),
          "Graph function `name`'s attributes (R.func_attr), as values.")
      .def(
          "call_tir_callees",
          [](const PyModule &self, const std::string &name) {
            std::vector<std::string> callees;
            functionNamed(self.get(), name)->walk([&](tir::CallTirOp call) {
              callees.push_back(call.getCallee().str());
            });
            return callees;
          },
          py::arg("name"),
          "The prim_funcs graph function `name` calls (tir.call_tir), one "
          "entry per call, in order.")
      .def(
          "composites",
          [](const PyModule &self, const std::string &name) {
            // (operator, attributes, inputs, results) of each tir.composite
            // of the function, in order; a tensor as (shape, element type,
            // permutation): the permutation of the linalg.transpose that
            // gives an input, or that alone uses a result (None where there
            // is none); a dynamic dimension None.
            auto tensor = [](Value value, linalg::TransposeOp transpose) {
              auto type = cast<RankedTensorType>(value.getType());
              py::list shape;
              for (int64_t d : type.getShape())
                shape.append(ShapedType::isDynamic(d) ? py::object(py::none())
                                                      : py::int_(d));
              py::object permutation = py::none();
              if (transpose)
                permutation = py::cast(
                    std::vector<int64_t>(transpose.getPermutation().begin(),
                                         transpose.getPermutation().end()));
              return py::make_tuple(shape, typeText(type.getElementType()),
                                    permutation);
            };
            py::list result;
            functionNamed(self.get(), name)->walk([&](tir::CompositeOp op) {
              DictionaryAttr attrs = op.getOpAttrsAttr();
              py::list inputs, results;
              for (Value input : op.getInputs())
                inputs.append(tensor(input, producingTranspose(input)));
              for (Value output : op.getResults())
                results.append(tensor(output, onlyTransposeOf(output)));
              result.append(py::make_tuple(op.getName().str(),
                                           attrs ? pythonValue(attrs)
                                                 : py::object(py::dict()),
                                           inputs, results));
            });
            return result;
          },
          py::arg("name"),
          "The operators graph function `name` keeps whole (tir.composite), "
          "in order: (name, attributes, inputs, results), a tensor as "
          "(shape, element type as MLIR prints it, permutation), a dynamic "
          "dimension None; the permutation is that of the transpose giving "
          "an input, or alone using a result, else None.")
      .def(
          "replace_composites",
          [](const PyModule &self, const std::string &name,
             const std::map<size_t,
                            std::tuple<std::string, std::vector<size_t>, bool>>
                 &calls) { return replaceComposites(self, name, calls); },
          py::arg("name"), py::arg("calls"),
          "A copy of the module where composite operator k of graph "
          "function `name` (composites' order) is a call of a prim_func: "
          "calls[k] = (callee, inputs, result): the inputs listed are "
          "passed as the transposes giving them take them, and with "
          "`result` the call gives what the transpose alone using the "
          "result gives (transposes left unused go); ValueError when a "
          "call does not fit its callee.")
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
            // --tir-legalize-ops (and --tir-fuse-ops, --tir-fuse-tir): the
            // module stays as it was when an op cannot be legalized.
            PassManager pm(&context());
            pm.addPass(tir::createTIRLegalizeOpsPass());
            if (fuse) {
              pm.addPass(tir::createTIRFuseOpsPass());
              pm.addPass(tir::createTIRFuseTIRPass());
            }
            return runOnCopy(self, pm);
          },
          py::arg("fuse") = false,
          "The module with its graph functions' high-level operators turned "
          "into prim_funcs and calls (--tir-legalize-ops); with fuse, the "
          "calls fused as Relax's FuseOps and FuseTIR fuse them "
          "(--tir-fuse-ops, --tir-fuse-tir).")
      .def(
          "lift_transform_params",
          [](const PyModule &self) {
            PassManager pm(&context());
            pm.addPass(tir::createTIRLiftTransformParamsPass());
            return runOnCopy(self, pm);
          },
          "The module with the computations on each graph function's "
          "weights in `<name>_transform_params` "
          "(--tir-lift-transform-params).")
      .def(
          "outline_constants",
          [](const PyModule &self, const std::string &name) {
            // The steps of `name` computed from constants alone, in a
            // function of their own (FoldConstant runs it and binds what
            // it gives back).
            PyModule result = self.clone();
            auto func = result.get().lookupSymbol<func::FuncOp>(name);
            if (!func || func.isExternal())
              throw py::key_error("the module has no graph function '" + name +
                                  "'");
            func::FuncOp outlined = tir::outlineComputations(
                func, [](BlockArgument) { return false; }, name + "_constants");
            return py::make_tuple(result, outlined ? outlined.getName().str()
                                                   : std::string());
          },
          py::arg("name"),
          "(the module, the new function's name): the steps of graph "
          "function `name` computed from constants alone moved into a "
          "private function it returns them from, `name` taking them as "
          "parameters `lifted`, ... instead; the name is '' (and the "
          "module a copy) when no step is.");

  // Every pass tir-opt has, for run_passes.
  tir::registerAllPasses();
  m.def(
      "load_pass_plugin",
      [](const std::string &path) {
        // Opened RTLD_LOCAL, not as MLIR's PassPlugin::load opens it
        // (RTLD_GLOBAL): that put the plugin's libMLIR and libLLVM in the
        // process's global scope, where another library with LLVM inside
        // (PyTorch's triton) bound its own static initializers to them and
        // crashed. The plugin's interface is the same.
        void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library)
          throw py::value_error("cannot load the pass plugin '" + path +
                                "': " + dlerror());
        using InfoFn = PassPluginLibraryInfo (*)();
        auto info =
            reinterpret_cast<InfoFn>(dlsym(library, "mlirGetPassPluginInfo"));
        if (!info)
          throw py::value_error("cannot load the pass plugin '" + path +
                                "': it has no mlirGetPassPluginInfo");
        PassPluginLibraryInfo plugin = info();
        if (plugin.apiVersion != MLIR_PLUGIN_API_VERSION)
          throw py::value_error(
              "cannot load the pass plugin '" + path + "': its API version " +
              std::to_string(plugin.apiVersion) + " is not MLIR's " +
              std::to_string(MLIR_PLUGIN_API_VERSION));
        // Kept loaded, as MLIR's loader keeps it: its passes stay
        // registered.
        plugin.registerPassRegistryCallbacks();
      },
      py::arg("path"),
      "Loads an MLIR pass plugin (tir-opt's --load-pass-plugin): its "
      "passes join those run_passes knows.");
}
