//===- Runtime.cpp - build, export, load and call from Python -------------===//
//
// The extension's side of tvm.build / export_library / load_module: tir
// modules compiled (on a copy) into runtime modules, whose functions are
// called with numpy arrays, ints and floats checked against their
// signatures by the runtime.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"
#include "Context.h"

#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Runtime/Runtime.h"

#include "llvm/Support/Endian.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;
namespace rt = mlir::tir::runtime;

namespace {

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
        // The compiled code reads the machine's byte order: an array in the
        // other one would give wrong numbers, silently.
        std::string order = py::str(array.dtype().attr("byteorder"));
        bool little = llvm::endianness::native == llvm::endianness::little;
        if (order == (little ? ">" : "<"))
          throw py::value_error(
              "argument " + std::to_string(converted.size()) + " is " +
              (little ? "big" : "little") +
              "-endian; tir functions take arrays in the machine's byte "
              "order (numpy: array.astype(array.dtype.newbyteorder('=')))");
        std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
        std::vector<int64_t> strides;
        for (py::ssize_t d = 0; d < array.ndim(); ++d) {
          if (array.strides(d) % array.itemsize() != 0)
            throw py::value_error("array strides are not a multiple of its "
                                  "element size");
          strides.push_back(array.strides(d) / array.itemsize());
        }
        converted.push_back(
            rt::Arg::buffer(array.mutable_data(), dtypeOf(array.dtype()),
                            std::move(shape), std::move(strides)));
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

} // namespace

void bindRuntime(py::module_ &m,
                 std::function<ModuleOp(py::handle)> getModule) {
  py::class_<PyRuntimeModule>(m, "RuntimeModule")
      .def("functions", &PyRuntimeModule::functions)
      .def("signature", &PyRuntimeModule::signature)
      .def("call", &PyRuntimeModule::call);

  // Both compile a copy: the module stays as it was.
  m.def(
      "build",
      [getModule](py::handle module, const std::string &targetCPU,
                  bool openmp) {
        OwningOpRef<ModuleOp> copy(getModule(module).clone());
        DiagnosticCollector diags;
        tir::CompileOptions options;
        options.targetCPU = targetCPU;
        options.openmp = openmp;
        auto compiled = tir::compileModule(copy.get(), options);
        if (failed(compiled))
          throw py::value_error(diags.take());
        return PyRuntimeModule{
            std::shared_ptr<rt::Module>(std::move(*compiled))};
      },
      py::arg("module"), py::arg("target_cpu") = "native",
      py::arg("openmp") = true);
  m.def(
      "export_library",
      [getModule](py::handle module, const std::string &path,
                  const std::string &targetCPU) {
        OwningOpRef<ModuleOp> copy(getModule(module).clone());
        DiagnosticCollector diags;
        tir::CompileOptions options;
        options.targetCPU = targetCPU;
        if (failed(tir::exportLibrary(copy.get(), options, path)))
          throw py::value_error(diags.take());
      },
      py::arg("module"), py::arg("path"), py::arg("target_cpu") = "native");
  m.def(
      "load_library",
      [](const std::string &path) {
        std::string error;
        std::unique_ptr<rt::Module> module = rt::Module::load(path, error);
        if (!module)
          throw py::value_error(error);
        return PyRuntimeModule{std::shared_ptr<rt::Module>(std::move(module))};
      },
      py::arg("path"));
  m.def("set_num_threads", &rt::setNumThreads);
}
