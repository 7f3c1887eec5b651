//===- SetLLVMTarget.cpp - record the target CPU on llvm.func ops ---------===//

#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
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
