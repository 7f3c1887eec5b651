//===- TIRToGPU.h - thread-bound loops to gpu.launch ------------*- C++ -*-===//

#ifndef TENSORIR_CONVERSION_TIRTOGPU_TIRTOGPU_H
#define TENSORIR_CONVERSION_TIRTOGPU_TIRTOGPU_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tir {

#define GEN_PASS_DECL_CONVERTTIRTOGPUPASS
#define GEN_PASS_DECL_TIRFINALIZEGPUKERNELSPASS
#define GEN_PASS_DECL_TIRLOWERMMAINSTRUCTIONSPASS
#include "TensorIR/Conversion/Passes.h.inc"

/// The alignment (bytes) the runtime guarantees for the buffers it passes
/// to GPU functions; with `requireKernels`, kernels assume it.
constexpr unsigned kParamAlignment = 16;

/// Turns each outermost thread-bound tir.for under `root`, with the
/// thread-bound loops inside it, into one gpu.launch (see
/// convert-tir-to-gpu). Fails, with a diagnostic and no change, on kernels
/// it cannot launch, and with `requireKernels` on loads and stores of the
/// function's buffers outside every kernel (they are in GPU memory); with
/// it, kernels also assume those buffers aligned to kParamAlignment bytes.
LogicalResult convertTIRToGPU(Operation *root, bool requireKernels = false);

} // namespace mlir::tir

#endif // TENSORIR_CONVERSION_TIRTOGPU_TIRTOGPU_H
