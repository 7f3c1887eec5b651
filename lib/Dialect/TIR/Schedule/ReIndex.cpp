//===- ReIndex.cpp - TVM's reindex ----------------------------------------===//
//
// A buffer a block accesses in one way (`A[vj, vi]`, `PadInput[n, h * 2 +
// rh, ...]`) gets a copy indexed by the block's own iteration variables
// (`A_reindex[vi, vj]`, `PadInput_reindex[n, h, w, rh, rw, rc]`): the block
// accesses the copy at its variables, and a stage next to the block's loop
// nest does the original indexing, over loops spanning those variables'
// domains. The stage copies in before the nest (a read buffer) or out after
// it (a write buffer). It is how a buffer gets the block's iteration space
// as its layout, ahead of transform_layout or tensorize.
//
//===----------------------------------------------------------------------===//

#include "CacheStage.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kReindex = "reindex";

namespace {
/// The one index list with which a block accesses a buffer: expressions in
/// input space over `inputs` (the block's iteration variables first).
struct AccessIndices {
  SmallVector<Value> inputs;
  SmallVector<AffineExpr> exprs;
};

/// What reindex does, decided before anything changes.
struct ReindexPlan {
  Value buffer;
  std::string name;
  Operation *root = nullptr;
  /// The statement of the scope that holds the block (the stage goes
  /// before or after it).
  Operation *nest = nullptr;
  AccessIndices indices;
  /// The iteration variables the indices use, in block order, and the
  /// copy's shape (their domains).
  SmallVector<unsigned> covered;
  SmallVector<int64_t> shape;
};
} // namespace

/// The indices of an access (`map` over `operands`) over `inputs`, which
/// gains the operands it lacks.
static SmallVector<AffineExpr> indicesOver(AffineMap map, ValueRange operands,
                                           SmallVectorImpl<Value> &inputs) {
  SmallVector<AffineExpr> at;
  for (Value v : operands) {
    auto it = llvm::find(inputs, v);
    at.push_back(getAffineDimExpr(it - inputs.begin(), map.getContext()));
    if (it == inputs.end())
      inputs.push_back(v);
  }
  SmallVector<AffineExpr> exprs;
  for (AffineExpr e : getExprsOverInputs(map))
    exprs.push_back(e.replaceDims(at));
  return exprs;
}

