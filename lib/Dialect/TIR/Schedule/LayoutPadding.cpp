//===- LayoutPadding.cpp - what transform_layout writes in padding --------===//
//
// TVM's three padding plans for transform_layout (see LayoutPadding.h).
//
//===----------------------------------------------------------------------===//

#include "LayoutPadding.h"
#include "CacheStage.h"
#include "InlineUtils.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRBuilders.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

//===----------------------------------------------------------------------===//
// The padding as TVM writes it
//===----------------------------------------------------------------------===//

namespace {
/// One old index whose inverse reaches past its extent on some points of
/// the new shape.
struct PaddedInput {
  AffineExpr inverse; // over the new indices
  int64_t extent;     // the old dimension
  bool shifted;       // the inverse can also fall below 0
  /// A split `(i floordiv c, i mod c)`: the new indices outer and inner;
  /// padding where `outer == quotient and remainder <= inner`.
  std::optional<std::pair<unsigned, unsigned>> split;
  int64_t quotient = 0, remainder = 0;
};
} // namespace

static SmallVector<PaddedInput> getPaddedInputs(const IndexMapAnalysis &a,
                                                ArrayRef<int64_t> oldShape) {
  unsigned numDims = a.shape.size();
  SmallVector<PaddedInput> padded;
  for (auto [d, isPadded] : llvm::enumerate(a.inputPadded)) {
    if (!isPadded)
      continue;
    PaddedInput p{a.inverse[d], oldShape[d], a.inputOffset[d] > 0,
                  std::nullopt};
    llvm::SmallBitVector used(numDims);
    p.inverse.walk([&](AffineExpr e) {
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        used.set(dim.getPosition());
    });
    for (unsigned outer : used.set_bits())
      for (unsigned inner : used.set_bits()) {
        int64_t c = a.shape[inner];
        if (outer == inner || p.split || p.shifted || c <= 1 ||
            p.extent % c == 0 ||
            a.shape[outer] !=
                static_cast<int64_t>(llvm::divideCeil(p.extent, c)))
          continue;
        MLIRContext *ctx = p.inverse.getContext();
        AffineExpr split =
            getAffineDimExpr(outer, ctx) * c + getAffineDimExpr(inner, ctx);
        AffineExpr diff = simplifyIndexExpr(p.inverse - split, numDims, 0);
        auto zero = dyn_cast<AffineConstantExpr>(diff);
        if (zero && zero.getValue() == 0) {
          p.split = {outer, inner};
          p.quotient = p.extent / c;
          p.remainder = p.extent % c;
        }
      }
    padded.push_back(p);
  }
  return padded;
}

/// The padding as a block predicate over dimensions 0.. (the new indices).
static SmallVector<Conjunction>
getPaddingDisjuncts(ArrayRef<PaddedInput> padded, MLIRContext *ctx) {
  SmallVector<Conjunction> disjuncts;
  for (const PaddedInput &p : padded) {
    Conjunction c;
    if (p.split) {
      c.constraints = {getAffineDimExpr(p.split->first, ctx) - p.quotient,
                       getAffineDimExpr(p.split->second, ctx) - p.remainder};
      c.eqFlags = {true, false};
    } else {
      c.constraints = {p.inverse - p.extent};
      c.eqFlags = {false};
    }
    disjuncts.push_back(c);
    if (p.shifted)
      disjuncts.push_back(Conjunction{{-p.inverse - 1}, {false}});
  }
  return disjuncts;
}

