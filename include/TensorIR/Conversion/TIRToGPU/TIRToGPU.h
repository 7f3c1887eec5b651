//===- TIRToGPU.h - thread-bound loops to gpu.launch ------------*- C++ -*-===//

#ifndef TENSORIR_CONVERSION_TIRTOGPU_TIRTOGPU_H
#define TENSORIR_CONVERSION_TIRTOGPU_TIRTOGPU_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tir {

#define GEN_PASS_DECL_CONVERTTIRTOGPUPASS
#define GEN_PASS_DECL_TIRFINALIZEGPUKERNELSPASS
#define GEN_PASS_DECL_TIRLOWERMMAINSTRUCTIONSPASS
#define GEN_PASS_DECL_TIRLOWERASYNCCOPIESPASS
#define GEN_PASS_DECL_TIRBATCHWARPGROUPPRODUCTSPASS
#define GEN_PASS_DECL_TIRFOLDPRIVATEOFFSETSPASS
#define GEN_PASS_DECL_TIRGRAPHBUFFERSTODEVICEPASS
#define GEN_PASS_DECL_TIRREQUIREPTXVERSIONPASS
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
///
/// `chip` (sm_XY) is the GPU the kernels are for: an asynchronous software
/// pipeline needs sm_80 or newer, and a kernel's shared memory may not
/// exceed `maxSharedBytes` (0: what one block may hold on the chip,
/// maxSharedMemoryPerBlock). Shared memory over 48 KiB, and buffers in the
/// "shared.dyn" scope, are carved from the launch's dynamic shared memory.
LogicalResult convertTIRToGPU(Operation *root, bool requireKernels = false,
                              StringRef chip = "sm_80",
                              int64_t maxSharedBytes = 0);

/// The compute capability of a chip name ("sm_80" -> 80, "sm_90a" -> 90);
/// nullopt for anything else.
std::optional<int64_t> parseComputeCapability(StringRef chip);

/// The most shared memory one block may hold on a GPU of compute
/// capability `cc`, in bytes (CUDA's opt-in limit: 48 KiB statically, the
/// rest dynamically).
int64_t maxSharedMemoryPerBlock(int64_t cc);

/// The most static shared memory a kernel may declare (CUDA's limit).
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

} // namespace mlir::tir

#endif // TENSORIR_CONVERSION_TIRTOGPU_TIRTOGPU_H
