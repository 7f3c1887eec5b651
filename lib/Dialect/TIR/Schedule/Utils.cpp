//===- Utils.cpp - helpers shared by the schedule primitives --------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

LogicalResult sched::refuse(ScheduleError &error, Operation *culprit,
                            const Twine &message) {
  return error.set(culprit, message);
}

std::string sched::loopName(ForOp loop) { return getLoopDisplayName(loop); }

bool sched::isLoopVar(Value v) { return static_cast<bool>(getLoopOfVar(v)); }

ForOp sched::getLoopOfVar(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg ? dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
}

llvm::SmallBitVector sched::bindingInputMask(BlockOp block, ValueRange vars) {
  ValueRange inputs = block.getBindingValues();
  llvm::SmallBitVector mask(inputs.size());
  for (auto [i, v] : llvm::enumerate(inputs))
    if (llvm::is_contained(vars, v))
      mask.set(i);
  return mask;
}

std::string sched::iterVarName(BlockOp block, unsigned i) {
  if (auto names = block.getVarNames())
    return cast<StringAttr>((*names)[i]).str();
  return "#" + std::to_string(i);
}

std::string sched::iterVarLabel(BlockOp block, unsigned i) {
  std::string name = iterVarName(block, i);
  return block.getVarNames() ? "'" + name + "'" : name;
}

void sched::LoopVarUses::replaceOpaque(Value value) const {
  for (auto [op, index] : opaque)
    op->setOperand(index, value);
}

sched::LoopVarUses sched::collectLoopVarUses(Value iv) {
  LoopVarUses uses;
  for (OpOperand &use : iv.getUses()) {
    if (isBindingUse(use))
      uses.binders.insert(cast<BlockOp>(use.getOwner()));
    else
      uses.opaque.push_back({use.getOwner(), use.getOperandNumber()});
  }
  return uses;
}

LogicalResult sched::checkOnlyBindingUses(ForOp loop, ScheduleError &error) {
  Value iv = loop.getInductionVar();
  for (OpOperand &use : iv.getUses()) {
    if (!isBindingUse(use))
      return refuse(error, loop,
                    "the variable of loop " + loopName(loop) + " is used by '" +
                        use.getOwner()->getName().getStringRef() +
                        "', not only in block bindings");
  }
  return success();
}

LogicalResult sched::checkPlainLoop(ForOp loop, StringRef primitive,
                                    ScheduleError &error) {
  if (loop.getAnnotations() && !loop.getAnnotations()->empty())
    return refuse(error, loop,
                  primitive + " needs loops without annotations; loop " +
                      loopName(loop) + " has some");
  if (loop.getKind() == ForKind::ThreadBinding)
    return refuse(error, loop,
                  primitive + " needs loops not bound to threads; loop " +
                      loopName(loop) + " is bound to '" +
                      loop.getThread().value_or("") + "'");
  return success();
}

LogicalResult sched::checkAffineBindings(BlockOp block, ValueRange loopVars,
                                         StringRef primitive, ForOp culprit,
                                         ScheduleError &error) {
  llvm::SmallBitVector vars = bindingInputMask(block, loopVars);
  for (auto [i, e] : llvm::enumerate(block.getBindingExprs())) {
    if (isQuasiAffineIn(e, vars))
      continue;
    return refuse(error, culprit,
                  primitive +
                      " needs quasi-affine bindings of the loops it "
                      "changes, but iteration variable " +
                      iterVarLabel(block, i) + " of block '" +
                      block.getBlockName() + "' is not one");
  }
  return success();
}

LogicalResult sched::checkStartsAtZero(ForOp loop, StringRef primitive,
                                       ScheduleError &error) {
  std::optional<int64_t> lower = loop.getConstantLowerBound();
  if (lower == 0)
    return success();
  return refuse(error, loop,
                primitive + " needs loops that start at 0; loop " +
                    loopName(loop) + " starts at " +
                    (lower ? std::to_string(*lower) : "a runtime value"));
}

