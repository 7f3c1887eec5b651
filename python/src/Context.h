//===- Context.h - the extension's MLIR context and diagnostics -*- C++ -*-===//
//
// What every part of the _tensorir extension shares: the one MLIR context
// it parses, schedules and compiles in, and the collector that turns the
// errors emitted meanwhile into an exception's message.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_PYTHON_CONTEXT_H
#define TENSORIR_PYTHON_CONTEXT_H

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tirpy {
using namespace mlir;

/// One MLIR context for the process, with everything tir parses and lowers
/// (TensorIRModule.cpp).
MLIRContext &context();

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

} // namespace tirpy

#endif // TENSORIR_PYTHON_CONTEXT_H
