//===- BufferDimAlign.cpp - storage_align's padded strides ----------------===//

#include "TensorIR/Dialect/TIR/Analysis/BufferDimAlign.h"
#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"

using namespace mlir;
using namespace mlir::tir;

FailureOr<SmallVector<DimAlign>>
mlir::tir::parseBufferDimAlign(Attribute annotation) {
  SmallVector<DimAlign> entries;
  auto list = dyn_cast<ArrayAttr>(annotation);
  if (!list)
    return failure();
  for (Attribute item : list) {
    auto entry = dyn_cast<ArrayAttr>(item);
    if (!entry || entry.size() != 4)
      return failure();
    int64_t values[4];
    for (auto [k, field] : llvm::enumerate(entry)) {
      auto value = dyn_cast<IntegerAttr>(field);
      if (!value)
        return failure();
      values[k] = value.getInt();
    }
    entries.push_back({values[0], values[1], values[2], values[3]});
  }
  return entries;
}

SmallVector<int64_t> mlir::tir::getAlignedStrides(ArrayRef<int64_t> shape,
                                                  ArrayRef<DimAlign> aligns) {
  SmallVector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    for (const DimAlign &a : aligns)
      if (a.axis == i && a.factor > 0) {
        int64_t rem = ((a.offset - stride) % a.factor + a.factor) % a.factor;
        stride += rem;
      }
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

DenseMap<Value, SmallVector<DimAlign>>
mlir::tir::collectBufferDimAligns(Operation *root) {
  DenseMap<Value, SmallVector<DimAlign>> result;
  root->walk([&](BlockOp block) {
    DictionaryAttr annotations = block.getAnnotationsAttr();
    Attribute attr = annotations ? annotations.get(kBufferDimAlign) : nullptr;
    if (!attr)
      return;
    FailureOr<SmallVector<DimAlign>> entries = parseBufferDimAlign(attr);
    if (failed(entries))
      return;
    SmallVector<Value> reads, writes;
    getAccessedBuffers(block, reads, writes);
    for (const DimAlign &entry : *entries) {
      if (entry.bufferIndex < 0 ||
          entry.bufferIndex >= static_cast<int64_t>(writes.size()))
        continue;
      Value buffer = writes[entry.bufferIndex];
      auto type = cast<MemRefType>(buffer.getType());
      int64_t rank = type.getRank();
      if (!buffer.getDefiningOp<AllocBufferOp>() || entry.axis < -rank ||
          entry.axis >= rank || entry.factor <= 0)
        continue;
      DimAlign a = entry;
      if (a.axis < 0)
        a.axis += rank;
      SmallVector<DimAlign> &list = result[buffer];
      auto same = llvm::find_if(
          list, [&](const DimAlign &d) { return d.axis == a.axis; });
      if (same != list.end())
        *same = a;
      else
        list.push_back(a);
    }
  });
  return result;
}