/// TVM's ReIndexCollector: `block` is a leaf block whose loads and stores
/// of `buffer` (its tir.init's included) all use the same indices, and
/// nothing else uses the buffer there.
static FailureOr<AccessIndices> collectIndices(BlockOp block, Value buffer,
                                               ScheduleError &error) {
  std::string name = getCachedBufferName(buffer);
  AccessIndices result;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    result.inputs.push_back(block.getIterVar(i));
  bool found = false;
  Operation *culprit = nullptr;
  std::string why;
  block.getBody()->walk([&](Operation *op) {
    if (isa<BlockOp>(op)) {
      culprit = op;
      why = "is not a leaf block: block '" +
            cast<BlockOp>(op).getBlockName().str() + "' is inside it";
      return WalkResult::interrupt();
    }
    if (!llvm::is_contained(op->getOperands(), buffer))
      return WalkResult::advance();
    AffineMap map;
    ValueRange operands;
    if (auto load = dyn_cast<LoadOp>(op)) {
      map = load.getMap();
      operands = load.getIndices();
    } else if (auto store = dyn_cast<StoreOp>(op);
               store && store.getBuffer() == buffer &&
               store.getValue() != buffer) {
      map = store.getMap();
      operands = store.getIndices();
    } else {
      culprit = op;
      why = "uses buffer '" + name + "' other than by loading or storing " +
            "elements ('" + op->getName().getStringRef().str() + "')";
      return WalkResult::interrupt();
    }
    SmallVector<AffineExpr> exprs = indicesOver(map, operands, result.inputs);
    if (!found) {
      found = true;
      result.exprs = std::move(exprs);
      return WalkResult::advance();
    }
    for (auto [a, b] : llvm::zip(result.exprs, exprs))
      if (simplifyOverValues(a - b, result.inputs) !=
          getAffineConstantExpr(0, block.getContext())) {
        culprit = op;
        why = "accesses buffer '" + name +
              "' at more than one index (each access would need its own "
              "copy)";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (culprit)
    return refuse(error, block,
                  Twine(kReindex) + ": block '" + block.getBlockName() + "' " +
                      why);
  if (!found)
    return refuse(error, block,
                  Twine(kReindex) + ": block '" + block.getBlockName() +
                      "' does not load or store buffer '" + name + "'");
  // As TVM, each index is simplified with the variables' domains
  // (`co floordiv 64 * 3 + rc` is `rc` for co in [0, 64)), unless it
  // becomes a constant (a unit variable keeps its dimension).
  for (AffineExpr &e : result.exprs)
    e = simplifyNonTrivial(e, result.inputs);
  return result;
}

/// The statement of `scope`'s body holding `block`, which must be the only
/// statement of each loop between them (TVM's chain of loops).
static FailureOr<Operation *> getNestRoot(BlockOp block, Operation *scope,
                                          ScheduleError &error) {
  Operation *op = block;
  while (op->getParentOp() != scope) {
    auto loop = dyn_cast<ForOp>(op->getParentOp());
    if (!loop)
      return refuse(error, block,
                    Twine(kReindex) + ": block '" + block.getBlockName() +
                        "' is not in a nest of loops directly under its "
                        "scope");
    if (!llvm::hasSingleElement(loop.getBody()->without_terminator()))
      return refuse(error, loop,
                    Twine(kReindex) + ": loop " + loopName(loop) +
                        " holds more than block '" + block.getBlockName() +
                        "'s nest (the copy goes next to a chain of loops "
                        "around the block alone)");
    op = loop;
  }
  return op;
}

/// Every rule reindex checks, and the plan when they hold.
static FailureOr<ReindexPlan> analyze(BlockOp block, int64_t bufferIndex,
                                      bool isWrite, ScheduleError &error) {
  FailureOr<Value> found =
      getNthAccessBuffer(block, bufferIndex, isWrite, kReindex, error);
  if (failed(found))
    return failure();
  Value buffer = *found;
  // A write through an empty nest writes nothing the copy back could take.
  if (isWrite && failed(checkNoEmptyNestAround(block, kReindex, error)))
    return failure();
  std::string name = getCachedBufferName(buffer);
  Operation *root = getScopeRoot(block);
  BlockDependences deps(getScopeBlocks(root));
  ArrayRef<Value> writes = deps.getWrites(block);
  if (failed(checkStagePipeline(kReindex, deps, error)))
    return failure();
  // The block would access the copy for all of its accesses, so a buffer
  // it both reads and writes is copied out (write) only, and then only
  // when its tir.init gives the copy its first value.
  if (!isWrite && llvm::is_contained(writes, buffer))
    return refuse(error, block,
                  Twine(kReindex) + ": block '" + block.getBlockName() +
                      "' also writes buffer '" + name +
                      "', which a read copy would lose (reindex its write)");
  if (isWrite && !block.getInitOp()) {
    bool loads = false;
    block.getBody()->walk(
        [&](LoadOp load) { loads |= load.getBuffer() == buffer; });
    if (loads)
      return refuse(error, block,
                    Twine(kReindex) + ": block '" + block.getBlockName() +
                        "' reads buffer '" + name +
                        "' before writing it and has no tir.init; its "
                        "copy would start uninitialized");
  }
  // The copy out covers the whole iteration space: a predicate that leaves
  // points out would have it store what the block never wrote.
  if (isWrite && !isPredicateImpliedByDomains(block))
    return refuse(error, block,
                  Twine(kReindex) + ": block '" + block.getBlockName() +
                      "' has a predicate that skips points of its iteration "
                      "domain (or one that cannot be analysed); copying "
                      "buffer '" +
                      name + "' out would store what it never wrote");
  FailureOr<AccessIndices> indices = collectIndices(block, buffer, error);
  if (failed(indices))
    return failure();
  FailureOr<Operation *> nest = getNestRoot(block, root, error);
  if (failed(nest))
    return failure();

  // The stage enumerates the block's iteration space once per execution
  // of the scope: a binding that reads a value from outside the scope (a
  // loop around an opaque scope block) would make it copy other
  // executions' points.
  for (Value v : block.getBindingValues()) {
    Region *defined = v.getParentRegion();
    if (!(*nest)->getParentRegion()->isAncestor(defined) ||
        defined == (*nest)->getParentRegion())
      if (!v.getDefiningOp<arith::ConstantOp>())
        return refuse(error, block,
                      Twine(kReindex) + ": a binding of block '" +
                          block.getBlockName() +
                          "' reads a value from outside the loops between it "
                          "and its scope, so the block covers only part of "
                          "its iteration space per execution of the scope");
  }
  // The variables the indices use, in block order; the other inputs must
  // be visible where the stage goes (values defined above the scope).
  unsigned numVars = block.getNumIterVars();
  SmallVector<unsigned> covered;
  for (unsigned i = 0; i < numVars; ++i)
    if (llvm::any_of(indices->exprs,
                     [&](AffineExpr e) { return e.isFunctionOfDim(i); }))
      covered.push_back(i);
  for (unsigned k = numVars; k < indices->inputs.size(); ++k) {
    Value in = indices->inputs[k];
    if (!llvm::any_of(indices->exprs,
                      [&](AffineExpr e) { return e.isFunctionOfDim(k); }))
      continue;
    Region *defined = in.getParentRegion();
    if (!defined->isProperAncestor(&block.getRegion()) ||
        !defined->isAncestor((*nest)->getParentRegion()) ||
        (defined == (*nest)->getParentRegion() && in.getDefiningOp() &&
         !in.getDefiningOp()->isBeforeInBlock(*nest)))
      return refuse(error, block,
                    Twine(kReindex) + ": block '" + block.getBlockName() +
                        "' indexes buffer '" + name +
                        "' with a value computed inside the scope (a "
                        "gather); the copy could not repeat that index");
  }
  SmallVector<int64_t> shape;
  for (unsigned i : covered) {
    std::optional<int64_t> upper = block.getConstantDomainUpper(i);
    if (!upper)
      return refuse(error, block,
                    Twine(kReindex) + ": iteration variable " +
                        iterVarLabel(block, i) +
                        " has a runtime domain; a reindex buffer of runtime "
                        "shape is not supported yet");
    shape.push_back(*upper);
  }
  return ReindexPlan{buffer, name, root, *nest, *indices, covered, shape};
}

bool mlir::tir::canReindex(BlockOp block, int64_t bufferIndex, bool isWrite) {
  ScheduleError ignored;
  return succeeded(analyze(block, bufferIndex, isWrite, ignored));
}

/// The copy, its stage, and the block's accesses redirected to it.
static BlockOp apply(RewriterBase &rewriter, BlockOp block, bool isWrite,
                     const ReindexPlan &plan) {
  MLIRContext *ctx = block.getContext();
  Value buffer = plan.buffer;
  const std::string &name = plan.name;
  Operation *root = plan.root;
  const AccessIndices &indices = plan.indices;
  Operation *nest = plan.nest;
  ArrayRef<unsigned> covered = plan.covered;
  ArrayRef<int64_t> shape = plan.shape;
  unsigned numVars = block.getNumIterVars();

  // The new buffer, in the buffer's memory space.
  std::string newName = name + "_reindex";
  auto type = cast<MemRefType>(buffer.getType());
  Value copy = createBufferLike(rewriter, root, buffer, shape,
                                type.getMemorySpace(), newName);

  // The stage: loops over the covered variables' domains, a block whose
  // spatial variables v0.. stand for them.
  OpBuilder::InsertionGuard guard(rewriter);
  if (isWrite)
    rewriter.setInsertionPointAfter(nest);
  else
    rewriter.setInsertionPoint(nest);
  Location loc = block.getLoc();
  SmallVector<OpFoldResult> lowers, uppers;
  for (unsigned i : covered) {
    lowers.push_back(block.getMixedDomainLower(i));
    uppers.push_back(block.getMixedDomainUpper(i));
  }
  SmallVector<Value> loopVars =
      buildLoopNest(rewriter, loc, lowers, uppers, "ax");
  SmallVector<IterVarSpec> vars;
  SmallVector<std::string> names;
  for (unsigned d = 0; d < covered.size(); ++d)
    names.push_back("v" + std::to_string(d));
  for (auto [d, i] : llvm::enumerate(covered))
    vars.push_back({IterType::Spatial, block.getMixedDomainLower(i),
                    block.getMixedDomainUpper(i), getAffineDimExpr(d, ctx),
                    names[d]});
  // The original indices over (v0.., the other inputs they use): the
  // stage's binding values are its loops and those inputs.
  unsigned numNew = covered.size();
  SmallVector<Value> outer;
  SmallVector<AffineExpr> replace;
  for (auto [k, in] : llvm::enumerate(indices.inputs)) {
    auto it = llvm::find(covered, k);
    bool used = llvm::any_of(indices.exprs, [&, k = k](AffineExpr e) {
      return e.isFunctionOfDim(k);
    });
    if (it != covered.end()) {
      replace.push_back(getAffineDimExpr(it - covered.begin(), ctx));
    } else if (k >= numVars && used) {
      replace.push_back(getAffineDimExpr(numNew + outer.size(), ctx));
      outer.push_back(in);
    } else {
      replace.push_back(getAffineConstantExpr(0, ctx));
    }
  }
  unsigned numOperands = numNew + outer.size();
  SmallVector<AffineExpr> original;
  for (AffineExpr e : indices.exprs)
    original.push_back(
        simplifyIndexExpr(e.replaceDims(replace), numOperands, 0));
  SmallVector<Value> bindingValues(loopVars);
  llvm::append_range(bindingValues, outer);
  // A read copy spans the whole domain, part of which the block's
  // predicate may have kept out of the buffer: guard it to the buffer.
  SmallVector<Conjunction> predicate;
  if (!isWrite)
    predicate = getInBufferGuard(original, bindingValues, type.getShape());
  auto stage = BlockOp::create(
      rewriter, loc, newName, vars, bindingValues,
      [&](OpBuilder &b, Location l, ValueRange v) {
        SmallVector<Value> operands(v.begin(), v.end());
        llvm::append_range(operands, outer);
        SmallVector<AffineExpr> atV;
        for (unsigned d = 0; d < numNew; ++d)
          atV.push_back(getAffineDimExpr(d, ctx));
        AffineMap originalMap = makeInputMap(numOperands, original, ctx);
        AffineMap copyMap = makeInputMap(numOperands, atV, ctx);
        if (isWrite) {
          Value value = LoadOp::create(b, l, copy, copyMap, operands);
          StoreOp::create(b, l, value, buffer, originalMap, operands);
        } else {
          Value value = LoadOp::create(b, l, buffer, originalMap, operands);
          StoreOp::create(b, l, value, copy, copyMap, operands);
        }
      },
      predicate);
  setInferredRegions(stage);

  // The block accesses the copy at its covered variables.
  SmallVector<AffineExpr> at;
  for (unsigned i : covered)
    at.push_back(getAffineDimExpr(i, ctx));
  retargetToPoint(rewriter, block, buffer, copy, at);
  return stage;
}

FailureOr<BlockOp> mlir::tir::reindex(RewriterBase &rewriter, BlockOp block,
                                      int64_t bufferIndex, bool isWrite,
                                      ScheduleError &error) {
  FailureOr<ReindexPlan> plan = analyze(block, bufferIndex, isWrite, error);
  if (failed(plan))
    return failure();
  return apply(rewriter, block, isWrite, *plan);
}
