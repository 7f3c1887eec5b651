//===- ReorderBlockIterVar.cpp - TVM's reorder_block_iter_var -------------===//
//
// A block's iteration variables listed in another order: `new_order[k]` is
// the variable that comes k-th. Domains, kinds, bindings and the predicate
// go with their variables; the body reads each variable at its new place.
// Nothing else changes, so the loops and the computation stay as they were.
//
//===----------------------------------------------------------------------===//

#include "InlineUtils.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

LogicalResult mlir::tir::reorderBlockIterVar(RewriterBase &rewriter,
                                             BlockOp block,
                                             ArrayRef<int64_t> newOrder,
                                             ScheduleError &error) {
  unsigned n = block.getNumIterVars();
  std::string prefix =
      "reorder_block_iter_var of block '" + block.getBlockName().str() + "'";
  if (newOrder.size() != n)
    return refuse(error, block,
                  prefix + " needs an order of all its " + std::to_string(n) +
                      " iteration variables, got " +
                      std::to_string(newOrder.size()));
  SmallVector<bool> seen(n, false);
  for (int64_t k : newOrder) {
    if (k < 0 || k >= static_cast<int64_t>(n))
      return refuse(error, block,
                    prefix + " needs positions in [0, " + std::to_string(n) +
                        "), got " + std::to_string(k));
    if (seen[k])
      return refuse(error, block,
                    prefix + " needs each position once, but " +
                        std::to_string(k) + " is given twice");
    seen[k] = true;
  }

  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  SmallVector<Value> values(block.getBindingValues());
  SmallVector<std::string> names;
  for (unsigned i = 0; i < n; ++i)
    names.push_back(iterVarName(block, i));
  SmallVector<IterVarSpec> vars;
  for (int64_t old : newOrder)
    vars.push_back({block.getIterType(old), block.getMixedDomainLower(old),
                    block.getMixedDomainUpper(old), bindings[old], names[old]});
  // Old variable i is the new variable at its position in the order.
  SmallVector<AffineExpr> oldVars(n);
  for (auto [position, old] : llvm::enumerate(newOrder))
    oldVars[old] = getAffineDimExpr(position, block.getContext());
  rebuildIterVars(rewriter, block, vars, values, getPredicateDisjuncts(block),
                  oldVars);
  return success();
}
