//===- TIRToSCF.cpp - lower tir to scf, arith and memref ------------------===//
//
// One conversion pattern per tir op that the lowering replaces, applied by
// a partial dialect conversion. Dialect conversion rather than greedy
// rewriting, because:
// - every pattern replaces its op exactly once by ops of other dialects,
//   and the conversion target states that: the lowered tir ops are illegal,
//   arith / memref / scf legal, everything else (tir.call, func, math,
//   vector, affine.apply, ...) is left as it is;
// - a greedy driver would also fold and erase ops as dead (an unused
//   tir.alloc_buffer, arith ops left from the input), which this lowering
//   does not do; the conversion runs with folding off;
// - loops and blocks move their bodies out of their region, and the
//   conversion visits ops outer first, so that the patterns of nested ops
//   see the lowered loops around them and take their operands, through
//   the adaptor, already replaced.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToSCF/TIRToSCF.h"
#include "TensorIR/Conversion/TIRToSCF/CompactBuffers.h"
#include "TensorIR/Dialect/TIR/Analysis/BufferDimAlign.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"
#include "TensorIR/Dialect/TIR/Transforms/SoftwarePipeline.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tir {
#define GEN_PASS_DEF_CONVERTTIRTOSCFPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// Buffers up to this size (bytes) with a static shape go on the stack.
static constexpr int64_t kMaxStackBufferBytes = 64 * 1024;
/// The alignment of every buffer the lowering allocates, in bytes.
static constexpr int64_t kBufferAlignment = 64;

/// Expands every result of `map` over `operands` (dims, then symbols).
static SmallVector<Value> expandMap(OpBuilder &b, Location loc, AffineMap map,
                                    ValueRange operands) {
  SmallVector<Value> results;
  ValueRange dims = operands.take_front(map.getNumDims());
  ValueRange syms = operands.drop_front(map.getNumDims());
  for (AffineExpr e : map.getResults())
    results.push_back(affine::expandAffineExpr(b, loc, e, dims, syms));
  return results;
}

/// A buffer of `type`: memref.alloca when it is static and small,
/// memref.alloc + memref.dealloc at the end of its scope (the block of the
/// insertion point: a tir.block's body, a function's or a loop's, before
/// the terminator if any) otherwise. Either is aligned to a cache line
/// (kBufferAlignment), as TVM allocates: with malloc's 16 bytes a 64-byte
/// vector access of a packed panel may straddle two lines.
static Value createBuffer(RewriterBase &rewriter, Location loc, MemRefType type,
                          ValueRange dynamicSizes) {
  // Only int and float elements have a known size here (index, vectors and
  // other element types go to the heap).
  Type element = type.getElementType();
  bool onStack = type.hasStaticShape() && element.isIntOrFloat() &&
                 type.getNumElements() *
                         llvm::divideCeil(element.getIntOrFloatBitWidth(), 8) <=
                     kMaxStackBufferBytes;
  // Host buffers only: a memory space (a GPU's shared or local memory) has
  // its own placement.
  IntegerAttr alignment = type.getMemorySpace()
                              ? IntegerAttr()
                              : rewriter.getI64IntegerAttr(kBufferAlignment);
  if (onStack)
    return memref::AllocaOp::create(rewriter, loc, type, ValueRange(),
                                    ValueRange(), alignment);
  auto heap = memref::AllocOp::create(rewriter, loc, type, dynamicSizes,
                                      ValueRange(), alignment);
  Block *scope = rewriter.getInsertionBlock();
  OpBuilder::InsertionGuard guard(rewriter);
  if (scope->mightHaveTerminator())
    rewriter.setInsertionPoint(scope->getTerminator());
  else
    rewriter.setInsertionPointToEnd(scope);
  memref::DeallocOp::create(rewriter, loc, heap);
  return heap;
}

/// The alignments storage_align asked for buffers (BufferDimAlign.h).
using BufferAligns = DenseMap<Value, SmallVector<DimAlign>>;

