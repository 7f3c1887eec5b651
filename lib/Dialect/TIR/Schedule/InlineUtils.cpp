//===- InlineUtils.cpp - what compute_inline and its reverse share --------===//

#include "InlineUtils.h"
#include "TensorIR/Dialect/TIR/IR/ThreadDiagnostics.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Digits.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

//===----------------------------------------------------------------------===//
// Body pattern and scope rules
//===----------------------------------------------------------------------===//

StoreOp sched::getSingleStore(BlockOp block) {
  StoreOp store;
  for (Operation &op : *block.getBody()) {
    // The init is not part of TVM's body (callers decide about it).
    if (isa<InitOp>(op))
      continue;
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (store)
        return {};
      store = s;
      continue;
    }
    WalkResult r = op.walk([&](Operation *nested) {
      if (isa<BlockOp, ForOp, InitOp, AllocBufferOp, AllocateConstOp,
              MatchBufferOp, StoreOp>(nested))
        return WalkResult::interrupt();
      if (isa<LoadOp>(nested) ||
          nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance();
      // A call is an expression when its result is used (TVM's Call in the
      // stored value), a statement otherwise.
      if (isa<CallOp>(nested))
        return llvm::any_of(nested->getResults(),
                            [](Value v) { return !v.use_empty(); })
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      return isMemoryEffectFree(nested) ? WalkResult::advance()
                                        : WalkResult::interrupt();
    });
    if (r.wasInterrupted())
      return {};
  }
  return store;
}

bool sched::isAllocatedIn(Value buffer, Operation *root) {
  auto alloc = buffer.getDefiningOp<AllocBufferOp>();
  return alloc && alloc->getParentOp() == root;
}

LogicalResult sched::checkNoOpaqueUse(StringRef primitive, Value buffer,
                                      ScheduleError &error) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (auto load = dyn_cast<LoadOp>(user);
        load && load.getBuffer() == buffer &&
        !llvm::is_contained(load.getIndices(), buffer))
      continue;
    if (auto store = dyn_cast<StoreOp>(user);
        store && &use == &store.getBufferMutable())
      continue;
    if (auto block = dyn_cast<BlockOp>(user)) {
      unsigned n = use.getOperandNumber();
      auto within = [&](OperandRange range) {
        return !range.empty() && n >= range.getBeginOperandIndex() &&
               n < range.getBeginOperandIndex() + range.size();
      };
      if (within(block.getReadBuffers()) || within(block.getWriteBuffers()))
        continue;
    }
    std::string what = user->getName().getStringRef().str();
    if (auto call = dyn_cast<CallOp>(user))
      what += " \"" + call.getCallee().str() + "\"";
    return refuse(error, user,
                  primitive +
                      " needs the buffer accessed only by loads and "
                      "stores, but '" +
                      what +
                      "' takes it (TVM: the buffer to be inlined has opaque "
                      "access, or its subregion is matched into other "
                      "blocks)");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Inverse of an index map
//===----------------------------------------------------------------------===//

namespace {
/// `(sum floordiv div) mod mod` of one index.
struct IndexPart {
  unsigned index;
  AffineTerms sum;
  int64_t div = 1;
  std::optional<int64_t> mod;
};
} // namespace

static std::optional<IndexPart> parsePart(unsigned index, AffineExpr e) {
  IndexDigit digit = getIndexDigit(e);
  IndexPart part{index, AffineTerms::get(digit.base), digit.divisor,
                 digit.extent};
  for (auto [term, coefficient] : part.sum.terms)
    if (!isa<AffineDimExpr>(term) || coefficient <= 0)
      return std::nullopt;
  return part;
}

static FailureOr<IndexInverse>
invertIndicesAsWritten(ArrayRef<AffineExpr> indices,
                       ArrayRef<std::optional<int64_t>> extents,
                       const llvm::SmallBitVector &needed, Refusal &why);

