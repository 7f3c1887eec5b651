//===- TransformBlockLayout.cpp - TVM's transform_block_layout ------------===//
//
// A block's iteration space remapped by an index map: `lambda i, j: (i *
// 128 + j,)` turns a 128 x 128 block into one of 16384 points. The block's
// loops (a chain, each variable bound to one) are replaced by one loop per
// result of the map, the block gets one variable per result, and its body
// reads the old variables back through the map's inverse (`vi` is `v0
// floordiv 128`). The map must be a bijection of the iteration space, and
// each new variable must come from variables of one kind (all spatial or
// all reduce).
//
//===----------------------------------------------------------------------===//

#include "IndexMap.h"
#include "InlineUtils.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRBuilders.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kPrimitive = "transform_block_layout";

/// The loops between the block's scope and the block, outermost first:
/// each the only statement of the one above, each bound, in order, to the
/// block's variables (TVM's trivial binding).
static FailureOr<SmallVector<ForOp>> getBoundLoops(BlockOp block,
                                                   ScheduleError &error) {
  Operation *scope = getScopeRoot(block);
  SmallVector<ForOp> loops;
  for (Operation *op = block->getParentOp(); op != scope;
       op = op->getParentOp()) {
    auto loop = dyn_cast<ForOp>(op);
    if (!loop)
      return refuse(error, block,
                    Twine(kPrimitive) + ": block '" + block.getBlockName() +
                        "' is not in a nest of loops under its scope");
    loops.push_back(loop);
  }
  std::reverse(loops.begin(), loops.end());
  for (ForOp loop : loops)
    if (!llvm::hasSingleElement(loop.getBody()->without_terminator()))
      return refuse(error, loop,
                    Twine(kPrimitive) + ": loop " + loopName(loop) +
                        " holds more than block '" + block.getBlockName() +
                        "'s nest");
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  ValueRange values = block.getBindingValues();
  bool trivial = bindings.size() == loops.size();
  for (unsigned i = 0; trivial && i < bindings.size(); ++i) {
    auto d = dyn_cast<AffineDimExpr>(bindings[i]);
    trivial = d && values[d.getPosition()] == loops[i].getInductionVar();
  }
  if (!trivial)
    return refuse(error, block,
                  Twine(kPrimitive) + ": block '" + block.getBlockName() +
                      "' needs each iteration variable bound to its own "
                      "loop, in order (a trivial binding)");
  if (block.getPredicate() || block.getCondition())
    return refuse(error, block,
                  Twine(kPrimitive) + ": block '" + block.getBlockName() +
                      "' has a predicate, which the new loops could not keep");
  return loops;
}

