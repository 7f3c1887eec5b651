//===- ScheduleSteps.cpp - the schedule's steps as C++ calls --------------===//

#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/Analysis.h"

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

FailureOr<SmallVector<Value>>
ScheduleSteps::apply(StringRef mnemonic, ArrayRef<Value> operands,
                     ArrayRef<NamedAttribute> attributes,
                     std::optional<unsigned> numResults) {
  return sch.apply(mnemonic, operands, attributes, numResults, error);
}

FailureOr<Value> ScheduleSteps::single(FailureOr<SmallVector<Value>> results) {
  if (failed(results))
    return failure();
  return results->front();
}

LogicalResult ScheduleSteps::none(FailureOr<SmallVector<Value>> results) {
  return failure(failed(results));
}

NamedAttribute ScheduleSteps::attr(StringRef name, Attribute value) const {
  return NamedAttribute(StringAttr::get(sch.getContext(), name), value);
}

FailureOr<Value> ScheduleSteps::getBlock(StringRef name, StringRef funcName) {
  Builder b(sch.getContext());
  SmallVector<NamedAttribute> attrs = {attr("name", b.getStringAttr(name))};
  if (!funcName.empty())
    attrs.push_back(attr("func_name", b.getStringAttr(funcName)));
  return single(apply("get_block", {sch.getRoot()}, attrs, 1));
}

FailureOr<SmallVector<Value>> ScheduleSteps::getLoops(Value block) {
  return apply("get_loops", {block}, {}, std::nullopt);
}

FailureOr<SmallVector<Value>> ScheduleSteps::getChildBlocks(Value blockOrLoop) {
  return apply("get_child_blocks", {blockOrLoop}, {}, std::nullopt);
}

FailureOr<SmallVector<Value>> ScheduleSteps::getProducers(Value block) {
  return apply("get_producers", {block}, {}, std::nullopt);
}

FailureOr<SmallVector<Value>> ScheduleSteps::getConsumers(Value block) {
  return apply("get_consumers", {block}, {}, std::nullopt);
}

FailureOr<SmallVector<Value>>
ScheduleSteps::samplePerfectTile(Value loop, int64_t n,
                                 int64_t maxInnermostFactor) {
  Builder b(sch.getContext());
  return apply(
      "sample_perfect_tile", {loop},
      {attr("n", b.getI64IntegerAttr(n)),
       attr("max_innermost_factor", b.getI64IntegerAttr(maxInnermostFactor))},
      static_cast<unsigned>(n));
}

FailureOr<Value> ScheduleSteps::sampleCategorical(ArrayRef<int64_t> candidates,
                                                  ArrayRef<double> probs) {
  Builder b(sch.getContext());
  return single(apply("sample_categorical", {},
                      {attr("candidates", b.getDenseI64ArrayAttr(candidates)),
                       attr("probs", b.getDenseF64ArrayAttr(probs))},
                      1));
}

FailureOr<Value> ScheduleSteps::sampleComputeLocation(Value block) {
  return single(apply("sample_compute_location", {block}, {}, 1));
}

FailureOr<SmallVector<Value>> ScheduleSteps::split(Value loop,
                                                   ArrayRef<Value> factors,
                                                   bool preserveUnitIters) {
  MLIRContext *ctx = sch.getContext();
  SmallVector<Attribute> list;
  SmallVector<Value> operands = {loop};
  for (Value factor : factors) {
    if (!factor) {
      list.push_back(SplitFactorAttr::getInferred(ctx));
      continue;
    }
    list.push_back(SplitFactorAttr::getParam(ctx, operands.size() - 1));
    operands.push_back(factor);
  }
  Builder b(ctx);
  return apply("split", operands,
               {attr("factors", b.getArrayAttr(list)),
                attr("preserve_unit_iters", b.getBoolAttr(preserveUnitIters)),
                attr("disable_predication", b.getBoolAttr(false))},
               static_cast<unsigned>(factors.size()));
}

FailureOr<SmallVector<Value>>
ScheduleSteps::split(Value loop, ArrayRef<std::optional<int64_t>> factors,
                     bool preserveUnitIters) {
  MLIRContext *ctx = sch.getContext();
  SmallVector<Attribute> list;
  for (std::optional<int64_t> factor : factors)
    list.push_back(factor ? SplitFactorAttr::getConstant(ctx, *factor)
                          : SplitFactorAttr::getInferred(ctx));
  Builder b(ctx);
  return apply("split", {loop},
               {attr("factors", b.getArrayAttr(list)),
                attr("preserve_unit_iters", b.getBoolAttr(preserveUnitIters)),
                attr("disable_predication", b.getBoolAttr(false))},
               static_cast<unsigned>(factors.size()));
}

FailureOr<Value> ScheduleSteps::fuse(ArrayRef<Value> loops,
                                     bool preserveUnitIters) {
  Builder b(sch.getContext());
  return single(apply(
      "fuse", loops,
      {attr("preserve_unit_iters", b.getBoolAttr(preserveUnitIters))}, 1));
}

LogicalResult ScheduleSteps::reorder(ArrayRef<Value> loops) {
  return none(apply("reorder", loops, {}, 0));
}

