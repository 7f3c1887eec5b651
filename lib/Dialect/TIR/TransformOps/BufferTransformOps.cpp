//===- BufferTransformOps.cpp - buffer primitives -------------------------===//
//
// The C++ of the ops of TIRBufferTransformOps.td, the primitives that change
// buffers rather than loops: storage_align, set_scope, the cache stages
// (cache_read, cache_write, cache_inplace, reindex_cache_read,
// reindex_cache_write), reindex, the layout transformations
// (transform_block_layout, transform_layout, set_axis_separator) and
// rolling_buffer.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// TVM's buffer arguments
//===----------------------------------------------------------------------===//

/// The buffer_index_type of the ops that take TVM's ("read" | "write", i).
static LogicalResult verifyBufferIndexType(Operation *op, StringRef type) {
  if (type != "read" && type != "write")
    return op->emitOpError(
               "expects buffer_index_type \"read\" or \"write\", got \"")
           << type << "\"";
  return success();
}

/// An argument of an op taking TVM's buffer ("read" | "write", index): the
/// pair printed for buffer_index, nothing for buffer_index_type, any other
/// attribute as printPythonValue does.
static void printPythonBufferOpArgument(StringRef name, Attribute value,
                                        StringRef type, int64_t index,
                                        raw_ostream &os) {
  if (name == "buffer_index_type")
    return;
  if (name == "buffer_index") {
    os << "buffer=(\"" << type << "\", " << index << ")";
    return;
  }
  os << name << "=";
  printPythonValue(value, os);
}

//===----------------------------------------------------------------------===//
// Layout and scope
//===----------------------------------------------------------------------===//

LogicalResult tir::StorageAlignOp::applyToPayload(RewriterBase &,
                                                  SchedulePayload &payload,
                                                  ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return storageAlign(*block, getBufferIndex(), getAxis(), getFactor(),
                      getOffset(), error);
}

LogicalResult tir::SetScopeOp::applyToPayload(RewriterBase &,
                                              SchedulePayload &payload,
                                              ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return setScope(*block, getBufferIndex(), getStorageScope(), error);
}

LogicalResult tir::AnnotateBufferAccessOp::verify() {
  if (getBufType() != "read" && getBufType() != "write")
    return emitOpError("expects buf_type \"read\" or \"write\", got \"")
           << getBufType() << "\"";
  if (getGenNewRanges().getNumResults() % 2)
    return emitOpError("expects gen_new_ranges to give (begin, end) pairs, "
                       "got an odd number of results");
  return success();
}

LogicalResult tir::AnnotateBufferAccessOp::applyToPayload(
    RewriterBase &rewriter, SchedulePayload &payload, ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return annotateBufferAccess(rewriter, *block, getBufferIndex(),
                              getBufType() == "write", getGenNewRanges(),
                              error);
}

/// TVM's form of the ranges: `lambda d0, d1: [(d0 - 1, d0 + 1), ...]`.
void tir::AnnotateBufferAccessOp::printPythonArgument(
    StringRef name, Attribute value, ArrayRef<std::string> operands,
    raw_ostream &os) {
  os << name << "=";
  if (name != "gen_new_ranges") {
    printPythonValue(value, os);
    return;
  }
  AffineMap map = cast<AffineMapAttr>(value).getValue();
  os << "lambda ";
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    os << (d ? ", " : "") << "d" << d;
  os << ": [";
  for (unsigned r = 0; r + 1 < map.getNumResults(); r += 2) {
    os << (r ? ", " : "") << "(";
    printPythonExpr(map.getResult(r), os);
    os << ", ";
    printPythonExpr(map.getResult(r + 1), os);
    os << ")";
  }
  os << "]";
}

/// read_at and write_at: the copy block as the result.
static LogicalResult applyReadWriteAt(RewriterBase &rewriter,
                                      SchedulePayload &payload,
                                      ScheduleError &error, int64_t index,
                                      StringRef scope, bool isRead) {
  FailureOr<ForOp> loop = payload.single<ForOp>(0, "tir.for", error);
  if (failed(loop))
    return failure();
  FailureOr<BlockOp> block = payload.single<BlockOp>(1, "tir.block", error);
  if (failed(block))
    return failure();
  FailureOr<BlockOp> copy =
      readWriteAt(rewriter, *loop, *block, index, scope, isRead, error);
  if (failed(copy))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(copy->getOperation()));
  return success();
}

