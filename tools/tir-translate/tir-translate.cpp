//===- tir-translate.cpp - the tir translation driver ---------------------===//
//
// mlir-translate for tir programs: `--mlir-to-llvmir` with tir and the
// dialects tir lowers through registered, so that a file holding tir (or
// already lowered) input parses. Ops that have no LLVM IR translation (tir
// ops not yet lowered) are reported by name.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/InitAllDialects.h"

#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace mlir;

static void registerTIRToLLVMIRTranslation() {
  TranslateFromMLIRRegistration registration(
      "mlir-to-llvmir", "Translate MLIR (lowered from tir) to LLVM IR",
      [](Operation *op, llvm::raw_ostream &output) {
        llvm::LLVMContext llvmContext;
        std::unique_ptr<llvm::Module> llvmModule =
            translateModuleToLLVMIR(op, llvmContext);
        if (!llvmModule)
          return failure();
        llvmModule->print(output, /*AAW=*/nullptr);
        return success();
      },
      [](DialectRegistry &registry) {
        tir::registerAllDialects(registry);
        tir::registerAllExtensions(registry);
        registerAllToLLVMIRTranslations(registry);
      });
}

int main(int argc, char **argv) {
  registerTIRToLLVMIRTranslation();
  return failed(mlirTranslateMain(argc, argv, "tir translation driver"));
}
