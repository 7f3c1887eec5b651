//===- Refusal.h - why a check said no --------------------------*- C++ -*-===//
//
// tir's one refusal type: the rule that does not hold, the op at fault and
// the other ops the message refers to. An analysis that cannot answer fills
// one for its caller to word as its own refusal (a schedule primitive
// prefixes its name); a schedule primitive refuses with one
// (ScheduleError); one boundary each turns it into what its user sees: the
// transform interpreter a silenceable failure with notes at the ops
// (ScheduleOpTrait), the Python Schedule a ScheduleError (ScheduleState).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_REFUSAL_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_REFUSAL_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::tir {

/// Why a check said no: the message (the rule), the op at fault, and more
/// ops the message refers to, each with what to say there. `summary`, when
/// set, is the rule in fixed words naming nothing of the program (TVM's
/// "fast" rendering of a ScheduleError); otherwise the message stands for
/// it.
struct Refusal {
  std::string message;
  Operation *culprit = nullptr;
  std::vector<std::pair<Operation *, std::string>> notes = {};
  std::string summary = {};

  /// Sets the message and the culprit; returns failure() for chaining.
  LogicalResult set(Operation *op, const Twine &why) {
    culprit = op;
    message = why.str();
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

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_REFUSAL_H
