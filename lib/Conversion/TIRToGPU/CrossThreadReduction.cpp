//===- CrossThreadReduction.cpp - reductions across a block's threads -----===//
//
// TVM's LowerCrossThreadReduction: a reduction block whose reduce loops
// include loops bound to threadIdx (`j` split, its inner part bound to
// threadIdx.x, as a row softmax schedules it) would have every thread
// update one element at once. It becomes:
//
//   partial = identity                      (one per thread, private)
//   <the reduce loops>  partial = f(partial, x)     (the block, in-thread)
//   r = gpu.all_reduce f partial            (warp shuffles, then shared
//                                            memory: upstream's lowering)
//   <a copy of the block>  acc = f(acc, r)  (its init first, as before)
//
// The copy runs in every thread, which all write the same value. Handled:
// a block whose body updates one element with an add, multiply, min or max
// of it and a contribution (float or integer), whose reduce loops form a
// perfect nest above it (with loops of one iteration among them), bound to
// every thread dimension the launch uses, each as long as its dimension. Or,
// grouped: the reduce loops bound to threadIdx.x alone, whose extent divides
// the warp (32 lanes), the other dimensions spatial (a row per warp,
// threadIdx.y over the rows, as a fused attention's row max and sum are
// scheduled), and the block's threads whole warps. Each group of threadIdx.x's
// threads is then a cluster of neighbouring lanes of one warp, and
// `gpu.subgroup_reduce ... cluster(size = n)` (warp shuffles) reduces each
// group apart. Other cross-thread reductions stay, and convert-tir-to-gpu
// refuses them.
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

using namespace mlir;
using namespace mlir::tir;

namespace {

/// The update a reduction block makes: `store f(load acc[I], value), acc[I]`.
struct Update {
  LoadOp load;
  Operation *combiner;
  unsigned contribution; // the combiner's operand that is not the load
  StoreOp store;
  gpu::AllReduceOperation kind;
};

std::optional<gpu::AllReduceOperation> kindOf(Operation *op) {
  using K = gpu::AllReduceOperation;
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    return K::ADD;
  if (isa<arith::MulFOp, arith::MulIOp>(op))
    return K::MUL;
  if (isa<arith::MaximumFOp>(op))
    return K::MAXIMUMF;
  if (isa<arith::MinimumFOp>(op))
    return K::MINIMUMF;
  if (isa<arith::MaxNumFOp>(op))
    return K::MAXNUMF;
  if (isa<arith::MinNumFOp>(op))
    return K::MINNUMF;
  if (isa<arith::MaxSIOp>(op))
    return K::MAXSI;
  if (isa<arith::MinSIOp>(op))
    return K::MINSI;
  return std::nullopt;
}

/// The value `f(identity, x) == x` for the reduction's kind.
TypedAttr identityOf(gpu::AllReduceOperation kind, Type type) {
  using K = gpu::AllReduceOperation;
  if (auto ft = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    switch (kind) {
    case K::ADD:
      return FloatAttr::get(type, llvm::APFloat::getZero(sem));
    case K::MUL:
      return FloatAttr::get(type, llvm::APFloat::getOne(sem));
    case K::MAXIMUMF:
    case K::MAXNUMF:
      return FloatAttr::get(type, llvm::APFloat::getInf(sem, true));
    case K::MINIMUMF:
    case K::MINNUMF:
      return FloatAttr::get(type, llvm::APFloat::getInf(sem, false));
    default:
      return {};
    }
  }
  auto it = dyn_cast<IntegerType>(type);
  if (!it)
    return {};
  unsigned w = it.getWidth();
  switch (kind) {
  case K::ADD:
    return IntegerAttr::get(type, 0);
  case K::MUL:
    return IntegerAttr::get(type, 1);
  case K::MAXSI:
    return IntegerAttr::get(type, llvm::APInt::getSignedMinValue(w));
  case K::MINSI:
    return IntegerAttr::get(type, llvm::APInt::getSignedMaxValue(w));
  default:
    return {};
  }
}

/// The init's `store v0, acc[I]` when it is all the init does (besides
/// computing v0), with the update's buffer and indices.
StoreOp matchInit(BlockOp block, Update update) {
  InitOp init = block.getInitOp();
  if (!init || init.getBody()->empty())
    return {};
  auto store = dyn_cast<StoreOp>(&init.getBody()->back());
  if (!store || store.getBuffer() != update.store.getBuffer() ||
      store.getMap() != update.store.getMap() ||
      !llvm::equal(store.getIndices(), update.store.getIndices()))
    return {};
  for (Operation &op : init.getBody()->without_terminator())
    if (&op != store && !isMemoryEffectFree(&op))
      return {};
  return store;
}

std::optional<Update> matchUpdate(BlockOp block) {
  if (block.getBody()->empty())
    return std::nullopt;
  auto store = dyn_cast<StoreOp>(&block.getBody()->back());
  if (!store)
    return std::nullopt;
  Operation *combiner = store.getValue().getDefiningOp();
  if (!combiner || combiner->getNumOperands() != 2 ||
      combiner->getBlock() != block.getBody())
    return std::nullopt;
  std::optional<gpu::AllReduceOperation> kind = kindOf(combiner);
  if (!kind)
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    auto load = combiner->getOperand(i).getDefiningOp<LoadOp>();
    if (load && load.getBuffer() == store.getBuffer() &&
        load.getMap() == store.getMap() &&
        llvm::equal(load.getIndices(), store.getIndices()) && load->hasOneUse())
      return Update{load, combiner, 1 - i, store, *kind};
  }
  return std::nullopt;
}