FailureOr<IndexInverse>
sched::invertIndices(ArrayRef<AffineExpr> indices,
                     ArrayRef<std::optional<int64_t>> extents,
                     const llvm::SmallBitVector &needed, Refusal &why) {
  FailureOr<IndexInverse> inverse =
      invertIndicesAsWritten(indices, extents, needed, why);
  if (succeeded(inverse))
    return inverse;
  // Failing that, the indices simplified with the variables' extents
  // (`v floordiv 128` is 0 for v in [0, 128)), as TVM's analyzer knows
  // them; the first refusal is the one reported.
  SmallVector<std::optional<Interval>> ranges;
  for (std::optional<int64_t> extent : extents)
    ranges.push_back(extent && *extent > 0
                         ? std::optional<Interval>(Interval{0, *extent - 1})
                         : std::nullopt);
  SmallVector<AffineExpr> simplified;
  for (AffineExpr e : indices)
    simplified.push_back(simplifyWithRanges(e, ranges, extents.size(), 0));
  Refusal ignored;
  inverse = invertIndicesAsWritten(simplified, extents, needed, ignored);
  return inverse;
}

static FailureOr<IndexInverse>
invertIndicesAsWritten(ArrayRef<AffineExpr> indices,
                       ArrayRef<std::optional<int64_t>> extents,
                       const llvm::SmallBitVector &needed, Refusal &why) {
  MLIRContext *ctx = indices.empty() ? nullptr : indices.front().getContext();
  IndexInverse inverse;
  inverse.vars.resize(extents.size());
  // Group the parts by their sum.
  SmallVector<SmallVector<IndexPart>> groups;
  for (auto [k, e] : llvm::enumerate(indices)) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      inverse.constants.push_back({k, c.getValue()});
      continue;
    }
    std::optional<IndexPart> part = parsePart(k, e);
    if (!part) {
      why.message =
          "index " + std::to_string(k) +
          " is not an affine sum of iteration variables with positive "
          "coefficients, or one divided or taken modulo by a constant";
      return failure();
    }
    auto same = llvm::find_if(groups, [&](const SmallVector<IndexPart> &g) {
      return g.front().sum.sorted() == part->sum.sorted();
    });
    if (same == groups.end())
      groups.push_back({*part});
    else
      same->push_back(*part);
  }
  for (SmallVector<IndexPart> &group : groups) {
    llvm::sort(group, [](const IndexPart &a, const IndexPart &b) {
      return a.div > b.div;
    });
    // The parts re-split the sum: S = sum of p_k * div_k.
    if (group.back().div != 1) {
      why.message =
          "index " + std::to_string(group.back().index) +
          " leaves out the low part of its sum (no index of divisor 1)";
      return failure();
    }
    AffineExpr value = getAffineConstantExpr(0, ctx);
    for (unsigned i = 0; i < group.size(); ++i) {
      const IndexPart &part = group[i];
      if (i + 1 < group.size()) {
        const IndexPart &next = group[i + 1];
        if (!next.mod || part.div != next.div * *next.mod) {
          why.message = "indices " + std::to_string(part.index) + " and " +
                        std::to_string(next.index) +
                        " do not split their sum into adjacent parts";
          return failure();
        }
      }
      if (i > 0)
        inverse.bounded.push_back({part.index, *part.mod});
      else if (part.mod) {
        why.message = "index " + std::to_string(part.index) +
                      " wraps its sum around (an outermost modulo)";
        return failure();
      }
      value = value + getAffineDimExpr(part.index, ctx) * part.div;
    }
    // S - constant = sum of c_j * v_j in mixed radix: the innermost
    // coefficient 1, each next one the previous times its extent.
    const AffineTerms &sum = group.front().sum;
    value = value - sum.constant;
    SmallVector<std::pair<unsigned, int64_t>> terms;
    for (auto [term, coefficient] : sum.terms)
      terms.push_back({cast<AffineDimExpr>(term).getPosition(), coefficient});
    llvm::sort(terms, [](auto a, auto b) { return a.second > b.second; });
    for (unsigned i = 0; i < terms.size(); ++i) {
      auto [var, coefficient] = terms[i];
      if (inverse.vars[var]) {
        why.message = "iteration variable " + std::to_string(var) +
                      " appears in more than one index";
        return failure();
      }
      int64_t expected = 1;
      if (i + 1 < terms.size()) {
        auto inner = extents[terms[i + 1].first];
        if (!inner) {
          why.message = "iteration variable " +
                        std::to_string(terms[i + 1].first) +
                        " has a runtime extent inside a fused index";
          return failure();
        }
        expected = terms[i + 1].second * *inner;
      }
      if (coefficient != expected) {
        why.message = "the coefficients of index " +
                      std::to_string(group.front().index) +
                      " are not a mixed-radix fuse of iteration variables";
        return failure();
      }
      AffineExpr v = value.floorDiv(coefficient);
      if (i > 0)
        v = v % *extents[var];
      inverse.vars[var] = v;
    }
  }
  for (unsigned var = 0; var < extents.size(); ++var)
    if (needed.test(var) && !inverse.vars[var]) {
      why.message = "iteration variable " + std::to_string(var) +
                    " does not appear in the indices";
      return failure();
    }
  return inverse;
}

