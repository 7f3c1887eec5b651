//===- LowerInit.cpp - tir.init to a guarded region (LowerInitBlock) ------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRLOWERINITPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

void mlir::tir::lowerInit(RewriterBase &rewriter, BlockOp block) {
  InitOp init = block.getInitOp();
  if (!init)
    return;
  Location loc = init.getLoc();
  rewriter.setInsertionPoint(init);
  Value cond;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    if (block.getIterType(i) != IterType::Reduce)
      continue;
    Value lowerValue = getValueOrCreateConstantIndexOp(
        rewriter, loc, block.getMixedDomainLower(i));
    Value atStart =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                              block.getIterVar(i), lowerValue);
    cond = cond
               ? arith::AndIOp::create(rewriter, loc, cond, atStart).getResult()
               : atStart;
  }
  // A block without reduce variables (rfactor's output) may hold an init
  // too: as in TVM's LowerInitBlock, the condition is then true and the
  // init runs before the body in every iteration.
  if (!cond) {
    rewriter.inlineBlockBefore(init.getBody(), init);
    rewriter.eraseOp(init);
    return;
  }
  auto ifOp = scf::IfOp::create(rewriter, loc, cond, /*withElseRegion=*/false);
  Block *thenBlock = ifOp.thenBlock();
  rewriter.inlineBlockBefore(init.getBody(), thenBlock->getTerminator());
  rewriter.eraseOp(init);
}

namespace {
struct TIRLowerInitPass
    : public tir::impl::TIRLowerInitPassBase<TIRLowerInitPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](BlockOp block) { lowerInit(rewriter, block); });
  }
};
} // namespace
