//===- consumer-opt.cpp - an MLIR tool of another project, with tir -------===//
//
// What a compiler built on MLIR does to use tir: it registers tir's
// dialects, schedule ops (transform.tir) and passes beside its own and
// upstream's (here TOSA and its lowering to linalg, which tir does not
// register), through the entry points of tir's installed headers, and
// links the installed libraries (find_package(TensorIR), CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/InitAllDialects.h"
#include "TensorIR/InitAllPasses.h"
#include "TensorIR/InitAllScheduleExtensions.h"

#include "TensorIR/Conversion/Passes.h"

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

using namespace mlir;

/// The project's front end into tir: TOSA to linalg on tensors (upstream),
/// buffers (one-shot bufferization), then tir blocks to schedule.
static void buildTosaToTIR(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(tosa::createTosaToLinalgNamed());
  pm.addNestedPass<func::FuncOp>(tosa::createTosaToLinalg());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(tir::createConvertLinalgToTIRPass());
}

int main(int argc, char **argv) {
  // tir: its passes, conversions and pipelines (--tir-lower-to-llvm, ...)
  // with the upstream ones they use (TOSA's lowering among them).
  tir::registerAllPasses();
  PassPipelineRegistration<>(
      "consumer-tosa-to-tir",
      "TOSA to tir blocks: tosa-to-linalg, one-shot bufferization, "
      "convert-linalg-to-tir",
      buildTosaToTIR);

  DialectRegistry registry;
  tir::registerAllDialects(registry);
  tir::registerAllExtensions(registry);
  tir::registerScheduleExtensions(registry);
  registry.insert<tosa::TosaDialect>();
  return asMainReturnCode(MlirOptMain(
      argc, argv, "an MLIR tool of another project, with tir\n", registry));
}