std::optional<SmallVector<AffineExpr>>
sched::indicesOverIterVars(Operation *access, BlockOp block,
                           bool keepUnitVars) {
  AffineMap map;
  ValueRange operands;
  if (auto load = dyn_cast<LoadOp>(access)) {
    map = load.getMap();
    operands = load.getIndices();
  } else {
    auto store = cast<StoreOp>(access);
    map = store.getMap();
    operands = store.getIndices();
  }
  MLIRContext *ctx = access->getContext();
  SmallVector<AffineExpr> replacements;
  for (Value v : operands) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != block.getBody())
      return std::nullopt;
    unsigned i = arg.getArgNumber();
    std::optional<int64_t> point = block.getSingleDomainValue(i);
    if (!keepUnitVars && point)
      replacements.push_back(getAffineConstantExpr(*point, ctx));
    else
      replacements.push_back(getAffineDimExpr(i, ctx));
  }
  SmallVector<AffineExpr> exprs;
  unsigned n = block.getNumIterVars();
  for (AffineExpr e : getExprsOverInputs(map))
    exprs.push_back(simplifyIndexExpr(e.replaceDims(replacements), n, 0));
  return exprs;
}

//===----------------------------------------------------------------------===//
// Cloning a computation
//===----------------------------------------------------------------------===//

SmallVector<AffineExpr>
sched::substituteOperands(ArrayRef<AffineExpr> exprs, ValueRange operands,
                          function_ref<AffineExpr(Value)> substitute,
                          ExprInputs &in) {
  SmallVector<AffineExpr> replacements;
  for (Value v : operands) {
    AffineExpr e = substitute(v);
    replacements.push_back(e ? e : in.dimOf(v));
  }
  SmallVector<AffineExpr> out;
  for (AffineExpr e : exprs)
    out.push_back(
        simplifyIndexExpr(e.replaceDims(replacements), in.values.size(), 0));
  return out;
}

void sched::foldAppliesIntoAccesses(RewriterBase &rewriter,
                                    ArrayRef<Operation *> ops,
                                    const DenseSet<Operation *> &applies) {
  MLIRContext *ctx = rewriter.getContext();
  auto substitute = [&](ExprInputs &in) {
    return [&](Value v) -> AffineExpr {
      auto apply = v.getDefiningOp<affine::AffineApplyOp>();
      if (!apply || !applies.contains(apply))
        return AffineExpr();
      SmallVector<AffineExpr> replacements;
      for (Value operand : apply.getMapOperands())
        replacements.push_back(in.dimOf(operand));
      return getExprsOverInputs(apply.getAffineMap())
          .front()
          .replaceDims(replacements);
    };
  };
  auto rewrite = [&](Operation *op, AffineMap map, MutableOperandRange indices,
                     function_ref<void(AffineMapAttr)> setMap) {
    OperandRange current = indices;
    if (llvm::none_of(current, [&](Value v) {
          return v.getDefiningOp() && applies.contains(v.getDefiningOp());
        }))
      return;
    ExprInputs in{ctx, {}};
    SmallVector<Value> operands(current);
    SmallVector<AffineExpr> exprs = substituteOperands(
        getExprsOverInputs(map), operands, substitute(in), in);
    // Only the inputs the indices still use (an apply's map may take
    // inputs its expression does not read).
    llvm::SmallBitVector unused(in.values.size(), true);
    for (AffineExpr e : exprs)
      e.walk([&](AffineExpr sub) {
        if (auto dim = dyn_cast<AffineDimExpr>(sub))
          unused.reset(dim.getPosition());
      });
    SmallVector<Value> used;
    SmallVector<AffineExpr> renumbered;
    for (auto [i, v] : llvm::enumerate(in.values)) {
      renumbered.push_back(getAffineDimExpr(used.size(), ctx));
      if (!unused.test(i))
        used.push_back(v);
    }
    for (AffineExpr &e : exprs)
      e = e.replaceDims(renumbered);
    AffineMap newMap = makeInputMap(used.size(), exprs, ctx);
    rewriter.modifyOpInPlace(op, [&] {
      setMap(AffineMapAttr::get(newMap));
      indices.assign(used);
    });
  };
  for (Operation *root : ops)
    root->walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op))
        rewrite(op, load.getMap(), load.getIndicesMutable(),
                [&](AffineMapAttr m) { load.setMapAttr(m); });
      else if (auto store = dyn_cast<StoreOp>(op))
        rewrite(op, store.getMap(), store.getIndicesMutable(),
                [&](AffineMapAttr m) { store.setMapAttr(m); });
    });
  for (Operation *apply : applies)
    if (apply->use_empty())
      rewriter.eraseOp(apply);
}

