//===- NoAlias.cpp - distinct buffers as llvm.noalias parameters ----------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRLLVMNOALIASPASS
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;

void mlir::tir::recordNoAliasBuffers(func::FuncOp func,
                                     ArrayRef<unsigned> args) {
  // Positions in the expanded signature: a memref of rank r becomes
  // (allocated, aligned, offset, r sizes, r strides); anything else one.
  SmallVector<int64_t> starts;
  int64_t position = 0;
  for (Type type : func.getArgumentTypes()) {
    starts.push_back(position);
    auto memref = dyn_cast<MemRefType>(type);
    position += memref ? 3 + 2 * memref.getRank() : 1;
  }
  SmallVector<int64_t> aligned;
  for (unsigned arg : args)
    if (isa<MemRefType>(func.getArgumentTypes()[arg]))
      aligned.push_back(starts[arg] + 1);
  if (!aligned.empty())
    func->setAttr(TIRDialect::kNoAliasParamsAttrName,
                  DenseI64ArrayAttr::get(func.getContext(), aligned));
}

namespace {
struct TIRLLVMNoAliasPass
    : public tir::impl::TIRLLVMNoAliasPassBase<TIRLLVMNoAliasPass> {
  void runOnOperation() override {
    UnitAttr unit = UnitAttr::get(&getContext());
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto params = func->getAttrOfType<DenseI64ArrayAttr>(
          tir::TIRDialect::kNoAliasParamsAttrName);
      if (!params)
        return;
      func->removeAttr(tir::TIRDialect::kNoAliasParamsAttrName);
      // C wrappers inherit the attribute, but take descriptors, not the
      // expanded parameters it counts.
      if (func.getName().starts_with("_mlir_ciface_"))
        return;
      // A position out of range (the attribute is text like any other) is
      // skipped, as one that is not a pointer.
      for (int64_t index : params.asArrayRef())
        if (index >= 0 &&
            index < static_cast<int64_t>(func.getNumArguments()) &&
            isa<LLVM::LLVMPointerType>(func.getArgumentTypes()[index]))
          func.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(), unit);
    });
  }
};
} // namespace