/// A buffer of `type` whose strides storage_align padded (`aligns`): a flat
/// allocation of the padded size, seen through a memref.reinterpret_cast
/// with the strides. A buffer without alignments, or with a runtime
/// dimension, is createBuffer's.
static Value createAlignedBuffer(RewriterBase &rewriter, Location loc,
                                 MemRefType type, ValueRange dynamicSizes,
                                 ArrayRef<DimAlign> aligns) {
  if (aligns.empty() || !type.hasStaticShape() || type.getRank() == 0)
    return createBuffer(rewriter, loc, type, dynamicSizes);
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> strides = getAlignedStrides(shape, aligns);
  // Whole padded rows of the outermost dimension, as TVM allocates (each
  // stride is at least the extent of what is inside it).
  int64_t size = shape[0] * strides[0];
  auto flatType =
      MemRefType::get({size}, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  Value flat = createBuffer(rewriter, loc, flatType, ValueRange());
  auto stridedType =
      MemRefType::get(shape, type.getElementType(),
                      StridedLayoutAttr::get(rewriter.getContext(), 0, strides),
                      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(rewriter, loc, stridedType, flat,
                                           /*offset=*/0, shape, strides);
}

/// A compacted buffer allocated where its tir.alloc_buffer stands (plans
/// without a parallel loop), or left to ForOpLowering (the start of the
/// parallel loop's body).
static void allocateCompacted(RewriterBase &rewriter, AllocBufferOp alloc,
                              CompactedBuffer &plan,
                              ArrayRef<DimAlign> aligns) {
  if (!plan.home) {
    rewriter.setInsertionPoint(alloc);
    plan.buffer =
        createAlignedBuffer(rewriter, alloc.getLoc(), plan.type, {}, aligns);
  }
  rewriter.eraseOp(alloc);
}

/// tir.alloc_buffer -> createAlignedBuffer where it stands.
static void lowerAllocBuffer(RewriterBase &rewriter, AllocBufferOp alloc,
                             ValueRange dynamicSizes,
                             ArrayRef<DimAlign> aligns) {
  rewriter.setInsertionPoint(alloc);
  rewriter.replaceOp(alloc, createAlignedBuffer(rewriter, alloc.getLoc(),
                                                alloc.getBuffer().getType(),
                                                dynamicSizes, aligns));
}

/// The alignments of `buffer` (none when `aligns` is null).
static ArrayRef<DimAlign> alignsOf(const BufferAligns *aligns, Value buffer) {
  if (!aligns)
    return {};
  auto it = aligns->find(buffer);
  return it == aligns->end() ? ArrayRef<DimAlign>() : it->second;
}

/// The condition under which `block` runs, over its binding `values`: its
/// predicate (a disjunction of conjunctions of `c >= 0` / `c == 0`) and
/// its value `condition`; null when it has neither.
static Value buildCondition(OpBuilder &b, Location loc, BlockOp block,
                            ValueRange values, Value condition) {
  if (!block.getPredicate() && !condition)
    return Value();
  Value cond;
  for (IntegerSet set : block.getPredicateSets()) {
    ValueRange dims = values.take_front(set.getNumDims());
    ValueRange syms = values.drop_front(set.getNumDims());
    Value all;
    for (unsigned i = 0, e = set.getNumConstraints(); i < e; ++i) {
      Value lhs =
          affine::expandAffineExpr(b, loc, set.getConstraint(i), dims, syms);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value holds = arith::CmpIOp::create(
          b, loc,
          set.isEq(i) ? arith::CmpIPredicate::eq : arith::CmpIPredicate::sge,
          lhs, zero);
      all = all ? arith::AndIOp::create(b, loc, all, holds).getResult() : holds;
    }
    if (!all)
      all = arith::ConstantIntOp::create(b, loc, 1, 1);
    cond = cond ? arith::OrIOp::create(b, loc, cond, all).getResult() : all;
  }
  if (!cond && block.getPredicate())
    cond = arith::ConstantIntOp::create(b, loc, 0, 1);
  if (condition)
    cond = cond ? arith::AndIOp::create(b, loc, cond, condition).getResult()
                : condition;
  return cond;
}

/// The range of a block or thread index of a kernel (convert-tir-to-gpu
/// made the launch) whose grid or block size is a constant.
static std::optional<Interval> launchIndexRange(gpu::LaunchOp launch,
                                                BlockArgument arg) {
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  std::pair<Value, Value> indices[] = {
      {blockIds.x, grid.x},   {blockIds.y, grid.y},   {blockIds.z, grid.z},
      {threadIds.x, block.x}, {threadIds.y, block.y}, {threadIds.z, block.z}};
  for (auto [index, size] : indices) {
    if (index != arg)
      continue;
    std::optional<int64_t> n = getConstantIntValue(size);
    if (!n || *n < 1)
      return std::nullopt;
    return Interval{0, *n - 1};
  }
  return std::nullopt;
}

/// The range of a loop variable or constant while the conversion runs:
/// tir's own (getValueRange), that of an already lowered scf.for /
/// scf.parallel with constant bounds and step 1, or a kernel's block or
/// thread index.
static std::optional<Interval> loweredValueRange(Value v) {
  if (std::optional<Interval> r = getValueRange(v))
    return r;
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return std::nullopt;
  if (auto launch =
          dyn_cast_or_null<gpu::LaunchOp>(arg.getOwner()->getParentOp()))
    return launchIndexRange(launch, arg);
  Operation *owner = arg.getOwner()->getParentOp();
  std::optional<int64_t> lo, up, step;
  if (auto loop = dyn_cast_or_null<scf::ForOp>(owner)) {
    if (arg != loop.getInductionVar())
      return std::nullopt;
    lo = getConstantIntValue(loop.getLowerBound());
    up = getConstantIntValue(loop.getUpperBound());
    step = getConstantIntValue(loop.getStep());
  } else if (auto par = dyn_cast_or_null<scf::ParallelOp>(owner)) {
    unsigned i = arg.getArgNumber();
    if (i >= par.getNumLoops())
      return std::nullopt;
    lo = getConstantIntValue(par.getLowerBound()[i]);
    up = getConstantIntValue(par.getUpperBound()[i]);
    step = getConstantIntValue(par.getStep()[i]);
  }
  if (!lo || !up || step != 1 || *up <= *lo)
    return std::nullopt;
  return Interval{*lo, *up - 1};
}

static unsigned countDivisions(AffineMap map) {
  unsigned n = 0;
  for (AffineExpr e : map.getResults())
    e.walk([&](AffineExpr sub) {
      AffineExprKind k = sub.getKind();
      n += k == AffineExprKind::FloorDiv || k == AffineExprKind::CeilDiv ||
           k == AffineExprKind::Mod;
    });
  return n;
}

/// TVM's Simplify after ConvertBlocksToOpaque: an access of `block` whose
/// index divides or takes the modulo of an iteration variable is rewritten
/// over the block's binding values where the loops' ranges remove
/// divisions: `Bp[vj floordiv 32, vk, vj mod 32]` with vj bound to
/// `j0 * 32 + j1 * 16 + j2` (j1 in [0, 2), j2 in [0, 16)) becomes
/// `Bp[j0, k, j1 * 16 + j2]`, which the vectorizer loads as one vector
/// rather than gathers. Accesses inside nested blocks are theirs.
using CompactionPlans = llvm::MapVector<Value, CompactedBuffer>;

static void simplifyAccessesOverBindings(ConversionPatternRewriter &rewriter,
                                         BlockOp block,
                                         ValueRange bindingValues,
                                         const CompactionPlans *plans) {
  MLIRContext *ctx = block.getContext();
  AffineMap bindings = block.getBindings();
  unsigned numIterVars = block.getNumIterVars();
  Block *body = block.getBody();
  // The access's map over the binding values (and the other operands),
  // simplified; none where nothing is gained.
  auto simplify = [&](Value buffer, AffineMap map, OperandRange indices)
      -> std::optional<
          std::tuple<AffineMap, SmallVector<Value>, const CompactedBuffer *>> {
    const CompactedBuffer *compacted = nullptr;
    if (plans) {
      auto it = plans->find(buffer);
      if (it != plans->end())
        compacted = &it->second;
    }
    auto isIterVar = [&](Value v) {
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner() == body && arg.getArgNumber() < numIterVars;
    };
    // Also an access over iteration variables and outer values together
    // (a GPU kernel's local buffer shifted by thread indices): over the
    // bindings, the two cancel.
    bool mixed =
        llvm::any_of(indices, isIterVar) && !llvm::all_of(indices, isIterVar);
    if (!compacted && !mixed &&
        (countDivisions(map) == 0 || llvm::none_of(indices, isIterVar)))
      return std::nullopt;
    // New operands: the binding values, then the access's other operands;
    // all of them dimensions.
    SmallVector<Value> operands(bindingValues);
    SmallVector<AffineExpr> dims, syms, bindingDims;
    // One dimension per distinct value (a loop variable in a binding and
    // in a compacted buffer's shift is the same dimension).
    auto dimOf = [&](Value v) {
      auto it = llvm::find(operands, v);
      if (it == operands.end()) {
        operands.push_back(v);
        it = std::prev(operands.end());
      }
      return getAffineDimExpr(it - operands.begin(), ctx);
    };
    for (unsigned i = 0; i < bindingValues.size(); ++i)
      bindingDims.push_back(getAffineDimExpr(i, ctx));
    auto replacement = [&](Value v) -> AffineExpr {
      auto arg = dyn_cast<BlockArgument>(v);
      if (arg && arg.getOwner() == body && arg.getArgNumber() < numIterVars)
        return bindings.getResult(arg.getArgNumber())
            .replaceDimsAndSymbols(
                ArrayRef(bindingDims).take_front(bindings.getNumDims()),
                ArrayRef(bindingDims).drop_front(bindings.getNumDims()));
      return dimOf(v);
    };
    for (auto [i, v] : llvm::enumerate(indices))
      (i < map.getNumDims() ? dims : syms).push_back(replacement(v));
    // A compacted buffer's indices are shifted by the start of the part
    // one iteration of its loop touches (over values outside that loop).
    SmallVector<AffineExpr> shifts;
    if (compacted) {
      SmallVector<AffineExpr> inputDims;
      for (Value v : compacted->inputs)
        inputDims.push_back(dimOf(rewriter.getRemappedValue(v)));
      for (AffineExpr lo : compacted->lowers)
        shifts.push_back(lo.replaceDims(inputDims));
    }
    SmallVector<std::optional<Interval>> ranges =
        llvm::map_to_vector(operands, loweredValueRange);
    SmallVector<AffineExpr> results;
    for (auto [d, e] : llvm::enumerate(map.getResults())) {
      AffineExpr index = e.replaceDimsAndSymbols(dims, syms);
      if (compacted)
        index = index - shifts[d];
      results.push_back(simplifyWithRanges(index, ranges, operands.size(), 0));
    }
    AffineMap simplified = AffineMap::get(operands.size(), 0, results, ctx);
    if (!compacted && !mixed &&
        countDivisions(simplified) >= countDivisions(map))
      return std::nullopt;
    return std::make_tuple(simplified, operands, compacted);
  };
  auto rewrite = [&](Operation *op, Value buffer, AffineMap map,
                     OperandRange indices) {
    auto result = simplify(buffer, map, indices);
    if (!result)
      return;
    auto &[simplified, operands, compacted] = *result;
    rewriter.modifyOpInPlace(op, [&] {
      if (auto load = dyn_cast<LoadOp>(op)) {
        load.setMap(simplified);
        load.getIndicesMutable().assign(operands);
        if (compacted)
          load.getBufferMutable().assign(compacted->buffer);
      } else {
        auto store = cast<StoreOp>(op);
        store.setMap(simplified);
        store.getIndicesMutable().assign(operands);
        if (compacted)
          store.getBufferMutable().assign(compacted->buffer);
      }
    });
  };
  // A view's region starts, as an access's indices (a fragment of a GPU
  // kernel's local buffer, shifted by thread indices, then starts at
  // constants); its extents are constants.
  auto rewriteView = [&](MatchBufferOp view) {
    if (plans && plans->count(view.getSource()))
      return;
    RegionExprs region = splitRegionMap(view.getSourceRegion());
    if (!llvm::all_of(region.extents, llvm::IsaPred<AffineConstantExpr>))
      return;
    unsigned n = view.getIndices().size();
    auto result =
        simplify(view.getSource(),
                 AffineMap::get(n, 0, region.starts, view.getContext()),
                 view.getIndices());
    if (!result)
      return;
    auto &[starts, operands, compacted] = *result;
    region.starts.assign(starts.getResults().begin(),
                         starts.getResults().end());
    AffineMap updated = buildRegionMap(operands.size(), region, ctx);
    rewriter.modifyOpInPlace(view, [&] {
      view.setSourceRegionAttr(AffineMapAttr::get(updated));
      view.getIndicesMutable().assign(operands);
    });
  };
  block.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<BlockOp>(op))
      return WalkResult::skip();
    if (auto load = dyn_cast<LoadOp>(op))
      rewrite(op, load.getBuffer(), load.getMap(), load.getIndices());
    else if (auto store = dyn_cast<StoreOp>(op))
      rewrite(op, store.getBuffer(), store.getMap(), store.getIndices());
    return WalkResult::advance();
  });
  // Views also in nested blocks (a tensorized block inside the one whose
  // variables place its region).
  block.getBody()->walk([&](MatchBufferOp view) { rewriteView(view); });
}