LogicalResult sched::checkNoEmptyNest(Operation *root, StringRef primitive,
                                      ScheduleError &error) {
  Operation *empty = nullptr;
  std::string what;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<ForOp>(op)) {
      if (loop.getConstantExtent() == 0) {
        empty = op;
        what = "loop " + loopName(loop) + " has extent 0";
        return WalkResult::interrupt();
      }
    } else if (auto block = dyn_cast<BlockOp>(op)) {
      for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
        std::optional<int64_t> lo = block.getConstantDomainLower(i);
        std::optional<int64_t> hi = block.getConstantDomainUpper(i);
        if (lo && hi && *hi == *lo) {
          empty = op;
          what = "block '" + block.getBlockName().str() +
                 "' has an empty domain [" + std::to_string(*lo) + ", " +
                 std::to_string(*hi) + ")";
          return WalkResult::interrupt();
        }
      }
    }
    return WalkResult::advance();
  });
  if (!empty)
    return success();
  return refuse(error, empty,
                primitive +
                    " needs iteration spaces that are not empty, "
                    "but " +
                    what + " (it runs nothing)");
}

LogicalResult sched::checkNoEmptyNestAround(BlockOp block, StringRef primitive,
                                            ScheduleError &error) {
  SmallVector<ForOp> loops = getLoops(block);
  return checkNoEmptyNest(loops.empty() ? block.getOperation()
                                        : loops.front().getOperation(),
                          primitive, error);
}

