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

/// Registers `--tir-lower-to-llvm`.
void registerTIRPipelines();

} // namespace mlir::tir

#endif // TENSORIR_PIPELINES_PASSES_H