LogicalResult tir::ReadAtOp::applyToPayload(RewriterBase &rewriter,
                                            SchedulePayload &payload,
                                            ScheduleError &error) {
  return applyReadWriteAt(rewriter, payload, error, getReadBufferIndex(),
                          getStorageScope(), /*isRead=*/true);
}

LogicalResult tir::WriteAtOp::applyToPayload(RewriterBase &rewriter,
                                             SchedulePayload &payload,
                                             ScheduleError &error) {
  return applyReadWriteAt(rewriter, payload, error, getWriteBufferIndex(),
                          getStorageScope(), /*isRead=*/false);
}

LogicalResult tir::UnsafeSetDTypeOp::applyToPayload(RewriterBase &rewriter,
                                                    SchedulePayload &payload,
                                                    ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return unsafeSetDType(rewriter, *block, getBufferIndex(), getDtype(), error);
}

//===----------------------------------------------------------------------===//
// Cache stages
//===----------------------------------------------------------------------===//

/// The signature of the cache primitives, cacheRead and cacheWrite.
using CachePrimitive = FailureOr<BlockOp> (*)(RewriterBase &, BlockOp, int64_t,
                                              StringRef, ArrayRef<BlockOp>,
                                              ScheduleError &);

/// cache_read and cache_write (TIR_CacheOpBase): `primitive` applied to the
/// block of operand 0, the consumer blocks of the other operands (possibly
/// none), the buffer's position `bufferIndex` and the storage scope; the
/// stage it creates is the result.
static LogicalResult applyCacheOp(Operation *op, RewriterBase &rewriter,
                                  SchedulePayload &payload,
                                  ScheduleError &error,
                                  CachePrimitive primitive, int64_t bufferIndex,
                                  StringRef scope) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  SmallVector<BlockOp> consumers;
  for (unsigned i = 1, e = op->getNumOperands(); i < e; ++i) {
    FailureOr<BlockOp> consumer =
        payload.single<BlockOp>(i, "tir.block", error);
    if (failed(consumer))
      return failure();
    consumers.push_back(*consumer);
  }
  FailureOr<BlockOp> stage =
      primitive(rewriter, *block, bufferIndex, scope, consumers, error);
  if (failed(stage))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*stage));
  return success();
}

LogicalResult tir::CacheReadOp::applyToPayload(RewriterBase &rewriter,
                                               SchedulePayload &payload,
                                               ScheduleError &error) {
  return applyCacheOp(*this, rewriter, payload, error, cacheRead,
                      getReadBufferIndex(), getStorageScope());
}

LogicalResult tir::CacheWriteOp::applyToPayload(RewriterBase &rewriter,
                                                SchedulePayload &payload,
                                                ScheduleError &error) {
  return applyCacheOp(*this, rewriter, payload, error, cacheWrite,
                      getWriteBufferIndex(), getStorageScope());
}

LogicalResult tir::CacheInplaceOp::applyToPayload(RewriterBase &rewriter,
                                                  SchedulePayload &payload,
                                                  ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  auto stages = cacheInplace(rewriter, *block, getReadBufferIndex(),
                             getStorageScope(), error);
  if (failed(stages))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>((*stages)[0]));
  payload.setResult(1, ArrayRef<Operation *>((*stages)[1]));
  return success();
}

LogicalResult tir::CacheIndexOp::applyToPayload(RewriterBase &rewriter,
                                                SchedulePayload &payload,
                                                ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  // One result holds every stage; several name one stage each.
  std::optional<unsigned> numStages;
  if (getNumResults() != 1)
    numStages = getNumResults();
  auto stages = cacheIndex(rewriter, *block, getStorageScope(), getCseThresh(),
                           numStages, error);
  if (failed(stages))
    return failure();
  SmallVector<Operation *> ops(stages->begin(), stages->end());
  return payload.setVariadicResults(ops, "stage", *block, error);
}

