//===- Flops.h - how much arithmetic a program does -------------*- C++ -*-===//
//
// TVM's EstimateTIRFlops, as the task scheduler reports GFLOP/s and the
// anchor block is chosen: the arithmetic ops on values (arith and math
// ops, not index computations) of each block, times the static extents of
// the loops around it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_FLOPS_H
#define TENSORIR_METASCHEDULE_FLOPS_H

#include "mlir/IR/Operation.h"

namespace mlir::tir::ms {

/// The floating-point and integer operations `root` does (a module, a
/// function or a block).
double estimateFlops(Operation *root);

/// How many times `op` runs inside `root` (null: the whole program): the
/// product of the static extents of the loops around it below `root`.
double getEnclosingIterations(Operation *op, Operation *root = nullptr);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_FLOPS_H
