//===- LoweredProgram.cpp - The program as TVM's lowering leaves it -------===//
//
// The per-store features' view of a scheduled function as TVM's lowering
// would leave it: which loops remain (unit loops dropped, a kernel's
// thread loops unified per tag), index expressions over loop variables,
// and where each allocated buffer is placed and how it is compacted.
//
//===----------------------------------------------------------------------===//

#include "FeatureCollector.h"

#include "TensorIR/Dialect/TIR/Analysis/BufferCompaction.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/MetaSchedule/Analysis.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;
using namespace mlir::tir::ms::per_store;

//===----------------------------------------------------------------------===//
// Loops as the lowering leaves them
//===----------------------------------------------------------------------===//

static bool hasAnnotations(ForOp loop) {
  std::optional<DictionaryAttr> annotations = loop.getAnnotations();
  return annotations && !annotations->empty();
}

/// A serial loop of one iteration from 0 without annotations: TVM's
/// feature simplification drops it (its variable becomes 0).
static bool isUnitLoop(ForOp loop) {
  return loop.getKind() == ForKind::Serial &&
         loop.getConstantLowerBound() == 0 && loop.getConstantExtent() == 1 &&
         !hasAnnotations(loop);
}

/// The kernel `loop` is in: the outermost thread-bound loop around it (or
/// itself); null outside kernels.
static ForOp getKernelRoot(ForOp loop) {
  ForOp root;
  for (Operation *p = loop; p; p = p->getParentOp())
    if (auto around = dyn_cast<ForOp>(p);
        around && around.getKind() == ForKind::ThreadBinding)
      root = around;
  return root;
}

/// TVM's scope of an access (the innermost loop or block around it, the
/// function at the top), as its buffer-placement analysis sees it: after
/// unit loops are dropped, before thread bindings are unified.
static Operation *getScopeOf(Operation *op, Operation *func) {
  for (Operation *p = op->getParentOp(); p && p != func; p = p->getParentOp()) {
    if (auto loop = dyn_cast<ForOp>(p)) {
      if (!isUnitLoop(loop))
        return p;
    } else if (isa<BlockOp>(p)) {
      return p;
    }
  }
  return func;
}

/// The lowest scope holding both scopes (null: none yet).
static Operation *getCommonScope(Operation *a, Operation *b, Operation *func) {
  if (!a || !b)
    return a ? a : b;
  while (a != func && !a->isAncestor(b))
    a = getScopeOf(a, func);
  return a;
}

static bool isBlockIdxLoop(ForOp loop) {
  return loop.getKind() == ForKind::ThreadBinding &&
         loop.getThread()->starts_with("blockIdx");
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

int64_t per_store::getElementBytes(MemRefType type) {
  Type element = type.getElementType();
  int64_t bits = 64;
  if (auto vector = dyn_cast<VectorType>(element))
    bits = vector.getNumElements() *
           vector.getElementType().getIntOrFloatBitWidth();
  else if (element.isIntOrFloat())
    bits = element.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, (bits + 7) / 8);
}

SmallVector<int64_t> per_store::getKnownShape(MemRefType type) {
  SmallVector<int64_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? 1 : d);
  return shape;
}

//===----------------------------------------------------------------------===//
// Index expressions
//===----------------------------------------------------------------------===//

ArrayRef<ForOp> Collector::getKernelThreadLoops(ForOp root) {
  auto known = kernelThreadLoops.find(root);
  if (known != kernelThreadLoops.end())
    return known->second;
  SmallVector<ForOp> loops;
  llvm::StringSet<> tags;
  root->walk<WalkOrder::PreOrder>([&](ForOp loop) {
    if (loop.getKind() == ForKind::ThreadBinding &&
        tags.insert(*loop.getThread()).second)
      loops.push_back(loop);
  });
  return kernelThreadLoops[root] = std::move(loops);
}

ForOp Collector::getRepresentative(ForOp threadLoop) {
  for (ForOp loop : getKernelThreadLoops(getKernelRoot(threadLoop)))
    if (loop.getThread() == threadLoop.getThread())
      return loop;
  return threadLoop;
}

