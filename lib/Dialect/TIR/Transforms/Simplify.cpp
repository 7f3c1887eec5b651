//===- Simplify.cpp - index expressions simplified (TVM's Simplify) -------===//

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRSIMPLIFYPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// The block's bindings simplified with the ranges of the values they use.
void simplifyBindings(BlockOp block) {
  SmallVector<Value> values(block.getBindingValues());
  SmallVector<AffineExpr> exprs;
  for (AffineExpr e : block.getBindingExprs())
    exprs.push_back(simplifyOverValues(e, values));
  block.setBindingsAttr(AffineMapAttr::get(
      makeInputMap(values.size(), exprs, block.getContext())));
}

/// The block's predicate simplified with the ranges of the values it
/// uses: each inequality in its fewest terms (simplifyInequality), bounds
/// on a division tightened by the bounds on its remainder, constraints
/// that always hold dropped, and the predicate with them when one of its
/// disjuncts always holds.
void simplifyPredicate(BlockOp block) {
  if (!block.getPredicate())
    return;
  MLIRContext *ctx = block.getContext();
  SmallVector<Value> values(block.getBindingValues());
  SmallVector<std::optional<Interval>> ranges = getValueRanges(values);
  SmallVector<Attribute> sets;
  for (IntegerSet set : block.getPredicateSets()) {
    SmallVector<AffineExpr> inequalities, equalities;
    for (auto [i, e] : llvm::enumerate(getConstraintsOverInputs(set))) {
      AffineExpr simplified = simplifyOverValues(e, values);
      if (set.isEq(i)) {
        equalities.push_back(simplified);
        continue;
      }
      simplified = simplifyInequality(simplified, ranges);
      std::optional<Interval> range = evaluateRange(simplified, ranges);
      if (!range || range->lo < 0)
        inequalities.push_back(simplified);
    }
    tightenDivisionBounds(inequalities);
    if (inequalities.empty() && equalities.empty()) {
      // This disjunct always holds, and so does the predicate.
      block.removePredicateAttr();
      return;
    }
    SmallVector<AffineExpr> constraints(equalities);
    llvm::append_range(constraints, inequalities);
    SmallVector<bool> eqFlags(equalities.size(), true);
    eqFlags.resize(constraints.size(), false);
    sets.push_back(IntegerSetAttr::get(
        makeInputSet(values.size(), constraints, eqFlags, ctx)));
  }
  block.setPredicateAttr(ArrayAttr::get(ctx, sets));
}

/// A region list with the iteration variables of one value replaced by it.
ArrayAttr withPoints(ArrayAttr regions, ArrayRef<AffineExpr> replacements,
                     unsigned numInputs) {
  if (!regions)
    return regions;
  SmallVector<Attribute> out;
  for (Attribute r : regions) {
    AffineMap map = cast<AffineMapAttr>(r).getValue();
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : getExprsOverInputs(map))
      exprs.push_back(e.replaceDims(replacements));
    out.push_back(AffineMapAttr::get(
        makeInputMap(numInputs, exprs, regions.getContext())));
  }
  return ArrayAttr::get(regions.getContext(), out);
}

/// An access whose index operands include `var` indexes with `value` in its
/// place (the operand dropped from the map's inputs).
template <typename AccessOp>
void foldIntoIndices(AccessOp access, Value var, int64_t value) {
  MLIRContext *ctx = access.getContext();
  SmallVector<Value> inputs;
  for (Value v : access.getIndices())
    inputs.push_back(v);
  SmallVector<AffineExpr> exprs = getExprsOverInputs(access.getMap());
  SmallVector<AffineExpr> renumber;
  SmallVector<Value> kept;
  for (Value v : inputs) {
    if (v == var) {
      renumber.push_back(getAffineConstantExpr(value, ctx));
      continue;
    }
    renumber.push_back(getAffineDimExpr(kept.size(), ctx));
    kept.push_back(v);
  }
  for (AffineExpr &e : exprs)
    e = e.replaceDims(renumber);
  access.getIndicesMutable().assign(kept);
  access.setMapAttr(AffineMapAttr::get(makeInputMap(kept.size(), exprs, ctx)));
}

/// The iteration variables of one value (a constant domain of one
/// element) become that value in the block.
void substitutePointVars(BlockOp block) {
  MLIRContext *ctx = block.getContext();
  SmallVector<Value> inputs = block.getRegionInputs();
  SmallVector<AffineExpr> replacements;
  for (unsigned k = 0; k < inputs.size(); ++k)
    replacements.push_back(getAffineDimExpr(k, ctx));
  bool any = false;
  OpBuilder b(ctx);
  b.setInsertionPointToStart(block.getBody());
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    std::optional<int64_t> point = block.getSingleDomainValue(i);
    if (!point)
      continue;
    any = true;
    replacements[i] = getAffineConstantExpr(*point, ctx);
    Value var = block.getIterVar(i);
    SmallVector<Operation *> users(var.getUsers().begin(),
                                   var.getUsers().end());
    for (Operation *user : users) {
      if (auto load = dyn_cast<LoadOp>(user))
        foldIntoIndices(load, var, *point);
      else if (auto store = dyn_cast<StoreOp>(user);
               store && store.getValue() != var && store.getBuffer() != var)
        foldIntoIndices(store, var, *point);
    }
    // Other uses (nested bindings, arithmetic) take a constant.
    if (!var.use_empty()) {
      var.replaceAllUsesWith(
          arith::ConstantIndexOp::create(b, block.getLoc(), *point));
    }
  }
  if (!any)
    return;
  block.setReadRegionsAttr(
      withPoints(block.getReadRegionsAttr(), replacements, inputs.size()));
  block.setWriteRegionsAttr(
      withPoints(block.getWriteRegionsAttr(), replacements, inputs.size()));
}

struct TIRSimplifyPass : tir::impl::TIRSimplifyPassBase<TIRSimplifyPass> {
  void runOnOperation() override {
    // Outer blocks first: an inner block's bindings then see the values
    // the outer ones became.
    getOperation()->walk<WalkOrder::PreOrder>([](BlockOp block) {
      simplifyBindings(block);
      simplifyPredicate(block);
      substitutePointVars(block);
    });
  }
};

} // namespace
