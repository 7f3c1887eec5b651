//===- TIRToLLVMPipeline.cpp - tir to the llvm dialect for CPUs -----------===//

#include "TensorIR/Conversion/Passes.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"
#include "TensorIR/Pipelines/Passes.h"
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::tir::buildLowerToLLVMPipeline(OpPassManager &pm,
                                         const LowerToLLVMOptions &options) {
  // tir -> scf + memref + arith; loop kinds become vectors and copies.
  // Parameters a schedule re-laid out keep their declared types (copies in
  // and out); assumptions (facts for the analyses on tir) compute nothing:
  // dropped.
  // Tiled loops are cut so that their main parts need no predicate (the
  // tails keep it); loops above a predicated block then get the range it
  // allows (LLVM would otherwise unroll the iterations it cuts off, at
  // great cost).
  // Graph functions (on tensors, calling prim_funcs) become allocations,
  // calls and frees first; a module of prim_funcs only is left as it is.
  pm.addPass(createTIRLegalizeOpsPass());
  pm.addPass(createTIRBufferizeGraphPass());
  // Packed functions (R.call_dps_packed) through the runtime's dispatcher.
  pm.addPass(createTIRLowerPackedCallsPass());
  pm.addPass(createTIRRestoreDeclaredLayoutsPass());
  pm.addPass(createTIRRemoveAssumePass());
  if (options.reassociateReductions)
    pm.addPass(createTIRReassociateReductionsPass());
  pm.addPass(createTIRPartitionLoopsPass());
  pm.addPass(createTIRNarrowPredicatedLoopsPass());
  pm.addPass(createTIRInjectSoftwarePipelinePass());
  // MetaSchedule's unroll pragmas, as loops to unroll.
  pm.addPass(createTIRAutoUnrollPass());
  ConvertTIRToSCFPassOptions toSCF;
  toSCF.dropStorageScopes = true;
  toSCF.compactBuffers = true;
  pm.addPass(createConvertTIRToSCFPass(toSCF));
  // The parts of a parallel loop that partitioning cut: one loop again.
  pm.addPass(createTIRMergeParallelPartsPass());
  // Tensorized blocks' instructions (on the views tir.match_buffer made).
  pm.addPass(createTIRLowerInstructionsPass());
  TIRVectorizeLoopsPassOptions vectorize;
  vectorize.maxLanes = options.maxVectorLanes;
  pm.addPass(createTIRVectorizeLoopsPass(vectorize));
  pm.addPass(createTIRUnrollLoopsPass());
  // CSE first: unrolling repeats every index computation and constant once
  // per copy, and folding them one by one took the canonicalizer four
  // times as long (40 of a GEMM's 110 ms of lowering).
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  // The inverse hyperbolic functions, which LLVM has no intrinsic for, in
  // terms of log and sqrt.
  math::MathExpandOpsPassOptions expand;
  expand.opMnemonics = {"acosh", "asinh", "atanh"};
  pm.addPass(math::createMathExpandOpsPass(expand));
  // Integer powers (relax's power on integers) as functions of loops.
  pm.addPass(createConvertMathToFuncs());
  // Math functions as polynomials (vectors of them stay vectors).
  if (options.approximateMath)
    pm.addPass(createTIRApproximateMathPass());

  // Parallel loops onto OpenMP threads. Their bodies sit in
  // memref.alloca_scope ops, which hold a single block: lower memref (views
  // first) before scf turns those bodies into branches.
  if (options.openmp) {
    // Through a function of its own, the loop body keeps the fact that
    // distinct buffers do not alias (OpenMP's outlining would hide it).
    pm.addPass(createTIROutlineParallelLoopsPass());
    pm.addPass(createConvertSCFToOpenMPPass());
  }
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Heap buffers through _mlir_memref_to_llvm_aligned_alloc / _free, which
  // --tir-cache-workspace defines (freed buffers reused by the next call):
  // the pointer they return is used as it is, no rounding up through
  // integers that would hide from alias analysis that it is a fresh block.
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  memrefToLLVM.useAlignedAlloc = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createSCFToControlFlowPass());

  // Everything else to the llvm dialect.
  if (options.cInterface)
    pm.addPass(createTIRRequestCInterfacePass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createTIRLLVMNoAliasPass());
  pm.addPass(createTIRCacheWorkspacePass());
  pm.addPass(createCanonicalizerPass());
  TIRSetLLVMTargetPassOptions target;
  target.cpu = options.targetCPU;
  target.features = options.targetFeatures;
  pm.addPass(createTIRSetLLVMTargetPass(target));
}

void mlir::tir::registerTIRPipelines() {
  PassPipelineRegistration<LowerToLLVMOptions>(
      "tir-lower-to-llvm",
      "Lower scheduled tir to the llvm dialect for CPUs: tir to scf, "
      "vectorized/unrolled loops, parallel loops on OpenMP, then upstream "
      "conversions",
      buildLowerToLLVMPipeline);
  PassPipelineRegistration<LowerToNVVMOptions>(
      "tir-lower-to-nvvm",
      "Lower scheduled tir with thread-bound loops for NVIDIA GPUs: kernels "
      "as gpu.launch, lowered to NVVM and serialized as PTX or cubins",
      buildLowerToNVVMPipeline);
  PassPipelineRegistration<>(
      "tir-from-tensors",
      "Front ends' IR into tir blocks: TOSA to linalg, one-shot "
      "bufferization of whole functions, results as output parameters, "
      "convert-linalg-to-tir",
      buildTensorsToTIRPipeline);
}
