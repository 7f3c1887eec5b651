//===- ScheduleError.h - why a schedule primitive refused -------*- C++ -*-===//
//
// A primitive refuses with tir's one refusal type: the rule, the loop or
// block at fault, and notes at the other ops the message refers to.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_SCHEDULE_SCHEDULEERROR_H
#define TENSORIR_DIALECT_TIR_SCHEDULE_SCHEDULEERROR_H

#include "TensorIR/Dialect/TIR/Analysis/Refusal.h"

namespace mlir::tir {

/// The schedule library's name for a Refusal, as TVM's ScheduleError.
using ScheduleError = Refusal;

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_SCHEDULE_SCHEDULEERROR_H
