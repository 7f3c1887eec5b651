//===- Extension.cpp - the _tensorir Python extension ---------------------===//
//
// The module's entry point: the process's MLIR context, TVM's error types,
// then each area's bindings (Extension.h).
//
//===----------------------------------------------------------------------===//

#include "Extension.h"

#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/InitAllScheduleExtensions.h"

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

MLIRContext &tirpy::context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    tir::registerCompilerDialects(registry);
    // The Python Schedule applies transform.tir ops (ScheduleState).
    tir::registerScheduleExtensions(registry);
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    // An error names the op and points at the user's line; the generic
    // form of the op appended to it ("see current operation: ...") would
    // bury that in IR the user never wrote.
    c->printOpOnDiagnostic(false);
    return c;
  }();
  return *ctx;
}

Type tirpy::dtypeType(MLIRContext &ctx, StringRef dtype) {
  return mlir::tir::getDtypeType(&ctx, dtype);
}

std::string tirpy::print(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

std::string tirpy::print(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

PYBIND11_MODULE(_tensorir, m) {
  m.doc() = "tir's C++ libraries: parse, schedule, build and call";
  // TVM's error hierarchy: tvm.TVMError, a RuntimeError, is the base of
  // ScheduleError.
  static py::object tvmError = py::reinterpret_borrow<py::object>(
      py::exception<std::runtime_error>(m, "TVMError", PyExc_RuntimeError));
  static py::exception<ScheduleError> scheduleError(m, "ScheduleError",
                                                    tvmError.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const ScheduleError &e) {
      PyErr_SetString(scheduleError.ptr(), e.what());
    } catch (const TVMError &e) {
      PyErr_SetString(tvmError.ptr(), e.what());
    }
  });

  bindAttributes(m);
  bindModule(m);
  bindTrace(m);
  bindSchedule(m);
  bindScheduleAnalysis(m);
  bindMetaSchedule(m);
  bindRuntime(m);
  bindStructuralEqual(m);
  bindNodes(m);
  bindFromNodes(m);
  bindGraph(m);
}
