//===- TIRAttrs.h - TensorIR attributes and enums ---------------*- C++ -*-===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRATTRS_H
#define TENSORIR_DIALECT_TIR_IR_TIRATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "TensorIR/Dialect/TIR/IR/TIREnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h.inc"

#endif // TENSORIR_DIALECT_TIR_IR_TIRATTRS_H