/// Lowers `block` if it is a cross-thread reduction of the handled form;
/// false when it is not one (or not of that form: left as it is).
bool lowerBlock(BlockOp block, ForOp kernel,
                const llvm::StringMap<int64_t> &threadDims) {
  // The loops feeding the reduce iteration variables, and none other.
  llvm::SmallSetVector<Operation *, 4> reduceLoops;
  bool threadReduce = false;
  for (Value v : block.getBindingValues()) {
    auto arg = dyn_cast<BlockArgument>(v);
    auto loop = arg ? dyn_cast<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
    if (!loop)
      continue;
    SmallVector<unsigned> fed = block.getIterVarsFedBy(v);
    bool reduce = llvm::any_of(fed, [&](unsigned i) {
      return block.getIterType(i) == IterType::Reduce;
    });
    bool spatial = llvm::any_of(fed, [&](unsigned i) {
      return block.getIterType(i) != IterType::Reduce;
    });
    if (!reduce)
      continue;
    // A reduce loop bound to blockIdx: the grid's blocks would race (the
    // kernel's checks refuse it).
    if (spatial ||
        (loop.getKind() == ForKind::ThreadBinding && !isThreadIdxLoop(loop)))
      return false;
    reduceLoops.insert(loop);
    threadReduce |= isThreadIdxLoop(loop);
  }
  if (!threadReduce)
    return false;
  // A perfect nest of those loops right above the block, with loops of
  // one iteration among them (compute_at's preserved unit loops).
  auto inNest = [&](Operation *p) {
    auto loop = dyn_cast_if_present<ForOp>(p);
    return loop && (reduceLoops.contains(p) ||
                    (loop.getKind() == ForKind::Serial &&
                     loop.getConstantExtent() == std::optional<int64_t>(1)));
  };
  ForOp top;
  Operation *inner = block;
  for (Operation *p = block->getParentOp(); inNest(p); p = p->getParentOp()) {
    auto loop = cast<ForOp>(p);
    if (!llvm::hasSingleElement(loop.getBody()->without_terminator()) ||
        &*loop.getBody()->begin() != inner)
      return false;
    top = loop;
    inner = loop;
  }
  if (!top)
    return false;
  // The reduction across threads runs in every thread at once: not under a
  // condition some threads may not meet.
  for (Operation *p = top->getParentOp(); p && p != kernel->getParentOp();
       p = p->getParentOp())
    if (auto around = dyn_cast<BlockOp>(p);
        around && (around.getPredicateAttr() || around.getCondition()))
      return false;
  unsigned nestSize = 0;
  llvm::StringSet<> reducedDims;
  for (Operation *p = block->getParentOp(); p != top->getParentOp();
       p = p->getParentOp()) {
    nestSize += reduceLoops.contains(p);
    auto loop = cast<ForOp>(p);
    if (!isThreadIdxLoop(loop))
      continue;
    std::optional<int64_t> lo = loop.getConstantLowerBound();
    std::optional<int64_t> hi = loop.getConstantUpperBound();
    auto dim = threadDims.find(*loop.getThread());
    if (!lo || !hi || *lo != 0 || dim == threadDims.end() || dim->second != *hi)
      return false;
    reducedDims.insert(*loop.getThread());
  }
  if (nestSize != reduceLoops.size())
    return false;
  // Every thread of the block takes part (gpu.all_reduce is over them all),
  // or the groups are clusters of lanes of whole warps.
  bool grouped = false;
  int64_t threads = 1;
  for (const auto &dim : threadDims) {
    threads *= dim.second;
    grouped |= dim.second > 1 && !reducedDims.contains(dim.getKey());
  }
  std::optional<uint32_t> cluster;
  if (grouped) {
    auto x = threadDims.find("threadIdx.x");
    if (reducedDims.size() != 1 || !reducedDims.contains("threadIdx.x") ||
        x == threadDims.end() || !llvm::isPowerOf2_64(x->second) ||
        kWarpLanes % x->second != 0 || threads % kWarpLanes != 0)
      return false;
    cluster = static_cast<uint32_t>(x->second);
  }
  std::optional<Update> update = matchUpdate(block);
  if (!update || !matchInit(block, *update))
    return false;
  Type type = update->load.getType();
  TypedAttr identity = identityOf(update->kind, type);
  if (!identity)
    return false;

  MLIRContext *ctx = block.getContext();
  Location loc = block.getLoc();
  OpBuilder b(top);
  // The final update: a copy of the block after the nest, the reduce loops'
  // variables at their first values, taking the reduced value.
  IRMapping mapping;
  for (Operation *p = block->getParentOp(); p != top->getParentOp();
       p = p->getParentOp()) {
    auto loop = cast<ForOp>(p);
    mapping.map(
        loop.getInductionVar(),
        arith::ConstantIndexOp::create(b, loc, *loop.getConstantLowerBound()));
  }
  auto partialType = MemRefType::get({}, type);
  Value partial = memref::AllocaOp::create(b, loc, partialType);
  Value init = arith::ConstantOp::create(b, loc, identity);
  memref::StoreOp::create(b, loc, init, partial);
  b.setInsertionPointAfter(top);
  Value mine = memref::LoadOp::create(b, loc, partial);
  Value reduced;
  if (cluster) {
    reduced = gpu::SubgroupReduceOp::create(b, loc, mine, update->kind,
                                            /*uniform=*/true, *cluster);
  } else {
    reduced = gpu::AllReduceOp::create(
        b, loc, mine, gpu::AllReduceOperationAttr::get(ctx, update->kind),
        /*uniform=*/true);
    // Every thread has read the reduced value before any goes on (to a
    // next reduction, which reuses the all-reduce's shared memory).
    gpu::BarrierOp::create(b, loc);
  }
  // The copy writes f(v0, r), v0 the init's value, without reading the
  // element: every thread writes the same value, and none can see another
  // one's write half way (acc = f(acc, r) after the init would, with
  // threads at different points).
  auto final = cast<BlockOp>(b.clone(*block, mapping));
  final.setBlockName((block.getBlockName() + "_cross_thread").str());
  Operation *finalCombiner = mapping.lookup(update->combiner);
  finalCombiner->setOperand(update->contribution, reduced);
  {
    InitOp finalInit = final.getInitOp();
    auto initStore = cast<StoreOp>(&finalInit.getBody()->back());
    Value v0 = initStore.getValue();
    OpBuilder ib(finalCombiner);
    IRMapping initMapping;
    for (Operation &op : finalInit.getBody()->without_terminator())
      if (&op != initStore.getOperation())
        ib.clone(op, initMapping);
    auto finalLoad = cast<LoadOp>(mapping.lookup(update->load.getOperation()));
    finalLoad.getResult().replaceAllUsesWith(initMapping.lookupOrDefault(v0));
    finalLoad.erase();
    finalInit.erase();
  }
  // What computed the contribution in the copy is dead now.
  for (Operation &op : llvm::make_early_inc_range(
           llvm::reverse(final.getBody()->getOperations())))
    if (op.use_empty() && (isa<LoadOp>(op) || isMemoryEffectFree(&op)))
      op.erase();

  // The block itself reduces into the thread's partial value: no init, no
  // access of the buffer.
  b.setInsertionPoint(update->load);
  Value old = memref::LoadOp::create(b, loc, partial);
  update->load.getResult().replaceAllUsesWith(old);
  update->load.erase();
  b.setInsertionPoint(update->store);
  memref::StoreOp::create(b, loc, update->store.getValue(), partial);
  update->store.erase();
  if (InitOp initOp = block.getInitOp())
    initOp.erase();
  block.dropAccessRegions();
  block->setAttr(kThreadPartialAttrName, UnitAttr::get(ctx));
  return true;
}

} // namespace

void mlir::tir::lowerCrossThreadReductions(ForOp kernel) {
  // The block's thread dimensions (the largest loop bound to each).
  llvm::StringMap<int64_t> threadDims;
  kernel->walk([&](ForOp loop) {
    if (!isThreadIdxLoop(loop))
      return;
    std::optional<int64_t> hi = loop.getConstantUpperBound();
    std::optional<int64_t> lo = loop.getConstantLowerBound();
    int64_t extent = hi && lo ? *hi - *lo : std::numeric_limits<int64_t>::max();
    int64_t &dim = threadDims[*loop.getThread()];
    dim = std::max(dim, extent);
  });
  SmallVector<BlockOp> blocks;
  kernel->walk([&](BlockOp block) {
    if (block.getInitOp())
      blocks.push_back(block);
  });
  for (BlockOp block : blocks)
    lowerBlock(block, kernel, threadDims);
}
