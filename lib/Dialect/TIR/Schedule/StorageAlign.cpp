//===- StorageAlign.cpp - TVM's storage_align -----------------------------===//
//
// Records, on the block that writes a buffer, that a dimension of the
// buffer's allocation is to be padded: TVM's `buffer_dim_align` block
// annotation, a list of [buffer_index, axis, factor, offset] entries
// (BufferDimAlign.h), which convert-tir-to-scf allocates with padded
// strides.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BufferDimAlign.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "Utils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

LogicalResult mlir::tir::storageAlign(BlockOp block, int64_t bufferIndex,
                                      int64_t axis, int64_t factor,
                                      int64_t offset, ScheduleError &error) {
  SmallVector<Value> reads, writes;
  getAccessedBuffers(block, reads, writes);
  if (bufferIndex < 0 || bufferIndex >= static_cast<int64_t>(writes.size()))
    return refuse(error, block,
                  "storage_align: block '" + block.getBlockName() +
                      "' writes " + Twine(writes.size()) +
                      " buffers; there is no write buffer " +
                      Twine(bufferIndex));
  Value buffer = writes[bufferIndex];
  auto type = cast<MemRefType>(buffer.getType());
  int64_t rank = type.getRank();
  if (axis < -rank || axis >= rank)
    return refuse(error, block,
                  "storage_align: axis " + Twine(axis) +
                      " is out of range for write buffer " +
                      Twine(bufferIndex) + " of rank " + Twine(rank));
  if (axis < 0)
    axis += rank;
  if (factor <= 0)
    return refuse(error, block,
                  "storage_align: the factor must be positive, got " +
                      Twine(factor));
  if (!buffer.getDefiningOp<AllocBufferOp>())
    return refuse(error, block,
                  "storage_align: write buffer " + Twine(bufferIndex) +
                      " of block '" + block.getBlockName() +
                      "' is not allocated in the function (a parameter or a "
                      "matched buffer): its layout is not the schedule's");

  SmallVector<DimAlign> entries;
  DictionaryAttr annotations = block.getAnnotationsAttr();
  if (Attribute existing =
          annotations ? annotations.get(kBufferDimAlign) : Attribute()) {
    FailureOr<SmallVector<DimAlign>> parsed = parseBufferDimAlign(existing);
    if (failed(parsed))
      return refuse(error, block,
                    "storage_align: the block's '" + kBufferDimAlign +
                        "' annotation is not a list of [buffer_index, axis, "
                        "factor, offset] entries");
    entries = *parsed;
  }
  // A later call for the same dimension replaces the earlier one.
  DimAlign entry = {bufferIndex, axis, factor, offset};
  auto same = llvm::find_if(entries, [&](const DimAlign &e) {
    return e.bufferIndex == bufferIndex && e.axis == axis;
  });
  if (same != entries.end())
    *same = entry;
  else
    entries.push_back(entry);

  Builder builder(block.getContext());
  SmallVector<Attribute> items;
  for (const DimAlign &e : entries) {
    SmallVector<Attribute> fields;
    for (int64_t field : {e.bufferIndex, e.axis, e.factor, e.offset})
      fields.push_back(builder.getI64IntegerAttr(field));
    items.push_back(builder.getArrayAttr(fields));
  }
  return annotate(block, kBufferDimAlign, builder.getArrayAttr(items), error);
}
