//===- LowerAsyncCopies.cpp - an async pipeline's copies to cp.async ------===//
//
// The copies an asynchronous software-pipeline stage marked (stores of
// global memory into shared memory, `tir.async_copy`, scalar or vectors
// once the loops are vectorized) become nvgpu.device_async_copy, i.e.
// cp.async, and the pipeline's commit and wait calls become
// cp.async.commit_group and cp.async.wait_group (TVM's
// InjectPTXAsyncCopy).
//
// cp.async moves 4, 8 or 16 bytes whose addresses, in global and shared
// memory, are aligned to the size. A copy is split into the largest such
// pieces that the addresses are known to be aligned to: the buffers'
// alignment (the runtime's parameters, memref.assume_alignment; shared
// memory at 16 bytes) and the index arithmetic's known multiples. A copy
// of fewer than 4 aligned bytes stays an ordinary load and store, which
// is right as well: the wait and the barrier after it order it the same.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/SoftwarePipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/DenseMap.h"

#include <numeric>

namespace mlir::tir {
#define GEN_PASS_DEF_TIRLOWERASYNCCOPIESPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// Multiples are tracked as powers of two up to this.
constexpr int64_t kMaxMultiple = int64_t(1) << 20;

int64_t powerOfTwoDividing(int64_t c) {
  if (c == 0)
    return kMaxMultiple;
  return std::min<int64_t>(kMaxMultiple, c & -c);
}

/// Known power-of-two factors of index values, memoized.
class Multiples {
public:
  /// The largest power of two `v` is known to be a multiple of.
  int64_t of(Value v) {
    auto it = memo.find(v);
    if (it != memo.end())
      return it->second;
    memo[v] = 1; // cycles (loop-carried values) know nothing
    int64_t m = compute(v);
    memo[v] = m;
    return m;
  }

private:
  llvm::DenseMap<Value, int64_t> memo;

  int64_t compute(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      // A loop's variable: lower bound plus multiples of the step.
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
          loop && loop.getInductionVar() == v)
        return std::min(of(loop.getLowerBound()), of(loop.getStep()));
      return 1;
    }
    Operation *def = v.getDefiningOp();
    if (auto c = dyn_cast<arith::ConstantOp>(def))
      if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        return powerOfTwoDividing(i.getValue().getSExtValue());
    if (isa<arith::AddIOp, arith::SubIOp, arith::OrIOp, arith::SelectOp,
            arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp, arith::MaxUIOp>(
            def)) {
      int64_t m = kMaxMultiple;
      for (Value operand : def->getOperands())
        if (operand.getType().isIntOrIndex())
          m = std::min(m, of(operand));
      return m;
    }
    if (isa<arith::MulIOp>(def))
      return std::min(kMaxMultiple,
                      of(def->getOperand(0)) * of(def->getOperand(1)));
    if (isa<arith::ShLIOp>(def)) {
      auto shift = getConstantIntValue(def->getOperand(1));
      if (shift && *shift >= 0 && *shift < 20)
        return std::min(kMaxMultiple, of(def->getOperand(0)) << *shift);
      return of(def->getOperand(0));
    }
    // x mod c, x & mask: multiples of what divides both.
    if (isa<arith::RemUIOp, arith::RemSIOp>(def))
      return std::min(of(def->getOperand(0)), of(def->getOperand(1)));
    if (isa<arith::AndIOp>(def))
      return std::max(of(def->getOperand(0)), of(def->getOperand(1)));
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp>(def))
      return of(def->getOperand(0));
    return 1;
  }
};

/// Where a memref's elements start: its base pointer's known alignment in
/// bytes and its offset's known multiple in elements.
struct Placement {
  int64_t baseAlign = 1, offsetMultiple = 1;
};

class AsyncCopyLowering {
public:
  explicit AsyncCopyLowering(Operation *root) : root(root) {}

  LogicalResult run();

private:
  Operation *root;
  Multiples multiples;