LogicalResult ScheduleSteps::parallel(Value loop) {
  return none(apply("parallel", {loop}, {}, 0));
}

LogicalResult ScheduleSteps::vectorize(Value loop) {
  return none(apply("vectorize", {loop}, {}, 0));
}

LogicalResult ScheduleSteps::unroll(Value loop) {
  return none(apply("unroll", {loop}, {}, 0));
}

LogicalResult ScheduleSteps::bind(Value loop, StringRef threadAxis) {
  Builder b(sch.getContext());
  return none(apply("bind", {loop},
                    {attr("thread_axis", b.getStringAttr(threadAxis))}, 0));
}

LogicalResult ScheduleSteps::computeAt(Value block, Value loop,
                                       bool preserveUnitLoops, int64_t index) {
  Builder b(sch.getContext());
  return none(
      apply("compute_at", {block, loop},
            {attr("preserve_unit_loops", b.getBoolAttr(preserveUnitLoops)),
             attr("index", b.getI64IntegerAttr(index))},
            0));
}

LogicalResult ScheduleSteps::reverseComputeAt(Value block, Value loop,
                                              bool preserveUnitLoops,
                                              int64_t index) {
  Builder b(sch.getContext());
  return none(
      apply("reverse_compute_at", {block, loop},
            {attr("preserve_unit_loops", b.getBoolAttr(preserveUnitLoops)),
             attr("index", b.getI64IntegerAttr(index))},
            0));
}

LogicalResult ScheduleSteps::computeInline(Value block) {
  return none(apply("compute_inline", {block}, {}, 0));
}

LogicalResult ScheduleSteps::reverseComputeInline(Value block) {
  return none(apply("reverse_compute_inline", {block}, {}, 0));
}

FailureOr<Value> ScheduleSteps::cache(StringRef mnemonic, StringRef indexName,
                                      Value block, int64_t bufferIndex,
                                      StringRef storageScope,
                                      ArrayRef<Value> consumerBlocks) {
  Builder b(sch.getContext());
  SmallVector<Value> operands = {block};
  llvm::append_range(operands, consumerBlocks);
  return single(apply(mnemonic, operands,
                      {attr(indexName, b.getI64IntegerAttr(bufferIndex)),
                       attr("storage_scope", b.getStringAttr(storageScope))},
                      1));
}

FailureOr<Value> ScheduleSteps::cacheRead(Value block, int64_t readBufferIndex,
                                          StringRef storageScope,
                                          ArrayRef<Value> consumerBlocks) {
  return cache("cache_read", "read_buffer_index", block, readBufferIndex,
               storageScope, consumerBlocks);
}

FailureOr<Value> ScheduleSteps::cacheWrite(Value block,
                                           int64_t writeBufferIndex,
                                           StringRef storageScope,
                                           ArrayRef<Value> consumerBlocks) {
  return cache("cache_write", "write_buffer_index", block, writeBufferIndex,
               storageScope, consumerBlocks);
}

FailureOr<Value> ScheduleSteps::rfactor(Value loop, int64_t factorAxis) {
  Builder b(sch.getContext());
  return single(apply("rfactor", {loop},
                      {attr("factor_axis", b.getI64IntegerAttr(factorAxis))},
                      1));
}

FailureOr<Value> ScheduleSteps::addUnitLoop(Value blockOrLoop) {
  return single(apply("add_unit_loop", {blockOrLoop}, {}, 1));
}

LogicalResult ScheduleSteps::setScope(Value block, int64_t bufferIndex,
                                      StringRef storageScope) {
  Builder b(sch.getContext());
  return none(apply("set_scope", {block},
                    {attr("buffer_index", b.getI64IntegerAttr(bufferIndex)),
                     attr("storage_scope", b.getStringAttr(storageScope))},
                    0));
}

FailureOr<Value> ScheduleSteps::decomposeReduction(Value block, Value loop) {
  return single(apply("decompose_reduction", {block, loop}, {}, 1));
}

LogicalResult ScheduleSteps::annotate(Value blockOrLoop, StringRef key,
                                      Attribute value) {
  Builder b(sch.getContext());
  return none(apply(
      "annotate", {blockOrLoop},
      {attr("ann_key", b.getStringAttr(key)), attr("ann_val", value)}, 0));
}

LogicalResult ScheduleSteps::annotate(Value blockOrLoop, StringRef key,
                                      Value param) {
  Builder b(sch.getContext());
  return none(apply("annotate", {blockOrLoop, param},
                    {attr("ann_key", b.getStringAttr(key))}, 0));
}

LogicalResult ScheduleSteps::annotate(Value blockOrLoop, StringRef key,
                                      int64_t value) {
  return annotate(blockOrLoop, key,
                  Builder(sch.getContext()).getI64IntegerAttr(value));
}

LogicalResult ScheduleSteps::unannotate(Value blockOrLoop, StringRef key) {
  Builder b(sch.getContext());
  return none(apply("unannotate", {blockOrLoop},
                    {attr("ann_key", b.getStringAttr(key))}, 0));
}

