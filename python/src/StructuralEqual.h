//===- StructuralEqual.h - structural equality for Python -------*- C++ -*-===//

#ifndef TENSORIR_PYTHON_STRUCTURALEQUAL_H
#define TENSORIR_PYTHON_STRUCTURALEQUAL_H

#include "mlir/IR/BuiltinOps.h"

#include <pybind11/pybind11.h>

#include <functional>

/// Adds `structural_equal` and `structural_hash` to the extension.
/// `getModule` returns the module held by one of the extension's `Module`
/// objects (that class is defined with the module, in TensorIRModule.cpp)
/// and throws (pybind11::cast_error) for anything else.
void bindStructuralEqual(
    pybind11::module_ &m,
    std::function<mlir::ModuleOp(pybind11::handle)> getModule);

#endif // TENSORIR_PYTHON_STRUCTURALEQUAL_H
