//===- KernelMemory.cpp - what the kernel-memory steps share --------------===//

#include "KernelMemory.h"

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tir;

bool mlir::tir::isSharedScope(StringRef scope) {
  return scope == "shared" || scope == "shared.dyn";
}

bool mlir::tir::isThreadIdxLoop(ForOp loop) {
  return loop.getKind() == ForKind::ThreadBinding &&
         loop.getThread()->starts_with("threadIdx.");
}

llvm::StringSet<> mlir::tir::threadTagsAround(Operation *op) {
  llvm::StringSet<> tags;
  for (; op; op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op);
        loop && loop.getKind() == ForKind::ThreadBinding)
      tags.insert(*loop.getThread());
  return tags;
}

bool mlir::tir::dependsOn(Value v, function_ref<bool(Value)> isSource) {
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (isSource(x))
      return true;
    if (auto arg = dyn_cast<BlockArgument>(x)) {
      if (auto block = dyn_cast<BlockOp>(arg.getOwner()->getParentOp());
          block && seen.insert(block).second)
        llvm::append_range(work, block.getBindingValues());
      continue;
    }
    if (Operation *def = x.getDefiningOp(); def && seen.insert(def).second)
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

std::optional<int64_t> mlir::tir::parseComputeCapability(StringRef chip) {
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  // Architecture-specific variants (sm_90a, sm_100f) have the base's
  // capability.
  chip = chip.take_while([](char c) { return llvm::isDigit(c); });
  int64_t cc;
  if (chip.empty() || chip.getAsInteger(10, cc))
    return std::nullopt;
  return cc;
}

int64_t mlir::tir::maxSharedMemoryPerBlock(int64_t cc) {
  // The CUDA C++ Programming Guide's table of compute capabilities:
  // maximum shared memory per thread block.
  constexpr int64_t kiB = 1024;
  if (cc < 70)
    return 48 * kiB;
  if (cc < 75)
    return 96 * kiB;
  if (cc == 75)
    return 64 * kiB;
  if (cc == 80 || cc == 87)
    return 163 * kiB;
  if (cc < 90)
    return 99 * kiB;
  if (cc < 120)
    return 227 * kiB;
  return 99 * kiB;
}

int64_t mlir::tir::sharedBufferBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return 0;
  int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getNumElements() == 0 ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return type.getNumElements() * elementBytes;
  // A padded layout (storage_align) spans more than its elements.
  int64_t last = offset;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides))
    last += (size - 1) * stride;
  return (last + 1) * elementBytes;
}

LogicalResult mlir::tir::rewriteListedRegions(
    BlockOp block, Value buffer, Value replacement,
    function_ref<FailureOr<AffineMap>(AffineMap)> transform,
    ValueRange addedRegionValues) {
  MLIRContext *ctx = block.getContext();
  unsigned total = block.getNumIterVars() + block.getRegionValues().size() +
                   addedRegionValues.size();
  auto updated = [&](MutableOperandRange buffers,
                     std::optional<ArrayAttr> regions,
                     SmallVectorImpl<unsigned> &positions,
                     SmallVectorImpl<Attribute> &maps) -> LogicalResult {
    if (!regions)
      return success();
    for (auto [i, attr] : llvm::enumerate(*regions)) {
      // Every map takes the added values as its last dimensions.
      AffineMap map = cast<AffineMapAttr>(attr).getValue();
      map = AffineMap::get(total, 0, map.getResults(), ctx);
      if (buffers[i].get() == buffer) {
        FailureOr<AffineMap> rewritten = transform(map);
        if (failed(rewritten))
          return failure();
        map = *rewritten;
        positions.push_back(i);
      }
      maps.push_back(AffineMapAttr::get(map));
    }
    return success();
  };
  SmallVector<unsigned> readAt, writeAt;
  SmallVector<Attribute> reads, writes;
  if (failed(updated(block.getReadBuffersMutable(), block.getReadRegions(),
                     readAt, reads)) ||
      failed(updated(block.getWriteBuffersMutable(), block.getWriteRegions(),
                     writeAt, writes)))
    return failure();
  for (unsigned i : readAt)
    block.getReadBuffersMutable()[i].set(replacement);
  for (unsigned i : writeAt)
    block.getWriteBuffersMutable()[i].set(replacement);
  if (block.getReadRegions())
    block.setReadRegionsAttr(ArrayAttr::get(ctx, reads));
  if (block.getWriteRegions())
    block.setWriteRegionsAttr(ArrayAttr::get(ctx, writes));
  block.getRegionValuesMutable().append(addedRegionValues);
  return success();
}
