//===- TIRDialect.h - TensorIR dialect --------------------------*- C++ -*-===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRDIALECT_H
#define TENSORIR_DIALECT_TIR_IR_TIRDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "TensorIR/Dialect/TIR/IR/TIROpsDialect.h.inc"

#endif // TENSORIR_DIALECT_TIR_IR_TIRDIALECT_H
