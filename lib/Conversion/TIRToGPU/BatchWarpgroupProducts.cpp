//===- BatchWarpgroupProducts.cpp - consecutive wgmma issued together -----===//
//
// tir-lower-mma-instructions waits for each warpgroup product (wgmma) at
// once. Products one after another in a block (a k tile's, once its loop
// is unrolled) that pass the accumulators on unchanged (the first's
// results stored into the thread's fragment and loaded back for the next,
// nothing else reading them or touching memory in between) are issued back
// to back instead: the wait and the fences in between go, and the last
// product's wait covers every group before it.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRBATCHWARPGROUPPRODUCTSPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;

namespace {

/// Whether `op` is an accumulator pinned in its register (an empty
/// volatile inline asm reading and writing it, as
/// tir-lower-mma-instructions puts after each wait and before each fence).
bool isPin(Operation *op) {
  auto asmOp = dyn_cast_or_null<LLVM::InlineAsmOp>(op);
  return asmOp && asmOp.getAsmString().empty() && asmOp->getNumResults() == 1 &&
         asmOp->getNumOperands() == 1;
}

/// `v` without the pin it comes out of (null when it comes out of none).
Value unpinned(Value v) {
  Operation *def = v.getDefiningOp();
  return isPin(def) ? def->getOperand(0) : Value();
}

/// Whether two indices, sizes, offsets or strides are the same value (or
/// the same constant).
bool sameFold(OpFoldResult a, OpFoldResult b) {
  std::optional<int64_t> x = getConstantIntValue(a), y = getConstantIntValue(b);
  if (x || y)
    return x && y && *x == *y;
  return cast<Value>(a) == cast<Value>(b);
}

/// Whether two memrefs are the same memory seen the same way: one value,
/// or views (subviews, reinterpret casts: each unrolled step makes its
/// own) of the same memory at the same offsets, sizes and strides.
bool sameView(Value a, Value b) {
  if (a == b)
    return true;
  if (a.getType() != b.getType())
    return false;
  auto x = a.getDefiningOp<OffsetSizeAndStrideOpInterface>();
  auto y = b.getDefiningOp<OffsetSizeAndStrideOpInterface>();
  if (!x || !y || x->getName() != y->getName() || x->getNumOperands() == 0 ||
      y->getNumOperands() == 0)
    return false;
  return sameView(x->getOperand(0), y->getOperand(0)) &&
         llvm::equal(x.getMixedOffsets(), y.getMixedOffsets(), sameFold) &&
         llvm::equal(x.getMixedSizes(), y.getMixedSizes(), sameFold) &&
         llvm::equal(x.getMixedStrides(), y.getMixedStrides(), sameFold);
}

/// The products `first` and `next` (one after the other in a block, the
/// ops from `wait`, `first`'s wait, to `proxy`, `next`'s first fence, in
/// between) pass the accumulators on unchanged: `first`'s results, pinned,
/// are stored (all of them, in order, once) into the thread's fragment
/// and loaded from the same place for `next`, pinned again, as its
/// accumulators, nothing else reading them; and nothing else in between
/// touches memory. Then the accumulators may stay in flight from one to
/// the other (the ISA orders accesses of accumulators across products of
/// one shape).
bool passesAccumulatorsOn(NVVM::WgmmaMmaAsyncOp first,
                          NVVM::WgmmaMmaAsyncOp next, Operation *wait,
                          Operation *proxy) {
  if (first.getShape() != next.getShape() ||
      first.getResult().getType() != next.getInouts().getType())
    return false;
  vector::StoreOp store;
  vector::LoadOp load;
  for (Operation *op = wait->getNextNode(); op != proxy;
       op = op->getNextNode()) {
    if (auto s = dyn_cast<vector::StoreOp>(op)) {
      if (store)
        return false;
      store = s;
    } else if (auto l = dyn_cast<vector::LoadOp>(op)) {
      if (load)
        return false;
      load = l;
    } else if (!isMemoryEffectFree(op) && !isPin(op)) {
      return false;
    }
  }
  if (!store || !load || !sameView(store.getBase(), load.getBase()) ||
      !llvm::equal(store.getIndices(), load.getIndices(),
                   [](Value x, Value y) { return sameFold(x, y); }) ||
      store.getValueToStore().getType() != load.getType() ||
      !store.getValueToStore().hasOneUse())
    return false;
  // What is stored: first's results in order, each through one pin used
  // only here.
  auto stored = store.getValueToStore().getDefiningOp<vector::FromElementsOp>();
  if (!stored)
    return false;
  for (auto [i, element] : llvm::enumerate(stored.getElements())) {
    Value raw = unpinned(element);
    auto extract = raw ? raw.getDefiningOp<LLVM::ExtractValueOp>() : nullptr;
    if (!element.hasOneUse() || !extract ||
        extract.getContainer() != first.getResult() ||
        extract.getPosition() != ArrayRef<int64_t>{int64_t(i)})
      return false;
  }
  // What next takes: the loaded elements in order, each through one pin
  // used only there, and nothing else reading the load.
  Value inouts = next.getInouts();
  unsigned count = 0;
  while (auto insert = inouts.getDefiningOp<LLVM::InsertValueOp>()) {
    Value raw = unpinned(insert.getValue());
    auto extract = raw ? raw.getDefiningOp<vector::ExtractOp>() : nullptr;
    auto position = extract ? extract.getStaticPosition() : ArrayRef<int64_t>();
    if (!insert.getValue().hasOneUse() || !extract ||
        extract.getSource() != load.getResult() || position.size() != 1 ||
        insert.getPosition() != position || !raw.hasOneUse())
      return false;
    ++count;
    inouts = insert.getContainer();
  }
  return count == stored.getElements().size() &&
         llvm::all_of(load->getUsers(), [](Operation *user) {
           return isa<vector::ExtractOp>(user);
         });
}

struct TIRBatchWarpgroupProductsPass
    : tir::impl::TIRBatchWarpgroupProductsPassBase<
          TIRBatchWarpgroupProductsPass> {
  void runOnOperation() override {
    SmallVector<NVVM::WgmmaWaitGroupSyncOp> waits;
    getOperation()->walk(
        [&](NVVM::WgmmaWaitGroupSyncOp wait) { waits.push_back(wait); });
    for (NVVM::WgmmaWaitGroupSyncOp wait : waits) {
      // The product it waits for (before its commit) and the next one's
      // fences, in the same block.
      Operation *prev = wait->getPrevNode();
      while (isa_and_nonnull<NVVM::WgmmaGroupSyncAlignedOp>(prev))
        prev = prev->getPrevNode();
      auto first = dyn_cast_or_null<NVVM::WgmmaMmaAsyncOp>(prev);
      Operation *proxy = wait->getNextNode();
      while (proxy && !isa<NVVM::FenceProxyOp>(proxy))
        proxy = proxy->getNextNode();
      Operation *fence = proxy ? proxy->getNextNode() : nullptr;
      auto next =
          fence ? dyn_cast_or_null<NVVM::WgmmaMmaAsyncOp>(fence->getNextNode())
                : nullptr;
      if (!first || !isa_and_nonnull<NVVM::WgmmaFenceAlignedOp>(fence) ||
          !next || !passesAccumulatorsOn(first, next, wait, proxy))
        continue;
      // Each product stays its own group (its commit stays); the next
      // wait (for 0 groups) covers this one's too. The accumulators go
      // from one product to the next in their registers: the pins between
      // them go as well.
      SmallVector<Operation *> pins;
      for (Operation *op = wait->getNextNode(); op != proxy;
           op = op->getNextNode())
        if (isPin(op))
          pins.push_back(op);
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