namespace {

struct AllocBufferOpLowering : public OpConversionPattern<AllocBufferOp> {
  AllocBufferOpLowering(MLIRContext *ctx, CompactionPlans *plans,
                        const BufferAligns *aligns)
      : OpConversionPattern(ctx), plans(plans), aligns(aligns) {}
  CompactionPlans *plans;
  const BufferAligns *aligns;

  LogicalResult
  matchAndRewrite(AllocBufferOp alloc, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<DimAlign> align = alignsOf(aligns, alloc.getBuffer());
    if (plans && plans->count(alloc.getBuffer())) {
      allocateCompacted(rewriter, alloc, (*plans)[alloc.getBuffer()], align);
      return success();
    }
    lowerAllocBuffer(rewriter, alloc, adaptor.getDynamicSizes(), align);
    return success();
  }
};

/// tir.block -> its body where it stands: the iteration variables replaced
/// by their bindings expanded to arith over the loop variables, the body
/// inside an scf.if when the block has a predicate or a condition. The
/// tir.init becomes an scf.if first (lowerInit), and the buffers the block
/// allocates are lowered before its body moves, so that they are freed
/// where the block ends.
struct BlockOpLowering : public OpConversionPattern<BlockOp> {
  BlockOpLowering(MLIRContext *ctx, CompactionPlans *plans,
                  const BufferAligns *aligns)
      : OpConversionPattern(ctx), plans(plans), aligns(aligns) {}
  CompactionPlans *plans;
  const BufferAligns *aligns;