OpFoldResult sched::materializeIndex(OpBuilder &builder, Location loc,
                                     AffineExpr expr, ValueRange inputs) {
  expr = simplifyIndexExpr(expr, inputs.size(), 0);
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return builder.getIndexAttr(c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return inputs[d.getPosition()];
  AffineMap map = makeInputMap(inputs.size(), {expr}, builder.getContext());
  return affine::AffineApplyOp::create(builder, loc, map, inputs).getResult();
}

Value sched::materializeIndexValue(OpBuilder &builder, Location loc,
                                   AffineExpr expr, ValueRange inputs) {
  return getValueOrCreateConstantIndexOp(
      builder, loc, materializeIndex(builder, loc, expr, inputs));
}

bool sched::isBindingUse(OpOperand &use) {
  auto block = dyn_cast<BlockOp>(use.getOwner());
  if (!block)
    return false;
  unsigned begin = block.getBindingValues().getBeginOperandIndex();
  return use.getOperandNumber() >= begin &&
         use.getOperandNumber() < begin + block.getBindingValues().size();
}

AffineExpr sched::ExprInputs::dimOf(Value v) {
  auto it = llvm::find(values, v);
  if (it == values.end()) {
    values.push_back(v);
    it = std::prev(values.end());
  }
  return getAffineDimExpr(it - values.begin(), ctx);
}

AffineExpr sched::ExprInputs::of(OpFoldResult v) {
  if (auto c = getConstantIntValue(v))
    return getAffineConstantExpr(*c, ctx);
  return dimOf(cast<Value>(v));
}

AffineExpr sched::ExprInputs::exprOf(OpFoldResult v) {
  if (auto c = getConstantIntValue(v))
    return getAffineConstantExpr(*c, ctx);
  ValueIndexExpr traced = getIndexExprOf(cast<Value>(v));
  SmallVector<AffineExpr> dims;
  for (Value input : traced.inputs)
    dims.push_back(dimOf(input));
  return traced.expr.replaceDims(dims);
}

/// The loop whose induction variable `v` is; null otherwise.
static ForOp loopOfVar(Value v) {
  return isLoopVar(v) ? cast<ForOp>(v.getParentBlock()->getParentOp())
                      : ForOp();
}

/// An upper bound of `num floordiv den` from an upper bound `hi` of `num`
/// (den > 0): `hi floordiv den` for a constant divisor; for a runtime one,
/// K + (c < 0 ? -1 : c) where hi is K * den + c (the split of a fused loop
/// of extent K * n by n: `(K * n - 1) floordiv n` is K - 1). Null when hi
/// has no such form.
static AffineExpr floorDivUpperBound(AffineExpr hi, AffineExpr den,
                                     unsigned numDims) {
  if (isa<AffineConstantExpr>(den))
    return hi.floorDiv(den);
  AffineTerms divisor = AffineTerms::get(den);
  if (divisor.constant != 0 || divisor.terms.size() != 1 ||
      divisor.terms[0].second != 1)
    return AffineExpr();
  int64_t k = AffineTerms::get(hi).getCoefficient(divisor.terms[0].first);
  auto rest = dyn_cast<AffineConstantExpr>(
      simplifyAffineExpr(hi - den * k, numDims, 0));
  if (!rest)
    return AffineExpr();
  int64_t c = rest.getValue();
  return getAffineConstantExpr(k + (c < 0 ? -1 : c), hi.getContext());
}

bool sched::ExprInputs::isKnownNonNegative(AffineExpr e) {
  return isKnownNonNegative(e, /*depth=*/0);
}

bool sched::ExprInputs::isKnownNonNegative(AffineExpr e, unsigned depth) {
  // Each round replaces one term by the bound that minimises the
  // expression, where it is evaluated: a loop variable (appearing in no
  // other term) by its lower bound where its coefficient is positive, its
  // upper bound less one where negative (loops are not empty inside them);
  // a division or remainder by its least or greatest value. A divisor that
  // is not a constant (a runtime extent, `f floordiv n`) is taken to be
  // positive, as TVM does: where it is zero the index has no value.
  for (unsigned round = 0; round < 8; ++round) {
    e = simplifyOverValues(e, values);
    if (auto k = dyn_cast<AffineConstantExpr>(e))
      return k.getValue() >= 0;
    if (auto r = evaluateRange(e, getValueRanges(values)); r && r->lo >= 0)
      return true;
    AffineTerms terms = AffineTerms::get(e);
    AffineExpr from, to;
    for (auto [term, k] : terms.terms) {
      auto dim = dyn_cast<AffineDimExpr>(term);
      if (!dim || !terms.getDimCoefficient(dim.getPosition()))
        continue;
      ForOp loop = loopOfVar(values[dim.getPosition()]);
      if (!loop)
        continue;
      from = term;
      to = k > 0 ? exprOf(loop.getMixedLowerBound())
                 : exprOf(loop.getMixedUpperBound()) - 1;
      break;
    }
    for (auto [term, k] : terms.terms) {
      if (from || depth > 2)
        break;
      auto bin = dyn_cast<AffineBinaryOpExpr>(term);
      if (!bin || (term.getKind() != AffineExprKind::Mod &&
                   term.getKind() != AffineExprKind::FloorDiv))
        continue;
      AffineExpr num = bin.getLHS(), den = bin.getRHS();
      if (auto c = dyn_cast<AffineConstantExpr>(den); c && c.getValue() < 1)
        continue;
      if (term.getKind() == AffineExprKind::Mod) {
        from = term;
        to = k > 0 ? getAffineConstantExpr(0, ctx) : den - 1;
        break;
      }
      if (k > 0) {
        if (!isKnownNonNegative(num, depth + 1))
          continue;
        from = term;
        to = getAffineConstantExpr(0, ctx);
        break;
      }
      // The numerator's greatest value: a loop variable's upper bound less
      // one.
      auto dim = dyn_cast<AffineDimExpr>(num);
      ForOp loop = dim ? loopOfVar(values[dim.getPosition()]) : ForOp();
      if (!loop)
        continue;
      AffineExpr hi = exprOf(loop.getMixedUpperBound()) - 1;
      AffineExpr bound = floorDivUpperBound(hi, den, values.size());
      if (!bound)
        continue;
      from = term;
      to = bound;
      break;
    }
    if (!from)
      return false;
    e = e.replace(from, to);
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Binding substitution
//===----------------------------------------------------------------------===//

void sched::substituteBindingValue(BlockOp block, Value old, AffineExpr expr,
                                   ValueRange exprValues,
                                   ArrayRef<AffineExpr> extraConstraints) {
  MLIRContext *ctx = block.getContext();
  SmallVector<Value> inputs(block.getBindingValues());
  if (!llvm::is_contained(inputs, old) && extraConstraints.empty())
    return;

  // New inputs: the old ones without `old`, then the expression's values.
  SmallVector<Value> newInputs;
  for (Value v : inputs)
    if (v != old && !llvm::is_contained(newInputs, v))
      newInputs.push_back(v);
  SmallVector<AffineExpr> exprDims;
  for (Value v : exprValues) {
    auto it = llvm::find(newInputs, v);
    if (it == newInputs.end()) {
      newInputs.push_back(v);
      it = std::prev(newInputs.end());
    }
    exprDims.push_back(getAffineDimExpr(it - newInputs.begin(), ctx));
  }
  AffineExpr replacement = expr.replaceDims(exprDims);
  SmallVector<AffineExpr> repl;
  for (Value v : inputs)
    repl.push_back(v == old ? replacement
                            : getAffineDimExpr(llvm::find(newInputs, v) -
                                                   newInputs.begin(),
                                               ctx));

  SmallVector<std::optional<Interval>> ranges = getValueRanges(newInputs);
  unsigned n = newInputs.size();
  auto simplify = [&](AffineExpr e) {
    return simplifyWithRanges(e, ranges, n, 0);
  };

  SmallVector<AffineExpr> results;
  for (AffineExpr e : block.getBindingExprs())
    results.push_back(simplify(e.replaceDims(repl)));

  // The predicate: each disjunct, with the extra constraints conjoined.
  SmallVector<Conjunction> disjuncts = getPredicateDisjuncts(block);
  for (Conjunction &c : disjuncts)
    for (AffineExpr &e : c.constraints)
      e = simplify(e.replaceDims(repl));
  if (!extraConstraints.empty()) {
    if (disjuncts.empty())
      disjuncts.emplace_back();
    for (Conjunction &c : disjuncts)
      for (AffineExpr e : extraConstraints) {
        c.constraints.push_back(simplify(e.replaceDims(exprDims)));
        c.eqFlags.push_back(false);
      }
  }
  // Drop what holds everywhere (a constant >= 0, or a bound implied by the
  // ranges); a disjunct left empty makes the whole predicate true.
  bool alwaysTrue = false;
  for (Conjunction &c : disjuncts) {
    Conjunction kept;
    for (auto [e, eq] : llvm::zip(c.constraints, c.eqFlags)) {
      auto range = evaluateRange(e, ranges);
      bool always =
          range && (eq ? (range->lo == 0 && range->hi == 0) : range->lo >= 0);
      if (!always) {
        kept.constraints.push_back(e);
        kept.eqFlags.push_back(eq);
      }
    }
    alwaysTrue |= kept.constraints.empty();
    c = std::move(kept);
  }
  if (alwaysTrue)
    disjuncts.clear();

  // Only the inputs still in use stay (a unit loop folded to 0 leaves the
  // bindings, as in TVM).
  setBindingsAndPredicate(block, newInputs, results, disjuncts);
}

void sched::setBindingsAndPredicate(BlockOp block, ArrayRef<Value> values,
                                    ArrayRef<AffineExpr> bindings,
                                    ArrayRef<Conjunction> disjuncts) {
  MLIRContext *ctx = block.getContext();
  unsigned n = values.size();
  llvm::SmallBitVector used(n);
  auto markUsed = [&](AffineExpr e) {
    e.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        used.set(d.getPosition());
    });
  };
  llvm::for_each(bindings, markUsed);
  for (const Conjunction &c : disjuncts)
    llvm::for_each(c.constraints, markUsed);
  SmallVector<Value> operands;
  SmallVector<AffineExpr> compress;
  for (unsigned i = 0; i < n; ++i) {
    compress.push_back(getAffineDimExpr(operands.size(), ctx));
    if (used.test(i))
      operands.push_back(values[i]);
  }
  unsigned kept = operands.size();
  SmallVector<AffineExpr> results;
  for (AffineExpr e : bindings)
    results.push_back(e.replaceDims(compress));
  block.setBindingsAttr(AffineMapAttr::get(makeInputMap(kept, results, ctx)));
  if (disjuncts.empty()) {
    block.removePredicateAttr();
  } else {
    SmallVector<Attribute> sets;
    for (const Conjunction &c : disjuncts) {
      SmallVector<AffineExpr> constraints;
      for (AffineExpr e : c.constraints)
        constraints.push_back(e.replaceDims(compress));
      sets.push_back(
          IntegerSetAttr::get(makeInputSet(kept, constraints, c.eqFlags, ctx)));
    }
    block.setPredicateAttr(ArrayAttr::get(ctx, sets));
  }
  block.getBindingValuesMutable().assign(operands);
}

/// Sets the read and write regions of `block` (over its iteration
/// variables, then region values).
void mlir::tir::sched::setRegions(BlockOp block,
                                  const BlockAccessRegions &regions) {
  MLIRContext *ctx = block.getContext();
  unsigned numInputs = regions.inputs.size();
  auto set = [&](ArrayRef<std::pair<Value, RegionExprs>> list,
                 MutableOperandRange buffers, bool reads) {
    SmallVector<Value> values;
    SmallVector<Attribute> maps;
    for (const auto &[buffer, region] : list) {
      values.push_back(buffer);
      maps.push_back(
          AffineMapAttr::get(buildRegionMap(numInputs, region, ctx)));
    }
    buffers.assign(values);
    if (reads)
      block.setReadRegionsAttr(ArrayAttr::get(ctx, maps));
    else
      block.setWriteRegionsAttr(ArrayAttr::get(ctx, maps));
  };
  block.getRegionValuesMutable().assign(
      ArrayRef(regions.inputs).drop_front(block.getNumIterVars()));
  set(regions.reads, block.getReadBuffersMutable(), true);
  set(regions.writes, block.getWriteBuffersMutable(), false);
}

FailureOr<Value> mlir::tir::sched::getNthAccessBuffer(BlockOp block,
                                                      int64_t index,
                                                      bool isWrite,
                                                      StringRef primitive,
                                                      ScheduleError &error) {
  // TVM's block->reads / block->writes: the lists the block gives, else
  // those inferred (not what the blocks inside an opaque block access).
  SmallVector<Value> reads, writes;
  if (block.hasAccessRegions()) {
    llvm::append_range(reads, block.getReadBuffers());
    llvm::append_range(writes, block.getWriteBuffers());
  } else {
    getAccessedBuffers(block, reads, writes);
  }
  SmallVector<Value> &buffers = isWrite ? writes : reads;
  if (index < 0 || index >= static_cast<int64_t>(buffers.size()))
    return refuse(error, block,
                  primitive + ": block '" + block.getBlockName() + "' " +
                      (isWrite ? "writes " : "reads ") + Twine(buffers.size()) +
                      " buffers; there is no " + (isWrite ? "write" : "read") +
                      " buffer " + Twine(index));
  return buffers[index];
}

FailureOr<Operation *> mlir::tir::sched::getBufferScope(Value buffer,
                                                        BlockOp culprit,
                                                        StringRef primitive,
                                                        ScheduleError &error) {
  if (auto alloc = buffer.getDefiningOp<AllocBufferOp>())
    return alloc->getParentOp();
  if (auto arg = dyn_cast<BlockArgument>(buffer))
    if (auto func =
            dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return func.getOperation();
  return refuse(error, culprit,
                primitive + ": buffer '" + getBufferName(buffer) +
                    "' is matched on a region of another buffer "
                    "(tir.match_buffer); expected a function parameter or "
                    "an allocation");
}

/// Splits `entries` into the static form (kDynamic for a value) and the
/// values, in order.
static void splitMixed(ArrayRef<OpFoldResult> entries,
                       SmallVectorImpl<int64_t> &statics,
                       SmallVectorImpl<Value> &dynamics) {
  for (OpFoldResult e : entries) {
    if (std::optional<int64_t> c = getConstantIntValue(e)) {
      statics.push_back(*c);
    } else {
      statics.push_back(ShapedType::kDynamic);
      dynamics.push_back(cast<Value>(e));
    }
  }
}

void sched::setLoopBounds(ForOp loop, OpFoldResult lower, OpFoldResult upper) {
  SmallVector<int64_t> statics;
  SmallVector<Value> dynamics;
  splitMixed({lower, upper}, statics, dynamics);
  loop.setStaticBounds(statics);
  loop.getDynamicBoundsMutable().assign(dynamics);
}

void sched::setIterVarDomain(BlockOp block, unsigned i, OpFoldResult lower,
                             OpFoldResult upper) {
  SmallVector<OpFoldResult> entries;
  for (unsigned k = 0, e = block.getNumIterVars(); k < e; ++k) {
    entries.push_back(k == i ? lower : block.getMixedDomainLower(k));
    entries.push_back(k == i ? upper : block.getMixedDomainUpper(k));
  }
  SmallVector<int64_t> statics;
  SmallVector<Value> dynamics;
  splitMixed(entries, statics, dynamics);
  block.setStaticDomains(statics);
  block.getDynamicDomainsMutable().assign(dynamics);
}

SmallVector<Conjunction> sched::getPredicateDisjuncts(BlockOp block) {
  SmallVector<Conjunction> disjuncts;
  for (IntegerSet set : block.getPredicateSets()) {
    Conjunction c;
    for (auto [i, e] : llvm::enumerate(getConstraintsOverInputs(set))) {
      c.constraints.push_back(e);
      c.eqFlags.push_back(set.isEq(i));
    }
    disjuncts.push_back(std::move(c));
  }
  return disjuncts;
}

void sched::conjoinPredicate(BlockOp block, ArrayRef<Conjunction> condition,
                             ValueRange values) {
  if (condition.empty())
    return;
  MLIRContext *ctx = block.getContext();
  ExprInputs inputs{ctx, SmallVector<Value>(block.getBindingValues())};
  SmallVector<AffineExpr> at;
  for (Value v : values)
    at.push_back(inputs.dimOf(v));
  SmallVector<Conjunction> old = getPredicateDisjuncts(block);
  if (old.empty())
    old.emplace_back();
  SmallVector<Attribute> sets;
  unsigned n = inputs.values.size();
  for (const Conjunction &p : old)
    for (const Conjunction &q : condition) {
      Conjunction both = p;
      for (auto [e, eq] : llvm::zip(q.constraints, q.eqFlags)) {
        both.constraints.push_back(e.replaceDims(at));
        both.eqFlags.push_back(eq);
      }
      sets.push_back(IntegerSetAttr::get(
          makeInputSet(n, both.constraints, both.eqFlags, ctx)));
    }
  block.setBindingsAttr(
      AffineMapAttr::get(makeInputMap(n, block.getBindingExprs(), ctx)));
  block.setPredicateAttr(ArrayAttr::get(ctx, sets));
  block.getBindingValuesMutable().assign(inputs.values);
}

void mlir::tir::sched::setInferredRegions(BlockOp block) {
  Refusal ignored;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, ignored);
  if (succeeded(regions))
    setRegions(block, *regions);
}

AffineExpr mlir::tir::sched::simplifyNonTrivial(AffineExpr e,
                                                ArrayRef<Value> inputs) {
  AffineExpr simple = simplifyOverValues(e, inputs);
  return isa<AffineConstantExpr>(simple) ? e : simple;
}

FailureOr<SmallVector<int64_t>>
mlir::tir::sched::getZeroBasedExtents(BlockOp block, StringRef primitive,
                                      ScheduleError &error) {
  SmallVector<int64_t> extents;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    std::optional<int64_t> lo = block.getConstantDomainLower(i);
    std::optional<int64_t> hi = block.getConstantDomainUpper(i);
    if (!lo || !hi || *lo != 0)
      return refuse(error, block,
                    primitive + ": iteration variable " +
                        iterVarLabel(block, i) +
                        " needs a constant domain starting at 0");
    extents.push_back(*hi);
  }
  return extents;
}

