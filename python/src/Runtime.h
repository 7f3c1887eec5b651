//===- Runtime.h - build, export, load and call from Python -----*- C++ -*-===//

#ifndef TENSORIR_PYTHON_RUNTIME_H
#define TENSORIR_PYTHON_RUNTIME_H

#include "mlir/IR/BuiltinOps.h"

#include <pybind11/pybind11.h>

#include <functional>

/// Adds `build`, `export_library`, `load_library`, `set_num_threads` and the
/// `RuntimeModule` class (a built or loaded library: its functions, their
/// signatures, calls with numpy arrays) to the extension. `getModule`
/// returns the module held by one of the extension's `Module` objects.
void bindRuntime(pybind11::module_ &m,
                 std::function<mlir::ModuleOp(pybind11::handle)> getModule);

#endif // TENSORIR_PYTHON_RUNTIME_H
