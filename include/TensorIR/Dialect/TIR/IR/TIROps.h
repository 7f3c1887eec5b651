//===- TIROps.h - TensorIR operations ---------------------------*- C++ -*-===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIROPS_H
#define TENSORIR_DIALECT_TIR_IR_TIROPS_H

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tir {
class InitOp;
} // namespace mlir::tir

#define GET_OP_CLASSES
#include "TensorIR/Dialect/TIR/IR/TIROps.h.inc"

#endif // TENSORIR_DIALECT_TIR_IR_TIROPS_H