bool sched::definedInside(Value buffer, Operation *root) {
  Operation *owner = isa<BlockArgument>(buffer)
                         ? cast<BlockArgument>(buffer).getOwner()->getParentOp()
                         : buffer.getDefiningOp();
  return owner && root->isProperAncestor(owner);
}

void sched::adoptRebuiltBlock(RewriterBase &rewriter, BlockOp block,
                              BlockOp rebuilt) {
  // The bodies are swapped, so that the old one is erased with `rebuilt`
  // through the rewriter: listeners (a schedule's handles to blocks and
  // loops inside it) hear of each op erased.
  rewriter.modifyOpInPlace(block, [&] {
    block.getProperties() = rebuilt.getProperties();
    block->setOperands(rebuilt->getOperands());
    Region::BlockListType &mine = block.getRegion().getBlocks();
    Region::BlockListType &theirs = rebuilt.getRegion().getBlocks();
    mine.splice(mine.begin(), theirs, theirs.begin());
    theirs.splice(theirs.end(), mine, std::next(mine.begin()), mine.end());
  });
  rewriter.eraseOp(rebuilt);
}

bool sched::bindingUses(BlockOp block, ArrayRef<AffineExpr> bindings,
                        unsigned i, Value value) {
  for (auto [pos, input] : llvm::enumerate(block.getBindingValues()))
    if (bindings[i].isFunctionOfDim(pos) && dependsOnAny(input, value))
      return true;
  return false;
}

