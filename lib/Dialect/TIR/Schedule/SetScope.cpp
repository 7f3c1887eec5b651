//===- SetScope.cpp - TVM's set_scope -------------------------------------===//
//
// Moves a buffer the function allocates into another storage scope
// (`memref<..., "shared">`): the allocation's type changes, and with it the
// type every access sees; buffers matched on a region of it
// (tir.match_buffer) follow into the same scope, as TVM's StorageScopeMutator
// rewrites them.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "Utils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// `type` in storage scope `scope` ("global" is the default: no memory
/// space).
static MemRefType withScope(MemRefType type, StringRef scope) {
  Attribute space = scope == "global"
                        ? Attribute()
                        : StringAttr::get(type.getContext(), scope);
  return MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout(), space);
}

/// Gives `buffer` and the buffers matched on it, transitively, scope
/// `scope`.
static void moveToScope(Value buffer, StringRef scope) {
  buffer.setType(withScope(cast<MemRefType>(buffer.getType()), scope));
  for (Operation *user : buffer.getUsers())
    if (auto match = dyn_cast<MatchBufferOp>(user);
        match && match.getSource() == buffer)
      moveToScope(match.getResult(), scope);
}

LogicalResult mlir::tir::setScope(BlockOp block, int64_t bufferIndex,
                                  StringRef scope, ScheduleError &error) {
  FailureOr<Value> found =
      getNthAccessBuffer(block, bufferIndex,
                         /*isWrite=*/true, "set_scope", error);
  if (failed(found))
    return failure();
  Value buffer = *found;
  auto type = cast<MemRefType>(buffer.getType());
  // As TVM: the scope the buffer already has is no change.
  if (getStorageScope(type) == scope)
    return success();
  if (!isValidStorageScope(scope))
    return refuse(error, block,
                  "set_scope: '" + scope +
                      "' is not a storage scope (global, shared, "
                      "shared.dyn, local, warp, wmma.*, ...)");
  if (!buffer.getDefiningOp<AllocBufferOp>())
    return refuse(error, block,
                  "set_scope: write buffer " + Twine(bufferIndex) +
                      " of block '" + block.getBlockName() +
                      "' is not allocated in the function (a parameter or a "
                      "matched buffer): its storage is the caller's");
  moveToScope(buffer, scope);
  return success();
}
