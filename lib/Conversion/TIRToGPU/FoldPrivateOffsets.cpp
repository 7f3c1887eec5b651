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
// offset as a linear form over the values it is computed from (additions,
// subtractions, multiplications and shifts by constants folded), the
// terms that cancel dropped, and reads the buffer through a flat view of
// it at that offset: a constant where nothing is left but constants.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRFOLDPRIVATEOFFSETSPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// sum(coefficient * value) + constant; `valid` false when some term is not
/// an index or integer value.
struct Linear {
  llvm::MapVector<Value, int64_t> terms;
  int64_t constant = 0;

  void add(const Linear &o, int64_t scale) {
    constant += o.constant * scale;
    for (auto [v, c] : o.terms) {
      int64_t &mine = terms[v];
      mine += c * scale;
    }
  }
  void dropZeros() {
    llvm::MapVector<Value, int64_t> kept;
    for (auto [v, c] : terms)
      if (c != 0)
        kept[v] = c;
    terms = std::move(kept);
  }
};

class Linearizer {
public:
  /// `v` as a linear form over the values it is computed from.
  Linear of(Value v) {
    auto it = memo.find(v);
    if (it != memo.end())
      return it->second;
    Linear out = compute(v);
    out.dropZeros();
    memo[v] = out;
    return out;
  }

private:
  llvm::DenseMap<Value, Linear> memo;

  static Linear atom(Value v) {
    Linear l;
    l.terms[v] = 1;
    return l;
  }

  Linear compute(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || !v.getType().isIndex())
      return atom(v);
    if (auto c = dyn_cast<arith::ConstantIndexOp>(def)) {
      Linear l;
      l.constant = c.value();
      return l;
    }
    if (isa<arith::AddIOp, arith::SubIOp>(def)) {
      Linear l = of(def->getOperand(0));
      l.add(of(def->getOperand(1)), isa<arith::AddIOp>(def) ? 1 : -1);
      return l;
    }
    if (isa<arith::MulIOp, arith::ShLIOp>(def)) {
      Linear lhs = of(def->getOperand(0)), rhs = of(def->getOperand(1));
      bool shift = isa<arith::ShLIOp>(def);
      // One side a constant: scale the other.
      if (rhs.terms.empty() &&
          (!shift || (rhs.constant >= 0 && rhs.constant < 32))) {
        Linear l;
        l.add(lhs, shift ? int64_t(1) << rhs.constant : rhs.constant);
        return l;
      }
      if (!shift && lhs.terms.empty()) {
        Linear l;
        l.add(rhs, lhs.constant);
        return l;
      }
    }
    return atom(v);
  }
};

/// The element offset of an access of `memref` at `indices` into the
/// thread's private buffer it views, with that buffer; failure when it
/// views none (or not through one strided view).
FailureOr<std::pair<memref::AllocaOp, Linear>>
offsetIntoPrivate(Value memref, ValueRange indices, Linearizer &lin) {
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
  Linear offset;
  if (ShapedType::isDynamic(staticOffset)) {
    if (cast.getOffsets().size() != 1)
      return failure();
    offset = lin.of(cast.getOffsets().front());
  } else {
    offset.constant = staticOffset;
  }
  if (!alloca || !alloca.getType().hasStaticShape() ||
      !alloca.getType().getLayout().isIdentity() ||
      alloca.getType().getMemorySpace())
    return failure();
  for (auto [index, stride] : llvm::zip(indices, strides))
    offset.add(lin.of(index), stride);
  offset.dropZeros();
  return std::make_pair(alloca, offset);
}

/// `l` as index arithmetic at `b`.
Value materialize(OpBuilder &b, Location loc, const Linear &l) {
  Value sum;
  for (auto [v, c] : l.terms) {
    Value term = c == 1
                     ? v
                     : arith::MulIOp::create(
                           b, loc, v, arith::ConstantIndexOp::create(b, loc, c))
                           .getResult();
    sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
  }
  Value constant = arith::ConstantIndexOp::create(b, loc, l.constant);
  if (!sum)
    return constant;
  return l.constant ? arith::AddIOp::create(b, loc, sum, constant).getResult()
                    : sum;
}

struct TIRFoldPrivateOffsetsPass
    : public tir::impl::TIRFoldPrivateOffsetsPassBase<
          TIRFoldPrivateOffsetsPass> {
  void runOnOperation() override {
    Linearizer lin;
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
      FailureOr<std::pair<memref::AllocaOp, Linear>> found =
          offsetIntoPrivate(memref, indices, lin);
      if (failed(found))
        return;
      if (isa<vector::LoadOp, vector::StoreOp>(op)) {
        SmallVector<int64_t> strides;
        int64_t offset;
        if (failed(type.getStridesAndOffset(strides, offset)) ||
            strides.front() != 1)
          return;
      }
      Value flat = flatOf(found->first);
      OpBuilder b(op);
      Value at = materialize(b, op->getLoc(), found->second);
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