  LogicalResult
  matchAndRewrite(BlockOp block, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    lowerInit(rewriter, block);
    simplifyAccessesOverBindings(rewriter, block, adaptor.getBindingValues(),
                                 plans);
    for (AllocBufferOp alloc :
         llvm::to_vector(block.getBody()->getOps<AllocBufferOp>()))
      if (plans && plans->count(alloc.getBuffer()))
        allocateCompacted(rewriter, alloc, (*plans)[alloc.getBuffer()],
                          alignsOf(aligns, alloc.getBuffer()));
      else
        lowerAllocBuffer(
            rewriter, alloc,
            llvm::map_to_vector(
                alloc.getDynamicSizes(),
                [&](Value v) { return rewriter.getRemappedValue(v); }),
            alignsOf(aligns, alloc.getBuffer()));

    Location loc = block.getLoc();
    rewriter.setInsertionPoint(block);
    ValueRange values = adaptor.getBindingValues();
    SmallVector<Value> iterValues =
        expandMap(rewriter, loc, block.getBindings(), values);
    Block *dest = block->getBlock();
    Block::iterator point = Block::iterator(block);
    if (Value cond = buildCondition(rewriter, loc, block, values,
                                    adaptor.getCondition())) {
      auto ifOp = scf::IfOp::create(rewriter, loc, cond,
                                    /*withElseRegion=*/false);
      dest = ifOp.thenBlock();
      point = dest->getTerminator()->getIterator();
    }
    rewriter.inlineBlockBefore(block.getBody(), dest, point, iterValues);
    rewriter.eraseOp(block);
    return success();
  }
};

/// tir.for -> scf.parallel for a parallel loop, scf.for otherwise; a
/// vectorized or unrolled loop keeps its kind in `tir.loop_kind`, and
/// annotations stay as `tir.annotations`, for the passes that act on them.
struct ForOpLowering : public OpConversionPattern<ForOp> {
  ForOpLowering(MLIRContext *ctx, CompactionPlans *plans,
                const BufferAligns *aligns)
      : OpConversionPattern(ctx), plans(plans), aligns(aligns) {}
  CompactionPlans *plans;
  const BufferAligns *aligns;