Operation *ScheduleSteps::getOp(Value handle) const {
  std::string ignored;
  auto payload = sch.getPayload(handle, ignored);
  if (failed(payload) || payload->size() != 1)
    return nullptr;
  return dyn_cast_if_present<Operation *>(payload->front());
}

std::optional<int64_t> ScheduleSteps::getParamValue(Value param) const {
  std::string ignored;
  auto payload = sch.getPayload(param, ignored);
  if (failed(payload) || payload->size() != 1)
    return std::nullopt;
  auto value = dyn_cast_if_present<IntegerAttr>(
      dyn_cast_if_present<Attribute>(payload->front()));
  if (!value)
    return std::nullopt;
  return value.getInt();
}

FailureOr<Value> ScheduleSteps::reindex(Value block, int64_t bufferIndex,
                                        bool write) {
  Builder b(sch.getContext());
  return single(apply(
      "reindex", {block},
      {attr("buffer_index", b.getI64IntegerAttr(bufferIndex)),
       attr("buffer_index_type", b.getStringAttr(write ? "write" : "read"))},
      1));
}

LogicalResult ScheduleSteps::transformLayout(Value block, int64_t bufferIndex,
                                             bool write, AffineMap indexMap,
                                             bool assumeInjective,
                                             ArrayRef<Value> params) {
  Builder b(sch.getContext());
  SmallVector<NamedAttribute> attrs = {
      attr("buffer_index", b.getI64IntegerAttr(bufferIndex)),
      attr("buffer_index_type", b.getStringAttr(write ? "write" : "read")),
      attr("index_map", AffineMapAttr::get(indexMap))};
  if (assumeInjective)
    attrs.push_back(attr("assume_injective_transform", b.getBoolAttr(true)));
  SmallVector<Value> operands = {block};
  llvm::append_range(operands, params);
  return none(apply("transform_layout", operands, attrs, 0));
}

LogicalResult ScheduleSteps::transformBlockLayout(Value block,
                                                  AffineMap indexMap) {
  return none(apply("transform_block_layout", {block},
                    {attr("index_map", AffineMapAttr::get(indexMap))}, 0));
}

FailureOr<Value> ScheduleSteps::blockize(Value loop, bool preserveUnitIters) {
  Builder b(sch.getContext());
  return single(apply(
      "blockize", {loop},
      {attr("preserve_unit_iters", b.getBoolAttr(preserveUnitIters))}, 1));
}

LogicalResult ScheduleSteps::tensorize(Value blockOrLoop, StringRef intrin,
                                       bool preserveUnitIters) {
  Builder b(sch.getContext());
  return failure(failed(
      apply("tensorize", {blockOrLoop},
            {attr("tensor_intrin", b.getStringAttr(intrin)),
             attr("preserve_unit_iters", b.getBoolAttr(preserveUnitIters))},
            1)));
}

LogicalResult ScheduleSteps::storageAlign(Value block, int64_t bufferIndex,
                                          int64_t axis, int64_t factor,
                                          int64_t offset) {
  Builder b(sch.getContext());
  return none(apply("storage_align", {block},
                    {attr("buffer_index", b.getI64IntegerAttr(bufferIndex)),
                     attr("axis", b.getI64IntegerAttr(axis)),
                     attr("factor", b.getI64IntegerAttr(factor)),
                     attr("offset", b.getI64IntegerAttr(offset))},
                    0));
}

BlockOp ScheduleSteps::getBlockOp(Value block) const {
  return dyn_cast_if_present<BlockOp>(getOp(block));
}

ForOp ScheduleSteps::getForOp(Value loop) const {
  return dyn_cast_if_present<ForOp>(getOp(loop));
}

Value mlir::tir::ms::translateHandle(const ScheduleState &original,
                                     Value handle, const ScheduleState &copy) {
  if (handle == original.getRoot())
    return copy.getRoot();
  return copy.getHandle(original.getRandomVariable(handle));
}

FailureOr<std::pair<Value, int64_t>>
mlir::tir::ms::reorderAndFuseReductionLoops(ScheduleSteps &steps, Value block,
                                            std::string &error) {
  FailureOr<SmallVector<Value>> loops = steps.getLoops(block);
  if (failed(loops))
    return failure();
  SmallVector<Value> order, reductions;
  for (Value loop : *loops)
    if (getLoopIterType(steps.getForOp(loop)) == IterType::Spatial)
      order.push_back(loop);
  int64_t numSpatial = static_cast<int64_t>(order.size());
  for (Value loop : *loops)
    if (getLoopIterType(steps.getForOp(loop)) == IterType::Reduce) {
      order.push_back(loop);
      reductions.push_back(loop);
    }
  if (reductions.empty()) {
    // TVM's words.
    error = "ValueError: There should be at least one reduction loop";
    return failure();
  }
  if (order != *loops && failed(steps.reorder(order)))
    return failure();
  if (reductions.size() == 1)
    return std::make_pair(reductions.front(), numSpatial);
  FailureOr<Value> fused = steps.fuse(reductions);
  if (failed(fused))
    return failure();
  return std::make_pair(*fused, numSpatial);
}
