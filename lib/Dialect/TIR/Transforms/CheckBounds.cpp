//===- CheckBounds.cpp - warn about accesses outside their buffers --------===//
//
// TensorIR accepts accesses that can fall outside a buffer (TVM does: a
// padded tile guarded by a predicate, an if, or if_then_else reads past the
// edge only where the guard is false). The verifier therefore does not
// reject them; this pass reports the ones that are not guarded.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRCHECKBOUNDSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// Whether the access `op` only runs (or only matters) under a condition:
/// an enclosing block with a predicate or a value condition, an enclosing
/// scf.if, or a load whose
/// only use is one side of a select (TVM's if_then_else).
static bool isGuarded(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op)) {
    Value v = load.getResult();
    if (!v.use_empty() && llvm::all_of(v.getUsers(), [&](Operation *user) {
          auto select = dyn_cast<arith::SelectOp>(user);
          return select && select.getCondition() != v;
        }))
      return true;
  }
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (isa<scf::IfOp>(p))
      return true;
    if (auto block = dyn_cast<BlockOp>(p);
        block && (block.getPredicate() || block.getCondition()))
      return true;
  }
  return false;
}

/// Reports the indices of an access that leave the static shape of its
/// buffer, as far as the ranges of the index operands are known.
static void check(Operation *op, Value buffer, AffineMap map,
                  ValueRange indices, bool warnGuarded) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<std::optional<Interval>> ranges = getValueRanges(indices);
  SmallVector<AffineExpr> exprs = getExprsOverInputs(map);
  for (auto [dim, e] : llvm::enumerate(exprs)) {
    int64_t size = type.getDimSize(dim);
    if (ShapedType::isDynamic(size))
      continue;
    std::optional<Interval> r = evaluateRange(e, ranges);
    if (!r || (r->lo >= 0 && r->hi < size))
      continue;
    bool guarded = isGuarded(op);
    if (guarded && !warnGuarded)
      continue;
    bool always = r->hi < 0 || r->lo >= size;
    InFlightDiagnostic d = op->emitWarning();
    d << op->getName() << " index " << dim << " ranges over [" << r->lo << ", "
      << r->hi << "], " << (always ? "always" : "partly")
      << " outside the buffer's [0, " << size - 1 << "]";
    if (guarded)
      d << " (the access is guarded)";
  }
}

namespace {
struct TIRCheckBoundsPass
    : public tir::impl::TIRCheckBoundsPassBase<TIRCheckBoundsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op))
        check(op, load.getBuffer(), load.getMap(), load.getIndices(),
              warnGuarded);
      else if (auto store = dyn_cast<StoreOp>(op))
        check(op, store.getBuffer(), store.getMap(), store.getIndices(),
              warnGuarded);
    });
  }
};
} // namespace