/// The signature of the reindex cache primitives, reindexCacheRead and
/// reindexCacheWrite.
using ReindexCachePrimitive = FailureOr<BlockOp> (*)(RewriterBase &, BlockOp,
                                                     int64_t, StringRef,
                                                     AffineMap,
                                                     ScheduleError &);

/// reindex_cache_read and reindex_cache_write (TIR_ReindexCacheOpBase):
/// `primitive` applied to the block, the buffer's position `bufferIndex`,
/// the storage scope and the index map; the stage it creates is the result.
static LogicalResult
applyReindexCacheOp(RewriterBase &rewriter, SchedulePayload &payload,
                    ScheduleError &error, ReindexCachePrimitive primitive,
                    int64_t bufferIndex, StringRef scope, AffineMap indexMap) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  FailureOr<BlockOp> stage =
      primitive(rewriter, *block, bufferIndex, scope, indexMap, error);
  if (failed(stage))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*stage));
  return success();
}

LogicalResult tir::ReindexCacheReadOp::applyToPayload(RewriterBase &rewriter,
                                                      SchedulePayload &payload,
                                                      ScheduleError &error) {
  return applyReindexCacheOp(rewriter, payload, error, reindexCacheRead,
                             getReadBufferIndex(), getStorageScope(),
                             getIndexMap());
}

LogicalResult tir::ReindexCacheWriteOp::applyToPayload(RewriterBase &rewriter,
                                                       SchedulePayload &payload,
                                                       ScheduleError &error) {
  return applyReindexCacheOp(rewriter, payload, error, reindexCacheWrite,
                             getWriteBufferIndex(), getStorageScope(),
                             getIndexMap());
}

//===----------------------------------------------------------------------===//
// ReIndexOp
//===----------------------------------------------------------------------===//

LogicalResult tir::ReIndexOp::verify() {
  return verifyBufferIndexType(*this, getBufferIndexType());
}

void tir::ReIndexOp::printPythonArgument(StringRef name, Attribute value,
                                         ArrayRef<std::string>,
                                         raw_ostream &os) {
  printPythonBufferOpArgument(name, value, getBufferIndexType(),
                              getBufferIndex(), os);
}

LogicalResult tir::ReIndexOp::applyToPayload(RewriterBase &rewriter,
                                             SchedulePayload &payload,
                                             ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  FailureOr<BlockOp> stage = reindex(rewriter, *block, getBufferIndex(),
                                     getBufferIndexType() == "write", error);
  if (failed(stage))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*stage));
  return success();
}

//===----------------------------------------------------------------------===//
// Index maps
//===----------------------------------------------------------------------===//

LogicalResult tir::TransformBlockLayoutOp::verify() {
  if (getIndexMap().getNumSymbols() != 0)
    return emitOpError("expects an index map over dimensions only, got ")
           << getIndexMapAttr();
  return success();
}

LogicalResult tir::TransformBlockLayoutOp::applyToPayload(
    RewriterBase &rewriter, SchedulePayload &payload, ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return transformBlockLayout(rewriter, *block, getIndexMap(), error);
}

LogicalResult tir::TransformLayoutOp::verify() {
  if (Attribute pad = getPadValueAttr();
      pad && !isa<IntegerAttr, FloatAttr>(pad)) {
    auto map = dyn_cast<AffineMapAttr>(pad);
    if (!map || map.getValue().getNumSymbols() != 0 ||
        map.getValue().getNumResults() != 1)
      return emitOpError("expects pad_value to be an integer or float "
                         "constant, or an affine map over dimensions to one "
                         "result, got ")
             << pad;
  }
  size_t numSymbols = getIndexMapSymbols() ? getIndexMapSymbols()->size() : 0;
  size_t numParams = getIndexMapParams().size();
  if (getIndexMap().getNumSymbols() != numParams + numSymbols)
    return emitOpError("expects one symbol of the index map per parameter, "
                       "then one per name in index_map_symbols, got ")
           << numParams << " parameters and " << numSymbols << " names for "
           << getIndexMapAttr();
  return verifyBufferIndexType(*this, getBufferIndexType());
}

