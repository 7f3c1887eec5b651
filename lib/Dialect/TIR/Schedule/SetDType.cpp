//===- SetDType.cpp - TVM's unsafe_set_dtype ------------------------------===//
//
// Gives a buffer the function allocates another element type: the
// allocation's type changes, and with it the buffers matched on a region of
// it (tir.match_buffer); every store converts its value to the new type and
// every load converts what it reads back to the old one, so the program
// computes as before except for the precision the buffer now keeps (hence
// "unsafe": float32 through a float16 buffer rounds).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRBuilders.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "Utils.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static MemRefType withElementType(MemRefType type, Type element) {
  return MemRefType::get(type.getShape(), element, type.getLayout(),
                         type.getMemorySpace());
}

/// The buffers that are `buffer` or matched on it, transitively, in the
/// order they are reached; refuses a use the retyping cannot follow.
static LogicalResult collectViews(Value buffer, BlockOp culprit,
                                  SmallVectorImpl<Value> &views,
                                  ScheduleError &error) {
  views.push_back(buffer);
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<LoadOp, BlockOp>(user) ||
        (isa<StoreOp>(user) && use.getOperandNumber() == 1))
      continue;
    if (auto match = dyn_cast<MatchBufferOp>(user)) {
      if (failed(collectViews(match.getResult(), culprit, views, error)))
        return failure();
      continue;
    }
    return refuse(error, culprit,
                  "unsafe_set_dtype: buffer '" + getBufferName(buffer) +
                      "' is used by '" + user->getName().getStringRef() +
                      "', which reads or writes it other than element by "
                      "element (tir.load / tir.store): its element type "
                      "cannot change under it");
  }
  return success();
}

LogicalResult mlir::tir::unsafeSetDType(RewriterBase &rewriter, BlockOp block,
                                        int64_t bufferIndex, StringRef dtype,
                                        ScheduleError &error) {
  FailureOr<Value> found =
      getNthAccessBuffer(block, bufferIndex,
                         /*isWrite=*/true, "unsafe_set_dtype", error);
  if (failed(found))
    return failure();
  Value buffer = *found;
  Type target = getDtypeType(block.getContext(), dtype);
  if (!target)
    return refuse(error, block,
                  "unsafe_set_dtype: '" + dtype +
                      "' is not a scalar dtype (int8..int64, uint8..uint64, "
                      "bool, float16, bfloat16, float32, float64)");
  auto alloc = buffer.getDefiningOp<AllocBufferOp>();
  std::string name = getBufferName(buffer);
  if (!alloc)
    return refuse(error, block,
                  "unsafe_set_dtype: the input buffer " +
                      (name.empty() ? "" : name + " ") +
                      "is not allocated by a block. This means the buffer "
                      "is either a function parameter or defined in "
                      "`match_buffer` of a block.");
  StringAttr unsignedNow = getUnsignedDtype(buffer);
  auto type = cast<MemRefType>(buffer.getType());
  Type source = type.getElementType();
  bool toUnsigned = dtype.starts_with("uint");
  // As TVM: the dtype the buffer has already is no change.
  if (source == target && static_cast<bool>(unsignedNow) == toUnsigned)
    return success();
  SmallVector<Value> views;
  if (failed(collectViews(buffer, block, views, error)))
    return failure();

  for (Value view : views) {
    view.setType(withElementType(cast<MemRefType>(view.getType()), target));
    for (Operation *user : llvm::make_early_inc_range(view.getUsers())) {
      if (auto store = dyn_cast<StoreOp>(user)) {
        if (store.getBuffer() != view)
          continue;
        rewriter.setInsertionPoint(store);
        Value converted =
            createConversion(rewriter, store.getLoc(), store.getValue(), target,
                             static_cast<bool>(unsignedNow), toUnsigned);
        rewriter.modifyOpInPlace(
            store, [&] { store.getValueMutable().assign(converted); });
      } else if (auto load = dyn_cast<LoadOp>(user)) {
        Type oldType = load.getResult().getType();
        rewriter.modifyOpInPlace(load,
                                 [&] { load.getResult().setType(target); });
        rewriter.setInsertionPointAfter(load);
        Value back =
            createConversion(rewriter, load.getLoc(), load.getResult(), oldType,
                             toUnsigned, static_cast<bool>(unsignedNow));
        // The conversion's own ops (one, or two through f32) keep reading
        // the load.
        SmallPtrSet<Operation *, 2> conversion;
        for (Operation *op = load->getNextNode();
             op && op != back.getDefiningOp()->getNextNode();
             op = op->getNextNode())
          conversion.insert(op);
        rewriter.replaceUsesWithIf(load.getResult(), back, [&](OpOperand &use) {
          return !conversion.contains(use.getOwner());
        });
      }
    }
  }
  // The signedness TVMScript shows is the allocation's tir.dtype.
  if (toUnsigned)
    alloc->setAttr(TIRDialect::kDtypeAttrName, rewriter.getStringAttr(dtype));
  else
    alloc->removeAttr(TIRDialect::kDtypeAttrName);
  return success();
}