FailureOr<BlockOp> mlir::tir::transformBlockLayout(RewriterBase &rewriter,
                                                   BlockOp block,
                                                   AffineMap indexMap,
                                                   ScheduleError &error) {
  MLIRContext *ctx = block.getContext();
  unsigned numVars = block.getNumIterVars();
  if (indexMap.getNumDims() != numVars || indexMap.getNumSymbols() != 0)
    return refuse(error, block,
                  Twine(kPrimitive) + ": the index map takes " +
                      Twine(indexMap.getNumDims()) + " indices, but block '" +
                      block.getBlockName() + "' has " + Twine(numVars) +
                      " iteration variables");
  bool nested = false;
  block.getBody()->walk([&](BlockOp) { nested = true; });
  if (nested)
    return refuse(error, block,
                  Twine(kPrimitive) + ": block '" + block.getBlockName() +
                      "' has blocks inside it (not supported)");
  FailureOr<SmallVector<ForOp>> loops = getBoundLoops(block, error);
  if (failed(loops))
    return failure();
  FailureOr<SmallVector<int64_t>> extents =
      getZeroBasedExtents(block, kPrimitive, error);
  if (failed(extents))
    return failure();
  for (ForOp loop : *loops)
    if (failed(checkStartsAtZero(loop, kPrimitive, error)))
      return failure();
  Refusal why;
  FailureOr<IndexMapAnalysis> analysis =
      analyzeIndexMap(indexMap, *extents, why);
  if (failed(analysis) || !analysis->bijective)
    return refuse(error, block,
                  Twine(kPrimitive) +
                      ": the index map is not a bijective "
                      "affine map of block '" +
                      block.getBlockName() + "''s iteration space (" +
                      (why.message.empty()
                           ? "it pads: some points are no variable's image"
                           : why.message) +
                      ")");
  // Each new variable's kind: that of the variables it is made of.
  SmallVector<IterType> types;
  for (unsigned k = 0; k < indexMap.getNumResults(); ++k) {
    std::optional<IterType> type;
    bool mixed = false;
    for (unsigned d : analysis->inputsOf[k]) {
      IterType t = block.getIterType(d);
      if (type && *type != t)
        mixed = true;
      type = t;
    }
    if (analysis->shape[k] == 1 || !type)
      type = IterType::Spatial;
    if (mixed || (*type != IterType::Spatial && *type != IterType::Reduce))
      return refuse(error, block,
                    Twine(kPrimitive) + ": result " + Twine(k) +
                        " of the index map mixes iteration variables of "
                        "different kinds (or opaque ones); a new variable "
                        "must be all spatial or all reduce");
    types.push_back(*type);
  }

  // The new nest where the old one was, then the block moved in.
  Operation *outer =
      loops->empty() ? block.getOperation() : loops->front().getOperation();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(outer);
  Location loc = block.getLoc();
  SmallVector<Value> loopVars =
      createLoopNest(rewriter, loc, analysis->shape, "ax");
  SmallVector<std::string> names;
  for (unsigned k = 0; k < analysis->shape.size(); ++k)
    names.push_back("v" + std::to_string(k));
  SmallVector<IterVarSpec> vars;
  for (auto [k, extent] : llvm::enumerate(analysis->shape))
    vars.push_back({types[k], rewriter.getIndexAttr(0),
                    rewriter.getIndexAttr(extent), getAffineDimExpr(k, ctx),
                    names[k]});
  auto newBlock =
      BlockOp::create(rewriter, loc, block.getBlockName(), vars, loopVars);
  if (DictionaryAttr annotations = block.getAnnotationsAttr())
    newBlock.setAnnotationsAttr(annotations);
  rewriter.setInsertionPointToStart(newBlock.getBody());
  SmallVector<Value> newVars;
  for (unsigned k = 0; k < analysis->shape.size(); ++k)
    newVars.push_back(newBlock.getIterVar(k));
  IRMapping mapping;
  cloneWithIterVars(rewriter, block, /*skip=*/nullptr, analysis->inverse,
                    newVars, mapping);
  // Indices simplified with the new domains (`v1 floordiv 64 * 3` is 0 for
  // v1 in [0, 64)), as TVM simplifies the accesses.
  newBlock.getBody()->walk([&](Operation *op) {
    // The operands no index uses any more are dropped: they may be values
    // of the old body, which goes.
    auto simplify = [&](AffineMap map, MutableOperandRange operands,
                        function_ref<void(AffineMapAttr)> set) {
      SmallVector<Value> inputs;
      for (OpOperand &operand : operands)
        inputs.push_back(operand.get());
      SmallVector<AffineExpr> exprs;
      // An index that becomes a constant is kept (a unit variable stays).
      for (AffineExpr e : getExprsOverInputs(map))
        exprs.push_back(simplifyNonTrivial(e, inputs));
      SmallVector<AffineExpr> compress(inputs.size(),
                                       getAffineConstantExpr(0, ctx));
      SmallVector<Value> used;
      compressInputs(exprs, inputs, compress, used);
      for (AffineExpr &e : exprs)
        e = e.replaceDims(compress);
      operands.assign(used);
      set(AffineMapAttr::get(makeInputMap(used.size(), exprs, ctx)));
    };
    if (auto load = dyn_cast<LoadOp>(op))
      simplify(load.getMap(), load.getIndicesMutable(),
               [&](AffineMapAttr m) { load.setMapAttr(m); });
    else if (auto store = dyn_cast<StoreOp>(op))
      simplify(store.getMap(), store.getIndicesMutable(),
               [&](AffineMapAttr m) { store.setMapAttr(m); });
  });
  if (block.hasAccessRegions())
    setInferredRegions(newBlock);
  // The block itself stays (handles to it remain valid): it takes the new
  // variables, bindings and body, and moves into the new nest.
  rewriter.moveOpBefore(block, newBlock);
  adoptRebuiltBlock(rewriter, block, newBlock);
  if (!loops->empty())
    rewriter.eraseOp(outer);
  return block;
}
