//===- Analysis.cpp - analyses the schedule primitives share --------------===//

#include "TensorIR/Schedule/Analysis.h"

#include "Utils.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

void mlir::tir::getAccessedBuffers(BlockOp block, SmallVectorImpl<Value> &reads,
                                   SmallVectorImpl<Value> &writes) {
  if (block.hasAccessRegions()) {
    reads.append(block.getReadBuffers().begin(), block.getReadBuffers().end());
    writes.append(block.getWriteBuffers().begin(),
                  block.getWriteBuffers().end());
    return;
  }
  SmallVector<Value> read, written;
  block.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto nested = dyn_cast<BlockOp>(op)) {
      getAccessedBuffers(nested, read, written);
      return WalkResult::skip();
    }
    if (auto load = dyn_cast<LoadOp>(op))
      read.push_back(load.getBuffer());
    else if (auto store = dyn_cast<StoreOp>(op))
      written.push_back(store.getBuffer());
    return WalkResult::advance();
  });
  // As TVMScript infers them: a block with a tir.init (a reduction) does not
  // count the reads of the buffers it writes.
  // Buffers allocated inside the block are its own business.
  bool reduction = static_cast<bool>(block.getInitOp());
  auto local = [&](Value b) {
    Operation *def = b.getDefiningOp();
    return def && block->isProperAncestor(def);
  };
  for (Value b : read)
    if (!local(b) && !(reduction && llvm::is_contained(written, b)))
      reads.push_back(b);
  for (Value b : written)
    if (!local(b))
      writes.push_back(b);
}

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

static bool writesShared(BlockOp block, ArrayRef<BlockOp> scope,
                         ArrayRef<Value> writes) {
  for (BlockOp other : scope) {
    if (other == block)
      continue;
    SmallVector<Value> otherReads, otherWrites;
    getAccessedBuffers(other, otherReads, otherWrites);
    if (llvm::any_of(otherWrites,
                     [&](Value b) { return llvm::is_contained(writes, b); }))
      return true;
  }
  return false;
}

int mlir::tir::getCompleteBlockViolation(BlockOp block,
                                         ArrayRef<BlockOp> scope) {
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    if (block.getIterType(i) != IterType::Spatial)
      return 1;
  SmallVector<Value> reads, writes;
  getAccessedBuffers(block, reads, writes);
  if (writesShared(block, scope, writes))
    return 2;
  if (llvm::any_of(reads, [&](Value b) { return llvm::is_contained(writes, b); }))
    return 3;
  return 0;
}

int mlir::tir::getReductionBlockViolation(BlockOp block,
                                          ArrayRef<BlockOp> scope) {
  if (!block.getInitOp())
    return 1;
  ValueRange inputs = block.getBindingValues();
  llvm::SmallBitVector loopVars(inputs.size());
  for (auto [i, v] : llvm::enumerate(inputs))
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && isa_and_nonnull<ForOp>(arg.getOwner()->getParentOp()))
      loopVars.set(i);
  for (AffineExpr e : block.getBindingExprs())
    if (!isAffineIn(e, loopVars))
      return 2;
  SmallVector<Value> reduceVars;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    IterType type = block.getIterType(i);
    if (type != IterType::Spatial && type != IterType::Reduce)
      return 3;
    if (type == IterType::Reduce)
      reduceVars.push_back(block.getIterVar(i));
  }
  SmallVector<Value> reads, writes;
  getAccessedBuffers(block, reads, writes);
  if (writesShared(block, scope, writes))
    return 4;
  WalkResult indexed = block.getBody()->walk([&](StoreOp store) {
    if (!llvm::is_contained(writes, store.getBuffer()))
      return WalkResult::advance();
    for (Value index : store.getIndices())
      if (dependsOnAny(index, reduceVars))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return indexed.wasInterrupted() ? 5 : 0;
}

LogicalResult mlir::tir::checkCompactDataflow(ForOp loop, StringRef primitive,
                                              ScheduleError &error) {
  SmallVector<BlockOp> blocks = collectChildBlocks(loop);
  for (BlockOp block : blocks) {
    int complete = getCompleteBlockViolation(block, blocks);
    if (complete == 0)
      continue;
    int reduction = getReductionBlockViolation(block, blocks);
    if (reduction == 0)
      continue;
    static const char *completeRules[] = {
        "", "all its iteration variables are spatial",
        "no other block under the loop writes its outputs",
        "it does not read the buffers it writes"};
    static const char *reductionRules[] = {
        "", "it has a tir.init",
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

namespace {
using Terms = SmallVector<std::pair<AffineExpr, int64_t>>;

/// The terms of `e` that involve the inputs set in `vars`, sorted.
Terms loopTerms(AffineExpr e, const llvm::SmallBitVector &vars) {
  Terms all, out;
  linearTerms(e, 1, all);
  for (auto [term, k] : all) {
    bool involves = false;
    term.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        involves |= d.getPosition() < vars.size() && vars.test(d.getPosition());
    });
    if (involves && k != 0)
      out.push_back({term, k});
  }
  llvm::sort(out, [](auto &a, auto &b) {
    if (a.first != b.first)
      return a.first.getImpl() < b.first.getImpl();
    return a.second < b.second;
  });
  return out;
}

Terms negated(Terms terms) {
  for (auto &t : terms)
    t.second = -t.second;
  return terms;
}
} // namespace

LogicalResult mlir::tir::checkAffineBinding(BlockOp block, ValueRange loopVars,
                                            StringRef primitive,
                                            Operation *culprit,
                                            ScheduleError &error) {
  ValueRange inputs = block.getBindingValues();
  llvm::SmallBitVector vars(inputs.size());
  for (auto [i, v] : llvm::enumerate(inputs))
    if (llvm::is_contained(loopVars, v))
      vars.set(i);
  auto fail = [&](const Twine &why) {
    return refuse(error, culprit,
                  primitive + " needs affine bindings of the loops it "
                              "changes, but block '" +
                      block.getBlockName() + "' " + why);
  };
  SmallVector<Terms> bindingTerms;
  for (auto [i, e] : llvm::enumerate(block.getBindingExprs())) {
    std::string var = "#" + std::to_string(i);
    if (auto names = block.getVarNames())
      var = "'" + cast<StringAttr>((*names)[i]).str() + "'";
    if (!isAffineIn(e, vars))
      return fail("binds " + var + " to an expression that is not "
                  "quasi-affine in them");
    Terms terms = loopTerms(e, vars);
    if (!terms.empty() &&
        llvm::none_of(terms, [](auto &t) { return std::abs(t.second) == 1; }))
      return fail("binds " + var + " with a stride other than 1 over them");
    bindingTerms.push_back(std::move(terms));
  }
  for (IntegerSet set : block.getPredicateSets())
    for (AffineExpr c : getConstraintsOverInputs(set)) {
      Terms terms = loopTerms(c, vars);
      if (terms.empty())
        continue;
      Terms minus = negated(terms);
      llvm::sort(minus, [](auto &a, auto &b) {
        if (a.first != b.first)
          return a.first.getImpl() < b.first.getImpl();
        return a.second < b.second;
      });
      if (!llvm::is_contained(bindingTerms, terms) &&
          !llvm::is_contained(bindingTerms, minus))
        return fail("has a predicate over them that bounds none of its "
                    "bindings");
    }
  return success();
}
