//===- DecomposePadding.cpp - TVM's decompose_padding ---------------------===//
//
// A padding block stores `if_then_else(in bounds, value, pad)` at every
// point of its domain. decompose_padding splits it in two: a block
// `<name>_pad_const` that fills the whole domain with the pad value, in a
// copy of the loops from the given one inwards placed just before it, and
// the block itself, now storing the value only on the in-bound region. The
// region is found per iteration variable from the predicate's bounds on
// its binding (`3 <= vh < 228`); a variable bound directly to a loop of the
// nest below the given loop (and single-child up to it) gets the loop
// shrunk and shifted, any other keeps its loops and is bounded by the
// block's predicate.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kPrimitive = "decompose_padding";

namespace {
/// What the checks find, and the rewrite uses.
struct PaddingPlan {
  StoreOp store = nullptr;
  /// The op that picks the value (scf.if or arith.select) and its sides.
  Operation *select = nullptr;
  Value inBoundValue;
  TypedAttr padValue;
  /// Values the expressions below range over (`in.values`).
  ExprInputs in{nullptr, {}};
  /// The in-bound predicate over `in`: the padding condition with the
  /// bindings substituted, then the block's predicate.
  SmallVector<AffineExpr> constraints;
  SmallVector<bool> eqFlags;
  /// Per iteration variable: its binding over `in`, and its in-bound
  /// region [lower, lower + extent).
  SmallVector<AffineExpr> bindings;
  SmallVector<int64_t> lowers, extents;
  /// The loops from the innermost up to the given one (innermost first),
  /// and how many of them the block's nest is rebuilt in (up to the highest
  /// single-child one).
  SmallVector<ForOp> loops;
  unsigned numInBoundLoops = 0;
};
} // namespace

/// `v` (an index value the block computes from its variables and values
/// from outside, which are inputs as they are) as an expression over
/// `in`: affine in them, nothing but index arithmetic computed inside the
/// block.
static FailureOr<AffineExpr> indexExprOf(Value v, BlockOp block,
                                         ExprInputs &in) {
  auto outside = [&](Value x) {
    Operation *def = x.getDefiningOp();
    return !def || !block->isProperAncestor(def);
  };
  ValueIndexExpr e = getIndexExprOf(v, outside);
  if (!e.expr.isPureAffine())
    return failure();
  SmallVector<AffineExpr> dims;
  for (Value input : e.inputs) {
    if (!outside(input))
      return failure();
    dims.push_back(in.dimOf(input));
  }
  return e.expr.replaceDims(dims);
}

/// `cond` as a conjunction of constraints over `in` (`c >= 0`, or `c == 0`
/// where the flag is set): comparisons of index expressions joined by
/// `and`.
static LogicalResult conjunctsOf(Value cond, BlockOp block, ExprInputs &in,
                                 PaddingPlan &plan) {
  Operation *def = cond.getDefiningOp();
  if (!def)
    return failure();
  if (auto andOp = dyn_cast<arith::AndIOp>(def))
    return success(succeeded(conjunctsOf(andOp.getLhs(), block, in, plan)) &&
                   succeeded(conjunctsOf(andOp.getRhs(), block, in, plan)));
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp || !cmp.getLhs().getType().isIndex())
    return failure();
  FailureOr<AffineExpr> a = indexExprOf(cmp.getLhs(), block, in);
  FailureOr<AffineExpr> b = indexExprOf(cmp.getRhs(), block, in);
  if (failed(a) || failed(b))
    return failure();
  AffineExpr c;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::slt:
    c = *b - *a - 1;
    break;
  case arith::CmpIPredicate::sle:
    c = *b - *a;
    break;
  case arith::CmpIPredicate::sgt:
    c = *a - *b - 1;
    break;
  case arith::CmpIPredicate::sge:
    c = *a - *b;
    break;
  case arith::CmpIPredicate::eq:
    c = *a - *b;
    break;
  default:
    return failure();
  }
  plan.constraints.push_back(c);
  plan.eqFlags.push_back(cmp.getPredicate() == arith::CmpIPredicate::eq);
  return success();
}

