//===- TensorsToTIRPipeline.cpp - --tir-from-tensors ----------------------===//
//
// What front ends produce (linalg on tensors, as torch-mlir's
// linalg-on-tensors output, or TOSA) into tir blocks to schedule: TOSA to
// linalg, one-shot bufferization of whole functions, results as output
// parameters (TVM's destination-passing functions), then
// --convert-linalg-to-tir, whose intermediates become tir.alloc_buffer.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/LinalgToTIR/LinalgToTIR.h"
#include "TensorIR/Pipelines/Passes.h"

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::tir::buildTensorsToTIRPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(tosa::createTosaToLinalgNamed());
  pm.addNestedPass<func::FuncOp>(tosa::createTosaToLinalg());
  // What TOSA's lowering leaves behind (tosa.const zero points and shifts it
  // folded into the linalg ops) goes.
  pm.addPass(createCanonicalizerPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Every op its own output buffer (TVM's intermediates, which schedules
  // inline or compute at), not outputs updated in place.
  bufferize.copyBeforeWrite = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createConvertLinalgToTIRPass());
}