/// The loops around `op` (and `op` itself when it is a loop) in the
/// lowered program, outermost first: without unit loops, and with the
/// thread loops of a kernel hoisted to its root, one per tag.
SmallVector<ForOp> Collector::getKeptLoops(Operation *op) {
  SmallVector<ForOp> chain;
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto loop = dyn_cast<ForOp>(p); loop && !isUnitLoop(loop))
      chain.push_back(loop);
  std::reverse(chain.begin(), chain.end());
  auto root = llvm::find_if(chain, [](ForOp loop) {
    return loop.getKind() == ForKind::ThreadBinding;
  });
  if (root == chain.end())
    return chain;
  SmallVector<ForOp> loops(chain.begin(), root);
  llvm::append_range(loops, getKernelThreadLoops(*root));
  for (ForOp loop : llvm::make_range(root, chain.end()))
    if (loop.getKind() != ForKind::ThreadBinding)
      loops.push_back(loop);
  return loops;
}

AffineExpr Collector::dimOf(Value v) {
  auto [it, inserted] = dimPositions.try_emplace(v, dimValues.size());
  if (inserted)
    dimValues.push_back(v);
  return getAffineDimExpr(it->second, ctx);
}

AffineExpr Collector::simplify(AffineExpr e) {
  return simplifyIndexExpr(e, dimValues.size(), 0);
}

AffineExpr Collector::resolve(Value v) {
  if (AffineExpr known = resolved.lookup(v))
    return known;
  AffineExpr result;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    auto loop = dyn_cast_or_null<ForOp>(owner);
    auto block = dyn_cast_or_null<BlockOp>(owner);
    if (loop && isUnitLoop(loop)) {
      result = getAffineConstantExpr(0, ctx);
    } else if (ForOp rep = loop && loop.getKind() == ForKind::ThreadBinding
                               ? getRepresentative(loop)
                               : loop;
               rep != loop) {
      int64_t shift = loop.getConstantLowerBound().value_or(0) -
                      rep.getConstantLowerBound().value_or(0);
      result = resolve(rep.getInductionVar()) + shift;
    } else if (block && arg.getArgNumber() < block.getNumIterVars()) {
      AffineExpr binding = block.getBindingExprs()[arg.getArgNumber()];
      SmallVector<AffineExpr> inputs;
      for (Value input : block.getBindingValues())
        inputs.push_back(resolve(input));
      result = simplify(binding.replaceDims(inputs));
    } else {
      result = dimOf(v);
    }
  } else {
    ValueIndexExpr traced = getIndexExprOf(v);
    if (traced.inputs.size() == 1 && traced.inputs.front() == v) {
      result = dimOf(v);
    } else {
      SmallVector<AffineExpr> inputs;
      for (Value input : traced.inputs)
        inputs.push_back(resolve(input));
      result = simplify(traced.expr.replaceDims(inputs));
    }
  }
  resolved[v] = result;
  return result;
}

std::optional<Interval> Collector::getLoopRange(unsigned dim) {
  auto arg = dyn_cast<BlockArgument>(dimValues[dim]);
  auto loop =
      arg ? dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
  if (!loop)
    return std::nullopt;
  std::optional<int64_t> lo = loop.getConstantLowerBound();
  std::optional<int64_t> hi = loop.getConstantUpperBound();
  if (!lo || !hi || *hi <= *lo)
    return std::nullopt;
  return Interval{*lo, *hi - 1};
}