/// The store's value picked by a padding condition: `scf.if` (TVMScript's
/// T.if_then_else) or `arith.select`, whose else side is a constant.
static LogicalResult matchSelect(PaddingPlan &plan, Value &cond) {
  Value stored = plan.store.getValue();
  Operation *def = stored.getDefiningOp();
  auto constantOf = [](Value v) -> TypedAttr {
    if (auto c = v.getDefiningOp<arith::ConstantOp>())
      return c.getValue();
    return {};
  };
  if (auto ifOp = dyn_cast_or_null<scf::IfOp>(def)) {
    if (ifOp.getNumResults() != 1 || !ifOp.elseBlock())
      return failure();
    for (Operation &op : ifOp.thenBlock()->without_terminator())
      if (!isa<LoadOp>(op) && !isMemoryEffectFree(&op))
        return failure();
    plan.select = ifOp;
    plan.inBoundValue = ifOp.thenYield().getOperand(0);
    plan.padValue = constantOf(ifOp.elseYield().getOperand(0));
    cond = ifOp.getCondition();
  } else if (auto sel = dyn_cast_or_null<arith::SelectOp>(def)) {
    plan.select = sel;
    plan.inBoundValue = sel.getTrueValue();
    plan.padValue = constantOf(sel.getFalseValue());
    cond = sel.getCondition();
  } else {
    return failure();
  }
  return success(plan.padValue != nullptr);
}

static LogicalResult refusePattern(ScheduleError &error, BlockOp block,
                                   const Twine &why) {
  return refuse(error, block,
                Twine(kPrimitive) + ": block '" + block.getBlockName() +
                    "' does not match the padding pattern `B[...] = "
                    "if_then_else(in bounds, value, constant)`: " +
                    why);
}

