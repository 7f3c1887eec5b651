//===- AddUnitLoop.cpp - TVM's add_unit_loop ------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

FailureOr<ForOp> mlir::tir::addUnitLoop(RewriterBase &rewriter,
                                        Operation *target,
                                        ScheduleError &error) {
  if (!isa<ForOp, BlockOp>(target))
    return refuse(error, target,
                  "add_unit_loop applies to a tir.for or a tir.block, not '" +
                      target->getName().getStringRef() + "'");
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(target);
  auto unit = ForOp::create(rewriter, target->getLoc(), 0, 1, "u");
  rewriter.moveOpBefore(target, unit.getBody(), unit.getBody()->end());
  return unit;
}