  LogicalResult
  matchAndRewrite(ForOp loop, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (loop.getKind() == ForKind::ThreadBinding)
      return rewriter.notifyMatchFailure(
          loop, "thread-bound loops are lowered by the GPU pipeline");
    Location loc = loop.getLoc();
    SmallVector<OpFoldResult> bounds = getMixedValues(
        loop.getStaticBounds(), adaptor.getDynamicBounds(), rewriter);
    Value lb = getValueOrCreateConstantIndexOp(rewriter, loc, bounds[0]);
    Value ub = getValueOrCreateConstantIndexOp(rewriter, loc, bounds[1]);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Block *body;
    Operation *replacement;
    if (loop.getKind() == ForKind::Parallel) {
      auto par = scf::ParallelOp::create(rewriter, loc, ValueRange{lb},
                                         ValueRange{ub}, ValueRange{step});
      body = par.getBody();
      replacement = par;
    } else {
      auto seq = scf::ForOp::create(rewriter, loc, lb, ub, step);
      body = seq.getBody();
      replacement = seq;
      if (loop.getKind() != ForKind::Serial)
        seq->setAttr(TIRDialect::kLoopKindAttrName, loop.getKindAttr());
    }
    if (auto annotations = loop.getAnnotationsAttr())
      replacement->setAttr(TIRDialect::kAnnotationsAttrName, annotations);
    rewriter.inlineBlockBefore(loop.getBody(), body->getTerminator(),
                               body->getArgument(0));
    // Buffers compacted to this loop: one per iteration, at the start of
    // its body (freed before its end when on the heap).
    if (plans)
      for (auto &[old, plan] : *plans) {
        if (plan.home != loop)
          continue;
        rewriter.setInsertionPointToStart(body);
        plan.buffer = createAlignedBuffer(rewriter, loc, plan.type,
                                          ValueRange(), alignsOf(aligns, old));
      }
    rewriter.eraseOp(loop);
    return success();
  }
};

/// tir.load -> memref.load, its index expressions expanded to arith.
struct LoadOpLowering : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LoadOp load, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> indices =
        expandMap(rewriter, load.getLoc(), load.getMap(), adaptor.getIndices());
    rewriter.replaceOpWithNewOp<memref::LoadOp>(load, adaptor.getBuffer(),
                                                indices);
    return success();
  }
};