/// TVM's checks, in its order; the plan on success.
static FailureOr<PaddingPlan> analyze(BlockOp block, ForOp loop,
                                      ScheduleError &error) {
  Operation *root = getScopeRoot(block);
  if (int rule = getCompleteBlockViolation(block, getScopeBlocks(root)))
    return refuse(error, block,
                  Twine(kPrimitive) + ": needs a complete block, but block '" +
                      block.getBlockName() +
                      "' is not: " + describeCompleteBlockViolation(rule));
  // The fill and the copy store different values in turn: threads that
  // repeat the block's writes would race (one's fill after another's copy).
  for (Operation *p = block->getParentOp(); p != root; p = p->getParentOp())
    if (auto l = dyn_cast<ForOp>(p);
        l && (l.getKind() == ForKind::Parallel ||
              (l.getKind() == ForKind::ThreadBinding &&
               !l.getThread()->starts_with("vthread"))))
      if (failed(checkWritesApart(l, block, kPrimitive, error)))
        return failure();
  PaddingPlan plan;
  plan.in.ctx = block.getContext();
  for (Operation *p = block->getParentOp(); p != root; p = p->getParentOp()) {
    auto l = dyn_cast<ForOp>(p);
    if (!l)
      break;
    plan.loops.push_back(l);
    if (l == loop)
      break;
  }
  if (plan.loops.empty() || plan.loops.back() != loop)
    return refuse(error, loop,
                  Twine(kPrimitive) + ": loop " + loopName(loop) +
                      " must be a loop above block '" + block.getBlockName() +
                      "' in its scope");

  // The pattern: one store, of a value the padding condition picks.
  for (Operation &op : *block.getBody()) {
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (plan.store)
        return refusePattern(error, block, "its body stores more than once");
      plan.store = s;
    } else if (!isMemoryEffectFree(&op) && !isa<scf::IfOp>(op)) {
      return refusePattern(error, block,
                           "its body holds '" + op.getName().getStringRef() +
                               "', not only the store and its value");
    }
  }
  if (!plan.store)
    return refusePattern(error, block, "its body stores nothing");
  Value cond;
  if (failed(matchSelect(plan, cond)))
    return refusePattern(error, block,
                         "the stored value is not picked by a condition "
                         "between a value and a constant");
  if (failed(conjunctsOf(cond, block, plan.in, plan)))
    return refusePattern(
        error, block,
        "the condition is not comparisons of index expressions joined by "
        "`and`");
  for (Value index : plan.store.getIndices())
    if (Operation *def = index.getDefiningOp();
        def && block->isProperAncestor(def))
      return refusePattern(error, block,
                           "the store's indices are computed in the block");

  // The bindings over `in`; the condition's iteration variables replaced by
  // them; the block's predicate (one conjunction) appended.
  ExprInputs &in = plan.in;
  SmallVector<AffineExpr> bindingDims;
  for (Value v : block.getBindingValues())
    bindingDims.push_back(in.dimOf(v));
  for (AffineExpr e : block.getBindingExprs())
    plan.bindings.push_back(e.replaceDims(bindingDims));
  SmallVector<AffineExpr> repl;
  for (Value v : in.values) {
    auto arg = dyn_cast<BlockArgument>(v);
    repl.push_back(arg && arg.getOwner() == block.getBody()
                       ? plan.bindings[arg.getArgNumber()]
                       : in.dimOf(v));
  }
  for (AffineExpr &c : plan.constraints)
    c = c.replaceDims(repl);
  SmallVector<IntegerSet> predicate = block.getPredicateSets();
  if (predicate.size() > 1 || block.getCondition())
    return refusePattern(error, block,
                         "its predicate is not one conjunction of index "
                         "comparisons");
  for (IntegerSet set : predicate)
    for (auto [i, c] : llvm::enumerate(getConstraintsOverInputs(set))) {
      plan.constraints.push_back(c.replaceDims(bindingDims));
      plan.eqFlags.push_back(set.isEq(i));
    }

  // A predicate that holds everywhere leaves nothing to decompose.
  SmallVector<std::optional<Interval>> ranges = getValueRanges(in.values);
  bool trivial =
      llvm::all_of(llvm::zip(plan.constraints, plan.eqFlags), [&](auto ce) {
        auto [c, eq] = ce;
        std::optional<Interval> r = evaluateRange(c, ranges);
        return r && (eq ? r->isPoint() && r->lo == 0 : r->lo >= 0);
      });
  if (trivial)
    return refusePattern(error, block, "the in-bound predicate is trivial");

  // Each constraint bounds one binding (`e + c >= 0`, `-e + c >= 0`); the
  // in-bound region of a variable is its binding's range cut by them.
  unsigned numVars = block.getNumIterVars();
  SmallVector<int64_t> lo(numVars), hi(numVars);
  for (unsigned i = 0; i < numVars; ++i) {
    std::optional<Interval> r = evaluateRange(plan.bindings[i], ranges);
    if (!r)
      return refusePattern(error, block,
                           "the binding of " + iterVarLabel(block, i) +
                               " has no constant range");
    lo[i] = r->lo;
    hi[i] = r->hi;
  }
  for (auto [c, eq] : llvm::zip(plan.constraints, plan.eqFlags)) {
    bool bounded = false;
    for (unsigned i = 0; i < numVars && !bounded; ++i) {
      AffineExpr e = plan.bindings[i];
      if (isa<AffineConstantExpr>(e))
        continue;
      unsigned n = in.values.size();
      if (auto k = dyn_cast<AffineConstantExpr>(
              simplifyIndexExpr(c - e, n, 0))) { // e >= -k
        lo[i] = std::max(lo[i], -k.getValue());
        if (eq)
          hi[i] = std::min(hi[i], -k.getValue());
        bounded = true;
      } else if (auto k = dyn_cast<AffineConstantExpr>(
                     simplifyIndexExpr(c + e, n, 0))) { // e <= k
        hi[i] = std::min(hi[i], k.getValue());
        if (eq)
          lo[i] = std::max(lo[i], k.getValue());
        bounded = true;
      }
    }
    if (!bounded)
      return refusePattern(error, block,
                           "the iteration variables are not independent of "
                           "the padding condition (a comparison bounds no "
                           "single binding)");
  }
  for (unsigned i = 0; i < numVars; ++i) {
    if (hi[i] < lo[i])
      return refusePattern(error, block,
                           "no point of " + iterVarLabel(block, i) +
                               " is in bounds");
    plan.lowers.push_back(lo[i]);
    plan.extents.push_back(hi[i] - lo[i] + 1);
  }

  // The in-bound nest is rebuilt from the innermost loop up to the given
  // loop or the first loop with other statements beside its child.
  auto singleChild = [](ForOp l) {
    unsigned statements = 0;
    for (Operation &op : *l.getBody())
      statements += !isMemoryEffectFree(&op) || op.getNumRegions() > 0;
    return statements == 1;
  };
  for (ForOp l : plan.loops) {
    if (l != loop && !singleChild(l))
      break;
    ++plan.numInBoundLoops;
  }
  if (plan.numInBoundLoops == 0)
    return refuse(error, block,
                  Twine(kPrimitive) + ": the innermost loop above block '" +
                      block.getBlockName() +
                      "' holds other statements; decompose at it, or "
                      "above a loop nest that holds only the block");
  // A loop to shrink carries only the block's binding; the loops copied
  // for the constant nest have bounds defined above the given loop.
  for (ForOp l : ArrayRef(plan.loops).take_front(plan.numInBoundLoops))
    for (OpOperand &use : l.getInductionVar().getUses())
      if (!isBindingUse(use) && use.getOwner() != l)
        return refuse(error, l,
                      Twine(kPrimitive) + ": loop " + loopName(l) +
                          " is used other than by block bindings");
  for (ForOp l : plan.loops)
    for (Value bound : l.getDynamicBounds())
      if (Operation *def = bound.getDefiningOp();
          def && loop->isProperAncestor(def))
        return refuse(error, l,
                      Twine(kPrimitive) + ": the bounds of loop " +
                          loopName(l) + " are computed inside loop " +
                          loopName(loop));
  return plan;
}