void sched::cloneWithIterVars(RewriterBase &rewriter, BlockOp source,
                              Operation *skip, ArrayRef<AffineExpr> vars,
                              ValueRange inputs, IRMapping &mapping,
                              function_ref<bool(Operation *)> drop,
                              SmallVectorImpl<Operation *> *clones) {
  Location loc = source.getLoc();
  DenseSet<Operation *> applies;
  SmallVector<Operation *> constants;
  for (auto [i, e] : llvm::enumerate(vars)) {
    OpFoldResult folded = materializeIndex(rewriter, loc, e, inputs);
    Value v = getValueOrCreateConstantIndexOp(rewriter, loc, folded);
    if (isa<Attribute>(folded))
      constants.push_back(v.getDefiningOp());
    if (auto apply = v.getDefiningOp<affine::AffineApplyOp>())
      applies.insert(apply);
    mapping.map(source.getIterVar(i), v);
  }
  SmallVector<Operation *> created;
  for (Operation &op : *source.getBody()) {
    if (&op == skip || (drop && drop(&op)))
      continue;
    created.push_back(rewriter.clone(op, mapping));
  }
  foldAppliesIntoAccesses(rewriter, created, applies);
  // The value of a unit variable nothing cloned uses (its accesses took
  // the constant into their maps).
  for (Operation *constant : constants)
    if (constant->use_empty())
      rewriter.eraseOp(constant);
  if (clones)
    clones->append(created);
}

//===----------------------------------------------------------------------===//
// Clean-up
//===----------------------------------------------------------------------===//

void sched::eraseBlockAndEmptyLoops(RewriterBase &rewriter, BlockOp block,
                                    Operation *root) {
  Operation *parent = block->getParentOp();
  rewriter.eraseOp(block);
  eraseEmptyLoops(rewriter, parent, root);
}

