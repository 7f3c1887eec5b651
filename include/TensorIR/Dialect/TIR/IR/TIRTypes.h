//===- TIRTypes.h - TensorIR types ------------------------------*- C++ -*-===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRTYPES_H
#define TENSORIR_DIALECT_TIR_IR_TIRTYPES_H

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h.inc"

#endif // TENSORIR_DIALECT_TIR_IR_TIRTYPES_H