/// The indices of a load or store over loop variables, shifted into the
/// compacted buffer, simplified with the loops' ranges (TVM's Simplify).
ArrayRef<AffineExpr> Collector::resolveAccess(Operation *access) {
  auto it = accessIndices.find(access);
  if (it != accessIndices.end())
    return it->second;
  AffineMap map;
  ValueRange operands;
  Value buffer;
  if (auto load = dyn_cast<LoadOp>(access)) {
    map = load.getMap();
    operands = load.getIndices();
    buffer = load.getBuffer();
  } else {
    auto store = cast<StoreOp>(access);
    map = store.getMap();
    operands = store.getIndices();
    buffer = store.getBuffer();
  }
  SmallVector<AffineExpr> inputs;
  for (Value operand : operands)
    inputs.push_back(resolve(operand));
  SmallVector<AffineExpr> indices;
  for (AffineExpr e : getExprsOverInputs(map))
    indices.push_back(e.replaceDims(inputs));
  auto allocation = allocations.find(buffer);
  if (allocation != allocations.end() && !allocation->second.lowers.empty()) {
    SmallVector<AffineExpr> partInputs;
    for (Value input : allocation->second.inputs)
      partInputs.push_back(resolve(input));
    for (auto [index, lower] : llvm::zip(indices, allocation->second.lowers))
      index = index - lower.replaceDims(partInputs);
  }
  SmallVector<std::optional<Interval>> ranges;
  for (unsigned d = 0, e = dimValues.size(); d < e; ++d)
    ranges.push_back(getLoopRange(d));
  for (AffineExpr &index : indices)
    index = simplifyWithRanges(simplify(index), ranges, dimValues.size(), 0);
  return accessIndices[access] = std::move(indices);
}

//===----------------------------------------------------------------------===//
// Allocations
//===----------------------------------------------------------------------===//

void Collector::placeAllocation(AllocBufferOp alloc, FunctionOpInterface func) {
  Value buffer = alloc.getBuffer();
  auto type = cast<MemRefType>(buffer.getType());
  Operation *funcOp = func.getOperation();
  // TVM's DetectBufferAccessLCA: the lowest scope of its accesses.
  Operation *lca = nullptr;
  for (Operation *user : buffer.getUsers())
    if (!isa<BlockOp>(user))
      lca = getCommonScope(lca, getScopeOf(user, funcOp), funcOp);
  if (!lca)
    return;
  // A block writing it with reduction (or other non-spatial) variables
  // keeps it above the loops those variables run over.
  func->walk([&](BlockOp block) {
    SmallVector<Value> reads, writes;
    getReadWriteBuffers(block, reads, writes);
    if (!llvm::is_contained(writes, buffer))
      return;
    SmallVector<AffineExpr> bindings = block.getBindingExprs();
    for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
      if (block.getIterType(i) == IterType::Spatial)
        continue;
      for (auto [pos, value] : llvm::enumerate(block.getBindingValues())) {
        auto arg = dyn_cast<BlockArgument>(value);
        auto loop = arg ? dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp())
                        : ForOp();
        if (loop && !isUnitLoop(loop) && bindings[i].isFunctionOfDim(pos))
          lca = getCommonScope(lca, getScopeOf(loop, funcOp), funcOp);
      }
    }
  });
  // A global buffer stays outside every kernel launch.
  if (getStorageScope(type) == "global")
    func->walk([&](ForOp loop) {
      if (isBlockIdxLoop(loop))
        lca = getCommonScope(lca, loop, funcOp);
    });

  Allocation allocation;
  allocation.shape = getKnownShape(type);
  for (ForOp loop : getKeptLoops(isa<ForOp>(lca) ? lca : lca->getParentOp()))
    if (std::optional<int64_t> extent = loop.getConstantExtent())
      allocation.outerProduct *= static_cast<double>(*extent);

  // TVM's CompactBufferAllocation: the part one execution of the scope
  // touches. A block that is the only one accessing it keeps the part one
  // execution of that block touches.
  SmallVector<BlockOp> blocks;
  for (BlockOp block : getAccessingBlocks(buffer))
    if (lca->isProperAncestor(block))
      blocks.push_back(block);
  Operation *anchor = lca;
  if (blocks.empty() && isa<BlockOp>(lca)) {
    blocks.push_back(cast<BlockOp>(lca));
    anchor = lca->getParentOp();
  }
  Refusal why;
  if (!blocks.empty() && type.hasStaticShape()) {
    FailureOr<CompactPart> part = getCompactPart(anchor, buffer, blocks, why,
                                                 /*sameThreadIsPoint=*/true);
    if (succeeded(part)) {
      allocation.shape = part->shape;
      allocation.lowers = part->lowers;
      allocation.inputs = part->inputs;
    }
  }
  allocations[buffer] = std::move(allocation);
}
