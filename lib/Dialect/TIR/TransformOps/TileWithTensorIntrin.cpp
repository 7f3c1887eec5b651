//===- TileWithTensorIntrin.cpp - TVM's tile_with_tensor_intrin -----------===//
//
// Tiles a block's loops so that the innermost ones mirror a tensor
// intrinsic's description: split by the description's extents, the inner
// loops moved innermost. Every step is a primitive of the state, recorded
// in its trace.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleTransforms.h"

#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/TensorIntrin.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tir;

namespace {

/// Applies steps to a state, keeping the first error.
struct Steps {
  ScheduleState &state;
  std::string &error;

  FailureOr<SmallVector<Value>>
  apply(StringRef mnemonic, ArrayRef<Value> operands,
        ArrayRef<NamedAttribute> attrs = {},
        std::optional<unsigned> n = std::nullopt) {
    return state.apply(mnemonic, operands, attrs, n, error);
  }

  /// The one op `handle` holds.
  Operation *op(Value handle) {
    std::string ignored;
    FailureOr<ArrayRef<transform::MappedValue>> values =
        state.getPayload(handle, ignored);
    if (failed(values) || values->size() != 1)
      return nullptr;
    return dyn_cast_if_present<Operation *>(values->front());
  }
};

} // namespace

FailureOr<std::optional<Value>>
mlir::tir::tileWithTensorIntrin(ScheduleState &state, Value block,
                                StringRef intrinName, bool allowPadding,
                                std::string &error) {
  Steps steps{state, error};
  auto blockOp = dyn_cast_if_present<BlockOp>(steps.op(block));
  if (!blockOp) {
    error = "tile_with_tensor_intrin takes one block";
    return failure();
  }
  Operation *sequence = state.getRoot().getParentBlock()->getParentOp();
  ScheduleError lookupError;
  FailureOr<TensorIntrin> intrin =
      lookupTensorIntrin(sequence, intrinName, blockOp, lookupError);
  if (failed(intrin)) {
    error = ScheduleState::formatError(lookupError);
    return failure();
  }
  func::FuncOp desc = intrin->desc;
  Refusal why;
  FailureOr<TensorizeLoopMapping> mapping =
      getTensorizeLoopMapping(blockOp, desc, allowPadding, why);
  if (failed(mapping))
    return std::optional<Value>();
  MLIRContext *ctx = state.getContext();
  Builder b(ctx);

  if (mapping->blockIterPaddings) {
    // Pad, then inline the producers into their pad copies and the unpad
    // copies into their consumers, so that the padded block reads and
    // writes computed values, not copies.
    BlockDependences before(getScopeBlocks(getScopeRoot(blockOp)));
    SmallVector<BlockOp> producers = before.getProducers(blockOp);
    SmallVector<BlockOp> consumers = before.getConsumers(blockOp);
    if (failed(steps.apply(
            "pad_einsum", {block},
            {b.getNamedAttr("padding", b.getDenseI64ArrayAttr(
                                           *mapping->blockIterPaddings))},
            0)))
      return failure();
    // The copies pad_einsum added on one side of the block (`query`'s
    // blocks that were not there before) that stand between it and one
    // original block; with `inlineOriginal`, that block, else the copy.
    auto toInline = [&](StringRef query, ArrayRef<BlockOp> originals,
                        bool inlineOriginal) -> FailureOr<SmallVector<Value>> {
      SmallVector<Value> out;
      FailureOr<SmallVector<Value>> side = steps.apply(query, {block});
      if (failed(side))
        return failure();
      for (Value copy : *side) {
        if (llvm::is_contained(originals, steps.op(copy)))
          continue;
        FailureOr<SmallVector<Value>> beyond = steps.apply(query, {copy});
        if (failed(beyond))
          return failure();
        if (beyond->size() == 1 &&
            llvm::is_contained(originals, steps.op(beyond->front())))
          out.push_back(inlineOriginal ? beyond->front() : copy);
      }
      return out;
    };
    FailureOr<SmallVector<Value>> inlineProducers =
        toInline("get_producers", producers, /*inlineOriginal=*/true);
    if (failed(inlineProducers))
      return failure();
    FailureOr<SmallVector<Value>> inlineConsumers =
        toInline("get_consumers", consumers, /*inlineOriginal=*/false);
    if (failed(inlineConsumers))
      return failure();
    for (Value b : llvm::concat<Value>(*inlineProducers, *inlineConsumers))
      if (failed(steps.apply("compute_inline", {b}, {}, 0)))
        return failure();
    blockOp = cast<BlockOp>(steps.op(block));
    mapping = getTensorizeLoopMapping(blockOp, desc, false, why);
    if (failed(mapping)) {
      error = "tile_with_tensor_intrin: the padded block has no mapping: " +
              why.message;
      return failure();
    }
  }

  FailureOr<SmallVector<Value>> loops = steps.apply("get_loops", {block});
  if (failed(loops))
    return failure();
  auto handleOf = [&](ArrayRef<Value> handles, ForOp loop) -> Value {
    for (Value h : handles)
      if (steps.op(h) == loop.getOperation())
        return h;
    return {};
  };
  SmallVector<Value> suffix(mapping->descLoops.size());
  DenseSet<Operation *> inner;
  for (auto [loop, descIndex] : mapping->loopMap) {
    int64_t factor = *mapping->descLoops[descIndex].getConstantExtent();
    NamedAttribute attrs[] = {
        b.getNamedAttr(
            "factors",
            b.getArrayAttr({SplitFactorAttr::getInferred(ctx),
                            SplitFactorAttr::getConstant(ctx, factor)})),
        b.getNamedAttr("preserve_unit_iters", b.getBoolAttr(true)),
        b.getNamedAttr("disable_predication", b.getBoolAttr(false))};
    FailureOr<SmallVector<Value>> parts =
        steps.apply("split", {handleOf(*loops, loop)}, attrs, 2);
    if (failed(parts))
      return failure();
    suffix[descIndex] = (*parts)[1];
    inner.insert(steps.op((*parts)[1]));
  }
  FailureOr<SmallVector<Value>> all = steps.apply("get_loops", {block});
  if (failed(all))
    return failure();
  SmallVector<Value> order;
  bool seenInner = false;
  for (Value h : *all) {
    bool isInner = inner.contains(steps.op(h));
    seenInner |= isInner;
    if (seenInner && !isInner)
      order.push_back(h);
  }
  order.append(suffix.begin(), suffix.end());
  if (failed(steps.apply("reorder", order, {}, 0)))
    return failure();
  return std::optional<Value>(suffix.front());
}
