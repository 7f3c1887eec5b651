//===- TensorIRModule.cpp - the _tensorir Python extension ----------------===//
//
// What the Python package needs from the C++ libraries: parse and print tir
// modules, run the schedule primitives on them with TVM-style handles, and
// build and call them with numpy arrays.
//
//===----------------------------------------------------------------------===//

#include "StructuralEqual.h"
#include "TVMScriptPrinter.h"

#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Runtime/Runtime.h"
#include "TensorIR/Schedule/Primitives.h"
#include "TensorIR/Schedule/Query.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
namespace rt = mlir::tir::runtime;

namespace {

/// One MLIR context for the process, with everything tir parses and lowers.
MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    tir::registerCompilerDialects(registry);
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

/// Collects the error diagnostics emitted while it lives.
class DiagnosticCollector {
public:
  DiagnosticCollector()
      : handler(&context(), [this](Diagnostic &diag) {
          if (diag.getSeverity() != DiagnosticSeverity::Error)
            return success();
          llvm::raw_string_ostream os(text);
          if (!text.empty())
            os << "\n";
          os << location(diag.getLocation()) << ": error: " << diag;
          for (Diagnostic &note : diag.getNotes())
            os << "\n"
               << location(note.getLocation()) << ": note: " << note;
          return success();
        }) {}
  std::string take() { return std::move(text); }