bool mlir::tir::canDecomposePadding(BlockOp block, ForOp loop) {
  ScheduleError ignored;
  return succeeded(analyze(block, loop, ignored));
}

/// `e` (over `values`) simplified with their ranges, values whose range is
/// one point folded to it, except those in `keep` (loop variables TVM's
/// rewrite creates or binds directly, which it leaves as they are).
static AffineExpr simplifyFolding(AffineExpr e, ArrayRef<Value> values,
                                  ArrayRef<std::optional<Interval>> ranges,
                                  ArrayRef<Value> keep) {
  MLIRContext *ctx = e.getContext();
  SmallVector<AffineExpr> repl;
  for (auto [k, v] : llvm::enumerate(values)) {
    const std::optional<Interval> &r = ranges[k];
    repl.push_back(r && r->isPoint() && !llvm::is_contained(keep, v)
                       ? getAffineConstantExpr(r->lo, ctx)
                       : getAffineDimExpr(k, ctx));
  }
  return simplifyWithRanges(e.replaceDims(repl), ranges, values.size(), 0);
}

/// Replaces the store's picked value by its in-bound side and drops the
/// condition's computation.
static void keepInBoundValue(RewriterBase &rewriter, BlockOp block,
                             PaddingPlan &plan) {
  Value value = plan.inBoundValue;
  if (auto ifOp = dyn_cast<scf::IfOp>(plan.select)) {
    Block *then = ifOp.thenBlock();
    rewriter.eraseOp(then->getTerminator());
    rewriter.inlineBlockBefore(then, ifOp);
  }
  rewriter.replaceOp(plan.select, value);
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation &op :
         llvm::make_early_inc_range(llvm::reverse(*block.getBody())))
      if (op.use_empty() && isMemoryEffectFree(&op) &&
          op.getNumRegions() == 0) {
        rewriter.eraseOp(&op);
        erased = true;
      }
  }
}