  Placement placementOf(Value memref);
  int64_t offsetMultiple(MemRefType type, function_ref<int64_t()> dynamic);
  /// The known alignment, in bytes, of the element of `memref` at
  /// `indices`.
  int64_t alignmentOf(Value memref, ValueRange indices);
  /// Rewrites one marked store (`value` stored at `indices` of `dst`);
  /// false when it stays as it is.
  bool lowerCopy(Operation *store, Value value, Value dst, ValueRange indices);
};

int64_t AsyncCopyLowering::offsetMultiple(MemRefType type,
                                          function_ref<int64_t()> dynamic) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return 1;
  return ShapedType::isDynamic(offset) ? dynamic() : powerOfTwoDividing(offset);
}

Placement AsyncCopyLowering::placementOf(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  Operation *def = memref.getDefiningOp();
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    // A launch's workgroup attribution: tir-finalize-gpu-kernels aligns it
    // to 16 bytes.
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
    if (space && space.getValue() == gpu::AddressSpace::Workgroup &&
        isa<gpu::LaunchOp>(arg.getOwner()->getParentOp()))
      return {16, offsetMultiple(type, [] { return int64_t(1); })};
    return {elementBytes, offsetMultiple(type, [] { return int64_t(1); })};
  }
  if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(def)) {
    Placement inner = placementOf(assume.getMemref());
    inner.baseAlign = std::max<int64_t>(inner.baseAlign, assume.getAlignment());
    return inner;
  }
  // The dynamic shared memory is aligned to 16 bytes; a view of it moves
  // the base by its byte shift.
  if (isa<gpu::DynamicSharedMemoryOp>(def))
    return {16, 1};
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    Placement source = placementOf(view.getSource());
    int64_t shift = multiples.of(view.getByteShift());
    return {std::min(source.baseAlign, shift), 1};
  }
  if (auto cast = dyn_cast<memref::ReinterpretCastOp>(def)) {
    Placement source = placementOf(cast.getSource());
    source.offsetMultiple = offsetMultiple(type, [&] {
      return cast.getOffsets().empty()
                 ? int64_t(1)
                 : multiples.of(cast.getOffsets().front());
    });
    return source;
  }
  if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
    Placement source = placementOf(subview.getSource());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(subview.getSourceType().getStridesAndOffset(strides, offset)))
      return {source.baseAlign, 1};
    int64_t m = source.offsetMultiple;
    for (auto [start, stride] : llvm::zip(subview.getMixedOffsets(), strides)) {
      int64_t startMultiple =
          isa<Value>(start) ? multiples.of(cast<Value>(start))
                            : powerOfTwoDividing(*getConstantIntValue(start));
      int64_t strideMultiple =
          ShapedType::isDynamic(stride) ? 1 : powerOfTwoDividing(stride);
      m = std::min(m, std::min(kMaxMultiple, startMultiple * strideMultiple));
    }
    source.offsetMultiple = m;
    return source;
  }
  if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(def))
    return placementOf(def->getOperand(0));
  return {elementBytes, offsetMultiple(type, [] { return int64_t(1); })};
}

int64_t AsyncCopyLowering::alignmentOf(Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  Placement placement = placementOf(memref);
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return elementBytes;
  int64_t m = placement.offsetMultiple;
  for (auto [index, stride] : llvm::zip(indices, strides)) {
    int64_t strideMultiple =
        ShapedType::isDynamic(stride) ? 1 : powerOfTwoDividing(stride);
    m = std::min(m,
                 std::min(kMaxMultiple, multiples.of(index) * strideMultiple));
  }
  return std::min(placement.baseAlign,
                  std::min(kMaxMultiple, m * elementBytes));
}

