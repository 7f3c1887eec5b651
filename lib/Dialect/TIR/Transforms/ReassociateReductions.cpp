//===- ReassociateReductions.cpp - reassoc on reduction combiners ---------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRREASSOCIATEREDUCTIONSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// Marks the combiners of `block`'s own reduction updates.
static void markCombiners(BlockOp block) {
  bool reduces = false;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    reduces |= block.getIterType(i) == IterType::Reduce;
  if (!reduces)
    return;
  for (auto store : block.getBody()->getOps<StoreOp>()) {
    Operation *combiner = store.getValue().getDefiningOp();
    if (!isa_and_nonnull<arith::AddFOp, arith::MulFOp, arith::MaximumFOp,
                         arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp>(
            combiner))
      continue;
    // One operand is the element the update stores to, as it was.
    bool readsTheElement = llvm::any_of(combiner->getOperands(), [&](Value v) {
      auto load = v.getDefiningOp<LoadOp>();
      return load && load.getBuffer() == store.getBuffer() &&
             load.getMap() == store.getMap() &&
             load.getIndices() == store.getIndices();
    });
    if (!readsTheElement)
      continue;
    auto fastmath = cast<arith::ArithFastMathInterface>(combiner);
    arith::FastMathFlags flags = fastmath.getFastMathFlagsAttr().getValue();
    combiner->setAttr(
        fastmath.getFastMathAttrName(),
        arith::FastMathFlagsAttr::get(combiner->getContext(),
                                      flags | arith::FastMathFlags::reassoc));
  }
}

namespace {
struct TIRReassociateReductionsPass
    : tir::impl::TIRReassociateReductionsPassBase<
          TIRReassociateReductionsPass> {
  void runOnOperation() override { getOperation()->walk(markCombiners); }
};
} // namespace