/// In the body of `block`, iteration variable `i` becomes `v + by`: in
/// the indices of loads and stores, and through one affine.apply for other
/// uses.
static void shiftIterVar(RewriterBase &rewriter, BlockOp block, unsigned i,
                         int64_t by) {
  Value var = block.getIterVar(i);
  MLIRContext *ctx = block.getContext();
  auto shifted = [&](AffineMap map, OperandRange operands) {
    SmallVector<AffineExpr> repl;
    for (auto [k, v] : llvm::enumerate(operands))
      repl.push_back(getAffineDimExpr(k, ctx) + (v == var ? by : 0));
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : getExprsOverInputs(map))
      exprs.push_back(e.replaceDims(repl));
    return AffineMapAttr::get(makeInputMap(operands.size(), exprs, ctx));
  };
  Value applied;
  for (OpOperand &use : llvm::make_early_inc_range(var.getUses())) {
    Operation *user = use.getOwner();
    if (auto load = dyn_cast<LoadOp>(user)) {
      rewriter.modifyOpInPlace(load, [&] {
        load.setMapAttr(shifted(load.getMap(), load.getIndices()));
      });
    } else if (auto store = dyn_cast<StoreOp>(user);
               store && store.getValue() != var) {
      rewriter.modifyOpInPlace(store, [&] {
        store.setMapAttr(shifted(store.getMap(), store.getIndices()));
      });
    } else {
      if (!applied) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(block.getBody());
        applied = materializeIndexValue(rewriter, block.getLoc(),
                                        getAffineDimExpr(0, ctx) + by, {var});
      }
      if (user != applied.getDefiningOp())
        rewriter.modifyOpInPlace(user, [&] { use.set(applied); });
    }
  }
}

/// The constant nest: copies of the plan's loops (fresh variables, same
/// names and bounds, serial) before `loop`, holding `<name>_pad_const`.
static BlockOp buildConstNest(RewriterBase &rewriter, BlockOp block, ForOp loop,
                              const PaddingPlan &plan) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  IRMapping mapping;
  SmallVector<ForOp> outerFirst(llvm::reverse(plan.loops));
  copyLoops(rewriter, outerFirst, mapping, /*suffix=*/"", /*serial=*/true,
            /*unnamed=*/"");
  SmallVector<Value> values, copies;
  for (Value v : block.getBindingValues())
    values.push_back(mapping.lookupOrDefault(v));
  for (ForOp l : plan.loops)
    copies.push_back(mapping.lookup(l.getInductionVar()));
  SmallVector<std::optional<Interval>> ranges = getValueRanges(values);
  SmallVector<std::string> names;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    names.push_back(iterVarName(block, i));
  SmallVector<IterVarSpec> vars;
  for (auto [i, e] : llvm::enumerate(block.getBindingExprs()))
    vars.push_back({IterType::Spatial, block.getMixedDomainLower(i),
                    block.getMixedDomainUpper(i),
                    simplifyFolding(e, values, ranges, copies), names[i]});
  SmallVector<Conjunction> predicate = getPredicateDisjuncts(block);
  StoreOp store = plan.store;
  auto fill = BlockOp::create(
      rewriter, block.getLoc(), (block.getBlockName() + "_pad_const").str(),
      vars, values,
      [&](OpBuilder &b, Location loc, ValueRange iv) {
        IRMapping inner = mapping;
        for (unsigned i = 0; i < iv.size(); ++i)
          inner.map(block.getIterVar(i), iv[i]);
        SmallVector<Value> indices;
        for (Value index : store.getIndices())
          indices.push_back(inner.lookupOrDefault(index));
        Value pad = arith::ConstantOp::create(b, loc, plan.padValue);
        StoreOp::create(b, loc, pad, store.getBuffer(), store.getMap(),
                        indices);
      },
      predicate);
  setInferredRegions(fill);
  return fill;
}