void tir::TransformLayoutOp::printPythonArgument(StringRef name,
                                                 Attribute value,
                                                 ArrayRef<std::string> operands,
                                                 raw_ostream &os) {
  // The symbols print by name in the map (TVM's free variables).
  if (name == "index_map_symbols" || !value)
    return;
  ArrayAttr symbols = getIndexMapSymbolsAttr();
  if (name == "index_map" && (symbols || !getIndexMapParams().empty())) {
    // Parameters print as their variables (operands[1...]), then the
    // named symbols.
    SmallVector<StringRef> names;
    for (size_t k = 0, n = getIndexMapParams().size(); k < n; ++k)
      names.push_back(k + 1 < operands.size() ? StringRef(operands[k + 1])
                                              : StringRef("?"));
    if (symbols)
      for (Attribute n : symbols)
        names.push_back(cast<StringAttr>(n).getValue());
    os << name << "=";
    printPythonIndexMap(getIndexMap(), os, names);
    return;
  }
  printPythonBufferOpArgument(name, value, getBufferIndexType(),
                              getBufferIndex(), os);
}

LogicalResult tir::TransformLayoutOp::applyToPayload(RewriterBase &rewriter,
                                                     SchedulePayload &payload,
                                                     ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  SmallVector<StringRef> symbols;
  if (ArrayAttr names = getIndexMapSymbolsAttr())
    for (Attribute n : names)
      symbols.push_back(cast<StringAttr>(n).getValue());
  // The parameters' values in place of their symbols.
  AffineMap map = getIndexMap();
  size_t numParams = getIndexMapParams().size();
  if (numParams) {
    MLIRContext *ctx = getContext();
    SmallVector<AffineExpr> dims, syms;
    for (unsigned d = 0; d < map.getNumDims(); ++d)
      dims.push_back(getAffineDimExpr(d, ctx));
    for (size_t k = 0; k < numParams; ++k) {
      ArrayRef<transform::MappedValue> values = payload.operands[1 + k];
      auto value = values.size() == 1
                       ? dyn_cast_if_present<IntegerAttr>(
                             dyn_cast_if_present<Attribute>(values.front()))
                       : IntegerAttr();
      if (!value) {
        error = {("transform_layout: index map parameter " + Twine(k) +
                  " does not hold one integer")
                     .str(),
                 nullptr};
        return failure();
      }
      if (value.getInt() < 1) {
        error = {("transform_layout: index map parameter " + Twine(k) +
                  " holds " + Twine(value.getInt()) +
                  ", and the map divides by the parameters")
                     .str(),
                 nullptr};
        return failure();
      }
      syms.push_back(getAffineConstantExpr(value.getInt(), ctx));
    }
    for (size_t k = 0; k < symbols.size(); ++k)
      syms.push_back(getAffineSymbolExpr(k, ctx));
    map = simplifyAffineMap(map.replaceDimsAndSymbols(
        dims, syms, map.getNumDims(), symbols.size()));
  }
  return transformLayout(
      rewriter, *block, getBufferIndex(), getBufferIndexType() == "write", map,
      symbols, getPadValueAttr(), getAssumeInjectiveTransform(), error);
}

LogicalResult tir::SetAxisSeparatorOp::verify() {
  return verifyBufferIndexType(*this, getBufferIndexType());
}

void tir::SetAxisSeparatorOp::printPythonArgument(StringRef name,
                                                  Attribute value,
                                                  ArrayRef<std::string>,
                                                  raw_ostream &os) {
  printPythonBufferOpArgument(name, value, getBufferIndexType(),
                              getBufferIndex(), os);
}

LogicalResult tir::SetAxisSeparatorOp::applyToPayload(RewriterBase &,
                                                      SchedulePayload &payload,
                                                      ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return setAxisSeparator(*block, getBufferIndex(),
                          getBufferIndexType() == "write", getAxisSeparators(),
                          error);
}

//===----------------------------------------------------------------------===//
// RollingBufferOp
//===----------------------------------------------------------------------===//

LogicalResult tir::RollingBufferOp::applyToPayload(RewriterBase &rewriter,
                                                   SchedulePayload &payload,
                                                   ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return rollingBuffer(rewriter, *block, getWriteBufferIndex(), error);
}
