//===- LoopKind.cpp - TVM's parallel, vectorize, unroll and bind ----------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// TVM's rule for loops whose iterations run at once (parallel, vectorized,
/// thread-bound): every block iteration variable the loop feeds is
/// data-parallel (spatial).
static LogicalResult checkDataParallel(ForOp loop, StringRef primitive,
                                       ScheduleError &error) {
  Value iv = loop.getInductionVar();
  // An opaque use of the loop variable (outside block bindings) hides
  // whether iterations are independent.
  if (failed(checkOnlyBindingUses(loop, error)))
    return refuse(error, loop,
                  primitive + " needs a loop whose variable only feeds block "
                              "bindings; " + error.message);
  for (BlockOp block : collectChildBlocks(loop)) {
    // TVM's rule: every block under the loop has quasi-affine bindings of
    // its loops.
    SmallVector<Value> loopVars;
    for (Value v : block.getBindingValues())
      if (auto arg = dyn_cast<BlockArgument>(v);
          arg && isa_and_nonnull<ForOp>(arg.getOwner()->getParentOp()))
        loopVars.push_back(v);
    if (failed(checkAffineBindings(block, loopVars, primitive, loop, error)))
      return failure();
    SmallVector<AffineExpr> bindings = block.getBindingExprs();
    for (auto [pos, value] : llvm::enumerate(block.getBindingValues())) {
      if (value != iv)
        continue;
      for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
        if (block.getIterType(i) == IterType::Spatial ||
            !bindings[i].isFunctionOfDim(pos))
          continue;
        std::string var = "#" + std::to_string(i);
        if (auto names = block.getVarNames())
          var = cast<StringAttr>((*names)[i]).str();
        return refuse(error, loop,
                      primitive + " needs a loop that feeds only spatial "
                                  "iteration variables, but loop " +
                          loopName(loop) + " feeds " +
                          stringifyIterType(block.getIterType(i)) +
                          " variable '" + var + "' of block '" +
                          block.getBlockName() + "'");
      }
    }
  }
  return success();
}

static LogicalResult setKind(ForOp loop, ForKind kind, StringRef primitive,
                             ScheduleError &error) {
  if (kind != ForKind::Unrolled &&
      failed(checkDataParallel(loop, primitive, error)))
    return failure();
  loop.setKind(kind);
  loop.removeThreadAttr();
  return success();
}

LogicalResult mlir::tir::parallel(ForOp loop, ScheduleError &error) {
  return setKind(loop, ForKind::Parallel, "parallel", error);
}

LogicalResult mlir::tir::vectorize(ForOp loop, ScheduleError &error) {
  return setKind(loop, ForKind::Vectorized, "vectorize", error);
}

LogicalResult mlir::tir::unroll(ForOp loop, ScheduleError &error) {
  return setKind(loop, ForKind::Unrolled, "unroll", error);
}

LogicalResult mlir::tir::bind(ForOp loop, StringRef thread,
                              ScheduleError &error) {
  if (!ForOp::isValidThreadTag(thread))
    return refuse(error, loop,
                  "bind needs a thread axis such as 'blockIdx.x' or "
                  "'threadIdx.y', got '" +
                      thread + "'");
  if (failed(checkDataParallel(loop, "bind", error)))
    return failure();
  loop.setKind(ForKind::ThreadBinding);
  loop.setThreadAttr(StringAttr::get(loop.getContext(), thread));
  return success();
}