FailureOr<BlockOp> mlir::tir::decomposePadding(RewriterBase &rewriter,
                                               BlockOp block, ForOp loop,
                                               ScheduleError &error) {
  FailureOr<PaddingPlan> analyzed = analyze(block, loop, error);
  if (failed(analyzed))
    return failure();
  PaddingPlan &plan = *analyzed;
  MLIRContext *ctx = block.getContext();
  BlockOp fill = buildConstNest(rewriter, block, loop, plan);

  // Loops of the rebuilt nest bound directly to a variable shrink to its
  // region and shift by its start.
  ExprInputs &in = plan.in;
  unsigned n = in.values.size();
  SmallVector<AffineExpr> shift;
  SmallVector<Value> shifted;
  for (unsigned k = 0; k < n; ++k)
    shift.push_back(getAffineDimExpr(k, ctx));
  ArrayRef<ForOp> rebuilt =
      ArrayRef(plan.loops).take_front(plan.numInBoundLoops);
  unsigned numVars = block.getNumIterVars();
  for (unsigned i = 0; i < numVars; ++i) {
    auto dim = dyn_cast<AffineDimExpr>(plan.bindings[i]);
    if (!dim)
      continue;
    Value v = in.values[dim.getPosition()];
    const ForOp *l = llvm::find_if(
        rebuilt, [&](ForOp f) { return f.getInductionVar() == v; });
    if (l == rebuilt.end() || shift[dim.getPosition()] != dim)
      continue;
    shift[dim.getPosition()] = dim + plan.lowers[i];
    shifted.push_back(v);
    ForOp target = *l;
    rewriter.modifyOpInPlace(target, [&] {
      setLoopBounds(target, rewriter.getIndexAttr(0),
                    rewriter.getIndexAttr(plan.extents[i]));
    });
  }
  SmallVector<std::optional<Interval>> ranges = getValueRanges(in.values);
  SmallVector<AffineExpr> bindings;
  for (unsigned i = 0; i < numVars; ++i)
    bindings.push_back(
        simplifyFolding((plan.bindings[i] - plan.lowers[i]).replaceDims(shift),
                        in.values, ranges, shifted));
  Conjunction inBound;
  for (auto [c, eq] : llvm::zip(plan.constraints, plan.eqFlags)) {
    AffineExpr e = simplifyWithRanges(c.replaceDims(shift), ranges, n, 0);
    std::optional<Interval> r = evaluateRange(e, ranges);
    if (r && (eq ? r->isPoint() && r->lo == 0 : r->lo >= 0))
      continue; // holds on the shrunk loops
    inBound.constraints.push_back(e);
    inBound.eqFlags.push_back(eq);
  }
  SmallVector<Conjunction> predicate;
  if (!inBound.constraints.empty())
    predicate.push_back(std::move(inBound));

  rewriter.modifyOpInPlace(block, [&] {
    SmallVector<int64_t> domains;
    for (int64_t extent : plan.extents) {
      domains.push_back(0);
      domains.push_back(extent);
    }
    block.getDynamicDomainsMutable().clear();
    block.setStaticDomains(domains);
    setBindingsAndPredicate(block, in.values, bindings, predicate);
  });
  keepInBoundValue(rewriter, block, plan);
  for (unsigned i = 0; i < numVars; ++i)
    if (plan.lowers[i] != 0)
      shiftIterVar(rewriter, block, i, plan.lowers[i]);
  rewriter.modifyOpInPlace(block, [&] { setInferredRegions(block); });
  return fill;
}
