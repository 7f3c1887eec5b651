//===- RequestCInterface.cpp - C wrappers for the runtime's entry points --===//

#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRREQUESTCINTERFACEPASS
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;

namespace {
struct TIRRequestCInterfacePass
    : public tir::impl::TIRRequestCInterfacePassBase<TIRRequestCInterfacePass> {
  void runOnOperation() override {
    UnitAttr unit = UnitAttr::get(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), unit);
      SmallVector<unsigned> buffers;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        buffers.push_back(i);
      tir::recordNoAliasBuffers(func, buffers);
    }
  }
};
} // namespace