bool AsyncCopyLowering::lowerCopy(Operation *store, Value value, Value dst,
                                  ValueRange indices) {
  auto dstType = cast<MemRefType>(dst.getType());
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(dstType.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return false;
  Operation *load = value.getDefiningOp();
  Value src;
  ValueRange srcIndices;
  int64_t elements = 1;
  if (auto scalar = dyn_cast_or_null<memref::LoadOp>(load)) {
    src = scalar.getMemRef();
    srcIndices = scalar.getIndices();
  } else if (auto vector = dyn_cast_or_null<vector::LoadOp>(load)) {
    if (vector.getVectorType().getRank() != 1)
      return false;
    src = vector.getBase();
    srcIndices = vector.getIndices();
    elements = vector.getVectorType().getNumElements();
  } else {
    return false;
  }
  auto srcType = cast<MemRefType>(src.getType());
  if (srcType.getMemorySpace() || srcType.getRank() == 0 ||
      dstType.getRank() == 0 ||
      srcType.getElementType() != dstType.getElementType())
    return false;
  int64_t elementBytes = llvm::divideCeil(dstType.getElementTypeBitWidth(), 8);
  int64_t bytes = elements * elementBytes;
  int64_t aligned =
      std::min(alignmentOf(src, srcIndices), alignmentOf(dst, indices));
  int64_t piece = 0;
  for (int64_t size : {16, 8, 4})
    if (bytes % size == 0 && aligned % size == 0 && size % elementBytes == 0) {
      piece = size;
      break;
    }
  if (!piece)
    return false;
  OpBuilder b(store);
  Location loc = store->getLoc();
  int64_t perPiece = piece / elementBytes;
  for (int64_t at = 0; at < elements; at += perPiece) {
    auto shifted = [&](ValueRange base) {
      SmallVector<Value> out(base.begin(), base.end());
      if (at)
        out.back() = arith::AddIOp::create(
            b, loc, out.back(), arith::ConstantIndexOp::create(b, loc, at));
      return out;
    };
    // 16-byte copies bypass L1 (.cg), as TVM's do.
    nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), dst,
        shifted(indices), src, shifted(srcIndices), b.getIndexAttr(perPiece),
        /*srcElements=*/Value(), piece == 16 ? b.getUnitAttr() : UnitAttr());
  }
  store->erase();
  if (load->use_empty())
    load->erase();
  return true;
}

LogicalResult AsyncCopyLowering::run() {
  SmallVector<Operation *> stores;
  SmallVector<CallOp> calls;
  root->walk([&](Operation *op) {
    if (op->hasAttr(kAsyncCopyAttr))
      stores.push_back(op);
    if (!getAsyncGroupCallName(op).empty())
      calls.push_back(cast<CallOp>(op));
  });
  for (Operation *op : stores) {
    op->removeAttr(kAsyncCopyAttr);
    if (auto store = dyn_cast<memref::StoreOp>(op))
      lowerCopy(op, store.getValueToStore(), store.getMemRef(),
                store.getIndices());
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      lowerCopy(op, store.getValueToStore(), store.getBase(),
                store.getIndices());
  }
  for (CallOp call : calls) {
    OpBuilder b(call);
    ArrayAttr args = call.getArgs();
    if (getAsyncGroupCallName(call) == kCommitGroupName) {
      NVVM::CpAsyncCommitGroupOp::create(b, call.getLoc());
    } else {
      auto pending = args.size() == 2 && call->getNumOperands() == 0
                         ? dyn_cast<IntegerAttr>(args[1])
                         : IntegerAttr();
      if (!pending || pending.getInt() < 0)
        return call.emitOpError("instruction '")
               << kWaitGroupName
               << "' takes the number of groups that may stay pending (a "
                  "non-negative integer literal)";
      NVVM::CpAsyncWaitGroupOp::create(b, call.getLoc(),
                                       b.getI32IntegerAttr(pending.getInt()));
    }
    call->erase();
  }
  return success();
}

struct TIRLowerAsyncCopiesPass
    : public tir::impl::TIRLowerAsyncCopiesPassBase<TIRLowerAsyncCopiesPass> {
  void runOnOperation() override {
    if (failed(AsyncCopyLowering(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
