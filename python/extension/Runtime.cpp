//===- Runtime.cpp - build, export, load and call from Python -------------===//
//
// The extension's side of tvm.build / export_library / load_module: tir
// modules compiled (on a copy) into runtime modules, whose functions are
// called with numpy arrays, ints and floats checked against their
// signatures by the runtime.
//
//===----------------------------------------------------------------------===//

#include "Extension.h"

#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Runtime/Runtime.h"

#include "llvm/Support/Endian.h"

#include <map>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;
namespace rt = mlir::tir::runtime;

namespace {

rt::DataType dtypeOf(const py::dtype &dt) {
  char kind = dt.kind();
  // The types numpy lacks, as ml_dtypes' dtypes name them (of kind 'V', or
  // 'f' with one byte, which no numpy float has).
  if (kind == 'V' || (kind == 'f' && dt.itemsize() == 1)) {
    std::string name = py::str(dt.attr("name")).cast<std::string>();
    if (name == "bfloat16" || name == "float8_e4m3fn" || name == "float8_e5m2")
      return *rt::DataType::parse(name);
  }
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
  /// What building it took, phase by phase (seconds); empty for a loaded
  /// library.
  std::map<std::string, double> compileTimes;
  /// The machine code the JIT loaded, when it can be linked as it is into
  /// the library export_library writes (built for the CPU here).
  std::shared_ptr<tir::ObjectCode> object;

  bool hasObject() const { return object && !object->bytes.empty(); }

  /// Links the kept machine code into a shared library at `path`.
  void exportObject(const std::string &path) const {
    if (!hasObject())
      throw py::value_error("export: this module keeps no machine code to "
                            "link (export it from its source)");
    std::string error;
    bool ok;
    {
      py::gil_scoped_release release;
      ok = succeeded(tir::linkLibrary(*object, path, error));
    }
    if (!ok)
      throw py::value_error(error);
  }

  std::vector<std::string> functions() const {
    std::vector<std::string> names;
    for (const rt::FunctionInfo &f : module->functions())
      names.push_back(f.name);
    return names;
  }
  const rt::FunctionInfo &function(const std::string &name) const {
    const rt::FunctionInfo *info = module->find(name);
    if (!info)
      throw py::key_error("no function named '" + name + "'");
    return *info;
  }
  std::string signature(const std::string &name) const {
    return function(name).str();
  }
  /// Whether the function's results form a tuple (R.Tuple), even of one.
  bool returnsTuple(const std::string &name) const {
    return function(name).tupleResult;
  }
  /// How the results nest ("[0,[1,2]]"; "" when they do not).
  std::string resultNesting(const std::string &name) const {
    return function(name).resultNesting;
  }
  std::string interface(const std::string &name) const {
    return function(name).interface;
  }
  /// The parameters as data: (name, dtype, shape or None for a scalar (-1
  /// where a size is given at run time), written, result).
  std::vector<py::tuple> params(const std::string &name) const {
    std::vector<py::tuple> out;
    for (const rt::ArgInfo &arg : function(name).args) {
      py::object shape = py::none();
      if (arg.isBuffer)
        shape = py::tuple(py::cast(arg.shape));
      // A result's dynamic dimensions: the sizes the arguments give them
      // ({dim: (constant, [(coeff, argument, its dim or -1)])}), from the
      // bounds that make them equal to a shape variable.
      py::dict sizes;
      if (arg.result)
        for (const rt::SizeBound &bound : arg.bounds) {
          if (bound.kind != rt::SizeBound::Equal || arg.shape[bound.dim] >= 0 ||
              sizes.contains(py::int_(bound.dim)))
            continue;
          py::list terms;
          for (const rt::SizeTerm &term : bound.terms)
            terms.append(py::make_tuple(term.coeff, term.arg, term.dim));
          sizes[py::int_(bound.dim)] = py::make_tuple(bound.constant, terms);
        }
      out.push_back(py::make_tuple(arg.name, arg.dtype.str(), shape,
                                   arg.written || arg.result, arg.result,
                                   sizes));
    }
    return out;
  }

  static std::vector<rt::Arg> convert(const py::args &args) {
    std::vector<rt::Arg> converted;
    converted.reserve(args.size());
    for (py::handle arg : args) {
      // Arrays first: they are most of the arguments of most calls.
      if (py::isinstance<py::array>(arg)) {
        auto array = py::reinterpret_borrow<py::array>(arg);
        if (!array.writeable())
          throw py::value_error("tir functions take writable arrays");
        // The compiled code reads the machine's byte order: an array in the
        // other one would give wrong numbers, silently.
        py::dtype dtype = array.dtype();
        char order = dtype.byteorder();
        bool little = llvm::endianness::native == llvm::endianness::little;
        if (order == (little ? '>' : '<'))
          throw py::value_error(
              "argument " + std::to_string(converted.size()) + " is " +
              (little ? "big" : "little") +
              "-endian; tir functions take arrays in the machine's byte "
              "order (numpy: array.astype(array.dtype.newbyteorder('=')))");
        py::ssize_t rank = array.ndim(), itemsize = array.itemsize();
        std::vector<int64_t> shape(array.shape(), array.shape() + rank);
        std::vector<int64_t> strides(rank);
        for (py::ssize_t d = 0; d < rank; ++d) {
          if (array.strides(d) % itemsize != 0)
            throw py::value_error("array strides are not a multiple of its "
                                  "element size");
          strides[d] = array.strides(d) / itemsize;
        }
        converted.push_back(rt::Arg::buffer(array.mutable_data(),
                                            dtypeOf(dtype), std::move(shape),
                                            std::move(strides)));
      } else if (py::isinstance<py::bool_>(arg)) {
        converted.push_back(rt::Arg::scalar(int64_t(arg.cast<bool>())));
      } else if (py::isinstance<py::int_>(arg)) {
        converted.push_back(rt::Arg::scalar(arg.cast<int64_t>()));
      } else if (py::isinstance<py::float_>(arg)) {
        converted.push_back(rt::Arg::scalar(arg.cast<double>()));
      } else if (py::hasattr(arg, "_tir_buffer")) {
        // An array in a GPU's memory (tir_runtime.DeviceArray):
        // (pointer, numpy dtype, shape, device type, device id).
        auto t = arg.attr("_tir_buffer")().cast<py::tuple>();
        rt::Device device;
        device.type = t[3].cast<int>() == rt::Device::CUDA ? rt::Device::CUDA
                                                           : rt::Device::CPU;
        device.id = t[4].cast<int>();
        converted.push_back(
            rt::Arg::buffer(reinterpret_cast<void *>(t[0].cast<uintptr_t>()),
                            dtypeOf(t[1].cast<py::dtype>()),
                            t[2].cast<std::vector<int64_t>>(), {}, device));
      } else {
        throw py::type_error("tir functions take numpy arrays, ints and "
                             "floats, got " +
                             std::string(py::str(py::type::handle_of(arg))));
      }
    }
    return converted;
  }

  void call(const std::string &name, const py::args &args) {
    std::vector<rt::Arg> converted = convert(args);
    std::string error;
    bool ok;
    {
      py::gil_scoped_release release;
      ok = module->call(name, converted, error);
    }
    if (!ok)
      throw py::value_error(error);
  }

  /// Mean seconds of one call, between device events around `number`
  /// calls on GPU `device`.
  double timeCall(const std::string &name, int device, int number,
                  const py::args &args) {
    std::vector<rt::Arg> converted = convert(args);
    std::string error;
    double seconds;
    {
      py::gil_scoped_release release;
      seconds = module->timeOnGPU(name, converted, device, number, error);
    }
    if (seconds < 0)
      throw py::value_error("time_evaluator: " + error);
    return seconds;
  }

  std::string target() const {
    return module->target() == rt::Device::CUDA ? "cuda" : "cpu";
  }
};

/// The build options from Python's keywords.
tir::CompileOptions compileOptions(const std::string &targetCPU, bool openmp,
                                   const std::string &device,
                                   const std::string &chip,
                                   const std::string &format,
                                   bool reassociateReductions) {
  tir::CompileOptions options;
  options.targetCPU = targetCPU;
  options.openmp = openmp;
  options.reassociateReductions = reassociateReductions;
  if (device == "cuda") {
    options.device = rt::Device::CUDA;
    options.cudaChip = chip;
    options.cudaFormat = format;
  } else if (device != "cpu") {
    throw py::value_error("unknown device '" + device + "'");
  }
  return options;
}

/// `compile` on a copy of `module` (the caller's stays as it was); its
/// diagnostics raised as ValueError when it fails.
template <typename Compile> auto compileCopy(ModuleOp module, Compile compile) {
  OwningOpRef<ModuleOp> copy(module.clone());
  DiagnosticCollector diags;
  auto result = compile(copy.get());
  if (failed(result))
    throw py::value_error(diags.take());
  return result;
}

/// The Python function that runs packed functions (set_packed_dispatcher);
/// never freed: compiled code may call it until the process ends.
py::object *packedDispatcher = nullptr;

int32_t callPackedDispatcher(const char *name, int32_t returns,
                             int32_t numInputs, int32_t numOutputs,
                             const int64_t *slots) {
  py::gil_scoped_acquire gil;
  try {
    return (*packedDispatcher)(name, returns, numInputs, numOutputs,
                               reinterpret_cast<intptr_t>(slots))
        .cast<int32_t>();
  } catch (py::error_already_set &e) {
    // (Without a call site's suffix: "f@main.0" is f.)
    rt::setPackedError("packed function '" +
                       std::string(name).substr(0, std::strcspn(name, "@")) +
                       "': " + e.what());
    return -1;
  }
}

} // namespace