/// tir.store -> memref.store, its index expressions expanded to arith.
struct StoreOpLowering : public OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StoreOp store, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> indices = expandMap(
        rewriter, store.getLoc(), store.getMap(), adaptor.getIndices());
    auto lowered = rewriter.replaceOpWithNewOp<memref::StoreOp>(
        store, adaptor.getValue(), adaptor.getBuffer(), indices);
    // An asynchronous pipeline's copy stays marked for
    // tir-lower-async-copies.
    if (store->hasAttr(kAsyncCopyAttr))
      lowered->setAttr(kAsyncCopyAttr, rewriter.getUnitAttr());
    return success();
  }
};

/// tir.match_buffer -> memref.subview of the region (unit dimensions the
/// view leaves out dropped), its starts expanded to arith; the offset
/// stays dynamic, as the view's type says.
struct MatchBufferOpLowering : public OpConversionPattern<MatchBufferOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatchBufferOp match, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = match.getLoc();
    RegionExprs region = splitRegionMap(match.getSourceRegion());
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (auto [start, extent] : llvm::zip(region.starts, region.extents)) {
      offsets.push_back(affine::expandAffineExpr(rewriter, loc, start,
                                                 adaptor.getIndices(), {}));
      auto c = dyn_cast<AffineConstantExpr>(extent);
      if (!c)
        return rewriter.notifyMatchFailure(match, "dynamic extent");
      sizes.push_back(rewriter.getIndexAttr(c.getValue()));
      strides.push_back(rewriter.getIndexAttr(1));
    }
    auto resultType = cast<MemRefType>(match.getResult().getType());
    rewriter.replaceOpWithNewOp<memref::SubViewOp>(
        match, resultType, adaptor.getSource(), offsets, sizes, strides);
    return success();
  }
};

} // namespace