void sched::copyLoops(RewriterBase &rewriter, ArrayRef<ForOp> loops,
                      IRMapping &map, StringRef suffix, bool serial,
                      StringRef unnamed) {
  for (ForOp l : loops) {
    auto mapped = [&](OpFoldResult r) -> OpFoldResult {
      if (auto v = dyn_cast<Value>(r))
        return map.lookupOrDefault(v);
      return r;
    };
    std::string name = (l.getVarName().value_or(unnamed) + suffix).str();
    auto copy =
        ForOp::create(rewriter, l.getLoc(), mapped(l.getMixedLowerBound()),
                      mapped(l.getMixedUpperBound()), name);
    if (!serial) {
      copy.setKind(l.getKind());
      if (auto thread = l.getThreadAttr())
        copy.setThreadAttr(thread);
      if (auto annotations = l.getAnnotationsAttr())
        copy.setAnnotationsAttr(annotations);
    }
    map.map(l.getInductionVar(), copy.getInductionVar());
    rewriter.setInsertionPointToStart(copy.getBody());
  }
}

SmallVector<Value> sched::buildLoopNest(RewriterBase &rewriter, Location loc,
                                        ArrayRef<OpFoldResult> lowers,
                                        ArrayRef<OpFoldResult> uppers,
                                        StringRef prefix) {
  SmallVector<Value> vars;
  for (auto [k, bounds] : llvm::enumerate(llvm::zip(lowers, uppers))) {
    auto loop = ForOp::create(rewriter, loc, std::get<0>(bounds),
                              std::get<1>(bounds), (prefix + Twine(k)).str());
    rewriter.setInsertionPointToStart(loop.getBody());
    vars.push_back(loop.getInductionVar());
  }
  return vars;
}

