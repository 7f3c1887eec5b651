//===- Blockize.cpp - TVM's blockize of a loop ----------------------------===//
//
// The subtree under a loop becomes a block: for the only block B under
// loop L, each of B's bindings is divided into a part over the loops above
// L (outer) and one over L and the loops below it (inner), as TVM's
// subspace division does:
//
//   for i0, j0, i1, j1:                 for i0, j0:
//     block B(vi = i0 * 16 + i1,   =>     block B_o(vi_o = i0, vj_o = j0):
//             vj = j0 * 16 + j1)            for i1, j1:
//                                             block B(vi_i = i1, vj_i = j1)
//                                               (vi is vi_o * 16 + vi_i)
//
// The outer block `<B>_o` has one variable per variable of B (its outer
// part), the inner block (B itself, so handles to it stay valid) one per
// variable with a non-unit inner part. A binding divides when its terms
// each use only outer or only inner values and its inner terms are inner
// loop variables forming a mixed radix from 0 (`i1`, `i1 * 4 + i2`) whose
// span divides its outer terms and its domain.
//
//===----------------------------------------------------------------------===//

#include "InlineUtils.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

#include <deque>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

constexpr StringLiteral kPrimitive = "blockize";

/// The division of one binding: `binding = outer * innerExtent + inner`.
struct Division {
  /// Over the block's binding values (input space).
  AffineExpr outer, inner;
  int64_t innerExtent = 1;
  /// The outer variable's domain [outerLower, outerUpper).
  OpFoldResult outerLower, outerUpper;
};

struct Ctx {
  ForOp loop;
  BlockOp block;
  bool preserveUnitIters;
  ScheduleError &error;
  /// The loops from `loop` down to the block, outermost first.
  SmallVector<ForOp> inner;
  /// The block's predicate, over its binding values: the part over the
  /// outer values goes to the outer block, the part over the inner loops
  /// stays with the block.
  SmallVector<Conjunction> outerPredicate, innerPredicate;

  LogicalResult fail(Operation *culprit, const Twine &why) {
    return refuse(error, culprit, kPrimitive + " " + why);
  }
  std::string name() { return ("'" + block.getBlockName() + "'").str(); }
};

