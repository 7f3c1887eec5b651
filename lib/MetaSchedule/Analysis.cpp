//===- Analysis.cpp - what MetaSchedule asks of a program -----------------===//

#include "TensorIR/MetaSchedule/Analysis.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

SmallVector<FunctionOpInterface>
mlir::tir::ms::getScheduledFunctions(ModuleOp mod) {
  SmallVector<FunctionOpInterface> funcs;
  for (auto func : mod.getOps<FunctionOpInterface>())
    if (!func.isExternal() && !isGraphFunction(func))
      funcs.push_back(func);
  return funcs;
}

Operation *mlir::tir::ms::getRootBlock(FunctionOpInterface func) {
  if (BlockOp root = getExplicitRootBlock(func))
    return root;
  return func;
}

IterType mlir::tir::ms::getLoopIterType(ForOp loop) {
  Value iv = loop.getInductionVar();
  bool spatial = false, reduce = false, other = false;
  for (BlockOp block : getChildBlocks(loop)) {
    for (unsigned i : block.getIterVarsFedBy(iv)) {
      switch (block.getIterType(i)) {
      case IterType::Spatial:
        spatial = true;
        break;
      case IterType::Reduce:
        reduce = true;
        break;
      default:
        other = true;
        break;
      }
    }
  }
  if (other || (spatial && reduce))
    return IterType::Opaque;
  return reduce ? IterType::Reduce : IterType::Spatial;
}

/// Whether `op` is a statement of TVM's: not a side-effect-free computation
/// of a value.
static bool isStatement(Operation &op) {
  return op.getNumRegions() != 0 || !isMemoryEffectFree(&op);
}

bool mlir::tir::ms::hasSingleStatement(ForOp loop) {
  return llvm::count_if(*loop.getBody(), isStatement) <= 1;
}

bool mlir::tir::ms::hasAnnotationOrBinding(ForOp loop) {
  if (loop.getKind() == ForKind::ThreadBinding)
    return true;
  DictionaryAttr annotations = loop.getAnnotationsAttr();
  return annotations && !annotations.empty();
}

bool mlir::tir::ms::isBoundToThreadOrBlockIdx(ForOp loop) {
  if (loop.getKind() != ForKind::ThreadBinding || !loop.getThread())
    return false;
  StringRef tag = *loop.getThread();
  return tag.starts_with("threadIdx.") || tag.starts_with("blockIdx.");
}

void mlir::tir::ms::getReadWriteBuffers(BlockOp block,
                                        SmallVectorImpl<Value> &reads,
                                        SmallVectorImpl<Value> &writes) {
  if (!block.hasAccessRegions()) {
    getAccessedBuffers(block, reads, writes);
    return;
  }
  llvm::append_range(reads, block.getReadBuffers());
  llvm::append_range(writes, block.getWriteBuffers());
}

bool mlir::tir::ms::isSpatialBlock(BlockOp block) {
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
    if (block.getIterType(i) != IterType::Spatial)
      return false;
  return true;
}

