//===- MetaSchedule.h - the MetaSchedule library from Python ----*- C++ -*-===//
//
// What the bindings of the MetaSchedule library share: calls from the
// library into Python (a Python exception travels through the library as
// a failure and is raised again, unchanged, where the binding returns),
// schedules and JSON values across the boundary.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_PYTHON_EXTENSION_METASCHEDULE_H
#define TENSORIR_PYTHON_EXTENSION_METASCHEDULE_H

#include "Extension.h"
#include "Schedule.h"
#include "Trace.h"

#include "TensorIR/MetaSchedule/TuneContext.h"

#include "llvm/Support/JSON.h"

namespace tirpy {

namespace ms = mlir::tir::ms;

/// The Python exception a callback raised, until the binding that called
/// into the library raises it again.
extern thread_local std::exception_ptr pendingError;

/// Runs `body` (which calls Python) inside a library callback: an
/// exception is kept in pendingError and becomes a failure.
template <typename T, typename Body>
mlir::FailureOr<T> callPython(std::string &error, Body &&body) {
  try {
    return T(body());
  } catch (pybind11::error_already_set &e) {
    error = e.what();
    pendingError = std::current_exception();
  } catch (std::exception &e) {
    error = e.what();
    pendingError = std::current_exception();
  }
  return mlir::failure();
}

mlir::LogicalResult callPythonVoid(std::string &error,
                                   const std::function<void()> &body);

/// A library call from Python: its result, or the exception a callback
/// raised, or TVMError with the library's message.
template <typename T>
T check(mlir::FailureOr<T> result, const std::string &error) {
  if (mlir::succeeded(result)) {
    pendingError = nullptr;
    return std::move(*result);
  }
  if (std::exception_ptr pending = std::exchange(pendingError, nullptr))
    std::rethrow_exception(pending);
  throw TVMError(error);
}
void check(mlir::LogicalResult result, const std::string &error);

/// The library's logger as a Python function logger(level, message). An
/// exception in it is not the tuning's: it is printed (as `what`'s) and
/// tuning goes on, except a KeyboardInterrupt, which is raised again at
/// the next Python code the tuning runs (a builder, a runner), so that
/// Ctrl-C stops the tuning wherever it lands.
std::function<void(ms::LogLevel, const std::string &)>
pythonLogger(pybind11::object logger, const char *what);

/// A schedule of the library as a _tensorir.Schedule, and back.
std::shared_ptr<PySchedule> wrap(const ms::Schedule &sch);
std::vector<std::shared_ptr<PySchedule>>
wrapAll(const std::vector<ms::Schedule> &schs);
/// The schedules a Python function returned (a list of _tensorir.Schedule).
std::vector<ms::Schedule> unwrapAll(pybind11::handle list);

/// The module of a _tensorir.Module (cloned), or null for None.
mlir::OwningOpRef<mlir::ModuleOp> moduleOrNull(pybind11::handle module);

/// The Python object of a context the library passes back: the one
/// Python holds, or a new one that shares ownership (never a wrapper that
/// does not own it, which could outlive it).
pybind11::object contextObject(const ms::TuneContext &context);

/// A JSON value from Python objects and back (through Python's json).
llvm::json::Value jsonFromPython(pybind11::handle object);
pybind11::object jsonToPython(const llvm::json::Value &json);

void bindMetaScheduleComponents(pybind11::module_ &m);
void bindMetaScheduleDatabase(pybind11::module_ &m);
void bindMetaScheduleSearch(pybind11::module_ &m);
void bindMetaScheduleTuning(pybind11::module_ &m);

} // namespace tirpy

#endif // TENSORIR_PYTHON_EXTENSION_METASCHEDULE_H