/// The padding as an i1 value over `indices` (TVMScript's `vi == 3 and 2
/// <= vj`, as the parser builds it).
static Value buildPaddingCondition(OpBuilder &b, Location loc,
                                   ArrayRef<PaddedInput> padded,
                                   ValueRange indices) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value result;
  for (const PaddedInput &p : padded) {
    Value cond;
    if (p.split) {
      Value isLast =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                indices[p.split->first], index(p.quotient));
      Value pastEnd =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                index(p.remainder), indices[p.split->second]);
      cond = arith::AndIOp::create(b, loc, isLast, pastEnd);
    } else {
      Value old = materializeIndexValue(b, loc, p.inverse, indices);
      cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                   index(p.extent), old);
      if (p.shifted)
        cond = arith::OrIOp::create(
            b, loc, cond,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, old,
                                  index(0)));
    }
    result = result ? arith::OrIOp::create(b, loc, result, cond) : cond;
  }
  return result;
}

/// The pad value at `indices`, of type `type`.
static Value buildPadValue(OpBuilder &b, Location loc, const PadValue &pad,
                           ValueRange indices, Type type) {
  if (pad.constant)
    return arith::ConstantOp::create(b, loc, pad.constant);
  Value v = materializeIndexValue(b, loc, pad.map.getResult(0), indices);
  return arith::IndexCastOp::create(b, loc, type, v);
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

/// Adds the loops (up to `scope`) whose variables `v` is computed from:
/// directly, through the bindings of the blocks whose iteration variables
/// it uses, or through the ops that compute it.
static void collectLoopDeps(Value v, Operation *scope,
                            llvm::SetVector<Operation *> &loops,
                            DenseSet<Value> &seen) {
  if (!seen.insert(v).second)
    return;
  if (ForOp loop = getLoopOfVar(v)) {
    if (scope->isProperAncestor(loop))
      loops.insert(loop);
    return;
  }
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto block = dyn_cast<BlockOp>(arg.getOwner()->getParentOp());
    if (!block || arg.getArgNumber() >= block.getNumIterVars())
      return;
    ValueRange values = block.getBindingValues();
    block.getBindingExprs()[arg.getArgNumber()].walk([&](AffineExpr e) {
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        collectLoopDeps(values[dim.getPosition()], scope, loops, seen);
    });
    return;
  }
  if (Operation *def = v.getDefiningOp())
    for (Value operand : def->getOperands())
      collectLoopDeps(operand, scope, loops, seen);
}

/// TVM's dependent loop nest of a store: the loops between the outermost
/// and the innermost (in `scope`) that its indices depend on.
static SmallVector<ForOp> getDependentLoops(StoreOp store, Operation *scope) {
  SmallVector<ForOp> active;
  for (Operation *op = store->getParentOp(); op && op != scope;
       op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op))
      active.push_back(loop);
  std::reverse(active.begin(), active.end());
  llvm::SetVector<Operation *> deps;
  DenseSet<Value> seen;
  for (Value index : store.getIndices())
    collectLoopDeps(index, scope, deps, seen);
  std::optional<unsigned> first, last;
  for (auto [k, loop] : llvm::enumerate(active))
    if (deps.contains(loop)) {
      first = first ? *first : k;
      last = k;
    }
  if (!first)
    return {};
  return SmallVector<ForOp>(active.begin() + *first,
                            active.begin() + *last + 1);
}

/// `v` seen through plain bindings: an iteration variable bound to exactly
/// a value is that value.
static Value throughBindings(Value v) {
  while (auto arg = dyn_cast<BlockArgument>(v)) {
    auto block = dyn_cast<BlockOp>(arg.getOwner()->getParentOp());
    if (!block || arg.getArgNumber() >= block.getNumIterVars())
      break;
    auto dim =
        dyn_cast<AffineDimExpr>(block.getBindingExprs()[arg.getArgNumber()]);
    if (!dim)
      break;
    v = block.getBindingValues()[dim.getPosition()];
  }
  return v;
}

namespace {
/// A writer the replacement plan can rewrite.
struct ReplaceableWriter {
  StoreOp store;
  SmallVector<ForOp> nest;
  /// The block whose iteration variables are the store's indices (they
  /// become variables over the new shape), at `firstVar`; null when the
  /// loop variables are replaced where they are used.
  BlockOp block;
  unsigned firstVar = 0;
};
} // namespace

