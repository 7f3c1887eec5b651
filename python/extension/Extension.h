//===- Extension.h - what the _tensorir extension's parts share -*- C++ -*-===//
//
// The Python extension over tir's C++ libraries, split by area:
// Attributes.cpp (attributes from Python values), Module.cpp (tir modules:
// parse, print, passes), Schedule.cpp (the imperative
// schedule, its handles and traces), Runtime.cpp (build, export, load,
// call), StructuralEqual.cpp (tvm.ir.structural_equal / _hash), Nodes.cpp
// (functions as tvm.tir nodes), FromNodes.cpp (nodes built into tir) and
// Graph.cpp (graph functions built step by step), bound in that order by
// Extension.cpp. They
// share the process's MLIR context, the diagnostics collector that turns errors
// into Python exceptions, and the module wrapper.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_PYTHON_EXTENSION_H
#define TENSORIR_PYTHON_EXTENSION_H

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tirpy {
using namespace mlir;

/// One MLIR context for the process, with everything tir parses, schedules
/// and lowers.
MLIRContext &context();

/// Collects the error diagnostics emitted while it lives (with their notes
/// and locations) into one message for a Python exception.
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
            os << "\n" << location(note.getLocation()) << ": note: " << note;
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

/// An error of a C++ library; Python's tvm.TVMError.
class TVMError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A refused schedule step; Python's tvm.tir.ScheduleError.
class ScheduleError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A tir module (Python's _tensorir.Module); copies are deep.
struct PyModule {
  std::shared_ptr<OwningOpRef<ModuleOp>> module;

  static PyModule parse(const std::string &text, const std::string &name);
  static PyModule own(OwningOpRef<ModuleOp> module);
  ModuleOp get() const { return module->get(); }
  PyModule clone() const;
  std::vector<std::string> functions() const;
};

/// The module a Python object (a _tensorir.Module) holds.
ModuleOp moduleOf(pybind11::handle object);

/// The MLIR type of a TVM dtype ("float32", "int8", "uint8", "bool", ...);
/// null for a dtype tir has no type for.
Type dtypeType(MLIRContext &ctx, StringRef dtype);

/// A Python value as an attribute: a _tensorir.Attribute's, or bool (a
/// BoolAttr), int (i64), float (f64), str, list / tuple (an ArrayAttr) and
/// dict with str keys (a DictionaryAttr) of them, the IR's IntImm /
/// FloatImm / StringImm as their values. TypeError naming `what` for
/// anything else.
Attribute attributeOf(pybind11::handle value, const std::string &what);

/// An attribute as a _tensorir.Attribute.
pybind11::object wrapAttribute(Attribute value);

/// The text MLIR's printer gives.
std::string print(Operation *op);
std::string print(Attribute attr);

/// Each area adds its classes and functions to the extension.
void bindAttributes(pybind11::module_ &m);
void bindModule(pybind11::module_ &m);
void bindTrace(pybind11::module_ &m);
void bindSchedule(pybind11::module_ &m);
/// The schedule's queries, onto the classes bindSchedule made.
void bindScheduleAnalysis(pybind11::module_ &m);
void bindMetaSchedule(pybind11::module_ &m);
void bindMetaScheduleSpace(pybind11::module_ &m);
void bindRuntime(pybind11::module_ &m);
void bindStructuralEqual(pybind11::module_ &m);
void bindNodes(pybind11::module_ &m);
void bindFromNodes(pybind11::module_ &m);
void bindGraph(pybind11::module_ &m);

} // namespace tirpy

#endif // TENSORIR_PYTHON_EXTENSION_H
