//===- KernelMemory.cpp - what the kernel-memory steps share --------------===//

#include "KernelMemory.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tir;

bool mlir::tir::isSharedScope(StringRef scope) {
  return scope == "shared" || scope == "shared.dyn";
}

bool mlir::tir::isThreadIdxLoop(ForOp loop) {
  return loop.getKind() == ForKind::ThreadBinding &&
         loop.getThread()->starts_with("threadIdx.");
}

llvm::StringSet<> mlir::tir::threadTagsAround(Operation *op) {
  llvm::StringSet<> tags;
  for (; op; op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op);
        loop && loop.getKind() == ForKind::ThreadBinding)
      tags.insert(*loop.getThread());
  return tags;
}

bool mlir::tir::dependsOn(Value v, function_ref<bool(Value)> isSource) {
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (isSource(x))
      return true;
    if (auto arg = dyn_cast<BlockArgument>(x)) {
      if (auto block = dyn_cast<BlockOp>(arg.getOwner()->getParentOp());
          block && seen.insert(block).second)
        llvm::append_range(work, block.getBindingValues());
      continue;
    }
    if (Operation *def = x.getDefiningOp(); def && seen.insert(def).second)
      llvm::append_range(work, def->getOperands());
  }
  return false;
}