/// The block whose consecutive spatial iteration variables are exactly
/// `store`'s indices (TVM then gives it variables over the new shape), when
/// it lies inside `inner` and can be rebuilt (no predicate, no nested
/// blocks).
static BlockOp getIndexingBlock(StoreOp store, ForOp inner,
                                unsigned &firstVar) {
  auto block = store->getParentOfType<BlockOp>();
  if (!block || !inner->isProperAncestor(block) || block.getPredicate() ||
      block.getCondition())
    return nullptr;
  bool nested = false;
  block.getBody()->walk([&](BlockOp) { nested = true; });
  if (nested)
    return nullptr;
  SmallVector<AffineExpr> exprs = getExprsOverInputs(store.getMap());
  ValueRange operands = store.getIndices();
  std::optional<unsigned> start;
  for (auto [k, e] : llvm::enumerate(exprs)) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    auto arg = dim ? dyn_cast<BlockArgument>(operands[dim.getPosition()])
                   : BlockArgument();
    if (!arg || arg.getOwner() != block.getBody() ||
        arg.getArgNumber() >= block.getNumIterVars() ||
        block.getIterType(arg.getArgNumber()) != IterType::Spatial)
      return nullptr;
    if (!start)
      start = arg.getArgNumber();
    if (arg.getArgNumber() != *start + k)
      return nullptr;
  }
  firstVar = start.value_or(0);
  return block;
}

/// TVM's row-major writer: index k is the variable of loop k of the
/// dependent nest, which runs serially from 0 over old dimension k. tir
/// also asks that the nest be perfect (TVM drops statements beside its
/// inner loops), that every store under it be this one's, and that no
/// other block under it be bound to the nest's variables (its domain
/// could not take the padding).
static std::optional<ReplaceableWriter>
getReplaceableWriter(StoreOp store, Operation *scope,
                     ArrayRef<int64_t> oldShape) {
  SmallVector<ForOp> nest = getDependentLoops(store, scope);
  SmallVector<AffineExpr> exprs = getExprsOverInputs(store.getMap());
  if (nest.empty() || nest.size() != oldShape.size() ||
      exprs.size() != nest.size())
    return std::nullopt;
  for (auto [k, loop] : llvm::enumerate(nest)) {
    auto dim = dyn_cast<AffineDimExpr>(exprs[k]);
    if (!dim ||
        throughBindings(store.getIndices()[dim.getPosition()]) !=
            loop.getInductionVar() ||
        loop.getConstantLowerBound() != 0 ||
        loop.getConstantUpperBound() != oldShape[k] ||
        loop.getKind() != ForKind::Serial)
      return std::nullopt;
    if (k + 1 < nest.size() &&
        !llvm::hasSingleElement(loop.getBody()->without_terminator()))
      return std::nullopt;
  }
  ForOp inner = nest.back();
  bool sameStores = true;
  inner.getBody()->walk([&](StoreOp other) {
    sameStores = sameStores && other.getBuffer() == store.getBuffer() &&
                 other.getMap() == store.getMap() &&
                 other.getIndices() == store.getIndices();
  });
  if (!sameStores)
    return std::nullopt;
  ReplaceableWriter writer{store, nest, nullptr};
  writer.block = getIndexingBlock(store, inner, writer.firstVar);
  SmallVector<Value> nestVars;
  for (ForOp loop : nest)
    nestVars.push_back(loop.getInductionVar());
  bool boundElsewhere = false;
  inner.getBody()->walk([&](BlockOp b) {
    if (b != writer.block && bindingInputMask(b, nestVars).any())
      boundElsewhere = true;
  });
  if (boundElsewhere)
    return std::nullopt;
  return writer;
}