static void populatePatterns(RewritePatternSet &patterns,
                             CompactionPlans *plans,
                             const BufferAligns *aligns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<AllocBufferOpLowering, BlockOpLowering, ForOpLowering>(
      ctx, plans, aligns);
  patterns.add<LoadOpLowering, MatchBufferOpLowering, StoreOpLowering>(ctx);
}

void mlir::tir::populateTIRToSCFConversionPatterns(
    RewritePatternSet &patterns) {
  populatePatterns(patterns, nullptr, nullptr);
}

/// Buffers allocated in a TVM storage scope (`memref<..., "shared">`) become
/// plain memory: their type loses the memory space in place, before the
/// lowering (the GPU lowering keeps scopes, as address spaces).
static void dropStorageScopes(Operation *root) {
  auto withoutScope = [](Type t) {
    auto type = cast<MemRefType>(t);
    return MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout());
  };
  auto drop = [&](Value buffer) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!isa_and_nonnull<StringAttr>(type.getMemorySpace()))
      return;
    buffer.setType(withoutScope(type));
    // A view's metadata (a tensor intrinsic's `.elem_offset`) has a base
    // buffer in the same space.
    for (Operation *user : buffer.getUsers())
      if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(user))
        meta.getBaseBuffer().setType(
            withoutScope(meta.getBaseBuffer().getType()));
  };
  root->walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocBufferOp>(op))
      drop(alloc.getBuffer());
    else if (auto match = dyn_cast<MatchBufferOp>(op))
      drop(match.getResult());
  });
}

/// tir.allocate_const -> a constant memref.global of the module (named
/// after the buffer) read with memref.get_global: the data is the
/// program's, not allocated at run time.
static LogicalResult lowerConstantBuffers(Operation *root) {
  SmallVector<AllocateConstOp> consts;
  root->walk([&](AllocateConstOp op) { consts.push_back(op); });
  ModuleOp current;
  std::optional<SymbolTable> symbols;
  for (AllocateConstOp op : consts) {
    auto module = op->getParentOfType<ModuleOp>();
    if (!module || !(module == root || root->isProperAncestor(module)))
      return op.emitOpError(
          "holds constant data, which becomes a global of the module; run "
          "convert-tir-to-scf on the module, not on one function");
    if (module != current)
      symbols.emplace(current = module);
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToStart(module.getBody());
    auto type = cast<MemRefType>(op.getBuffer().getType());
    auto global = memref::GlobalOp::create(
        b, op.getLoc(),
        ("__tir_const_" + op.getBufferName().value_or("data")).str(),
        b.getStringAttr("private"), type, op.getValue(),
        /*constant=*/true, /*alignment=*/nullptr);
    symbols->insert(global); // renamed if the name is taken
    OpBuilder at(op);
    Value data =
        memref::GetGlobalOp::create(at, op.getLoc(), type, global.getSymName());
    op.getBuffer().replaceAllUsesWith(data);
    op.erase();
  }
  return success();
}

