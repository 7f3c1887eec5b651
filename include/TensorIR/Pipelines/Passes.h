//===- Passes.h - whole tir lowering pipelines ------------------*- C++ -*-===//
//
// Named pass pipelines that take scheduled tir all the way down, offered by
// tir-opt (`--tir-lower-to-llvm`) and used by the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_PIPELINES_PASSES_H
#define TENSORIR_PIPELINES_PASSES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::tir {

struct LowerToLLVMOptions : public PassPipelineOptions<LowerToLLVMOptions> {
  PassOptions::Option<std::string> targetCPU{
      *this, "target-cpu",
      llvm::cl::desc("CPU to generate code for, as LLVM names it (e.g. "
                     "'skylake-avx512'), or 'native'; recorded on every "
                     "function"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("Target features, e.g. '+avx2,+fma'"), llvm::cl::init("")};
  PassOptions::Option<bool> openmp{
      *this, "openmp",
      llvm::cl::desc("Run parallel loops on OpenMP threads (otherwise they "
                     "run serially)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> maxVectorLanes{
      *this, "max-vector-lanes",
      llvm::cl::desc("Most lanes one step of a vectorized loop handles"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Compute exp, log, tanh, erf and their kin as inline "
                     "polynomials within a few ulp of libm "
                     "(--tir-approximate-math), which vectorize; otherwise "
                     "one libm call per element"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> reassociateReductions{
      *this, "reassociate-reductions",
      llvm::cl::desc(
          "Let LLVM reorder the terms of float reductions "
          "(--tir-reassociate-reductions; TVM's -fast-math-reassoc)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Give every public function a C wrapper taking memref "
                     "descriptors by pointer (_mlir_ciface_<name>), as the "
                     "runtime calls it"),
      llvm::cl::init(true)};
};

/// tir (scheduled) -> scf/vector/OpenMP -> llvm dialect.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);

struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("The GPU to generate code for (sm_80, sm_90, ...)"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features, e.g. '+ptx80' (the chip's default PTX "
                     "version otherwise)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("The CUDA toolkit: libdevice for math functions, "
                     "ptxas for cubins"),
      llvm::cl::init("/usr/local/cuda")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What each kernel module becomes: 'isa' (PTX), 'bin' "
                     "(a cubin, through the toolkit's ptxas) or 'fatbin'"),
      llvm::cl::init("isa")};
  PassOptions::Option<bool> hostToLLVM{
      *this, "host-llvm",
      llvm::cl::desc("Lower the host code to the llvm dialect too, its "
                     "launches calling the runtime (the buffers are then in "
                     "GPU memory: host code that touches them is refused)"),
      llvm::cl::init(false)};
};

/// Thread-bound loops to gpu.launch kernels, the kernels lowered to NVVM
/// and serialized (PTX or a cubin) in gpu.binary ops; the host side keeps
/// its gpu.launch_func ops, or with `host-llvm` is lowered to the llvm
/// dialect calling the runtime's mgpu* functions.
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// Front ends' IR into tir (--tir-from-tensors): TOSA to linalg, the
/// constants it leaves canonicalized away, one-shot bufferization of whole
/// functions (identity layouts, every op its own buffer), results as
/// output parameters, --convert-linalg-to-tir.
void buildTensorsToTIRPipeline(OpPassManager &pm);

/// Registers `--tir-lower-to-llvm`, `--tir-lower-to-nvvm` and
/// `--tir-from-tensors`.
void registerTIRPipelines();

} // namespace mlir::tir

#endif // TENSORIR_PIPELINES_PASSES_H
