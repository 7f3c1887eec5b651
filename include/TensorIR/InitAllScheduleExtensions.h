//===- InitAllScheduleExtensions.h - what scheduling adds -------*- C++ -*-===//
//
// What a tool that schedules tir registers on top of InitAllDialects.h: the
// transform dialect, transform.tir (TVM's schedule primitives, over
// lib/Dialect/TIR/Schedule) and the upstream transform extensions schedules
// use. Only tools that run transform scripts need it (tir-opt, the Python
// package); including it makes a target link TIRTransformOps and TIRSchedule.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_INITALLSCHEDULEEXTENSIONS_H
#define TENSORIR_INITALLSCHEDULEEXTENSIONS_H

#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"

#include "mlir/Dialect/Affine/TransformOps/AffineTransformOps.h"
#include "mlir/Dialect/Func/TransformOps/FuncTransformOps.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/MemRef/TransformOps/MemRefTransformOps.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Transform/DebugExtension/DebugExtension.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/LoopExtension/LoopExtension.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::tir {

/// Registers the transform dialect with transform.tir and the upstream
/// transform extensions (affine, func, gpu, memref, scf, vector, debug,
/// loop).
inline void registerScheduleExtensions(DialectRegistry &registry) {
  registry.insert<transform::TransformDialect>();
  tir::registerTransformDialectExtension(registry);
  affine::registerTransformDialectExtension(registry);
  func::registerTransformDialectExtension(registry);
  gpu::registerTransformDialectExtension(registry);
  memref::registerTransformDialectExtension(registry);
  scf::registerTransformDialectExtension(registry);
  vector::registerTransformDialectExtension(registry);
  transform::registerDebugExtension(registry);
  transform::registerLoopExtension(registry);
}

} // namespace mlir::tir

#endif // TENSORIR_INITALLSCHEDULEEXTENSIONS_H