PaddingPlan sched::planPadding(Operation *scope, Value buffer,
                               const IndexMapAnalysis &analysis,
                               ArrayRef<int64_t> oldShape) {
  SmallVector<StoreOp> stores;
  scope->walk([&](StoreOp store) {
    if (store.getBuffer() == buffer)
      stores.push_back(store);
  });
  PaddingPlan plan{PaddingPlan::Kind::Prologue, scope, {}, nullptr};
  if (stores.empty())
    return plan;
  // One writer per nest; as in TVM, the last store of a nest stands for it.
  SmallVector<Operation *> nests;
  DenseMap<Operation *, StoreOp> writerOf;
  for (StoreOp store : stores)
    if (auto writer = getReplaceableWriter(store, scope, oldShape)) {
      Operation *outer = writer->nest.front();
      if (!writerOf.count(outer))
        nests.push_back(outer);
      writerOf[outer] = store;
    }
  if (!nests.empty()) {
    plan.kind = PaddingPlan::Kind::Replacement;
    for (Operation *outer : nests)
      plan.writers.push_back(writerOf[outer]);
    return plan;
  }
  // After the last writer's dependent loops, else its block, else the
  // statement of the scope that holds it.
  plan.kind = PaddingPlan::Kind::Epilogue;
  StoreOp last = stores.back();
  SmallVector<ForOp> nest = getDependentLoops(last, scope);
  if (!nest.empty())
    plan.anchor = nest.front();
  else if (auto block = last->getParentOfType<BlockOp>();
           block && scope->isProperAncestor(block))
    plan.anchor = block;
  else
    plan.anchor = getScopeBody(scope)->findAncestorOpInBlock(*last);
  return plan;
}

//===----------------------------------------------------------------------===//
// Replacement
//===----------------------------------------------------------------------===//

/// Makes `store` write `if_then_else(cond, pad, value)`: the ops computing
/// its value (in its block) move into the else side, so that the padding
/// points evaluate none of them (they may read past another buffer's end).
static void guardStore(RewriterBase &rewriter, StoreOp store, Value cond,
                       function_ref<Value(OpBuilder &)> buildPad) {
  Block *parent = store->getBlock();
  llvm::SetVector<Operation *> slice;
  std::function<void(Value)> visit = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != parent || slice.contains(def) ||
        def->getNumResults() == 0 || isa<ForOp, BlockOp, StoreOp>(def))
      return;
    def->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        visit(operand);
    });
    slice.insert(def);
  };
  visit(store.getValue());
  SmallVector<Operation *> ops(slice.begin(), slice.end());
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  Location loc = store.getLoc();
  Type type = store.getValue().getType();
  rewriter.setInsertionPoint(store);
  auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, cond,
                                /*addThenBlock=*/true, /*addElseBlock=*/true);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(rewriter, loc, buildPad(rewriter));
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  IRMapping mapping;
  for (Operation *op : ops)
    rewriter.clone(*op, mapping);
  scf::YieldOp::create(rewriter, loc,
                       mapping.lookupOrDefault(store.getValue()));
  rewriter.modifyOpInPlace(
      store, [&] { store.getValueMutable().assign(ifOp.getResult(0)); });
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      rewriter.eraseOp(op);
}