bool mlir::tir::ms::isSpatialFunction(Operation *func) {
  WalkResult walk = func->walk([](BlockOp block) {
    return isSpatialBlock(block) ? WalkResult::advance()
                                 : WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

FunctionOpInterface mlir::tir::ms::getEnclosingFunction(Operation *op) {
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    return func;
  return op->getParentOfType<FunctionOpInterface>();
}

bool mlir::tir::ms::isTrivialBinding(BlockOp block) {
  SmallVector<ForOp> loops = getLoops(block);
  if (loops.size() != block.getNumIterVars())
    return false;
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  ValueRange inputs = block.getBindingValues();
  for (auto [binding, loop] : llvm::zip(bindings, loops)) {
    auto dim = dyn_cast<AffineDimExpr>(binding);
    if (!dim || inputs[dim.getPosition()] != loop.getInductionVar())
      return false;
  }
  return true;
}

Attribute mlir::tir::ms::getAnnotation(Operation *blockOrLoop, StringRef key) {
  DictionaryAttr annotations;
  if (auto block = dyn_cast<BlockOp>(blockOrLoop))
    annotations = block.getAnnotationsAttr();
  else if (auto loop = dyn_cast<ForOp>(blockOrLoop))
    annotations = loop.getAnnotationsAttr();
  return annotations ? annotations.get(key) : Attribute();
}

bool mlir::tir::ms::hasBeenMultiLevelTiled(BlockOp block) {
  return isa_and_present<StringAttr>(
      getAnnotation(block, "meta_schedule.tiling_structure"));
}

/// The dimensions (iteration variables, then region values) `expr` uses.
static void collectDims(AffineExpr expr, llvm::DenseSet<unsigned> &dims) {
  expr.walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      dims.insert(dim.getPosition());
  });
}

bool mlir::tir::ms::needsMultiLevelTiling(BlockOp block) {
  if (hasBeenMultiLevelTiled(block))
    return false;
  Refusal why;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, why);
  if (failed(regions) || regions->writes.size() != 1 ||
      regions->reads.empty() || isSpatialBlock(block) ||
      !isTrivialBinding(block))
    return false;
  Value written = regions->writes.front().first;
  // The spatial variables that do not iterate over one point.
  SmallVector<unsigned> spatial;
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    std::optional<int64_t> lower = block.getConstantDomainLower(i);
    std::optional<int64_t> upper = block.getConstantDomainUpper(i);
    bool unit = lower && upper && *lower == 0 && *upper == 1;
    if (block.getIterType(i) == IterType::Spatial && !unit)
      spatial.push_back(i);
  }
  int unused = 0;
  llvm::DenseSet<Value> seen;
  for (auto &[buffer, region] : regions->reads) {
    if (!seen.insert(buffer).second)
      return false;
    if (buffer == written)
      continue;
    llvm::DenseSet<unsigned> used;
    for (auto [start, extent] : llvm::zip(region.starts, region.extents)) {
      if (!isa<AffineConstantExpr>(extent))
        return false;
      collectDims(start, used);
    }
    for (unsigned var : spatial)
      if (!used.contains(var))
        ++unused;
  }
  return unused >= 1;
}

/// `expr` as a variable plus an optional constant: the variable's
/// dimension, or std::nullopt.
static std::optional<unsigned> getShiftedDim(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition();
  auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return std::nullopt;
  AffineExpr lhs = sum.getLHS(), rhs = sum.getRHS();
  if (isa<AffineConstantExpr>(lhs))
    std::swap(lhs, rhs);
  if (!isa<AffineConstantExpr>(rhs))
    return std::nullopt;
  if (auto dim = dyn_cast<AffineDimExpr>(lhs))
    return dim.getPosition();
  return std::nullopt;
}

ReadWritePattern
mlir::tir::ms::analyzeReadWritePattern(ArrayRef<AffineExpr> readStarts,
                                       ArrayRef<AffineExpr> writeStarts) {
  // Each write index is one variable.
  llvm::DenseMap<unsigned, unsigned> indexOfVar;
  for (auto [index, start] : llvm::enumerate(writeStarts)) {
    auto dim = dyn_cast<AffineDimExpr>(start);
    if (!dim)
      return {};
    indexOfVar[dim.getPosition()] = index;
  }
  // Each read index a constant or a written variable plus a constant.
  SmallVector<unsigned> counts(writeStarts.size(), 0);
  ReadWritePattern pattern{true, true};
  std::optional<unsigned> last;
  for (AffineExpr start : readStarts) {
    if (isa<AffineConstantExpr>(start))
      continue;
    std::optional<unsigned> dim = getShiftedDim(start);
    if (!dim || !indexOfVar.count(*dim))
      return {};
    unsigned index = indexOfVar[*dim];
    ++counts[index];
    if (last && *last > index)
      pattern.ordered = false;
    last = index;
  }
  for (unsigned count : counts)
    if (count >= 2)
      pattern.injective = false;
  return pattern;
}

