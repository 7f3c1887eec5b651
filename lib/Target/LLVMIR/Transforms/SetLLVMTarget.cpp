//===- SetLLVMTarget.cpp - record the target CPU on llvm.func ops ---------===//

#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRSETLLVMTARGETPASS
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;

std::string mlir::tir::getHostCPUFeatures() {
  SmallVector<std::string> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.push_back((feature.second ? "+" : "-") + feature.first().str());
  llvm::sort(features);
  return llvm::join(features, ",");
}

LogicalResult mlir::tir::verifyTargetCPU(Location loc, StringRef cpu,
                                         StringRef features) {
  if (cpu.empty() && features.empty())
    return success();
  llvm::InitializeNativeTarget();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return emitError(loc, "no LLVM target for this machine: ") << error;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!subtarget)
    return emitError(loc, "no LLVM subtarget information for ") << triple.str();
  if (!cpu.empty() && !subtarget->isCPUStringValid(cpu))
    return emitError(loc, "unknown CPU '")
           << cpu << "' for " << triple.str()
           << " (llc -mcpu=help lists the known ones)";
  SmallVector<StringRef> list;
  features.split(list, ',', -1, /*KeepEmpty=*/false);
  for (StringRef feature : list) {
    StringRef name = feature.ltrim("+-");
    bool known = llvm::any_of(
        subtarget->getAllProcessorFeatures(),
        [&](const llvm::SubtargetFeatureKV &kv) { return name == kv.Key; });
    if (!known || !(feature.starts_with("+") || feature.starts_with("-")))
      return emitError(loc, "unknown CPU feature '")
             << feature << "' for " << triple.str()
             << " (features are +name or -name; llc -mattr=help lists them)";
  }
  return success();
}

namespace {
struct TIRSetLLVMTargetPass
    : public tir::impl::TIRSetLLVMTargetPassBase<TIRSetLLVMTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    if (cpu.empty() && features.empty())
      return;
    std::string cpuName = cpu;
    std::string featureList = features;
    if (cpuName == "native") {
      cpuName = llvm::sys::getHostCPUName().str();
      if (featureList.empty())
        featureList = tir::getHostCPUFeatures();
    }
    if (failed(tir::verifyTargetCPU(getOperation().getLoc(), cpuName,
                                    featureList)))
      return signalPassFailure();
    MLIRContext *context = &getContext();
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      if (!cpuName.empty())
        func.setTargetCpuAttr(StringAttr::get(context, cpuName));
      if (!featureList.empty())
        func.setTargetFeaturesAttr(
            LLVM::TargetFeaturesAttr::get(context, featureList));
    });
  }
};
} // namespace