/// Divides binding `i` of the block, or refuses.
FailureOr<Division> divide(Ctx &c, unsigned i, AffineExpr binding) {
  BlockOp block = c.block;
  MLIRContext *ctx = block.getContext();
  ValueRange values = block.getBindingValues();
  auto innerLoopAt = [&](unsigned pos) -> ForOp {
    ForOp l = getLoopOfVar(values[pos]);
    return l && llvm::is_contained(c.inner, l) ? l : ForOp();
  };
  std::string at = c.loop ? "loop " + loopName(c.loop) + " and one over it"
                          : std::string("the blocks' common ancestor and "
                                        "one");
  auto refuseBinding = [&](const Twine &why) {
    return c.fail(block, "needs the binding of " + iterVarLabel(block, i) +
                             " of block " + c.name() +
                             " to divide into a part over the loops above " +
                             at + " and below, but " + why);
  };
  // Without preserve_unit_iters, loops that run once are their start.
  if (!c.preserveUnitIters) {
    SmallVector<AffineExpr> dims;
    for (auto [pos, v] : llvm::enumerate(values)) {
      ForOp l = getLoopOfVar(v);
      std::optional<int64_t> extent = l ? l.getConstantExtent() : std::nullopt;
      std::optional<int64_t> lower =
          l ? l.getConstantLowerBound() : std::nullopt;
      dims.push_back(extent && *extent == 1 && lower
                         ? getAffineConstantExpr(*lower, ctx)
                         : getAffineDimExpr(pos, ctx));
    }
    binding = simplifyIndexExpr(binding.replaceDims(dims), values.size(), 0);
  }
  AffineTerms terms = AffineTerms::get(binding);
  AffineTerms outer, inner;
  outer.constant = terms.constant;
  SmallVector<std::pair<int64_t, int64_t>> radix; // (coefficient, extent)
  for (auto [term, coefficient] : terms.terms) {
    bool usesInner = false, usesOuter = false;
    for (unsigned pos = 0; pos < values.size(); ++pos)
      if (term.isFunctionOfDim(pos))
        (innerLoopAt(pos) ? usesInner : usesOuter) = true;
    if (usesInner && usesOuter)
      return refuseBinding("a term mixes both");
    if (!usesInner) {
      outer.terms.push_back({term, coefficient});
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(term);
    ForOp l = dim ? innerLoopAt(dim.getPosition()) : ForOp();
    std::optional<int64_t> extent = l ? l.getConstantExtent() : std::nullopt;
    if (!l || !extent || l.getConstantLowerBound() != 0 || coefficient <= 0)
      return refuseBinding("its inner part is not a sum of loops from 0 of "
                           "constant extent");
    inner.terms.push_back({term, coefficient});
    radix.push_back({coefficient, *extent});
  }
  // The inner part runs densely from 0: a mixed radix.
  llvm::sort(radix);
  int64_t span = 1;
  for (auto [coefficient, extent] : radix) {
    if (coefficient != span)
      return refuseBinding("its inner part does not run densely from 0");
    span *= extent;
  }
  Division d;
  d.innerExtent = span;
  d.inner = inner.toExpr(ctx);
  std::optional<int64_t> lo = block.getConstantDomainLower(i);
  std::optional<int64_t> hi = block.getConstantDomainUpper(i);
  if (span == 1) {
    // All outer (inner loops that run once, from 0, add nothing): the
    // variable keeps its domain.
    d.outer = outer.toExpr(ctx);
    d.inner = getAffineConstantExpr(0, ctx);
    d.outerLower = block.getMixedDomainLower(i);
    d.outerUpper = block.getMixedDomainUpper(i);
    return d;
  }
  if (!lo || !hi || *lo != 0 || *hi % span != 0)
    return refuseBinding("its domain is not a multiple of the inner part's "
                         "extent " +
                         Twine(span) + " from 0");
  for (auto &term : outer.terms) {
    if (term.second % span != 0)
      return refuseBinding("its outer part is not a multiple of the inner "
                           "part's extent " +
                           Twine(span));
    term.second /= span;
  }
  if (outer.constant % span != 0)
    return refuseBinding("its outer part is not a multiple of the inner "
                         "part's extent " +
                         Twine(span));
  outer.constant /= span;
  d.outer = outer.toExpr(ctx);
  Builder b(ctx);
  d.outerLower = b.getIndexAttr(0);
  d.outerUpper = b.getIndexAttr(*hi / span);
  return d;
}

/// The block's body is rebuilt (cloned with its variables replaced): one
/// holding blocks or loops, whose handles would be lost, or buffers of its
/// own is not supported yet.
LogicalResult checkPlainBody(BlockOp block, ScheduleError &error) {
  WalkResult walk = block->walk([&](Operation *op) {
    if (op != block.getOperation() &&
        isa<BlockOp, ForOp, AllocBufferOp, MatchBufferOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return refuse(error, block,
                  kPrimitive + " does not support block '" +
                      block.getBlockName() +
                      "', which holds blocks, loops or buffers of its own, "
                      "yet");
  return success();
}

/// Splits the block's predicate into its outer and inner parts, or refuses
/// a conjunction over both sides (or a value condition).
LogicalResult splitPredicate(Ctx &c) {
  if (c.block.getCondition())
    return c.fail(c.block, "does not support the value condition of block " +
                               c.name() + " yet");
  ValueRange values = c.block.getBindingValues();
  for (const Conjunction &j : getPredicateDisjuncts(c.block)) {
    bool usesInner = false, usesOuter = false;
    for (AffineExpr e : j.constraints)
      for (auto [pos, v] : llvm::enumerate(values))
        if (e.isFunctionOfDim(pos)) {
          ForOp l = getLoopOfVar(v);
          (l && llvm::is_contained(c.inner, l) ? usesInner : usesOuter) = true;
        }
    if (usesInner && usesOuter)
      return c.fail(c.block, "needs each part of the predicate of block " +
                                 c.name() +
                                 " to use the loops on one side only, but a "
                                 "part uses both");
    if (usesInner && !c.outerPredicate.empty())
      return c.fail(c.block, "does not support a predicate of block " +
                                 c.name() + " with parts on both sides yet");
    (usesInner ? c.innerPredicate : c.outerPredicate).push_back(j);
    if (!c.innerPredicate.empty() && !c.outerPredicate.empty())
      return c.fail(c.block, "does not support a predicate of block " +
                                 c.name() + " with parts on both sides yet");
  }
  return success();
}

LogicalResult checkLegality(Ctx &c) {
  FailureOr<BlockOp> child = getSingleChildBlock(c.loop, kPrimitive, c.error);
  if (failed(child))
    return failure();
  // The division of the bindings is by the extents of the nest.
  if (failed(checkNoEmptyNest(c.loop, kPrimitive, c.error)))
    return failure();
  c.block = *child;
  SmallVector<ForOp> loops = getLoops(c.block);
  c.inner.assign(llvm::find(loops, c.loop), loops.end());
  if (failed(splitPredicate(c)))
    return failure();
  if (!c.innerPredicate.empty() && c.block.getInitOp())
    return c.fail(c.block, "does not support a block with a tir.init whose "
                           "predicate uses the loops under loop " +
                               loopName(c.loop) + " yet");
  if (failed(checkPlainBody(c.block, c.error)))
    return failure();
  // The nest moves into the outer block, which its loops then cannot see
  // past: its bounds may not use the loops above.
  for (ForOp l : c.inner)
    for (Value bound : l.getDynamicBounds())
      for (ForOp above :
           ArrayRef(loops).take_front(loops.size() - c.inner.size()))
        if (dependsOnAny(bound, above.getInductionVar()))
          return c.fail(l, "needs the loops under loop " + loopName(c.loop) +
                               " to have bounds that do not use the loops "
                               "above it, but loop " +
                               loopName(l) + " uses loop " + loopName(above));
  return success();
}

/// The outer block's init, as TVM's blockize writes it: B's init in a block
/// `<B>_init` over B's spatial variables the init uses (their inner parts),
/// under copies of the loops that feed them, at the start of `outer`.
void buildOuterInit(RewriterBase &rewriter, Ctx &c,
                    ArrayRef<Division> divisions, BlockOp outer) {
  BlockOp block = c.block;
  MLIRContext *ctx = block.getContext();
  Location loc = block.getLoc();
  InitOp init = block.getInitOp();
  ValueRange values = block.getBindingValues();
  auto usedByInit = [&](unsigned i) {
    Value var = block.getIterVar(i);
    return llvm::any_of(var.getUsers(),
                        [&](Operation *u) { return init->isAncestor(u); });
  };
  SmallVector<unsigned> initVars;
  for (auto [i, d] : llvm::enumerate(divisions))
    if (d.innerExtent != 1 && block.getIterType(i) == IterType::Spatial &&
        usedByInit(i))
      initVars.push_back(i);
  SmallVector<ForOp> chosen;
  for (ForOp l : c.inner)
    if (llvm::any_of(initVars, [&](unsigned i) {
          for (auto [pos, v] : llvm::enumerate(values))
            if (divisions[i].inner.isFunctionOfDim(pos) &&
                v == l.getInductionVar())
              return true;
          return false;
        }))
      chosen.push_back(l);

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(outer.getBody());
  auto outerInit = InitOp::create(rewriter, loc);
  rewriter.setInsertionPointToStart(&outerInit->getRegion(0).emplaceBlock());
  IRMapping loopMap;
  copyLoops(rewriter, chosen, loopMap);

  SmallVector<Value> initValues;
  SmallVector<AffineExpr> compress(values.size(),
                                   getAffineConstantExpr(0, ctx));
  for (unsigned i : initVars)
    compressInputs(divisions[i].inner, values, compress, initValues);
  for (Value &v : initValues)
    v = loopMap.lookupOrDefault(v);
  std::deque<std::string> names;
  SmallVector<IterVarSpec> specs;
  Builder b(ctx);
  for (unsigned i : initVars) {
    names.push_back(block.getVarNames() ? iterVarName(block, i) + "_init" : "");
    specs.push_back({IterType::Spatial, b.getIndexAttr(0),
                     b.getIndexAttr(divisions[i].innerExtent),
                     divisions[i].inner.replaceDims(compress), names.back()});
  }
  auto initBlock = BlockOp::create(
      rewriter, loc, (block.getBlockName() + "_init").str(), specs, initValues);
  // B's variables over (the init block's variables, the outer block's).
  unsigned numInit = initVars.size();
  SmallVector<AffineExpr> varExprs;
  for (auto [i, d] : llvm::enumerate(divisions)) {
    AffineExpr outerVar = getAffineDimExpr(numInit + i, ctx);
    bool unitOuter = isConstantIntValue(d.outerUpper, 1) &&
                     isConstantIntValue(d.outerLower, 0);
    unsigned k = llvm::find(initVars, i) - initVars.begin();
    if (k == numInit) {
      varExprs.push_back(unitOuter && !c.preserveUnitIters
                             ? getAffineConstantExpr(0, ctx)
                             : outerVar);
      continue;
    }
    AffineExpr initVar = getAffineDimExpr(k, ctx);
    varExprs.push_back(unitOuter ? initVar
                                 : outerVar * d.innerExtent + initVar);
  }
  SmallVector<Value> inputs(initBlock.getBody()->getArguments().begin(),
                            initBlock.getBody()->getArguments().end());
  llvm::append_range(inputs, outer.getBody()->getArguments());
  // B's init, cloned into the block, then its statements taken out of it.
  rewriter.setInsertionPointToEnd(initBlock.getBody());
  IRMapping mapping;
  SmallVector<Operation *> clones;
  cloneWithIterVars(
      rewriter, block, nullptr, varExprs, inputs, mapping,
      [&](Operation *op) { return op != init.getOperation(); }, &clones);
  for (Operation *clone : clones)
    if (auto cloned = dyn_cast<InitOp>(clone)) {
      for (Operation &op : llvm::make_early_inc_range(*cloned.getBody()))
        rewriter.moveOpBefore(&op, cloned);
      rewriter.eraseOp(cloned);
    }
  if (block.hasAccessRegions())
    setInferredRegions(initBlock);
}

/// The outer block's variables over the binding values they use.
struct OuterVars {
  SmallVector<AffineExpr> bindings;
  SmallVector<Value> values;
  SmallVector<Conjunction> predicate;
};

SmallVector<Conjunction> compressPredicate(ArrayRef<Conjunction> predicate,
                                           ArrayRef<AffineExpr> compress) {
  SmallVector<Conjunction> out(predicate);
  for (Conjunction &j : out)
    for (AffineExpr &e : j.constraints)
      e = e.replaceDims(compress);
  return out;
}

OuterVars outerVarsOf(BlockOp block, ArrayRef<Division> divisions,
                      ArrayRef<Conjunction> predicate = {}) {
  MLIRContext *ctx = block.getContext();
  ValueRange values = block.getBindingValues();
  OuterVars vars;
  SmallVector<AffineExpr> compress(values.size(),
                                   getAffineConstantExpr(0, ctx));
  for (const Division &d : divisions)
    compressInputs(d.outer, values, compress, vars.values);
  for (const Conjunction &j : predicate)
    compressInputs(j.constraints, values, compress, vars.values);
  for (const Division &d : divisions)
    vars.bindings.push_back(simplifyIndexExpr(d.outer.replaceDims(compress),
                                              vars.values.size(), 0));
  vars.predicate = compressPredicate(predicate, compress);
  return vars;
}

/// The outer block `name`, with `block`'s variables' outer parts, placed
/// before `before`.
BlockOp createOuterBlock(RewriterBase &rewriter, BlockOp block,
                         ArrayRef<Division> divisions, StringRef name,
                         Operation *before,
                         ArrayRef<Conjunction> predicate = {}) {
  OuterVars vars = outerVarsOf(block, divisions, predicate);
  std::deque<std::string> names;
  SmallVector<IterVarSpec> specs;
  for (auto [i, d] : llvm::enumerate(divisions)) {
    names.push_back(block.getVarNames() ? iterVarName(block, i) + "_o" : "");
    specs.push_back({block.getIterType(i), d.outerLower, d.outerUpper,
                     vars.bindings[i], names.back()});
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(before);
  return BlockOp::create(rewriter, block.getLoc(), name, specs, vars.values,
                         nullptr, vars.predicate);
}

/// Rebuilds `block` as the inner block under `outer`: a variable per
/// non-unit inner part, its variables read as expressions over (inner
/// variables, outer variables).
void rebuildInner(RewriterBase &rewriter, BlockOp block,
                  ArrayRef<Division> divisions, BlockOp outer,
                  bool preserveUnitIters,
                  ArrayRef<Conjunction> predicate = {}) {
  MLIRContext *ctx = block.getContext();
  ValueRange values = block.getBindingValues();
  SmallVector<Value> innerValues;
  SmallVector<AffineExpr> innerCompress(values.size(),
                                        getAffineConstantExpr(0, ctx));
  for (const Division &d : divisions)
    if (d.innerExtent != 1)
      compressInputs(d.inner, values, innerCompress, innerValues);
  for (const Conjunction &j : predicate)
    compressInputs(j.constraints, values, innerCompress, innerValues);
  unsigned numInner = 0;
  for (const Division &d : divisions)
    numInner += d.innerExtent != 1;
  std::deque<std::string> names;
  SmallVector<IterVarSpec> innerSpecs;
  SmallVector<AffineExpr> varExprs;
  Builder b(ctx);
  for (auto [i, d] : llvm::enumerate(divisions)) {
    AffineExpr outerVar = getAffineDimExpr(numInner + i, ctx);
    bool unitOuter = isConstantIntValue(d.outerUpper, 1) &&
                     isConstantIntValue(d.outerLower, 0);
    if (d.innerExtent == 1) {
      varExprs.push_back(unitOuter && !preserveUnitIters
                             ? getAffineConstantExpr(0, ctx)
                             : outerVar);
      continue;
    }
    AffineExpr innerVar = getAffineDimExpr(innerSpecs.size(), ctx);
    names.push_back(block.getVarNames() ? iterVarName(block, i) + "_i" : "");
    innerSpecs.push_back({block.getIterType(i), b.getIndexAttr(0),
                          b.getIndexAttr(d.innerExtent),
                          d.inner.replaceDims(innerCompress), names.back()});
    varExprs.push_back(unitOuter ? innerVar
                                 : outerVar * d.innerExtent + innerVar);
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(block);
  auto innerBlock = BlockOp::create(
      rewriter, block.getLoc(), block.getBlockName(), innerSpecs, innerValues,
      nullptr, compressPredicate(predicate, innerCompress));
  rewriter.setInsertionPointToEnd(innerBlock.getBody());
  SmallVector<Value> inputs(innerBlock.getBody()->getArguments().begin(),
                            innerBlock.getBody()->getArguments().end());
  llvm::append_range(inputs, outer.getBody()->getArguments());
  IRMapping mapping;
  cloneWithIterVars(rewriter, block, block.getInitOp(), varExprs, inputs,
                    mapping);
  if (auto annotations = block.getAnnotationsAttr())
    innerBlock.setAnnotationsAttr(annotations);
  bool listed = block.hasAccessRegions();
  adoptRebuiltBlock(rewriter, block, innerBlock);
  if (listed)
    setInferredRegions(block);
}

BlockOp rewrite(RewriterBase &rewriter, Ctx &c, ArrayRef<Division> divisions) {
  BlockOp block = c.block;
  BlockOp outer = createOuterBlock(rewriter, block, divisions,
                                   (block.getBlockName() + "_o").str(), c.loop,
                                   c.outerPredicate);
  rewriter.moveOpBefore(c.loop, outer.getBody(), outer.getBody()->end());
  if (block.getInitOp())
    buildOuterInit(rewriter, c, divisions, outer);
  rebuildInner(rewriter, block, divisions, outer, c.preserveUnitIters,
               c.innerPredicate);
  setInferredRegions(outer);
  return outer;
}

/// Divides each binding of `c.block`.
FailureOr<SmallVector<Division>> divideAll(Ctx &c) {
  SmallVector<Division> divisions;
  SmallVector<AffineExpr> bindings = c.block.getBindingExprs();
  for (unsigned i = 0, e = c.block.getNumIterVars(); i < e; ++i) {
    FailureOr<Division> d = divide(c, i, bindings[i]);
    if (failed(d))
      return failure();
    divisions.push_back(*d);
  }
  return divisions;
}

} // namespace

FailureOr<BlockOp> mlir::tir::blockize(RewriterBase &rewriter, ForOp loop,
                                       bool preserveUnitIters,
                                       ScheduleError &error) {
  Ctx c{loop, BlockOp(), preserveUnitIters, error, {}, {}, {}};
  if (failed(checkLegality(c)))
    return failure();
  FailureOr<SmallVector<Division>> divisions = divideAll(c);
  if (failed(divisions))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  return rewrite(rewriter, c, *divisions);
}

FailureOr<BlockOp> mlir::tir::blockize(RewriterBase &rewriter,
                                       ArrayRef<BlockOp> blocks,
                                       bool preserveUnitIters,
                                       ScheduleError &error) {
  if (blocks.empty())
    return refuse(error, nullptr, "blockize needs at least one block");
  auto fail = [&](Operation *culprit, const Twine &why) {
    return refuse(error, culprit, kPrimitive + " " + why);
  };
  // The lowest common ancestor of the blocks and the statements of its
  // body that hold them, consecutive, one block each.
  for (BlockOp a : blocks)
    for (BlockOp b : blocks)
      if (a != b && a->isProperAncestor(b))
        return fail(b, "needs blocks that are not nested in each other, but "
                       "block '" +
                           b.getBlockName() + "' is inside block '" +
                           a.getBlockName() + "'");
  Operation *lca = blocks.front()->getParentOp();
  while (lca && !llvm::all_of(blocks, [&](BlockOp b) {
           return lca->isProperAncestor(b);
         }))
    lca = lca->getParentOp();
  if (!lca)
    return fail(blocks.front(), "needs blocks of one function");
  SmallVector<Operation *> statements;
  for (BlockOp b : blocks) {
    if (llvm::count(blocks, b) != 1)
      return fail(b, "needs distinct blocks, but block '" + b.getBlockName() +
                         "' is given twice");
    Operation *stmt = b;
    while (stmt->getParentOp() != lca)
      stmt = stmt->getParentOp();
    if (!isa<ForOp, BlockOp>(stmt) || !isa<ForOp, BlockOp>(lca) ||
        (isa<BlockOp>(lca) && stmt == lca))
      return fail(b, "needs the blocks under a common loop or block");
    if (llvm::is_contained(statements, stmt) ||
        collectChildBlocks(stmt).size() != (isa<BlockOp>(stmt) ? 0u : 1u))
      return fail(stmt, "needs each block in a statement of its own, "
                        "holding no other block, under their common "
                        "ancestor");
    if (b.getInitOp())
      return fail(b, "does not support blocks with a tir.init in the form of "
                     "a list of blocks (TVM drops their init)");
    if (failed(checkPlainBody(b, error)))
      return failure();
    if (failed(checkNoEmptyNest(stmt, kPrimitive, error)))
      return failure();
    statements.push_back(stmt);
  }
  llvm::sort(statements,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (auto [a, b] : llvm::zip(statements, ArrayRef(statements).drop_front()))
    if (a->getNextNode() != b)
      return fail(b, "needs the blocks in consecutive statements under "
                     "their common ancestor");

  // Each block divided at the common ancestor; the outer parts must agree.
  SmallVector<SmallVector<Division>> divisions;
  std::optional<OuterVars> first;
  for (BlockOp b : blocks) {
    SmallVector<ForOp> loops = getLoops(b);
    Ctx c{ForOp(), b, preserveUnitIters, error, {}, {}, {}};
    for (ForOp l : loops)
      if (lca->isProperAncestor(l))
        c.inner.push_back(l);
    c.loop = c.inner.empty() ? ForOp() : c.inner.front();
    if (b.getPredicate() || b.getCondition())
      return fail(b, "does not support the predicate of block '" +
                         b.getBlockName() +
                         "' in the form of a list of "
                         "blocks yet");
    FailureOr<SmallVector<Division>> d = divideAll(c);
    if (failed(d))
      return failure();
    OuterVars vars = outerVarsOf(b, *d);
    if (first) {
      BlockOp f = blocks.front();
      bool same = vars.values == first->values &&
                  vars.bindings == first->bindings &&
                  b.getNumIterVars() == f.getNumIterVars();
      for (unsigned i = 0; same && i < b.getNumIterVars(); ++i)
        same = b.getIterType(i) == f.getIterType(i) &&
               (*d)[i].outerLower == divisions.front()[i].outerLower &&
               (*d)[i].outerUpper == divisions.front()[i].outerUpper;
      if (!same)
        return fail(b, "needs the blocks' variables to divide alike at "
                       "their common ancestor (the same outer parts), but "
                       "those of block '" +
                           b.getBlockName() + "' differ from those of block '" +
                           f.getBlockName() + "'");
    } else {
      first = vars;
    }
    divisions.push_back(std::move(*d));
  }

  std::string name = "outer_";
  for (BlockOp b : blocks)
    name += (b.getBlockName() + "_").str();
  OpBuilder::InsertionGuard guard(rewriter);
  BlockOp outer = createOuterBlock(rewriter, blocks.front(), divisions.front(),
                                   name, statements.front());
  for (Operation *stmt : statements)
    rewriter.moveOpBefore(stmt, outer.getBody(), outer.getBody()->end());
  for (auto [b, d] : llvm::zip(blocks, divisions))
    rebuildInner(rewriter, b, d, outer, preserveUnitIters);
  setInferredRegions(outer);
  return outer;
}
