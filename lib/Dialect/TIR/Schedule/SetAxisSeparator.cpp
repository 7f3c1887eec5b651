//===- SetAxisSeparator.cpp - TVM's set_axis_separator --------------------===//
//
// TVM's axis separators say where a buffer's flattened form starts a new
// physical axis (`[2]` on a 2 x 128 x 32 buffer: a 256 x 32 memory). The
// primitive sets them on an allocation (its `axis_separators`) or a
// parameter (its `tir.axis_separators`), and on the views matched on it;
// shape and accesses are unchanged.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kPrimitive = "set_axis_separator";

/// The views of `buffer` (and theirs) lie in its physical axes, as TVM
/// places them: a view of the same rank takes the separators, a view of
/// another rank as many at 0 (all its dimensions in the last axis).
static void setViewSeparators(Value buffer, ArrayRef<int64_t> separators) {
  int64_t rank = cast<MemRefType>(buffer.getType()).getRank();
  for (Operation *user : buffer.getUsers()) {
    auto view = dyn_cast<MatchBufferOp>(user);
    if (!view || view.getSource() != buffer)
      continue;
    int64_t viewRank = view.getResult().getType().getRank();
    SmallVector<int64_t> seps(separators);
    if (viewRank != rank)
      seps.assign(separators.size(), 0);
    if (seps.empty())
      view.removeAxisSeparatorsAttr();
    else
      view.setAxisSeparatorsAttr(
          DenseI64ArrayAttr::get(view.getContext(), seps));
    setViewSeparators(view.getResult(), seps);
  }
}

LogicalResult mlir::tir::setAxisSeparator(BlockOp block, int64_t bufferIndex,
                                          bool isWrite,
                                          ArrayRef<int64_t> separators,
                                          ScheduleError &error) {
  FailureOr<Value> found =
      getNthAccessBuffer(block, bufferIndex, isWrite, kPrimitive, error);
  if (failed(found))
    return failure();
  Value buffer = *found;
  FailureOr<Operation *> scope =
      getBufferScope(buffer, block, kPrimitive, error);
  if (failed(scope))
    return failure();
  int64_t rank = cast<MemRefType>(buffer.getType()).getRank();
  for (auto [k, s] : llvm::enumerate(separators))
    if (s <= 0 || s >= rank || (k > 0 && s <= separators[k - 1]))
      return refuse(error, block,
                    Twine(kPrimitive) +
                        ": axis separators are ascending dimensions inside "
                        "the rank (between 1 and " +
                        Twine(rank - 1) + " for buffer '" +
                        getBufferName(buffer) + "')");
  MLIRContext *ctx = block.getContext();
  DenseI64ArrayAttr attr = separators.empty()
                               ? DenseI64ArrayAttr()
                               : DenseI64ArrayAttr::get(ctx, separators);
  setViewSeparators(buffer, separators);
  if (auto alloc = buffer.getDefiningOp<AllocBufferOp>()) {
    if (attr)
      alloc.setAxisSeparatorsAttr(attr);
    else
      alloc.removeAxisSeparatorsAttr();
    return success();
  }
  auto func = cast<FunctionOpInterface>(*scope);
  unsigned arg = cast<BlockArgument>(buffer).getArgNumber();
  if (attr)
    func.setArgAttr(arg, TIRDialect::kAxisSeparatorsAttrName, attr);
  else
    func.removeArgAttr(arg, TIRDialect::kAxisSeparatorsAttrName);
  return success();
}
