//===- Trace.h - traces, instructions and random variables from Python ----===//
//
// The Python side of TVM's trace model (TransformOps/Trace.h): random
// variables, instructions and traces as Python objects, and the values of
// TVM's layout and of decisions as Python values. Trace.cpp binds them;
// Schedule.cpp takes them in the schedule's entry points.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_PYTHON_EXTENSION_TRACE_H
#define TENSORIR_PYTHON_EXTENSION_TRACE_H

#include "Extension.h"

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"
#include "TensorIR/Dialect/TIR/TransformOps/Trace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <memory>
#include <string>
#include <vector>

namespace tirpy {

/// A random variable (TVM's BlockRV, LoopRV, ExprRV), compared by identity;
/// each schedule that knows it has a handle for it.
struct PyRV {
  tir::RV rv;
};

/// An instruction of a trace (TVM's Instruction), compared by identity.
struct PyInstruction {
  tir::InstructionRef inst;
};

/// A decision as Python: an int (an index, a location) or a list of ints
/// (factors); None for none.
pybind11::object decisionToPython(mlir::Attribute decision);
/// A decision from Python: None, an int or a list of ints.
mlir::Attribute decisionFromPython(pybind11::handle value);
/// A value of TVM's layout as Python: None, a RandomVariable, a bool, int,
/// float or str, a _tensorir.Attribute (an index map, ...), or a list.
pybind11::object tvmValueToPython(const mlir::tir::TVMValue &v);
/// A Python value of TVM's layout: None, a random variable (anything with
/// a RandomVariable as `_rv`), a list or tuple, an IndexMap (through its
/// attribute), or a constant attributeOf takes.
mlir::tir::TVMValue tvmValueFromPython(pybind11::handle value,
                                       const std::string &what);

/// A snapshot of a schedule's trace in TVM's model (tir::Trace).
struct PyTraceModel {
  tir::Trace trace;
  /// The tensor intrinsics the schedule's trace carries (functions marked
  /// tir.tensor_intrin_desc / _impl), for the transform script.
  std::shared_ptr<OwningOpRef<ModuleOp>> carried;

  std::vector<std::string> asPython(bool removePostproc) const {
    std::string error;
    auto lines = trace.asPython(&context(), removePostproc, error);
    if (failed(lines))
      throw pybind11::value_error(error);
    return *lines;
  }
  std::string asJSON(bool removePostproc) const {
    std::string error;
    FailureOr<std::string> text = trace.asJSON(removePostproc, error);
    if (failed(text))
      throw pybind11::value_error(error);
    return *text;
  }
  std::string asTransformScript(bool removePostproc) const {
    std::string error;
    auto script = trace.render(&context(), removePostproc, error);
    if (failed(script))
      throw pybind11::value_error(error);
    if (carried) {
      OpBuilder builder(&context());
      builder.setInsertionPointToStart(script->get().getBody());
      for (auto func : carried->get().getOps<func::FuncOp>())
        builder.clone(*func);
    }
    return print(script->get().getOperation());
  }
};

/// A snapshot of a trace (a module holding a transform.named_sequence).
struct PyTrace {
  std::shared_ptr<OwningOpRef<ModuleOp>> module;

  /// The transform script `text`; the tensor intrinsics it carries become
  /// known by name.
  static PyTrace parse(const std::string &text);
  /// The script printed as TVM's Python.
  std::string asPython() const {
    std::string error;
    FailureOr<std::string> text = tir::printTraceAsPython(module->get(), error);
    if (failed(text))
      throw pybind11::value_error(error);
    return *text;
  }
};

} // namespace tirpy

#endif // TENSORIR_PYTHON_EXTENSION_TRACE_H
