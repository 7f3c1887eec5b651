//===- Query.cpp - schedule queries (get_block, get_loops) ----------------===//

#include "TensorIR/Schedule/Query.h"

using namespace mlir;
using namespace mlir::tir;

SmallVector<BlockOp> mlir::tir::findBlocksByName(Operation *scope,
                                                 StringRef name) {
  SmallVector<BlockOp> found;
  scope->walk<WalkOrder::PreOrder>([&](BlockOp block) {
    if (block.getBlockName() == name)
      found.push_back(block);
  });
  return found;
}

SmallVector<ForOp> mlir::tir::getLoops(BlockOp block) {
  SmallVector<ForOp> loops;
  for (Operation *p = block->getParentOp(); p && !isa<BlockOp>(p);
       p = p->getParentOp()) {
    if (auto loop = dyn_cast<ForOp>(p))
      loops.push_back(loop);
    else if (p->hasTrait<OpTrait::IsIsolatedFromAbove>())
      break;
  }
  std::reverse(loops.begin(), loops.end());
  return loops;
}
