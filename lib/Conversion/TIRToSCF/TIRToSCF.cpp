//===- TIRToSCF.cpp - lower tir to scf, arith and memref ------------------===//

#include "TensorIR/Conversion/Passes.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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

static void lowerAllocBuffer(IRRewriter &rewriter, AllocBufferOp alloc,
                             bool dropStorageScopes) {
  MemRefType type = alloc.getBuffer().getType();
  if (dropStorageScopes && isa_and_nonnull<StringAttr>(type.getMemorySpace()))
    type = MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout());
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
  auto heap = memref::AllocOp::create(rewriter, loc, type,
                                      alloc.getDynamicSizes());
  // Freed at the end of the scope: before the block body's end, or before
  // the function's terminator.
  Block *scope = alloc->getBlock();
  if (scope->mightHaveTerminator())
    rewriter.setInsertionPoint(scope->getTerminator());
  else
    rewriter.setInsertionPointToEnd(scope);
  memref::DeallocOp::create(rewriter, loc, heap);
  rewriter.replaceOp(alloc, heap);
}

static void lowerBlock(IRRewriter &rewriter, BlockOp block) {
  Location loc = block.getLoc();
  rewriter.setInsertionPoint(block);
  SmallVector<Value> iterValues =
      expandMap(rewriter, loc, block.getBindings(), block.getBindingValues());
  Block *dest = block->getBlock();
  Block::iterator point = Block::iterator(block);
  if (block.getPredicate() || block.getCondition()) {
    // A disjunction of conjunctions of `c >= 0` / `c == 0`, and the value
    // condition.
    Value cond;
    ValueRange values = block.getBindingValues();
    for (IntegerSet set : block.getPredicateSets()) {
      ValueRange dims = values.take_front(set.getNumDims());
      ValueRange syms = values.drop_front(set.getNumDims());
      Value all;
      for (unsigned i = 0, e = set.getNumConstraints(); i < e; ++i) {
        Value lhs = affine::expandAffineExpr(rewriter, loc,
                                             set.getConstraint(i), dims, syms);
        Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
        Value holds = arith::CmpIOp::create(
            rewriter, loc,
            set.isEq(i) ? arith::CmpIPredicate::eq : arith::CmpIPredicate::sge,
            lhs, zero);
        all = all ? arith::AndIOp::create(rewriter, loc, all, holds).getResult()
                  : holds;
      }
      if (!all)
        all = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
      cond = cond ? arith::OrIOp::create(rewriter, loc, cond, all).getResult()
                  : all;
    }
    if (!cond && block.getPredicate())
      cond = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
    if (Value value = block.getCondition())
      cond = cond ? arith::AndIOp::create(rewriter, loc, cond, value).getResult()
                  : value;
    auto ifOp = scf::IfOp::create(rewriter, loc, cond,
                                  /*withElseRegion=*/false);
    dest = ifOp.thenBlock();
    point = dest->getTerminator()->getIterator();
  }
  rewriter.inlineBlockBefore(block.getBody(), dest, point, iterValues);
  rewriter.eraseOp(block);
}

static void lowerFor(IRRewriter &rewriter, ForOp loop) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value lb = getValueOrCreateConstantIndexOp(rewriter, loc,
                                             loop.getMixedLowerBound());
  Value ub = getValueOrCreateConstantIndexOp(rewriter, loc,
                                             loop.getMixedUpperBound());
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
      seq->setAttr("tir.loop_kind", loop.getKindAttr());
  }
  if (auto annotations = loop.getAnnotationsAttr())
    replacement->setAttr("tir.annotations", annotations);
  rewriter.inlineBlockBefore(loop.getBody(), body->getTerminator(),
                             body->getArgument(0));
  rewriter.eraseOp(loop);
}

LogicalResult mlir::tir::convertTIRToSCF(Operation *root,
                                         bool dropStorageScopes) {
  // Refuse before rewriting anything, so a failure leaves the IR as it was.
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

  IRRewriter rewriter(root->getContext());
  // Parameter names are tir's; lowered functions do not carry them.
  root->walk([](FunctionOpInterface func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      func.removeArgAttr(i, TIRDialect::kNameAttrName);
  });
  // Scopes first (allocations are freed at the end of their block), then
  // blocks innermost first, then loops innermost first, then accesses.
  root->walk([&](BlockOp block) { lowerInit(rewriter, block); });
  SmallVector<AllocBufferOp> allocs;
  root->walk([&](AllocBufferOp alloc) { allocs.push_back(alloc); });
  for (AllocBufferOp alloc : allocs)
    lowerAllocBuffer(rewriter, alloc, dropStorageScopes);
  SmallVector<BlockOp> blocks;
  root->walk([&](BlockOp block) { blocks.push_back(block); });
  for (BlockOp block : blocks)
    lowerBlock(rewriter, block);
  SmallVector<ForOp> loops;
  root->walk([&](ForOp loop) { loops.push_back(loop); });
  for (ForOp loop : loops)
    lowerFor(rewriter, loop);
  root->walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      rewriter.setInsertionPoint(load);
      SmallVector<Value> indices = expandMap(rewriter, load.getLoc(),
                                             load.getMap(), load.getIndices());
      rewriter.replaceOpWithNewOp<memref::LoadOp>(load, load.getBuffer(),
                                                  indices);
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      rewriter.setInsertionPoint(store);
      SmallVector<Value> indices = expandMap(
          rewriter, store.getLoc(), store.getMap(), store.getIndices());
      rewriter.replaceOpWithNewOp<memref::StoreOp>(store, store.getValue(),
                                                   store.getBuffer(), indices);
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