void sched::compressInputs(ArrayRef<AffineExpr> exprs, ValueRange values,
                           SmallVectorImpl<AffineExpr> &compress,
                           SmallVectorImpl<Value> &used) {
  for (AffineExpr e : exprs)
    for (auto [pos, v] : llvm::enumerate(values))
      if (e.isFunctionOfDim(pos) && !isa<AffineDimExpr>(compress[pos])) {
        compress[pos] = getAffineDimExpr(used.size(), e.getContext());
        used.push_back(v);
      }
}

std::optional<FunctionVariable>
sched::findFunctionVariable(FunctionOpInterface func, StringRef name) {
  Block &entry = func.getFunctionBody().front();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (auto n =
            func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
        n && n.getValue() == name && entry.getArgument(i).getType().isIndex())
      return FunctionVariable{entry.getArgument(i)};
  for (Operation &op : entry)
    if (getShapeVarRead(&op) == name)
      return FunctionVariable{op.getResult(0)};
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    SmallVector<StringRef> vars = getDimVarNames(func, i);
    for (auto [d, var] : llvm::enumerate(vars))
      if (var == name)
        return FunctionVariable{Value(), entry.getArgument(i),
                                static_cast<unsigned>(d)};
  }
  return std::nullopt;
}

Value sched::materializeFunctionVariable(RewriterBase &rewriter,
                                         const FunctionVariable &variable) {
  if (variable.value)
    return variable.value;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(variable.buffer.getOwner());
  Location loc = variable.buffer.getLoc();
  Value index = arith::ConstantIndexOp::create(rewriter, loc, variable.dim);
  return memref::DimOp::create(rewriter, loc, variable.buffer, index);
}

