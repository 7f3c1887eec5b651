//===- TIRToNVVMPipeline.cpp - tir kernels to NVVM and PTX ----------------===//

#include "TensorIR/Conversion/Passes.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"
#include "TensorIR/Pipelines/Passes.h"
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

void mlir::tir::buildLowerToNVVMPipeline(OpPassManager &pm,
                                         const LowerToNVVMOptions &options) {
  pm.addPass(createTIRRestoreDeclaredLayoutsPass());
  pm.addPass(createTIRRemoveAssumePass());
  // Kernels first (thread-bound loops become gpu.launch), then the rest of
  // tir as on the CPU, inside and outside them. Storage scopes are refused
  // in kernels for now (convert-tir-to-gpu), so dropping them is safe.
  // Code the runtime calls has its buffers in GPU memory: the host part
  // must not touch them.
  ConvertTIRToGPUPassOptions toGPU;
  toGPU.requireKernels = options.hostToLLVM;
  toGPU.chip = options.chip;
  pm.addPass(createTIRGraphBuffersToDevicePass());
  pm.addPass(createConvertTIRToGPUPass(toGPU));
  // Software pipelines outside kernels (those inside are rewritten by
  // convert-tir-to-gpu).
  pm.addPass(createTIRInjectSoftwarePipelinePass());
  // MetaSchedule's unroll pragmas, as loops to unroll.
  pm.addPass(createTIRAutoUnrollPass());
  ConvertTIRToSCFPassOptions toSCF;
  toSCF.dropStorageScopes = true;
  pm.addPass(createConvertTIRToSCFPass(toSCF));
  // Tensor-core instructions (ldmatrix, mma.sync) on the lanes' fragments.
  pm.addPass(createTIRLowerMMAInstructionsPass());
  pm.addPass(createTIRVectorizeLoopsPass());
  // Asynchronous pipelines' copies (whole vectors once vectorized).
  pm.addPass(createTIRLowerAsyncCopiesPass());
  pm.addPass(createTIRUnrollLoopsPass());
  // Warpgroup products one after another (unrolled) issued together.
  pm.addPass(createTIRBatchWarpgroupProductsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Constants and index arithmetic move into the kernels before outlining
  // (else they would become kernel parameters, unknown to the kernel's
  // optimizer: loop bounds, tile sizes).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // Views (subviews, collapsed shapes) to plain descriptors, as on the CPU.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Compacted register tiles and fragments at constant offsets.
  pm.addPass(createTIRFoldPrivateOffsetsPass());
  pm.addPass(createSCFToControlFlowPass());
  // All-reduces (which split their blocks into branches: after scf) and
  // shared-memory alignment.
  pm.addNestedPass<gpu::GPUModuleOp>(createTIRFinalizeGPUKernelsPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  // Math functions come from libdevice when the toolkit has it.
  SmallString<256> libdevice(options.cudaPath.getValue());
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  if (llvm::sys::fs::exists(libdevice))
    target.linkLibs.push_back(libdevice.str().str());
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addNestedPass<gpu::GPUModuleOp>(createTIRRequirePTXVersionPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = 64;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNVVM));
  // NVVM ops LLVM has no intrinsic for (wgmma.mma_async) as inline PTX.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVVMToLLVMPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.cudaPath;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  if (!options.hostToLLVM)
    return;
  // The host code, as on the CPU: launches become calls of the runtime's
  // mgpu* functions, the kernels' binaries globals it loads them from.
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createTIRRequestCInterfacePass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}
