//===- TIRTransformOps.h - transform.tir extension --------------*- C++ -*-===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_H
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleOpInterface.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace tir {
/// Registers the transform.tir ops with the transform dialect.
void registerTransformDialectExtension(DialectRegistry &registry);
} // namespace tir
} // namespace mlir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_H