Block::iterator mlir::tir::sched::getAllocationPoint(Block *body,
                                                     ValueRange after) {
  Block::iterator it = body->begin();
  while (it != body->end() && isa<AllocBufferOp>(&*it))
    ++it;
  for (Value v : after) {
    Operation *def = v.getDefiningOp();
    if (def && def->getBlock() == body && it != body->end() &&
        !def->isBeforeInBlock(&*it))
      it = std::next(Block::iterator(def));
  }
  return it;
}

Value sched::getDynamicSizeValue(RewriterBase &rewriter, Value buffer,
                                 unsigned dim) {
  auto type = cast<MemRefType>(buffer.getType());
  if (auto alloc = buffer.getDefiningOp<AllocBufferOp>())
    return alloc.getDynamicSizes()[type.getDynamicDimIndex(dim)];
  auto arg = cast<BlockArgument>(buffer);
  auto func = cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  SmallVector<StringRef> names = getDimVarNames(func, arg.getArgNumber());
  std::optional<AffineSize> form =
      dim < names.size() ? parseAffineSize(names[dim]) : std::nullopt;
  if (form && !form->terms.empty()) {
    // The variables' values, then the form over them (an index expression,
    // `n * 32`) after the last one the entry computes.
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<Value> inputs;
    AffineExpr expr = getAffineConstantExpr(form->constant, ctx);
    for (auto &[name, coeff] : form->terms) {
      std::optional<FunctionVariable> variable =
          findFunctionVariable(func, name);
      if (!variable)
        break;
      expr = expr + getAffineDimExpr(inputs.size(), ctx) * coeff;
      inputs.push_back(materializeFunctionVariable(rewriter, *variable));
    }
    if (inputs.size() == form->terms.size()) {
      if (form->isVariable())
        return inputs.front();
      OpBuilder::InsertionGuard guard(rewriter);
      Block &entry = func.getFunctionBody().front();
      rewriter.setInsertionPoint(&entry, getAllocationPoint(&entry, inputs));
      return materializeIndexValue(rewriter, buffer.getLoc(), expr, inputs);
    }
  }
  return materializeFunctionVariable(rewriter,
                                     FunctionVariable{Value(), arg, dim});
}
