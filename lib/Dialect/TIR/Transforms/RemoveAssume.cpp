//===- RemoveAssume.cpp - drop tir.call "assume" (TVM's RemoveAssume) -----===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRREMOVEASSUMEPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
struct TIRRemoveAssumePass
    : tir::impl::TIRRemoveAssumePassBase<TIRRemoveAssumePass> {
  void runOnOperation() override {
    SmallVector<CallOp> assumptions;
    getOperation()->walk([&](CallOp call) {
      if (call.getCallee() == "assume" && call->getNumResults() == 0)
        assumptions.push_back(call);
    });
    IRRewriter rewriter(&getContext());
    for (CallOp call : assumptions) {
      SmallVector<Operation *> worklist;
      for (Value operand : call->getOperands())
        if (Operation *def = operand.getDefiningOp())
          worklist.push_back(def);
      Operation *parent = call->getParentOp();
      rewriter.eraseOp(call);
      // The ops that only computed the condition: pure ones and loads.
      while (!worklist.empty()) {
        Operation *op = worklist.pop_back_val();
        if (!op->use_empty() || (!isa<LoadOp>(op) && !isMemoryEffectFree(op)))
          continue;
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp())
            worklist.push_back(def);
        rewriter.eraseOp(op);
      }
      // A block left with nothing to do (transform_layout's assumption
      // nest) goes, with the loops it leaves empty.
      auto isEmpty = [](Block *body) {
        return llvm::all_of(*body, [](Operation &op) {
          return op.hasTrait<OpTrait::IsTerminator>();
        });
      };
      auto block = dyn_cast<BlockOp>(parent);
      if (!block || !isEmpty(block.getBody()) || block.getInitOp())
        continue;
      Operation *above = block->getParentOp();
      rewriter.eraseOp(block);
      while (auto loop = dyn_cast<ForOp>(above)) {
        if (!isEmpty(loop.getBody()))
          break;
        above = loop->getParentOp();
        rewriter.eraseOp(loop);
      }
    }
  }
};
} // namespace
