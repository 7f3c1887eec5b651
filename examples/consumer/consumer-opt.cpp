//===- consumer-opt.cpp - an MLIR tool of another project, with tir -------===//
//
// What a compiler built on MLIR does to use tir: it registers tir's
// dialects, schedule ops (transform.tir) and passes beside its own and
// upstream's (here TOSA, its front end's dialect), through the entry points
// of tir's installed headers, builds its own pipeline on tir's C++ one, and
// links the installed libraries (find_package(TensorIR), CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/InitAllDialects.h"
#include "TensorIR/InitAllPasses.h"
#include "TensorIR/InitAllScheduleExtensions.h"

#include "TensorIR/Pipelines/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// The project's front end into tir: its own clean-up of the TOSA it
/// produces (canonicalization), then tir's pipeline from tensors to
/// blocks (TOSA to linalg, one-shot bufferization, convert-linalg-to-tir)
/// through its C++ entry point.
static void buildTosaToTIR(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  tir::buildTensorsToTIRPipeline(pm);
}

int main(int argc, char **argv) {
  // tir: its passes, conversions and pipelines (--tir-lower-to-llvm, ...)
  // with the upstream ones they use (TOSA's lowering among them).
  tir::registerAllPasses();
  PassPipelineRegistration<>(
      "consumer-tosa-to-tir",
      "TOSA to tir blocks: canonicalize, then tir's tir-from-tensors",
      buildTosaToTIR);

  DialectRegistry registry;
  tir::registerAllDialects(registry);
  tir::registerAllExtensions(registry);
  tir::registerScheduleExtensions(registry);
  registry.insert<tosa::TosaDialect>();
  return asMainReturnCode(MlirOptMain(
      argc, argv, "an MLIR tool of another project, with tir\n", registry));
}
