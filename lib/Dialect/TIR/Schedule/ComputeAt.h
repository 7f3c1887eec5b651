//===- ComputeAt.h - compute_at's parts shared by its files ----*- C++ -*-===//
//
// compute_at and reverse_compute_at: ComputeAt.cpp checks legality and
// rewrites; ComputeAtDomain.cpp solves the block's new iteration domain.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_COMPUTEAT_H
#define TENSORIR_LIB_SCHEDULE_COMPUTEAT_H

#include "Utils.h"

namespace mlir::tir::sched::computeat {

/// One new loop (or, with extent 1 and without preserve_unit_loops, just
/// a binding) per iteration variable: `var = lower + ax` for ax in
/// [0, extent), with optional bounds `lower + ax >= guardLo` / `<= guardHi`
/// as a predicate where the domain may leave the block's bounds. All over
/// Plan::inputs; the extent and guards may be runtime values.
struct VarDomain {
  AffineExpr lower, extent;
  AffineExpr guardLo, guardHi; // null: no guard
  std::optional<int64_t> getConstantExtent() const {
    if (auto k = dyn_cast<AffineConstantExpr>(extent))
      return k.getValue();
    return std::nullopt;
  }
};

struct Plan {
  SmallVector<Value> inputs;
  SmallVector<VarDomain> vars;
};

/// The context of one call: which primitive, and the refusal helper.
struct Ctx {
  StringRef primitive;
  BlockOp block;
  ForOp loop;
  ScheduleError &error;

  LogicalResult fail(Operation *culprit, const Twine &why) {
    return refuse(error, culprit, primitive + " " + why);
  }
  std::string name() { return ("'" + block.getBlockName() + "'").str(); }
};

/// TVM's CalculateBlockVarDomain: the values of the block's iteration
/// variables whose accesses cover what the other blocks need under the loop
/// (compute_at: the consumers' reads; reverse_compute_at: exactly the
/// producers' writes), as one VarDomain per variable.
FailureOr<Plan> solveDomain(Ctx &c, ArrayRef<BlockOp> required, bool computeAt,
                            bool preserveUnitLoops);

} // namespace mlir::tir::sched::computeat

#endif // TENSORIR_LIB_SCHEDULE_COMPUTEAT_H