void tirpy::bindRuntime(py::module_ &m) {
  m.def(
      "set_packed_dispatcher",
      [](py::object dispatcher) {
        if (dispatcher.is_none()) {
          rt::setPackedDispatcher(nullptr);
          return;
        }
        if (!packedDispatcher)
          packedDispatcher = new py::object();
        *packedDispatcher = std::move(dispatcher);
        rt::setPackedDispatcher(&callPackedDispatcher);
      },
      py::arg("dispatcher"),
      "Installs `dispatcher(name, returns, num_inputs, num_outputs, "
      "slots_address)`, which runs the packed functions compiled code "
      "calls (kPackedHookSymbol); None removes it.");
  py::class_<PyRuntimeModule>(m, "RuntimeModule")
      .def("functions", &PyRuntimeModule::functions)
      .def("signature", &PyRuntimeModule::signature)
      .def("params", &PyRuntimeModule::params)
      .def("returns_tuple", &PyRuntimeModule::returnsTuple)
      .def("result_nesting", &PyRuntimeModule::resultNesting)
      .def("interface", &PyRuntimeModule::interface)
      .def("call", &PyRuntimeModule::call)
      .def("time_call", &PyRuntimeModule::timeCall)
      .def_property_readonly("target", &PyRuntimeModule::target)
      .def_readonly("compile_times", &PyRuntimeModule::compileTimes)
      .def_property_readonly("has_object", &PyRuntimeModule::hasObject)
      .def("export_object", &PyRuntimeModule::exportObject, py::arg("path"));

  // Each compiles a copy: the module stays as it was.
  m.def(
      "build",
      [](py::handle module, const std::string &targetCPU, bool openmp,
         const std::string &device, const std::string &chip,
         const std::string &format, bool reassociateReductions) {
        tir::CompileOptions options = compileOptions(
            targetCPU, openmp, device, chip, format, reassociateReductions);
        tir::CompileTimes times;
        auto object = std::make_shared<tir::ObjectCode>();
        auto compiled = compileCopy(moduleOf(module), [&](ModuleOp copy) {
          return tir::compileModule(copy, options, &times, object.get());
        });
        return PyRuntimeModule{
            std::shared_ptr<rt::Module>(std::move(*compiled)),
            {{"lower", times.lower},
             {"translate", times.translate},
             {"optimize", times.optimize},
             {"codegen", times.codegen}},
            std::move(object)};
      },
      py::arg("module"), py::arg("target_cpu") = "native",
      py::arg("openmp") = true, py::arg("device") = "cpu",
      py::arg("chip") = "sm_80", py::arg("format") = "isa",
      py::arg("reassociate_reductions") = false);
  m.def(
      "export_library",
      [](py::handle module, const std::string &path,
         const std::string &targetCPU, const std::string &device,
         const std::string &chip, const std::string &format,
         bool reassociateReductions) {
        tir::CompileOptions options = compileOptions(
            targetCPU, true, device, chip, format, reassociateReductions);
        (void)compileCopy(moduleOf(module), [&](ModuleOp copy) {
          return tir::exportLibrary(copy, options, path);
        });
      },
      py::arg("module"), py::arg("path"), py::arg("target_cpu") = "native",
      py::arg("device") = "cpu", py::arg("chip") = "sm_80",
      py::arg("format") = "isa", py::arg("reassociate_reductions") = false);
  m.def(
      "get_source",
      [](py::handle module, const std::string &kind,
         const std::string &targetCPU, const std::string &device,
         const std::string &chip, const std::string &format,
         bool reassociateReductions) {
        tir::CompileOptions options = compileOptions(
            targetCPU, true, device, chip, format, reassociateReductions);
        tir::SourceKind what =
            kind == "asm" ? tir::SourceKind::Assembly : tir::SourceKind::LLVMIR;
        return *compileCopy(moduleOf(module), [&](ModuleOp copy) {
          return tir::emitSource(copy, options, what);
        });
      },
      py::arg("module"), py::arg("kind"), py::arg("target_cpu") = "native",
      py::arg("device") = "cpu", py::arg("chip") = "sm_80",
      py::arg("format") = "isa", py::arg("reassociate_reductions") = false);
  m.def(
      "load_library",
      [](const std::string &path) {
        std::string error;
        std::unique_ptr<rt::Module> module = rt::Module::load(path, error);
        if (!module)
          throw py::value_error(error);
        return PyRuntimeModule{
            std::shared_ptr<rt::Module>(std::move(module)), {}, nullptr};
      },
      py::arg("path"));
  m.def("set_num_threads", &rt::setNumThreads);
  m.def("start_threads", &rt::startThreads);
  m.def("cuda_device_info", [](int id) {
    rt::cuda::DeviceInfo info;
    std::string error;
    if (!rt::cuda::deviceInfo(id, info, error))
      throw py::value_error(error);
    py::dict d;
    d["name"] = info.name;
    d["compute_version"] = std::to_string(info.computeMajor) + "." +
                           std::to_string(info.computeMinor);
    d["multi_processor_count"] = info.multiprocessors;
    d["max_threads_per_block"] = info.maxThreadsPerBlock;
    d["max_shared_memory_per_block"] = info.sharedPerBlockOptin;
    d["warp_size"] = info.warpSize;
    d["total_global_memory"] = info.totalMemory;
    return d;
  });
}
