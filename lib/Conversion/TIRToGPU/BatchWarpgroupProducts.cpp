//===- BatchWarpgroupProducts.cpp - consecutive wgmma issued together -----===//
//
// tir-lower-mma-instructions waits for each warpgroup product (wgmma) at
// once. Products one after another in a block (a k tile's, once its loop
// is unrolled), with nothing between one's wait and the next one's fences
// but the accumulators moving through the thread's fragment and pure
// arithmetic, are issued back to back instead: the wait and the fences in
// between go, and the last product's wait covers every group before it.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRBATCHWARPGROUPPRODUCTSPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;

namespace {

/// Whether `memref` is a thread's private memory (no address space: the
/// fragments, registers once promoted).
bool isPrivate(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  return type && !type.getMemorySpace();
}

/// An accumulator pinned in its register (an empty volatile inline asm
/// reading and writing it, as tir-lower-mma-instructions puts after each
/// wait and before each fence).
bool isPin(Operation *op) {
  auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op);
  return asmOp && asmOp.getAsmString().empty() && asmOp->getNumResults() == 1 &&
         asmOp->getNumOperands() == 1;
}

/// Whether `op` only moves values: pure, a pin, or a load or store of
/// private memory.
bool movesValues(Operation *op) {
  if (isMemoryEffectFree(op) || isPin(op))
    return true;
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return isPrivate(load.getBase());
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return isPrivate(store.getBase());
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return isPrivate(load.getMemRef());
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return isPrivate(store.getMemRef());
  return false;
}

struct TIRBatchWarpgroupProductsPass
    : tir::impl::TIRBatchWarpgroupProductsPassBase<
          TIRBatchWarpgroupProductsPass> {
  void runOnOperation() override {
    SmallVector<NVVM::WgmmaWaitGroupSyncOp> waits;
    getOperation()->walk(
        [&](NVVM::WgmmaWaitGroupSyncOp wait) { waits.push_back(wait); });
    for (NVVM::WgmmaWaitGroupSyncOp wait : waits) {
      SmallVector<Operation *> pins;
      Operation *next = wait->getNextNode();
      while (next && !isa<NVVM::FenceProxyOp>(next) && movesValues(next)) {
        if (isPin(next))
          pins.push_back(next);
        next = next->getNextNode();
      }
      auto proxy = dyn_cast_or_null<NVVM::FenceProxyOp>(next);
      Operation *fence = proxy ? proxy->getNextNode() : nullptr;
      if (!fence || !isa<NVVM::WgmmaFenceAlignedOp>(fence))
        continue;
      // Each product stays its own group (its commit stays); the next
      // wait (for 0 groups) covers this one's too. The accumulators go
      // from one product to the next in their registers (the ISA orders
      // accesses of accumulators across products of one shape): the pins
      // between them go as well.
      wait->erase();
      proxy->erase();
      fence->erase();
      for (Operation *pin : pins) {
        pin->getResult(0).replaceAllUsesWith(pin->getOperand(0));
        pin->erase();
      }
    }
  }
};

} // namespace
