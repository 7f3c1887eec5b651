//===- FoldPrivateOffsets.cpp - constant offsets into a thread's buffers --===//
//
// A thread's private buffer compacted in a loop (a register tile, a
// tensor-core fragment placed under the k loop) is seen through a view
// whose offset moves with the loop (`-k * 128`), and its accesses index it
// with the loop's variable again (`(k * 4 + j) * 32`): the two cancel, but
// LLVM folds them only late in its pipeline, after the last scalar
// replacement of aggregates, so the buffer stays in local memory. Here,
// once views are plain offsets (after expand-strided-metadata and
// lower-affine), each load and store of such a buffer gets its element
// offset as the index expression its arithmetic computes (getIndexExprOf),
// simplified so that the terms cancel, and reads the buffer through a flat
// view of it at that offset: a constant where nothing is left but
// constants.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRFOLDPRIVATEOFFSETSPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// The element offset of an access of `memref` at `indices` into the
/// thread's private buffer it views (a simplified index expression over
/// `inputs`), with that buffer; failure when it views none through one
/// strided view, or the offset is not affine in what it is computed from.
FailureOr<memref::AllocaOp> offsetIntoPrivate(Value memref, ValueRange indices,
                                              AffineExpr &offset,
                                              SmallVectorImpl<Value> &inputs) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t staticOffset;
  if (failed(type.getStridesAndOffset(strides, staticOffset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return failure();
  // Only views: a direct access names its element already.
  auto cast = memref.getDefiningOp<memref::ReinterpretCastOp>();
  if (!cast)
    return failure();
  auto alloca = cast.getSource().getDefiningOp<memref::AllocaOp>();
  if (!alloca || !alloca.getType().hasStaticShape() ||
      !alloca.getType().getLayout().isIdentity() ||
      alloca.getType().getMemorySpace())
    return failure();
  MLIRContext *ctx = memref.getContext();
  // Each value's index expression, its inputs joined into `inputs`.
  auto exprOf = [&](Value v) {
    ValueIndexExpr e = getIndexExprOf(v);
    SmallVector<AffineExpr> dims;
    for (Value input : e.inputs) {
      auto *it = llvm::find(inputs, input);
      if (it == inputs.end()) {
        inputs.push_back(input);
        it = std::prev(inputs.end());
      }
      dims.push_back(getAffineDimExpr(it - inputs.begin(), ctx));
    }
    return e.expr.replaceDims(dims);
  };
  if (ShapedType::isDynamic(staticOffset)) {
    if (cast.getOffsets().size() != 1)
      return failure();
    offset = exprOf(cast.getOffsets().front());
  } else {
    offset = getAffineConstantExpr(staticOffset, ctx);
  }
  for (auto [index, stride] : llvm::zip(indices, strides))
    offset = offset + exprOf(index) * stride;
  offset = simplifyIndexExpr(offset, inputs.size(), 0);
  if (!offset.isPureAffine())
    return failure();
  return alloca;
}

struct TIRFoldPrivateOffsetsPass
    : public tir::impl::TIRFoldPrivateOffsetsPassBase<
          TIRFoldPrivateOffsetsPass> {
  void runOnOperation() override {
    // A flat view of each buffer, made once after its allocation.
    llvm::DenseMap<Operation *, Value> flats;
    auto flatOf = [&](memref::AllocaOp alloca) {
      Value &flat = flats[alloca];
      if (!flat) {
        OpBuilder b(alloca->getContext());
        b.setInsertionPointAfter(alloca);
        MemRefType type = alloca.getType();
        int64_t n = type.getNumElements();
        flat = memref::ReinterpretCastOp::create(
            b, alloca.getLoc(), MemRefType::get({n}, type.getElementType()),
            alloca, /*offset=*/0, ArrayRef<int64_t>{n}, ArrayRef<int64_t>{1});
      }
      return flat;
    };
    getOperation()->walk([&](Operation *op) {
      Value memref;
      ValueRange indices;
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        memref = load.getMemRef();
        indices = load.getIndices();
      } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
        memref = store.getMemRef();
        indices = store.getIndices();
      } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
        memref = load.getBase();
        indices = load.getIndices();
      } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
        memref = store.getBase();
        indices = store.getIndices();
      } else {
        return;
      }
      // A vector access must stay within the innermost dimension's
      // contiguous elements: only 1-D views, whose stride is 1, are
      // rewritten for vectors.
      auto type = cast<MemRefType>(memref.getType());
      if (isa<vector::LoadOp, vector::StoreOp>(op) && type.getRank() != 1)
        return;
      AffineExpr offset;
      SmallVector<Value> inputs;
      FailureOr<memref::AllocaOp> alloca =
          offsetIntoPrivate(memref, indices, offset, inputs);
      if (failed(alloca))
        return;
      if (isa<vector::LoadOp, vector::StoreOp>(op)) {
        SmallVector<int64_t> strides;
        int64_t offset;
        if (failed(type.getStridesAndOffset(strides, offset)) ||
            strides.front() != 1)
          return;
      }
      Value flat = flatOf(*alloca);
      OpBuilder b(op);
      Value at = affine::expandAffineExpr(b, op->getLoc(), offset, inputs, {});
      unsigned memrefIndex = isa<memref::StoreOp, vector::StoreOp>(op) ? 1 : 0;
      op->setOperand(memrefIndex, flat);
      // The indices follow the memref: replace them by the one offset.
      unsigned first = memrefIndex + 1;
      op->eraseOperands(first, indices.size());
      op->insertOperands(first, ValueRange{at});
    });
  }
};

} // namespace
