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
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
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

/// tir.alloc_buffer -> memref.alloca when the buffer is static and small,
/// memref.alloc + memref.dealloc at the end of its scope (the block it is
/// in: a tir.block's body, or a function's, before the terminator if any)
/// otherwise.
static void lowerAllocBuffer(RewriterBase &rewriter, AllocBufferOp alloc,
                             ValueRange dynamicSizes) {
  MemRefType type = alloc.getBuffer().getType();
  rewriter.setInsertionPoint(alloc);
  Location loc = alloc.getLoc();
  // Only int and float elements have a known size here (index, vectors and
  // other element types go to the heap).
  Type element = type.getElementType();
  bool onStack = type.hasStaticShape() && element.isIntOrFloat() &&
                 type.getNumElements() *
                         llvm::divideCeil(element.getIntOrFloatBitWidth(), 8) <=
                     kMaxStackBufferBytes;
  if (onStack) {
    rewriter.replaceOpWithNewOp<memref::AllocaOp>(alloc, type);
    return;
  }
  auto heap = memref::AllocOp::create(rewriter, loc, type, dynamicSizes);
  Block *scope = alloc->getBlock();
  if (scope->mightHaveTerminator())
    rewriter.setInsertionPoint(scope->getTerminator());
  else
    rewriter.setInsertionPointToEnd(scope);
  memref::DeallocOp::create(rewriter, loc, heap);
  rewriter.replaceOp(alloc, heap);
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

namespace {

struct AllocBufferOpLowering : public OpConversionPattern<AllocBufferOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllocBufferOp alloc, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    lowerAllocBuffer(rewriter, alloc, adaptor.getDynamicSizes());
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
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BlockOp block, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    lowerInit(rewriter, block);
    for (AllocBufferOp alloc :
         llvm::to_vector(block.getBody()->getOps<AllocBufferOp>()))
      lowerAllocBuffer(
          rewriter, alloc,
          llvm::map_to_vector(alloc.getDynamicSizes(), [&](Value v) {
            return rewriter.getRemappedValue(v);
          }));

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
  using OpConversionPattern::OpConversionPattern;

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
    rewriter.replaceOpWithNewOp<memref::StoreOp>(store, adaptor.getValue(),
                                                 adaptor.getBuffer(), indices);
    return success();
  }
};

} // namespace

void mlir::tir::populateTIRToSCFConversionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AllocBufferOpLowering, BlockOpLowering, ForOpLowering,
               LoadOpLowering, StoreOpLowering>(patterns.getContext());
}

/// Buffers allocated in a TVM storage scope (`memref<..., "shared">`) become
/// plain memory: their type loses the memory space in place, before the
/// lowering (the GPU lowering keeps scopes, as address spaces).
static void dropStorageScopes(Operation *root) {
  root->walk([](AllocBufferOp alloc) {
    MemRefType type = alloc.getBuffer().getType();
    if (isa_and_nonnull<StringAttr>(type.getMemorySpace()))
      alloc.getBuffer().setType(MemRefType::get(
          type.getShape(), type.getElementType(), type.getLayout()));
  });
}

LogicalResult mlir::tir::convertTIRToSCF(Operation *root, bool dropScopes) {
  // Refuse before rewriting anything, so a failure leaves the IR as it was
  // and names the op at fault.
  WalkResult unsupported = root->walk([](Operation *op) {
    if (auto match = dyn_cast<MatchBufferOp>(op)) {
      match.emitOpError("is not supported by convert-tir-to-scf yet; it is "
                        "lowered with tensorization");
      return WalkResult::interrupt();
    }
    auto loop = dyn_cast<ForOp>(op);
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

  if (dropScopes)
    dropStorageScopes(root);

  MLIRContext *context = root->getContext();
  ConversionTarget target(*context);
  target.addIllegalOp<AllocBufferOp, BlockOp, ForOp, InitOp, LoadOp, StoreOp>();
  target.addLegalDialect<arith::ArithDialect, memref::MemRefDialect,
                         scf::SCFDialect>();
  RewritePatternSet patterns(context);
  populateTIRToSCFConversionPatterns(patterns);
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  if (failed(applyPartialConversion(root, target, std::move(patterns), config)))
    return failure();

  // Parameter names and size names are tir's; lowered functions do not
  // carry them.
  root->walk([](FunctionOpInterface func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      func.removeArgAttr(i, TIRDialect::kNameAttrName);
      func.removeArgAttr(i, TIRDialect::kDimVarsAttrName);
    }
  });
  return success();
}

namespace {
struct ConvertTIRToSCFPass
    : public tir::impl::ConvertTIRToSCFPassBase<ConvertTIRToSCFPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convertTIRToSCF(getOperation(), dropStorageScopes)))
      signalPassFailure();
  }
};
} // namespace
