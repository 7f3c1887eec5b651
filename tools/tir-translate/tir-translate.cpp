//===- tir-translate.cpp - the tir translation driver ---------------------===//
//
// mlir-translate for tir programs. `--mlir-to-llvmir` takes either input
// already lowered to the llvm dialect, or tir (and the upstream dialects tir
// lowers through): anything not yet in the llvm dialect is first run through
// the `tir-lower-to-llvm` pipeline, with `--target-cpu` /
// `--target-features` as its target options. `--tir-to-tvmscript` prints tir
// functions as TVMScript.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/InitAllDialects.h"
#include "TensorIR/Pipelines/Passes.h"
#include "TensorIR/Target/TVMScript.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

static llvm::cl::opt<std::string>
    targetCPU("target-cpu",
              llvm::cl::desc("CPU to lower tir input for ('native' for this "
                             "machine); see tir-opt --tir-lower-to-llvm"),
              llvm::cl::init(""));
static llvm::cl::opt<std::string>
    targetFeatures("target-features",
                   llvm::cl::desc("Target features for tir input, e.g. "
                                  "'+avx2,+fma'"),
                   llvm::cl::init(""));

/// True when some op in `op` still has to be lowered to the llvm dialect.
static bool needsLowering(Operation *op) {
  WalkResult found = op->walk([&](Operation *nested) {
    if (nested == op || isa<LLVM::LLVMDialect>(nested->getDialect()))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return found.wasInterrupted();
}

static LogicalResult translateToLLVMIR(Operation *op,
                                       llvm::raw_ostream &output) {
  if (needsLowering(op)) {
    PassManager pm(op->getContext(), op->getName().getStringRef());
    tir::LowerToLLVMOptions options;
    options.targetCPU = targetCPU;
    options.targetFeatures = targetFeatures;
    tir::buildLowerToLLVMPipeline(pm, options);
    if (failed(pm.run(op)))
      return failure();
  }
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(op, llvmContext);
  if (!llvmModule)
    return failure();
  llvmModule->print(output, /*AAW=*/nullptr);
  return success();
}

/// What every translation's input may hold: tir and the dialects it is
/// lowered through.
static void registerTIR(DialectRegistry &registry) {
  tir::registerAllDialects(registry);
  tir::registerAllExtensions(registry);
}

static void registerTIRToLLVMIRTranslation() {
  TranslateFromMLIRRegistration registration(
      "mlir-to-llvmir",
      "Translate tir (lowered with tir-lower-to-llvm first) or llvm-dialect "
      "input to LLVM IR",
      translateToLLVMIR, [](DialectRegistry &registry) {
        registerTIR(registry);
        registerAllToLLVMIRTranslations(registry);
      });
}

/// The module's functions as TVMScript; IR that TVMScript cannot express
/// is an error.
static LogicalResult translateToTVMScript(Operation *op,
                                          llvm::raw_ostream &output) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a builtin.module of tir functions");
  std::string error;
  std::string text = tir::printTVMScript(module, error);
  if (!error.empty())
    return module.emitError(error);
  output << text;
  return success();
}

static void registerTIRToTVMScriptTranslation() {
  TranslateFromMLIRRegistration registration(
      "tir-to-tvmscript",
      "Print tir functions as TVMScript (a @T.prim_func, or an "
      "@I.ir_module class for several), as tensorir.script parses it",
      translateToTVMScript, registerTIR);
}

static llvm::cl::opt<std::string>
    cudaChip("cuda-chip",
             llvm::cl::desc("The GPU --tir-to-ptx generates code for"),
             llvm::cl::init("sm_80"));
static llvm::cl::opt<std::string>
    cudaPath("cuda-path",
             llvm::cl::desc("The CUDA toolkit (libdevice) for --tir-to-ptx"),
             llvm::cl::init("/usr/local/cuda"));

/// The PTX of the module's GPU kernels: tir input goes through
/// --tir-lower-to-nvvm first. One kernel module prints as one PTX file;
/// several are separated by `// -----` lines naming them.
static LogicalResult translateToPTX(Operation *op, llvm::raw_ostream &output) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a builtin.module");
  if (module.getOps<gpu::BinaryOp>().empty()) {
    PassManager pm(op->getContext(), op->getName().getStringRef());
    tir::LowerToNVVMOptions options;
    options.chip = cudaChip;
    options.cudaPath = cudaPath;
    options.format = "isa";
    tir::buildLowerToNVVMPipeline(pm, options);
    if (failed(pm.run(op)))
      return failure();
  }
  auto binaries = llvm::to_vector(module.getOps<gpu::BinaryOp>());
  if (binaries.empty())
    return module.emitError("no GPU kernel: a kernel starts at a loop bound "
                            "to blockIdx or threadIdx");
  for (gpu::BinaryOp binary : binaries)
    for (Attribute attr : binary.getObjectsAttr()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (object.getFormat() != gpu::CompilationTarget::Assembly)
        return binary.emitError("holds no PTX (it was serialized as a "
                                "binary)");
      StringRef ptx = object.getObject().getValue();
      if (ptx.contains(".extern .func") && ptx.contains("__nv_"))
        return binary.emitError("calls libdevice's math functions, but "
                                "libdevice was not found under '")
               << cudaPath << "' (--cuda-path)";
      if (binaries.size() > 1)
        output << "// ----- gpu.module @" << binary.getSymName() << "\n";
      output << ptx;
    }
  return success();
}

static void registerTIRToPTXTranslation() {
  TranslateFromMLIRRegistration registration(
      "tir-to-ptx",
      "Print the PTX of tir's GPU kernels (tir lowered with "
      "--tir-lower-to-nvvm first)",
      translateToPTX, registerTIR);
}

int main(int argc, char **argv) {
  registerTIRToLLVMIRTranslation();
  registerTIRToTVMScriptTranslation();
  registerTIRToPTXTranslation();
  return failed(mlirTranslateMain(argc, argv, "tir translation driver"));
}
