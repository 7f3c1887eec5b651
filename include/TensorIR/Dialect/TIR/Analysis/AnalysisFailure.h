//===- AnalysisFailure.h - why an analysis gave no answer -------*- C++ -*-===//
//
// The analyses report what they cannot answer as a reason and the op at
// fault, for the caller to word as its own refusal (a schedule primitive
// prefixes its name).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_ANALYSISFAILURE_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_ANALYSISFAILURE_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include <string>

namespace mlir::tir {

/// Why an analysis failed, and the op at fault.
struct AnalysisFailure {
  std::string reason;
  Operation *culprit = nullptr;

  /// Sets the reason and the culprit; returns failure() for chaining.
  LogicalResult set(Operation *op, const Twine &why) {
    culprit = op;
    reason = why.str();
    return failure();
  }
};

/// A loop as diagnostics name it: `'i'`, or "the loop" when it has no name.
inline std::string getLoopDisplayName(ForOp loop) {
  if (std::optional<StringRef> name = loop.getVarName())
    return ("'" + *name + "'").str();
  return "the loop";
}

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_ANALYSISFAILURE_H
