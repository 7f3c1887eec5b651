//===- LoopKind.cpp - TVM's parallel, vectorize, unroll and bind ----------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// The blocks nested anywhere under `loop`, those inside a tir.init
/// excepted (TVM checks every block under the loop, not only its children).
static SmallVector<BlockOp> nestedBlocks(ForOp loop) {
  SmallVector<BlockOp> blocks;
  loop->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<InitOp>(op))
      return WalkResult::skip();
    if (auto block = dyn_cast<BlockOp>(op))
      blocks.push_back(block);
    return WalkResult::advance();
  });
  return blocks;
}

/// TVM's rules for loops whose iterations run at once (parallel, vectorized,
/// thread-bound): the blocks under the loop have compact data flow, and
/// every block iteration variable the loop feeds is spatial, or reduce when
/// the loop is bound to threadIdx (a cross-thread reduction).
static LogicalResult checkParallelizable(ForOp loop, StringRef primitive,
                                         bool threadIdx, ScheduleError &error) {
  Value iv = loop.getInductionVar();
  // An opaque use of the loop variable (outside block bindings) hides
  // whether iterations are independent (stricter than TVM, which looks
  // only at block bindings).
  if (failed(checkOnlyBindingUses(loop, error)))
    return refuse(error, loop,
                  primitive +
                      " needs a loop whose variable only feeds block "
                      "bindings; " +
                      error.message);
  if (failed(checkCompactDataflow(loop, primitive, error)))
    return failure();
  for (BlockOp block : nestedBlocks(loop)) {
    // TVM's rule: every block under the loop has quasi-affine bindings of
    // its loops.
    SmallVector<Value> loopVars =
        llvm::filter_to_vector(block.getBindingValues(), isLoopVar);
    if (failed(checkAffineBindings(block, loopVars, primitive, loop, error)))
      return failure();
    for (unsigned i : block.getIterVarsFedBy(iv)) {
      IterType type = block.getIterType(i);
      if (type == IterType::Spatial || (type == IterType::Reduce && threadIdx))
        continue;
      std::string allowed =
          primitive == "bind"
              ? "only spatial iteration variables (or reduce ones when "
                "bound to threadIdx.x/y/z, a cross-thread reduction)"
              : "only spatial iteration variables";
      return refuse(error, loop,
                    primitive + " needs a loop that feeds " + allowed +
                        ", but loop " + loopName(loop) + " feeds " +
                        stringifyIterType(type) + " variable '" +
                        iterVarName(block, i) + "' of block '" +
                        block.getBlockName() + "'");
    }
  }
  return success();
}

static LogicalResult setKind(ForOp loop, ForKind kind, StringRef primitive,
                             ScheduleError &error) {
  if (kind != ForKind::Unrolled &&
      failed(checkParallelizable(loop, primitive, /*threadIdx=*/false, error)))
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
  if (failed(checkParallelizable(loop, "bind", thread.starts_with("threadIdx."),
                                 error)))
    return failure();
  loop.setKind(ForKind::ThreadBinding);
  loop.setThreadAttr(StringAttr::get(loop.getContext(), thread));
  return success();
}
