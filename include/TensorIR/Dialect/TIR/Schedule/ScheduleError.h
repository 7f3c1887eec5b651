//===- ScheduleError.h - why a schedule primitive refused -------*- C++ -*-===//

#ifndef TENSORIR_DIALECT_TIR_SCHEDULE_SCHEDULEERROR_H
#define TENSORIR_DIALECT_TIR_SCHEDULE_SCHEDULEERROR_H

#include <string>
#include <utility>
#include <vector>

namespace mlir {
class Operation;
namespace tir {

/// Why a primitive refused, the loop or block at fault, and more ops the
/// message refers to (each with what to say there).
struct ScheduleError {
  std::string message;
  Operation *culprit = nullptr;
  std::vector<std::pair<Operation *, std::string>> notes = {};
};

} // namespace tir
} // namespace mlir

#endif // TENSORIR_DIALECT_TIR_SCHEDULE_SCHEDULEERROR_H
