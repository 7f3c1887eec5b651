//===- TIRPlugin.cpp - tir as a plugin of the stock mlir-opt --------------===//

#include "TensorIR/Conversion/Passes.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"
#include "TensorIR/Pipelines/Passes.h"
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TIR", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            registry->insert<tir::TIRDialect>();
            tir::registerTransformDialectExtension(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TIRPasses", LLVM_VERSION_STRING, []() {
            tir::registerTIRPasses();
            tir::registerTIRConversionPasses();
            tir::registerTIRLLVMIRTransformsPasses();
            tir::registerTIRPipelines();
          }};
}