  static std::string location(Location loc) {
    return tir::describeLocation(loc);
  }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

std::string print(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

/// A parsed module; copies are deep.
struct PyModule {
  std::shared_ptr<OwningOpRef<ModuleOp>> module;

  static PyModule parse(const std::string &text, const std::string &name) {
    DiagnosticCollector diags;
    OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(
        text, ParserConfig(&context()), name);
    if (!parsed)
      throw py::value_error(diags.take());
    PyModule m;
    m.module = std::make_shared<OwningOpRef<ModuleOp>>(std::move(parsed));
    return m;
  }
  ModuleOp get() const { return module->get(); }
  PyModule clone() const {
    PyModule m;
    m.module = std::make_shared<OwningOpRef<ModuleOp>>(get().clone());
    return m;
  }
  std::vector<std::string> functions() const {
    std::vector<std::string> names;
    for (auto func : get().getOps<FunctionOpInterface>())
      names.push_back(func.getName().str());
    return names;
  }
};

class ScheduleError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

//===----------------------------------------------------------------------===//
// Schedule
//===----------------------------------------------------------------------===//

/// Keeps track of the ops that still exist, so that a stale handle is an
/// error and not a dangling pointer.
class LivenessListener : public RewriterBase::Listener {
public:
  void notifyOperationErased(Operation *op) override {
    op->walk([&](Operation *nested) { live.erase(nested); });
  }
  llvm::DenseSet<Operation *> live;
};

struct PySchedule;

/// A block or loop of a schedule (TVM's BlockRV / LoopRV).
struct PyHandle {
  std::shared_ptr<PySchedule> schedule;
  Operation *op;
  bool isLoop;
};

struct PySchedule : std::enable_shared_from_this<PySchedule> {
  PyModule module;
  LivenessListener listener;
  IRRewriter rewriter{&context()};

  explicit PySchedule(PyModule m) : module(m.clone()) {
    rewriter.setListener(&listener);
    module.get()->walk([&](Operation *op) {
      if (isa<tir::ForOp, tir::BlockOp>(op))
        listener.live.insert(op);
    });
  }

  PyHandle wrap(Operation *op) {
    listener.live.insert(op);
    return PyHandle{shared_from_this(), op, isa<tir::ForOp>(op)};
  }

  Operation *unwrap(const PyHandle &h) {
    if (h.schedule.get() != this)
      throw ScheduleError("the handle belongs to another schedule");
    if (!listener.live.contains(h.op))
      throw ScheduleError(
          std::string("the ") + (h.isLoop ? "loop" : "block") +
          " no longer exists: split and fuse replace the loops they "
          "transform; use the loops they return");
    return h.op;
  }
  tir::ForOp loop(const PyHandle &h) {
    auto l = dyn_cast<tir::ForOp>(unwrap(h));
    if (!l)
      throw ScheduleError("expected a loop, got a block");
    return l;
  }
  tir::BlockOp block(const PyHandle &h) {
    auto b = dyn_cast<tir::BlockOp>(unwrap(h));
    if (!b)
      throw ScheduleError("expected a block, got a loop");
    return b;
  }

  [[noreturn]] void fail(const tir::ScheduleError &error) {
    std::string message = error.message;
    if (error.culprit)
      message += "\n  at " +
                 DiagnosticCollector::location(error.culprit->getLoc()) +
                 ": " + firstLine(error.culprit);
    throw ScheduleError(message);
  }
  static std::string firstLine(Operation *op) {
    OpPrintingFlags flags;
    flags.skipRegions();
    std::string s;
    llvm::raw_string_ostream os(s);
    op->print(os, flags);
    return s.substr(0, s.find('\n'));
  }
  void verifyStep(const char *primitive) {
    DiagnosticCollector diags;
    if (failed(mlir::verify(module.get())))
      throw ScheduleError(std::string("internal error: ") + primitive +
                          " produced IR that does not verify:\n" +
                          diags.take());
  }

  PyHandle getBlock(const std::string &name,
                    const std::optional<std::string> &funcName) {
    Operation *scope = module.get();
    if (funcName) {
      scope = nullptr;
      for (auto func : module.get().getOps<FunctionOpInterface>())
        if (func.getName() == *funcName)
          scope = func;
      if (!scope)
        throw ScheduleError("no function named '" + *funcName + "'");
    }
    tir::ScheduleError error;
    FailureOr<tir::BlockOp> block = tir::getBlock(scope, name, error);
    if (failed(block))
      throw ScheduleError(error.message);
    return wrap(*block);
  }
  std::vector<PyHandle> wrapAll(ArrayRef<tir::ForOp> ops) {
    std::vector<PyHandle> out;
    for (tir::ForOp op : ops)
      out.push_back(wrap(op));
    return out;
  }
  std::vector<PyHandle> wrapAll(ArrayRef<tir::BlockOp> ops) {
    std::vector<PyHandle> out;
    for (tir::BlockOp op : ops)
      out.push_back(wrap(op));
    return out;
  }
  std::vector<tir::ForOp> loops(const std::vector<PyHandle> &handles) {
    std::vector<tir::ForOp> out;
    for (const PyHandle &h : handles)
      out.push_back(loop(h));
    return out;
  }
};

//===----------------------------------------------------------------------===//
// Build and call
//===----------------------------------------------------------------------===//

rt::DataType dtypeOf(const py::dtype &dt) {
  char kind = dt.kind();
  auto bits = static_cast<uint8_t>(dt.itemsize() * 8);
  switch (kind) {
  case 'f':
    return {rt::DataType::Float, bits};
  case 'i':
    return {rt::DataType::Int, bits};
  case 'u':
    return {rt::DataType::UInt, bits};
  case 'b':
    return {rt::DataType::Bool, 1};
  default:
    throw py::type_error("arrays of numpy kind '" + std::string(1, kind) +
                         "' cannot be passed to tir functions");
  }
}

struct PyRuntimeModule {
  std::shared_ptr<rt::Module> module;

  std::vector<std::string> functions() const {
    std::vector<std::string> names;
    for (const rt::FunctionInfo &f : module->functions())
      names.push_back(f.name);
    return names;
  }
  std::string signature(const std::string &name) const {
    const rt::FunctionInfo *info = module->find(name);
    if (!info)
      throw py::key_error("no function named '" + name + "'");
    return info->str();
  }

  void call(const std::string &name, const py::args &args) {
    std::vector<rt::Arg> converted;
    for (py::handle arg : args) {
      if (py::isinstance<py::bool_>(arg)) {
        converted.push_back(rt::Arg::scalar(int64_t(arg.cast<bool>())));
      } else if (py::isinstance<py::int_>(arg)) {
        converted.push_back(rt::Arg::scalar(arg.cast<int64_t>()));
      } else if (py::isinstance<py::float_>(arg)) {
        converted.push_back(rt::Arg::scalar(arg.cast<double>()));
      } else if (py::isinstance<py::array>(arg)) {
        auto array = arg.cast<py::array>();
        if (!array.writeable())
          throw py::value_error("tir functions take writable arrays");
        std::vector<int64_t> shape(array.shape(),
                                   array.shape() + array.ndim());
        std::vector<int64_t> strides;
        for (py::ssize_t d = 0; d < array.ndim(); ++d) {
          if (array.strides(d) % array.itemsize() != 0)
            throw py::value_error("array strides are not a multiple of its "
                                  "element size");
          strides.push_back(array.strides(d) / array.itemsize());
        }
        converted.push_back(rt::Arg::buffer(array.mutable_data(),
                                            dtypeOf(array.dtype()),
                                            std::move(shape),
                                            std::move(strides)));
      } else {
        throw py::type_error("tir functions take numpy arrays, ints and "
                             "floats, got " +
                             std::string(py::str(arg.get_type())));
      }
    }
    std::string error;
    bool ok;
    {
      py::gil_scoped_release release;
      ok = module->call(name, converted, error);
    }
    if (!ok)
      throw py::value_error(error);
  }
};

PyRuntimeModule build(const PyModule &m, const std::string &targetCPU,
                      bool openmp) {
  PyModule copy = m.clone();
  DiagnosticCollector diags;
  tir::CompileOptions options;
  options.targetCPU = targetCPU;
  options.openmp = openmp;
  auto compiled = tir::compileModule(copy.get(), options);
  if (failed(compiled))
    throw py::value_error(diags.take());
  return PyRuntimeModule{std::shared_ptr<rt::Module>(std::move(*compiled))};
}

void exportLibrary(const PyModule &m, const std::string &path,
                   const std::string &targetCPU) {
  PyModule copy = m.clone();
  DiagnosticCollector diags;
  tir::CompileOptions options;
  options.targetCPU = targetCPU;
  if (failed(tir::exportLibrary(copy.get(), options, path)))
    throw py::value_error(diags.take());
}

PyRuntimeModule loadLibrary(const std::string &path) {
  std::string error;
  std::unique_ptr<rt::Module> module = rt::Module::load(path, error);
  if (!module)
    throw py::value_error(error);
  return PyRuntimeModule{std::shared_ptr<rt::Module>(std::move(module))};
}

} // namespace

PYBIND11_MODULE(_tensorir, m) {
  m.doc() = "tir's C++ libraries: parse, schedule, build and call";
  static py::exception<ScheduleError> scheduleError(m, "ScheduleError");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const ScheduleError &e) {
      PyErr_SetString(scheduleError.ptr(), e.what());
    }
  });

  py::class_<PyModule>(m, "Module")
      .def_static("parse", &PyModule::parse, py::arg("text"),
                  py::arg("name") = "<string>")
      .def("__str__", [](const PyModule &self) { return print(self.get()); })
      .def("clone", &PyModule::clone)
      .def("tvmscript",
           [](const PyModule &self) {
             std::string error;
             std::string text = tir::printTVMScript(self.get(), error);
             if (!error.empty())
               throw py::value_error(error);
             return text;
           })
      .def("functions", &PyModule::functions);

  py::class_<PyHandle>(m, "Handle")
      .def_property_readonly("is_loop",
                             [](const PyHandle &h) { return h.isLoop; })
      .def("__str__", [](const PyHandle &h) {
        if (!h.schedule->listener.live.contains(h.op))
          return std::string("<erased>");
        return PySchedule::firstLine(h.op);
      })
      .def("__eq__", [](const PyHandle &a, const PyHandle &b) {
        return a.op == b.op && a.schedule == b.schedule;
      })
      .def("__hash__",
           [](const PyHandle &h) { return std::hash<void *>()(h.op); });

  using S = PySchedule;
  py::class_<S, std::shared_ptr<S>>(m, "Schedule")
      .def(py::init([](const PyModule &mod) {
        return std::make_shared<S>(mod);
      }))
      .def_property_readonly("mod",
                             [](S &s) { return s.module.clone(); })
      .def("get_block", &S::getBlock, py::arg("name"),
           py::arg("func_name") = py::none())
      .def("get_loops",
           [](S &s, const PyHandle &b) {
             return s.wrapAll(tir::getLoops(s.block(b)));
           })
      .def("get_child_blocks",
           [](S &s, const PyHandle &h) {
             return s.wrapAll(tir::getChildBlocks(s.unwrap(h)));
           })
      .def("get_producers",
           [](S &s, const PyHandle &b) {
             return s.wrapAll(tir::getProducers(s.block(b)));
           })
      .def("get_consumers",
           [](S &s, const PyHandle &b) {
             return s.wrapAll(tir::getConsumers(s.block(b)));
           })
      .def("split",
           [](S &s, const PyHandle &l, const py::list &factorList,
              bool preserveUnitIters, bool disablePredication,
              const std::vector<int64_t> &vscaleValues) {
             // Each factor: an int, None (inferred), or an affine map
             // `()[s0] -> (...)` of vscale (s0) for scalable factors.
             SmallVector<tir::SplitFactor> factors;
             for (py::handle item : factorList) {
               if (item.is_none()) {
                 factors.push_back(tir::SplitFactor::inferred());
               } else if (py::isinstance<py::str>(item)) {
                 std::string text = item.cast<std::string>();
                 AffineMap map = mlir::parseAffineMap(text, &context());
                 if (!map || map.getNumResults() != 1 || map.getNumDims() != 0 ||
                     map.getNumSymbols() != 1)
                   throw py::value_error(
                       "split: a scalable factor is an affine map "
                       "'()[s0] -> (expr)' of vscale, got '" + text + "'");
                 factors.push_back(
                     tir::SplitFactor::ofScalable(map.getResult(0)));
               } else {
                 factors.push_back(tir::SplitFactor::of(item.cast<int64_t>()));
               }
             }
             tir::SplitOptions options;
             options.preserveUnitIters = preserveUnitIters;
             options.disablePredication = disablePredication;
             options.vscaleValues.assign(vscaleValues.begin(),
                                         vscaleValues.end());
             tir::ScheduleError error;
             auto loops =
                 tir::split(s.rewriter, s.loop(l), factors, options, error);
             if (failed(loops))
               s.fail(error);
             s.verifyStep("split");
             return s.wrapAll(*loops);
           },
           py::arg("loop"), py::arg("factors"),
           py::arg("preserve_unit_iters") = true,
           py::arg("disable_predication") = false,
           py::arg("vscale_values") = std::vector<int64_t>{})
      .def("fuse",
           [](S &s, const std::vector<PyHandle> &loops) {
             tir::ScheduleError error;
             auto fused = tir::fuse(s.rewriter, s.loops(loops), error);
             if (failed(fused))
               s.fail(error);
             s.verifyStep("fuse");
             return s.wrap(*fused);
           })
      .def("reorder",
           [](S &s, const std::vector<PyHandle> &loops) {
             tir::ScheduleError error;
             if (failed(tir::reorder(s.rewriter, s.loops(loops), error)))
               s.fail(error);
             s.verifyStep("reorder");
           })
      .def("compute_at",
           [](S &s, const PyHandle &b, const PyHandle &l,
              bool preserveUnitLoops, int64_t index) {
             tir::ScheduleError error;
             if (failed(tir::computeAt(s.rewriter, s.block(b), s.loop(l),
                                       preserveUnitLoops, index, error)))
               s.fail(error);
             s.verifyStep("compute_at");
           })
      .def("reverse_compute_at",
           [](S &s, const PyHandle &b, const PyHandle &l,
              bool preserveUnitLoops, int64_t index) {
             tir::ScheduleError error;
             if (failed(tir::reverseComputeAt(s.rewriter, s.block(b),
                                              s.loop(l), preserveUnitLoops,
                                              index, error)))
               s.fail(error);
             s.verifyStep("reverse_compute_at");
           })
      .def("loop_extent",
           // The extent of a loop that starts at 0 with a constant bound;
           // None otherwise.
           [](S &s, const PyHandle &l) -> std::optional<int64_t> {
             tir::ForOp loop = s.loop(l);
             if (loop.getConstantLowerBound() != 0)
               return std::nullopt;
             return loop.getConstantUpperBound();
           })
      .def("add_unit_loop",
           [](S &s, const PyHandle &h) {
             tir::ScheduleError error;
             auto loop = tir::addUnitLoop(s.rewriter, s.unwrap(h), error);
             if (failed(loop))
               s.fail(error);
             return s.wrap(*loop);
           })
      .def("parallel",
           [](S &s, const PyHandle &l) {
             tir::ScheduleError error;
             if (failed(tir::parallel(s.loop(l), error)))
               s.fail(error);
           })
      .def("vectorize",
           [](S &s, const PyHandle &l) {
             tir::ScheduleError error;
             if (failed(tir::vectorize(s.loop(l), error)))
               s.fail(error);
           })
      .def("unroll",
           [](S &s, const PyHandle &l) {
             tir::ScheduleError error;
             if (failed(tir::unroll(s.loop(l), error)))
               s.fail(error);
           })
      .def("bind",
           [](S &s, const PyHandle &l, const std::string &thread) {
             tir::ScheduleError error;
             if (failed(tir::bind(s.loop(l), thread, error)))
               s.fail(error);
           })
      .def("annotate",
           [](S &s, const PyHandle &h, const std::string &key,
              const std::string &attrText) {
             Attribute value = parseAttribute(attrText, &context());
             if (!value)
               throw py::value_error("not an MLIR attribute: " + attrText);
             tir::ScheduleError error;
             if (failed(tir::annotate(s.unwrap(h), key, value, error)))
               s.fail(error);
           })
      .def("unannotate", [](S &s, const PyHandle &h, const std::string &key) {
        tir::ScheduleError error;
        if (failed(tir::unannotate(s.unwrap(h), key, error)))
          s.fail(error);
      });

  py::class_<PyRuntimeModule>(m, "RuntimeModule")
      .def("functions", &PyRuntimeModule::functions)
      .def("signature", &PyRuntimeModule::signature)
      .def("call", &PyRuntimeModule::call);

  m.def("build", &build, py::arg("module"), py::arg("target_cpu") = "native",
        py::arg("openmp") = true);
  m.def("export_library", &exportLibrary, py::arg("module"), py::arg("path"),
        py::arg("target_cpu") = "native");
  m.def("load_library", &loadLibrary, py::arg("path"));
  m.def("set_num_threads", &rt::setNumThreads);
  bindStructuralEqual(
      m, [](py::handle h) { return h.cast<PyModule &>().get(); });
}