/// Gives `block` spatial variables over `shape` (bound to `loopVars`) in
/// place of its `count` variables from `first`, which its body reads back
/// through `inverse` (dimension k is new variable k).
static void replaceIterVars(RewriterBase &rewriter, BlockOp block,
                            unsigned first, unsigned count,
                            ArrayRef<int64_t> shape,
                            ArrayRef<AffineExpr> inverse, ValueRange loopVars) {
  MLIRContext *ctx = block.getContext();
  unsigned numVars = block.getNumIterVars();
  unsigned added = shape.size();
  SmallVector<Value> values(block.getBindingValues());
  unsigned loopBase = values.size();
  values.append(loopVars.begin(), loopVars.end());
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  SmallVector<IterVarSpec> vars;
  SmallVector<std::string> names;
  for (unsigned i = 0; i < numVars; ++i)
    names.push_back(iterVarName(block, i));
  auto keep = [&](unsigned i) {
    vars.push_back({block.getIterType(i), block.getMixedDomainLower(i),
                    block.getMixedDomainUpper(i), bindings[i], names[i]});
  };
  for (unsigned i = 0; i < first; ++i)
    keep(i);
  SmallVector<std::string> newNames;
  for (unsigned k = 0; k < added; ++k)
    newNames.push_back("v_axis" + std::to_string(k));
  for (unsigned k = 0; k < added; ++k)
    vars.push_back({IterType::Spatial, rewriter.getIndexAttr(0),
                    rewriter.getIndexAttr(shape[k]),
                    getAffineDimExpr(loopBase + k, ctx), newNames[k]});
  for (unsigned i = first + count; i < numVars; ++i)
    keep(i);

  // Old variable i as an expression of the new ones.
  SmallVector<AffineExpr> oldVars;
  SmallVector<AffineExpr> shifted;
  for (unsigned k = 0; k < added; ++k)
    shifted.push_back(getAffineDimExpr(first + k, ctx));
  for (unsigned i = 0; i < numVars; ++i) {
    if (i < first)
      oldVars.push_back(getAffineDimExpr(i, ctx));
    else if (i < first + count)
      oldVars.push_back(inverse[i - first].replaceDims(shifted));
    else
      oldVars.push_back(getAffineDimExpr(i - count + added, ctx));
  }
  rebuildIterVars(rewriter, block, vars, values, /*disjuncts=*/{}, oldVars);
}

/// The replacement of one writer's nest (see replacePaddedWriters).
static void replaceNest(RewriterBase &rewriter, ReplaceableWriter w,
                        const IndexMapAnalysis &analysis,
                        ArrayRef<PaddedInput> padded, const PadValue &pad) {
  Location loc = w.store.getLoc();
  Value buffer = w.store.getBuffer();
  ForOp outer = w.nest.front(), inner = w.nest.back();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(outer);
  SmallVector<Value> loopVars =
      createLoopNest(rewriter, loc, analysis.shape, "axis");
  Block *body = rewriter.getInsertionBlock();
  for (Operation &op :
       llvm::make_early_inc_range(inner.getBody()->without_terminator()))
    rewriter.moveOpBefore(&op, body, body->without_terminator().end());

  // The old loop variables, over the new ones: in bindings, folded into
  // accesses, an affine.apply elsewhere.
  rewriter.setInsertionPointToStart(body);
  DenseSet<Operation *> applies;
  SmallVector<std::pair<Value, AffineExpr>> replaced;
  for (auto [k, loop] : llvm::enumerate(w.nest)) {
    Value v =
        materializeIndexValue(rewriter, loc, analysis.inverse[k], loopVars);
    if (Operation *apply = v.getDefiningOp())
      applies.insert(apply);
    rewriter.replaceAllUsesWith(loop.getInductionVar(), v);
    replaced.push_back({v, analysis.inverse[k]});
  }
  SmallVector<Operation *> moved;
  for (Operation &op : body->without_terminator())
    if (!applies.contains(&op))
      moved.push_back(&op);
  for (Operation *op : moved)
    op->walk([&](BlockOp b) {
      bool changed = false;
      for (auto [v, expr] : replaced)
        if (llvm::is_contained(b.getBindingValues(), v)) {
          substituteBindingValue(b, v, expr, loopVars);
          changed = true;
        }
      if (changed && b != w.block && b.hasAccessRegions())
        setInferredRegions(b);
    });
  foldAppliesIntoAccesses(rewriter, moved, applies);
  rewriter.eraseOp(outer);

  // The stores, over the new loop variables or the block's new ones.
  SmallVector<Value> indices(loopVars);
  if (w.block) {
    replaceIterVars(rewriter, w.block, w.firstVar, w.nest.size(),
                    analysis.shape, analysis.inverse, loopVars);
    indices.clear();
    for (unsigned k = 0; k < analysis.shape.size(); ++k)
      indices.push_back(w.block.getIterVar(w.firstVar + k));
  }
  SmallVector<StoreOp> stores;
  for (Operation &op : body->without_terminator())
    op.walk([&](StoreOp s) {
      if (s.getBuffer() == buffer)
        stores.push_back(s);
    });
  for (StoreOp s : stores) {
    rewriter.setInsertionPoint(s);
    Value cond = buildPaddingCondition(rewriter, loc, padded, indices);
    guardStore(rewriter, s, cond, [&](OpBuilder &b) {
      return buildPadValue(b, loc, pad, indices, s.getValue().getType());
    });
  }
}

