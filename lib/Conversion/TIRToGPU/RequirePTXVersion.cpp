//===- RequirePTXVersion.cpp - a kernel module's PTX ISA version ----------===//
//
// --tir-require-ptx-version: a kernel module whose instructions need a PTX
// ISA newer than its chip's default (mma.sync on 8-bit floats: 8.4) asks
// for it in its NVVM target's features, unless the user gave a version.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRREQUIREPTXVERSIONPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
/// The PTX ISA version a kernel module's instructions need beyond the
/// chip's default (0: none): mma.sync on 8-bit floats is PTX 8.4's.
int64_t requiredPTXVersion(gpu::GPUModuleOp module) {
  int64_t version = 0;
  module.walk([&](LLVM::InlineAsmOp asmOp) {
    StringRef text = asmOp.getAsmString();
    if (text.starts_with("mma.sync") &&
        (text.contains(".e4m3") || text.contains(".e5m2")))
      version = std::max<int64_t>(version, 84);
  });
  return version;
}

struct TIRRequirePTXVersionPass
    : public tir::impl::TIRRequirePTXVersionPassBase<TIRRequirePTXVersionPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    int64_t needed = requiredPTXVersion(module);
    std::optional<ArrayAttr> targets = module.getTargets();
    if (!needed || !targets)
      return;
    SmallVector<Attribute> updated;
    for (Attribute attr : *targets) {
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      // A version the user gave stays (ptxas says if it is too old).
      if (!target || target.getFeatures().contains("+ptx")) {
        updated.push_back(attr);
        continue;
      }
      std::string features = target.getFeatures().str();
      features +=
          (features.empty() ? "" : ",") + ("+ptx" + Twine(needed)).str();
      updated.push_back(NVVM::NVVMTargetAttr::get(
          &getContext(), target.getO(), target.getTriple(), target.getChip(),
          features, target.getFlags(), target.getLink(),
          target.getVerifyTarget()));
    }
    module.setTargetsAttr(ArrayAttr::get(&getContext(), updated));
  }
};
} // namespace