void sched::updateListedRegions(RewriterBase &rewriter, BlockOp block,
                                Value removed) {
  if (!block.hasAccessRegions())
    return;
  MLIRContext *ctx = block.getContext();
  // Infer on a copy that lists nothing.
  OwningOpRef<BlockOp> copy = cast<BlockOp>(block->clone());
  copy->getReadBuffersMutable().clear();
  copy->getWriteBuffersMutable().clear();
  copy->getRegionValuesMutable().clear();
  copy->removeReadRegionsAttr();
  copy->removeWriteRegionsAttr();
  {
    ThreadDiagnosticHandler silence(ctx,
                                    [](Diagnostic &) { return success(); });
    if (failed(inferAccessRegions(*copy)))
      return;
  }
  unsigned numVars = block.getNumIterVars();
  // Region values: the block's, then those the copy adds.
  SmallVector<Value> values(block.getRegionValues());
  SmallVector<AffineExpr> fromCopy;
  for (unsigned i = 0; i < numVars; ++i)
    fromCopy.push_back(getAffineDimExpr(i, ctx));
  for (Value v : copy->getRegionValues()) {
    auto it = llvm::find(values, v);
    if (it == values.end()) {
      values.push_back(v);
      it = std::prev(values.end());
    }
    fromCopy.push_back(getAffineDimExpr(numVars + (it - values.begin()), ctx));
  }
  unsigned numInputs = numVars + values.size();
  auto widen = [&](Attribute attr, ArrayRef<AffineExpr> dims) -> Attribute {
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e :
         getExprsOverInputs(cast<AffineMapAttr>(attr).getValue()))
      exprs.push_back(e.replaceDims(dims));
    return AffineMapAttr::get(makeInputMap(numInputs, exprs, ctx));
  };
  SmallVector<AffineExpr> fromBlock;
  for (unsigned i = 0; i < numVars + block.getRegionValues().size(); ++i)
    fromBlock.push_back(getAffineDimExpr(i, ctx));
  // A buffer passed to a call may be accessed beyond what loads show: its
  // listed region stays.
  auto takenByCall = [&](Value buffer) {
    WalkResult r = block.getBody()->walk([&](CallOp call) {
      return llvm::is_contained(call->getOperands(), buffer)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    return r.wasInterrupted();
  };
  auto merge = [&](OperandRange oldBuffers, ArrayAttr oldMaps,
                   OperandRange newBuffers, ArrayAttr newMaps,
                   SmallVector<Value> &buffers, SmallVector<Attribute> &maps) {
    auto inferred = [&](Value buffer) -> Attribute {
      for (auto [b, m] : llvm::zip(newBuffers, newMaps))
        if (b == buffer)
          return widen(m, fromCopy);
      return {};
    };
    SmallVector<Value> added;
    SmallVector<Attribute> addedMaps;
    for (auto [b, m] : llvm::zip(newBuffers, newMaps))
      if (b != removed && !llvm::is_contained(oldBuffers, b)) {
        added.push_back(b);
        addedMaps.push_back(widen(m, fromCopy));
      }
    bool spliced = false;
    for (auto [b, m] : llvm::zip(oldBuffers, oldMaps)) {
      if (b == removed) {
        if (!spliced) {
          buffers.append(added);
          maps.append(addedMaps);
        }
        spliced = true;
        continue;
      }
      Attribute region = widen(m, fromBlock);
      if (Attribute grown = inferred(b); grown && !takenByCall(b))
        region = grown;
      buffers.push_back(b);
      maps.push_back(region);
    }
    if (!spliced) {
      buffers.append(added);
      maps.append(addedMaps);
    }
  };
  SmallVector<Value> reads, writes;
  SmallVector<Attribute> readMaps, writeMaps;
  merge(block.getReadBuffers(), *block.getReadRegions(), copy->getReadBuffers(),
        *copy->getReadRegions(), reads, readMaps);
  merge(block.getWriteBuffers(), *block.getWriteRegions(),
        copy->getWriteBuffers(), *copy->getWriteRegions(), writes, writeMaps);
  rewriter.modifyOpInPlace(block, [&] {
    block.getRegionValuesMutable().assign(values);
    block.getReadBuffersMutable().assign(reads);
    block.getWriteBuffersMutable().assign(writes);
    block.setReadRegionsAttr(ArrayAttr::get(ctx, readMaps));
    block.setWriteRegionsAttr(ArrayAttr::get(ctx, writeMaps));
  });
}

void sched::rebuildIterVars(RewriterBase &rewriter, BlockOp block,
                            ArrayRef<IterVarSpec> vars, ArrayRef<Value> values,
                            ArrayRef<Conjunction> disjuncts,
                            ArrayRef<AffineExpr> oldVars) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(block);
  auto rebuilt = BlockOp::create(rewriter, block.getLoc(), block.getBlockName(),
                                 vars, values);
  if (DictionaryAttr annotations = block.getAnnotationsAttr())
    rebuilt.setAnnotationsAttr(annotations);
  SmallVector<AffineExpr> bindings;
  for (const IterVarSpec &v : vars)
    bindings.push_back(v.binding);
  setBindingsAndPredicate(rebuilt, values, bindings, disjuncts);
  SmallVector<Value> newVars;
  for (unsigned i = 0; i < rebuilt.getNumIterVars(); ++i)
    newVars.push_back(rebuilt.getIterVar(i));
  rewriter.setInsertionPointToStart(rebuilt.getBody());
  IRMapping mapping;
  cloneWithIterVars(rewriter, block, /*skip=*/nullptr, oldVars, newVars,
                    mapping);
  if (block.hasAccessRegions())
    setInferredRegions(rebuilt);
  adoptRebuiltBlock(rewriter, block, rebuilt);
}