void sched::replacePaddedWriters(RewriterBase &rewriter,
                                 const PaddingPlan &plan, Value buffer,
                                 const IndexMapAnalysis &analysis,
                                 ArrayRef<int64_t> oldShape,
                                 const PadValue &pad) {
  SmallVector<PaddedInput> padded = getPaddedInputs(analysis, oldShape);
  SmallVector<ReplaceableWriter> writers;
  for (StoreOp store : plan.writers)
    writers.push_back(*getReplaceableWriter(store, plan.scope, oldShape));
  for (ReplaceableWriter &w : writers)
    replaceNest(rewriter, w, analysis, padded, pad);
}

//===----------------------------------------------------------------------===//
// Prologue and epilogue
//===----------------------------------------------------------------------===//

void sched::addPaddingNest(RewriterBase &rewriter, Operation *scope,
                           const PaddingPlan &plan, Value buffer,
                           const IndexMapAnalysis &analysis,
                           ArrayRef<int64_t> oldShape, const PadValue &pad) {
  MLIRContext *ctx = buffer.getContext();
  SmallVector<PaddedInput> padded = getPaddedInputs(analysis, oldShape);
  Location loc = buffer.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  bool prologue = plan.kind == PaddingPlan::Kind::Prologue;
  if (prologue) {
    CachePlace start = startOfScope(scope);
    rewriter.setInsertionPoint(start.body, start.before);
  } else {
    rewriter.setInsertionPointAfter(plan.anchor);
  }
  Type type = cast<MemRefType>(buffer.getType()).getElementType();
  std::string name = getBufferName(buffer);
  BlockOp block;
  if (prologue) {
    // TVM's builtin::assume: not padding, or the pad value is there.
    block = createSpatialNest(
        rewriter, loc, "buffer_" + name + "_assumptions", analysis.shape,
        "axis", "v_axis", [&](OpBuilder &b, Location l, ValueRange v) {
          Value cond = buildPaddingCondition(b, l, padded, v);
          Value notPadding = arith::XOrIOp::create(
              b, l, cond, arith::ConstantIntOp::create(b, l, 1, 1));
          Value held = LoadOp::create(b, l, buffer, v);
          Value want = buildPadValue(b, l, pad, v, type);
          Value same = isa<FloatType>(type)
                           ? arith::CmpFOp::create(
                                 b, l, arith::CmpFPredicate::OEQ, held, want)
                                 .getResult()
                           : arith::CmpIOp::create(
                                 b, l, arith::CmpIPredicate::eq, held, want)
                                 .getResult();
          Value assumed = arith::OrIOp::create(b, l, notPadding, same);
          CallOp::create(b, l, TypeRange{}, b.getStringAttr("assume"),
                         ValueRange{assumed},
                         b.getArrayAttr({b.getUnitAttr()}));
        });
  } else {
    block = createSpatialNest(
        rewriter, loc, "buffer_" + name + "_padding", analysis.shape, "axis",
        "v_axis",
        [&](OpBuilder &b, Location l, ValueRange v) {
          StoreOp::create(b, l, buildPadValue(b, l, pad, v, type), buffer, v);
        },
        getPaddingDisjuncts(padded, ctx));
  }
  setInferredRegions(block);
}
