//===- Analysis.cpp - analyses the schedule primitives share --------------===//

#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "TensorIR/Dialect/TIR/Arith/Interval.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Analysis/Presburger/PresburgerRelation.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

bool mlir::tir::dependsOnAny(Value value, ValueRange vars) {
  SmallVector<Value> worklist{value};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (llvm::is_contained(vars, v))
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

static bool intersects(ArrayRef<Value> a, ArrayRef<Value> b) {
  return llvm::any_of(a, [&](Value v) { return llvm::is_contained(b, v); });
}

/// Whether another block of the scope writes one of `block`'s outputs.
static bool writesShared(BlockOp block, const BlockDependences &scope) {
  return llvm::any_of(scope.getWrites(block), [&](Value b) {
    return llvm::any_of(scope.getWriters(b),
                        [&](BlockOp w) { return w != block; });
  });
}

int mlir::tir::getCompleteBlockViolation(BlockOp block,
                                         const BlockDependences &scope) {
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    if (block.getIterType(i) != IterType::Spatial)
      return 1;
  if (writesShared(block, scope))
    return 2;
  if (intersects(scope.getReads(block), scope.getWrites(block)))
    return 3;
  return 0;
}

/// The dependences of `scope`, with `block` in it (at the end when it is
/// not).
static BlockDependences scopeWith(BlockOp block, ArrayRef<BlockOp> scope) {
  if (llvm::is_contained(scope, block))
    return BlockDependences(scope);
  SmallVector<BlockOp> blocks(scope);
  blocks.push_back(block);
  return BlockDependences(blocks);
}

int mlir::tir::getCompleteBlockViolation(BlockOp block,
                                         ArrayRef<BlockOp> scope) {
  return getCompleteBlockViolation(block, scopeWith(block, scope));
}

int mlir::tir::getReductionBlockViolation(BlockOp block,
                                          const BlockDependences &scope) {
  if (!block.getInitOp())
    return 1;
  SmallVector<Value> loops =
      llvm::filter_to_vector(block.getBindingValues(), isLoopVar);
  llvm::SmallBitVector loopVars = bindingInputMask(block, loops);
  for (AffineExpr e : block.getBindingExprs())
    if (!isQuasiAffineIn(e, loopVars))
      return 2;
  SmallVector<Value> reduceVars;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    IterType type = block.getIterType(i);
    if (type != IterType::Spatial && type != IterType::Reduce)
      return 3;
    if (type == IterType::Reduce)
      reduceVars.push_back(block.getIterVar(i));
  }
  if (writesShared(block, scope))
    return 4;
  ArrayRef<Value> writes = scope.getWrites(block);
  WalkResult indexed = block.getBody()->walk([&](StoreOp store) {
    if (!llvm::is_contained(writes, store.getBuffer()))
      return WalkResult::advance();
    // Only the operands the index map uses index the buffer.
    AffineMap map = store.getMap();
    for (auto [pos, index] : llvm::enumerate(store.getIndices())) {
      bool used = pos < map.getNumDims()
                      ? map.isFunctionOfDim(pos)
                      : map.isFunctionOfSymbol(pos - map.getNumDims());
      if (used && dependsOnAny(index, reduceVars))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return indexed.wasInterrupted() ? 5 : 0;
}

int mlir::tir::getReductionBlockViolation(BlockOp block,
                                          ArrayRef<BlockOp> scope) {
  return getReductionBlockViolation(block, scopeWith(block, scope));
}

StringRef mlir::tir::describeCompleteBlockViolation(int rule) {
  static const char *rules[] = {"",
                                "not all its iteration variables are spatial",
                                "another block of its scope writes its outputs",
                                "it reads a buffer it writes"};
  return rules[rule];
}

StringRef mlir::tir::describeReductionBlockViolation(int rule) {
  static const char *rules[] = {
      "",
      "it has no tir.init",
      "a binding is not quasi-affine",
      "an iteration variable is neither spatial nor reduce",
      "another block of its scope writes its outputs",
      "a reduce variable indexes a buffer it writes"};
  return rules[rule];
}

LogicalResult mlir::tir::checkCompactDataflow(ForOp loop, StringRef primitive,
                                              ScheduleError &error) {
  SmallVector<BlockOp> blocks = collectChildBlocks(loop);
  BlockDependences scope(blocks);
  for (BlockOp block : blocks) {
    int complete = getCompleteBlockViolation(block, scope);
    if (complete == 0)
      continue;
    int reduction = getReductionBlockViolation(block, scope);
    if (reduction == 0)
      continue;
    static const char *completeRules[] = {
        "", "all its iteration variables are spatial",
        "no other block under the loop writes its outputs",
        "it does not read the buffers it writes"};
    static const char *reductionRules[] = {
        "",
        "it has a tir.init",
        "its bindings are quasi-affine in the loops",
        "its iteration variables are spatial or reduce",
        "no other block under the loop writes its outputs",
        "no reduce variable indexes the buffers it writes"};
    return refuse(error, loop,
                  primitive + " needs compact data flow under loop " +
                      loopName(loop) + ", but block '" + block.getBlockName() +
                      "' is neither a complete block (one where " +
                      completeRules[complete] +
                      ") nor a reduction block (one where " +
                      reductionRules[reduction] + ")");
  }
  return success();
}

LogicalResult mlir::tir::checkStagePipeline(StringRef primitive,
                                            const BlockDependences &scope,
                                            ScheduleError &error) {
  for (BlockOp block : scope.getBlocks())
    for (Dependence d : scope.getDependents(block))
      if (d.kind == DependenceKind::WriteAfterRead)
        return refuse(error, d.dst,
                      primitive +
                          " needs a scope that is a stage pipeline (TVM: no "
                          "write-after-read dependence), but block '" +
                          d.dst.getBlockName() +
                          "' writes a buffer that block '" +
                          d.src.getBlockName() + "' before it reads");
  return success();
}

FailureOr<BlockOp> mlir::tir::getSingleChildBlock(ForOp loop,
                                                  StringRef primitive,
                                                  ScheduleError &error) {
  SmallVector<BlockOp> children = collectChildBlocks(loop);
  if (children.size() != 1)
    return refuse(error, loop,
                  primitive + " needs loop " + loopName(loop) +
                      " to hold exactly one block, but it holds " +
                      Twine(children.size()));
  return children.front();
}

LogicalResult mlir::tir::checkWritesApart(ForOp loop, BlockOp block,
                                          StringRef primitive,
                                          ScheduleError &error) {
  if (!block.getIterVarsFedBy(loop.getInductionVar()).empty())
    return success();
  Value shared;
  block->walk([&](StoreOp store) {
    Value buffer = store.getBuffer();
    auto space =
        dyn_cast_if_present<StringAttr>(store.getBufferType().getMemorySpace());
    Operation *def = buffer.getDefiningOp();
    bool inside = def && loop->isAncestor(def);
    if (!inside && !(space && space.getValue() == "local") && !shared)
      shared = buffer;
  });
  if (!shared)
    return success();
  return refuse(error, block,
                primitive + " needs the threads of loop " + loopName(loop) +
                    " to write apart, but block '" + block.getBlockName() +
                    "', which the loop does not feed, writes the same "
                    "elements of '" +
                    getBufferName(shared) +
                    "' in every iteration (a race between the threads)");
}

/// Whether the region `produced` covers `consumed` (both over their own
/// inputs) within a buffer of `shape`: in each dimension the consumed
/// range, cut to the buffer, lies inside the produced one, by constant
/// differences of the bounds.
static bool coversRegion(const LoopRegion &produced, const LoopRegion &consumed,
                         ArrayRef<int64_t> shape, MLIRContext *ctx) {
  // Both regions over one list of values.
  SmallVector<Value> values(produced.inputs);
  SmallVector<AffineExpr> dims;
  for (Value v : consumed.inputs) {
    unsigned k = llvm::find(values, v) - values.begin();
    if (k == values.size())
      values.push_back(v);
    dims.push_back(getAffineDimExpr(k, ctx));
  }
  auto constantOf = [&](AffineExpr e) -> std::optional<int64_t> {
    e = simplifyIndexExpr(e, values.size(), 0);
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return c.getValue();
    return std::nullopt;
  };
  for (unsigned d = 0; d < shape.size(); ++d) {
    AffineExpr pLo = produced.lowers[d];
    AffineExpr pHi = pLo + produced.extents[d];
    AffineExpr cLo = consumed.lowers[d].replaceDims(dims);
    AffineExpr cHi = cLo + consumed.extents[d].replaceDims(dims);
    // The consumed range cut to the buffer, where its bounds are known.
    if (std::optional<int64_t> lo = constantOf(cLo); lo && *lo < 0)
      cLo = getAffineConstantExpr(0, ctx);
    if (std::optional<int64_t> hi = constantOf(cHi);
        hi && !ShapedType::isDynamic(shape[d]) && *hi > shape[d])
      cHi = getAffineConstantExpr(shape[d], ctx);
    std::optional<int64_t> below = constantOf(cLo - pLo);
    std::optional<int64_t> above = constantOf(pHi - cHi);
    if (!below || !above || *below < 0 || *above < 0)
      return false;
  }
  return true;
}

/// The first region `consumer` reads that its producers in `scope` (at
/// one lowest common ancestor) may not cover: the buffer and its first
/// writer, with why the regions could not be compared ("" when they
/// could); nullopt when every read is covered.
static std::optional<std::tuple<Value, BlockOp, std::string>>
findUncoveredRead(BlockOp consumer, const BlockDependences &scope) {
  // The producers of the consumer, by their lowest common ancestor with it
  // (a loop, or the scope root).
  llvm::MapVector<Operation *, SmallVector<BlockOp>> byAncestor;
  for (Dependence d : scope.getDependences(consumer)) {
    if (d.kind != DependenceKind::ReadAfterWrite)
      continue;
    Operation *lca = d.src->getParentOp();
    while (!lca->isAncestor(consumer))
      lca = lca->getParentOp();
    byAncestor[lca].push_back(d.src);
  }
  for (auto &[lca, producers] : byAncestor) {
    for (Value buffer : scope.getReads(consumer)) {
      SmallVector<BlockOp> writers;
      for (BlockOp p : producers)
        if (llvm::is_contained(scope.getWrites(p), buffer))
          writers.push_back(p);
      if (writers.empty())
        continue;
      Refusal failure;
      FailureOr<LoopRegion> produced =
          relaxRegionUnder(lca, buffer, /*writes=*/true, writers, failure);
      FailureOr<LoopRegion> consumed =
          relaxRegionUnder(lca, buffer, /*writes=*/false, consumer, failure);
      auto type = cast<MemRefType>(buffer.getType());
      // A rank-0 buffer has one element, which the writers write.
      if (type.getRank() == 0)
        continue;
      if (succeeded(produced) && succeeded(consumed) && produced->exact &&
          !produced->lowers.empty() && !consumed->lowers.empty() &&
          coversRegion(*produced, *consumed, type.getShape(),
                       buffer.getContext()))
        continue;
      std::string why = failed(produced) || failed(consumed)
                            ? " (" + failure.message + ")"
                            : "";
      return std::make_tuple(buffer, writers.front(), why);
    }
  }
  return std::nullopt;
}

LogicalResult mlir::tir::checkRegionCover(StringRef primitive,
                                          const BlockDependences &scope,
                                          ScheduleError &error) {
  for (BlockOp consumer : scope.getBlocks()) {
    auto uncovered = findUncoveredRead(consumer, scope);
    if (!uncovered)
      continue;
    auto &[buffer, writer, why] = *uncovered;
    return refuse(error, consumer,
                  primitive +
                      " needs a scope that is a stage pipeline (TVM: each "
                      "block reads only what the blocks before it "
                      "write), but block '" +
                      consumer.getBlockName() + "' reads elements of '" +
                      getBufferName(buffer) + "' that block '" +
                      writer.getBlockName() +
                      "' (or the other writers) may not write" + why);
  }
  return success();
}

bool mlir::tir::isRegionCovered(BlockOp consumer,
                                const BlockDependences &scope) {
  return !findUncoveredRead(consumer, scope);
}

BlockFlags mlir::tir::getBlockFlags(Operation *blockOrRoot) {
  BlockFlags flags;
  // Stage pipeline: of the scope the block is the root of.
  BlockDependences children(getScopeBlocks(blockOrRoot));
  ScheduleError ignored;
  flags.stagePipeline = succeeded(checkStagePipeline("", children, ignored)) &&
                        llvm::all_of(children.getBlocks(), [&](BlockOp child) {
                          return isRegionCovered(child, children);
                        });
  auto block = dyn_cast<BlockOp>(blockOrRoot);
  if (!block)
    return flags; // the function, TVM's root block: no bindings, no reads
  // Affine binding: in the loops between the block and its scope root.
  SmallVector<Value> loopVars;
  for (Operation *p = block->getParentOp();
       auto loop = dyn_cast_or_null<ForOp>(p); p = p->getParentOp())
    loopVars.push_back(loop.getInductionVar());
  flags.affineBinding =
      loopVars.empty() ||
      succeeded(checkAffineBinding(block, loopVars, "", block, ignored));
  // Region cover: among the blocks of its own scope.
  BlockDependences siblings(getScopeBlocks(getScopeRoot(block)));
  flags.regionCover = isRegionCovered(block, siblings);
  return flags;
}

LogicalResult mlir::tir::checkAffineBinding(BlockOp block, ValueRange loopVars,
                                            StringRef primitive,
                                            Operation *culprit,
                                            ScheduleError &error) {
  llvm::SmallBitVector vars = bindingInputMask(block, loopVars);
  auto fail = [&](const Twine &why) {
    return refuse(error, culprit,
                  primitive +
                      " needs affine bindings of the loops it "
                      "changes, but block '" +
                      block.getBlockName() + "' " + why);
  };
  // The terms of an expression that involve the loops, sorted.
  auto loopTerms = [&](AffineExpr e) {
    return AffineTerms::get(e)
        .filter([&](AffineExpr term) { return involvesDims(term, vars); })
        .sorted();
  };
  SmallVector<AffineTerms> bindingTerms;
  // The sums a binding divides or takes modulo (`(i0 * 16 + i1) floordiv 7`):
  // TVM's fused iterators, which a predicate may bound as well.
  SmallVector<AffineTerms> dividendTerms;
  for (auto [i, e] : llvm::enumerate(block.getBindingExprs())) {
    std::string var = iterVarLabel(block, i);
    if (!isQuasiAffineIn(e, vars))
      return fail("binds " + var +
                  " to an expression that is not "
                  "quasi-affine in them");
    AffineTerms terms = loopTerms(e);
    if (!terms.isConstant() && llvm::none_of(terms.terms, [](auto &t) {
          return std::abs(t.second) == 1;
        }))
      return fail("binds " + var + " with a stride other than 1 over them");
    for (auto &[term, coeff] : terms.terms) {
      AffineExpr inner = term;
      while (inner.getKind() == AffineExprKind::FloorDiv ||
             inner.getKind() == AffineExprKind::CeilDiv ||
             inner.getKind() == AffineExprKind::Mod)
        inner = cast<AffineBinaryOpExpr>(inner).getLHS();
      if (inner == term)
        continue;
      AffineTerms sum = loopTerms(inner);
      if (!sum.isConstant())
        dividendTerms.push_back(std::move(sum));
    }
    bindingTerms.push_back(std::move(terms));
  }
  // Consecutive bindings fused (TVM's fused iterator of several block
  // variables: `v0 * 8 + v1` for v1 of extent 8), simplified over the
  // loops, as a split of a fused loop of dynamic extent predicates them
  // (`(f0 * 256 + f1) * 1024 + f2 < n * 8`, the bindings
  // `(f0 * 256 + f1) * 128 + f2 floordiv 8` and `f2 mod 8`): where a loop
  // feeds two of them, as it does there (bindings of loops of their own,
  // `i` and `j` under `i * 8 + j < 50`, are no fused iterator).
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  unsigned numInputs = block.getBindingValues().size();
  bool overInputs = llvm::all_of(bindings, [&](AffineExpr e) {
    bool inside = true;
    e.walk([&](AffineExpr sub) {
      auto dim = dyn_cast<AffineDimExpr>(sub);
      inside &= !isa<AffineSymbolExpr>(sub) &&
                (!dim || dim.getPosition() < numInputs);
    });
    return inside;
  });
  auto loopsOf = [&](AffineExpr e) {
    llvm::SmallBitVector used(numInputs);
    e.walk([&](AffineExpr sub) {
      if (auto dim = dyn_cast<AffineDimExpr>(sub);
          dim && dim.getPosition() < vars.size() && vars[dim.getPosition()])
        used.set(dim.getPosition());
    });
    return used;
  };
  SmallVector<AffineTerms> fusedBindingTerms;
  for (unsigned first = 0; overInputs && first < bindings.size(); ++first) {
    AffineExpr fused = bindings[first];
    llvm::SmallBitVector loops = loopsOf(fused);
    bool shared = false;
    for (unsigned next = first + 1; next < bindings.size(); ++next) {
      std::optional<int64_t> lo = block.getConstantDomainLower(next);
      std::optional<int64_t> hi = block.getConstantDomainUpper(next);
      if (!lo || !hi || *lo != 0)
        break;
      fused = fused * *hi + bindings[next];
      llvm::SmallBitVector nextLoops = loopsOf(bindings[next]);
      shared |= loops.anyCommon(nextLoops);
      loops |= nextLoops;
      if (shared)
        fusedBindingTerms.push_back(
            loopTerms(simplifyAffineExpr(fused, numInputs, 0)));
    }
  }
  auto isFused = [&](const AffineTerms &t) {
    return llvm::is_contained(bindingTerms, t) ||
           llvm::is_contained(dividendTerms, t) ||
           llvm::is_contained(fusedBindingTerms, t);
  };
  for (IntegerSet set : block.getPredicateSets())
    for (AffineExpr c : getConstraintsOverInputs(set)) {
      AffineTerms terms = loopTerms(c);
      if (terms.isConstant())
        continue;
      AffineTerms minus;
      minus.add(terms, -1);
      if (!isFused(terms) && !isFused(minus.sorted()))
        return fail("has a predicate over them that bounds none of its "
                    "bindings");
    }
  return success();
}

FailureOr<LoopRegion> mlir::tir::relaxRegionUnderLoop(ForOp loop, Value buffer,
                                                      bool writes,
                                                      ArrayRef<BlockOp> blocks,
                                                      StringRef primitive,
                                                      ScheduleError &error) {
  Refusal failure;
  FailureOr<LoopRegion> region =
      relaxRegionUnderLoop(loop, buffer, writes, blocks, failure);
  if (mlir::failed(region))
    return refuse(error, failure.culprit, primitive + " " + failure.message);
  return region;
}

bool mlir::tir::isPredicateImpliedByDomains(BlockOp block) {
  SmallVector<IntegerSet> sets = block.getPredicateSets();
  if (sets.empty())
    return true;
  MLIRContext *ctx = block.getContext();
  ValueRange values = block.getBindingValues();
  unsigned n = values.size();
  SmallVector<std::optional<Interval>> ranges = getValueRanges(values);
  // A set over the binding values (input space, every input a dimension)
  // with their known ranges, as a Presburger set; nullopt where it is not
  // affine.
  auto toSet =
      [&](ArrayRef<AffineExpr> constraints,
          ArrayRef<bool> eqFlags) -> std::optional<presburger::PresburgerSet> {
    for (AffineExpr e : constraints)
      if (!e.isPureAffine())
        return std::nullopt;
    FlatLinearValueConstraints cst(IntegerSet::get(n, 0, constraints, eqFlags));
    for (unsigned pos = 0; pos < n; ++pos) {
      if (!ranges[pos])
        continue;
      cst.addBound(presburger::BoundType::LB, pos, ranges[pos]->lo);
      cst.addBound(presburger::BoundType::UB, pos, ranges[pos]->hi);
    }
    cst.resetIds();
    return presburger::PresburgerSet(cst);
  };
  // The points whose bindings lie in the domains.
  SmallVector<AffineExpr> inDomain;
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    std::optional<int64_t> lo = block.getConstantDomainLower(i);
    std::optional<int64_t> hi = block.getConstantDomainUpper(i);
    if (!lo || !hi)
      return false;
    inDomain.push_back(bindings[i] - *lo);
    inDomain.push_back(*hi - 1 - bindings[i]);
  }
  if (inDomain.empty())
    inDomain.push_back(getAffineConstantExpr(0, ctx));
  std::optional<presburger::PresburgerSet> domain =
      toSet(inDomain, SmallVector<bool>(inDomain.size(), false));
  if (!domain)
    return false;
  presburger::PresburgerSet allowed =
      presburger::PresburgerSet::getEmpty(domain->getSpace());
  for (IntegerSet set : sets) {
    SmallVector<AffineExpr> constraints = getConstraintsOverInputs(set);
    SmallVector<bool> eqFlags(set.getEqFlags());
    std::optional<presburger::PresburgerSet> disjunct =
        toSet(constraints, eqFlags);
    if (!disjunct)
      return false;
    allowed = allowed.unionSet(*disjunct);
  }
  return domain->subtract(allowed).isIntegerEmpty();
}
