//===- InitAllPasses.h - one registration point for tir passes --*- C++ -*-===//
//
// tir's own passes and the upstream passes that scheduling and lowering of
// tir programs use: generic transforms (canonicalize, cse, ...), the
// conversions to llvm / nvvm, the transform interpreter, and the affine,
// scf, memref, vector, gpu, arith, math, func and llvm passes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_INITALLPASSES_H
#define TENSORIR_INITALLPASSES_H

#include "TensorIR/Conversion/Passes.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"
#include "TensorIR/Pipelines/Passes.h"
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tir {

inline void registerAllPasses() {
  tir::registerTIRPasses();
  tir::registerTIRConversionPasses();
  tir::registerTIRLLVMIRTransformsPasses();
  tir::registerTIRPipelines();

  registerTransformsPasses();
  registerConversionPasses();
  transform::registerTransformPasses();
  affine::registerAffinePasses();
  arith::registerArithPasses();
  func::registerFuncPasses();
  registerGPUPasses();
  gpu::registerGPUToNVVMPipeline();
  LLVM::registerLLVMPasses();
  math::registerMathPasses();
  memref::registerMemRefPasses();
  registerSCFPasses();
  vector::registerVectorPasses();
}

} // namespace mlir::tir

#endif // TENSORIR_INITALLPASSES_H