bool mlir::tir::ms::callsAnyOf(BlockOp block, ArrayRef<std::string> callees) {
  if (callees.empty())
    return false;
  auto matches = [&](StringRef name) {
    for (const std::string &callee : callees) {
      StringRef op = StringRef(callee);
      op.consume_front("tir.");
      if (name == callee || name == op || name == ("math." + op).str())
        return true;
    }
    return false;
  };
  WalkResult walk = block.getBody()->walk([&](Operation *op) {
    if (matches(op->getName().getStringRef()))
      return WalkResult::interrupt();
    if (auto callee = op->getAttrOfType<StringAttr>("callee");
        callee && matches(callee.getValue()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

bool mlir::tir::ms::hasIfThenElse(BlockOp block) {
  if (block.getPredicate() || block.getCondition())
    return true;
  WalkResult walk = block.getBody()->walk([&](Operation *op) {
    if (isa<arith::SelectOp, scf::IfOp>(op))
      return WalkResult::interrupt();
    if (auto nested = dyn_cast<BlockOp>(op);
        nested && (nested.getPredicate() || nested.getCondition()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// The one statement of `loop`'s body, or null when it has none or more.
static Operation *getOnlyStatement(ForOp loop) {
  Operation *only = nullptr;
  for (Operation &op : *loop.getBody()) {
    if (!isStatement(op))
      continue;
    if (only)
      return nullptr;
    only = &op;
  }
  return only;
}

bool mlir::tir::ms::needsRFactorOrCrossThreadReduction(
    BlockOp block, int64_t maxParallelExtent) {
  Refusal why;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, why);
  if (failed(regions) || regions->writes.empty())
    return false;
  if (getReductionBlockViolation(block, getScopeBlocks(getScopeRoot(block))) !=
          0 ||
      !isTrivialBinding(block) || hasBeenMultiLevelTiled(block))
    return false;
  SmallVector<ForOp> loops = getLoops(block);
  int64_t spaceLength = 1, reduceLength = 1;
  bool hasReductionLoop = false;
  for (auto [index, loop] : llvm::enumerate(loops)) {
    IterType type = getLoopIterType(loop);
    std::optional<int64_t> extent = loop.getConstantExtent();
    if ((type != IterType::Spatial && type != IterType::Reduce) || !extent)
      return false;
    if (type == IterType::Reduce) {
      hasReductionLoop = true;
      reduceLength *= *extent;
    } else {
      spaceLength *= *extent;
    }
    // A perfect nest: each loop holds the next, the last the block.
    Operation *inner = index + 1 < loops.size()
                           ? loops[index + 1].getOperation()
                           : block.getOperation();
    if (getOnlyStatement(loop) != inner)
      return false;
  }
  if (!hasReductionLoop)
    return false;
  // Enough parallelism in the spatial loops of a block tiling will tile:
  // no rfactor. Other reductions always try it.
  if (needsMultiLevelTiling(block))
    return !(spaceLength >= reduceLength || spaceLength > maxParallelExtent);
  return reduceLength > 1;
}

SmallVector<Operation *> mlir::tir::ms::getLoopStatements(ForOp loop) {
  SmallVector<Operation *> statements;
  for (Operation &op : loop.getBody()->without_terminator())
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      statements.push_back(&op);
  return statements;
}

int64_t mlir::tir::ms::getPipelineVersions(Operation *anchor,
                                           ArrayRef<BlockOp> blocks) {
  auto loop = dyn_cast_if_present<ForOp>(anchor);
  DictionaryAttr annotations = loop ? loop.getAnnotationsAttr() : nullptr;
  std::optional<SmallVector<int64_t>> stages =
      annotations ? readIntegerList(annotations.get("software_pipeline_stage"))
                  : std::nullopt;
  if (!stages)
    return 1;
  SmallVector<Operation *> statements = getLoopStatements(loop);
  if (statements.size() != stages->size())
    return 1;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (BlockOp block : blocks)
    for (auto [statement, stage] : llvm::zip(statements, *stages))
      if (statement == block || statement->isProperAncestor(block)) {
        lo = std::min(lo, stage);
        hi = std::max(hi, stage);
      }
  return lo <= hi ? hi - lo + 1 : 1;
}