LogicalResult mlir::tir::convertTIRToSCF(Operation *root, bool dropScopes,
                                         bool compactBuffers) {
  // Refuse before rewriting anything, so a failure leaves the IR as it was
  // and names the op at fault.
  WalkResult unsupported = root->walk([](Operation *op) {
    if (auto match = dyn_cast<MatchBufferOp>(op)) {
      if (llvm::any_of(
              splitRegionMap(match.getSourceRegion()).extents,
              [](AffineExpr e) { return !isa<AffineConstantExpr>(e); })) {
        match.emitOpError("matches a region of a size known only at run "
                          "time; convert-tir-to-scf needs constant extents");
        return WalkResult::interrupt();
      }
    }
    auto loop = dyn_cast<ForOp>(op);
    if (loop && failed(loop.checkIndependentIterations()))
      return WalkResult::interrupt();
    // 8-bit floats are moved (loads, stores, the tensor-core instructions),
    // not computed with: LLVM has no such type to compute in.
    if (op->getDialect() && op->getDialect()->getNamespace() == "arith")
      for (Type t :
           llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
        if (isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(t))) {
          op->emitOpError("computes with ")
              << t
              << " values; 8-bit floats (float8_e4m3fn, float8_e5m2) are "
                 "tensor-core operands: copied, and multiplied by the "
                 "mma.sync intrinsics of tvm.tir.tensor_intrin.cuda, not "
                 "computed with or converted elsewhere";
          return WalkResult::interrupt();
        }
    if (loop && loop.getKind() == ForKind::ThreadBinding) {
      loop.emitOpError("is bound to '")
          << *loop.getThread()
          << "'; thread-bound loops are lowered by the GPU pipeline, not "
             "convert-tir-to-scf";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return failure();
  if (failed(lowerConstantBuffers(root)))
    return failure();

  if (dropScopes)
    dropStorageScopes(root);

  MLIRContext *context = root->getContext();
  ConversionTarget target(*context);
  target.addIllegalOp<AllocBufferOp, BlockOp, ForOp, InitOp, LoadOp,
                      MatchBufferOp, StoreOp>();
  target.addLegalDialect<arith::ArithDialect, memref::MemRefDialect,
                         scf::SCFDialect>();
  CompactionPlans plans;
  if (compactBuffers)
    plans = planBufferCompaction(root);
  RewritePatternSet patterns(context);
  // storage_align's strides, read before the blocks holding them go.
  BufferAligns aligns = collectBufferDimAligns(root);
  populatePatterns(patterns, &plans, &aligns);
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  if (failed(applyPartialConversion(root, target, std::move(patterns), config)))
    return failure();

  // Parameter names, size names and axis separators are tir's; lowered
  // functions do not carry them. (On the CPU a buffer's axis groups are
  // laid out one after the other, which is the memref's row-major layout:
  // the separators change nothing there.)
  root->walk([](FunctionOpInterface func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      func.removeArgAttr(i, TIRDialect::kNameAttrName);
      func.removeArgAttr(i, TIRDialect::kDimVarsAttrName);
      func.removeArgAttr(i, TIRDialect::kAxisSeparatorsAttrName);
      func.removeArgAttr(i, TIRDialect::kDeclaredLayoutAttrName);
      func.removeArgAttr(i, TIRDialect::kDtypeAttrName);
    }
  });
  return success();
}

namespace {
struct ConvertTIRToSCFPass
    : public tir::impl::ConvertTIRToSCFPassBase<ConvertTIRToSCFPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(
            convertTIRToSCF(getOperation(), dropStorageScopes, compactBuffers)))
      signalPassFailure();
  }
};
} // namespace
