//===- MultiLevelTilingWithIntrin.cpp - TVM's MultiLevelTilingWithIntrin --===//
//
// MultiLevelTiling for one tensor intrinsic (a dot product, VNNI, DP4A):
// a block whose computation the intrinsic's description matches has its
// inner loops tiled to the description's shape (tile_with_tensor_intrin)
// and blockized, the outer block annotated for RewriteTensorize; the
// outer block is then tiled as MultiLevelTiling tiles. A block the
// intrinsic does not match, or whose loops do not divide into its shape,
// is left as it is.
//
//===----------------------------------------------------------------------===//

#include "MultiLevelTiling.h"

#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/TensorIntrin.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleTransforms.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

/// TVM's TileForIntrin: the block's inner loops tiled to the intrinsic's
/// shape and blockized, the outer block annotated with the intrinsic.
/// Returns the outer block, or a null Value where the loops do not tile.
FailureOr<Value> mlir::tir::ms::tileForIntrin(ScheduleSteps &steps, Value block,
                                              StringRef intrinName,
                                              bool allowPadding,
                                              std::string &error) {
  FailureOr<std::optional<Value>> loop = tileWithTensorIntrin(
      steps.getState(), block, intrinName, allowPadding, error);
  if (failed(loop))
    return failure();
  if (!*loop)
    return Value();
  FailureOr<SmallVector<Value>> outer =
      steps.apply("blockize", {**loop}, {}, 1);
  if (failed(outer))
    return failure();
  Builder b(steps.getState().getContext());
  if (failed(steps.annotate(outer->front(), "meta_schedule.auto_tensorize",
                            b.getStringAttr(intrinName))))
    return failure();
  return outer->front();
}

FailureOr<func::FuncOp> mlir::tir::ms::getTensorIntrinDesc(ScheduleSteps &steps,
                                                           Value block,
                                                           StringRef intrinName,
                                                           std::string &error) {
  BlockOp op = steps.getBlockOp(block);
  Operation *sequence =
      steps.getState().getRoot().getParentBlock()->getParentOp();
  ScheduleError lookupError;
  FailureOr<TensorIntrin> intrin =
      lookupTensorIntrin(sequence, intrinName, op, lookupError);
  if (failed(intrin)) {
    error = ScheduleState::formatError(lookupError);
    return failure();
  }
  return intrin->desc;
}

namespace {

class MultiLevelTilingWithIntrin : public MultiLevelTiling {
public:
  MultiLevelTilingWithIntrin(std::string intrinName,
                             MultiLevelTilingOptions options)
      : MultiLevelTiling(std::move(options)),
        intrinName(std::move(intrinName)) {}

  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override {
    ScheduleSteps steps(*sch, error);
    BlockOp op = steps.getBlockOp(block);
    if (!op)
      return std::vector<Schedule>{sch};
    FailureOr<func::FuncOp> desc =
        getTensorIntrinDesc(steps, block, intrinName, error);
    if (failed(desc))
      return failure();
    Refusal why;
    if (failed(getAutoTensorizeMapping(op, *desc, why)))
      return std::vector<Schedule>{sch};
    Schedule copy(sch->copy());
    FailureOr<std::vector<Schedule>> results = MultiLevelTiling::apply(
        copy, translateHandle(*sch, block, *copy), error);
    if (failed(results))
      return failure();
    if (results->empty())
      return std::vector<Schedule>{sch};
    return results;
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(
        std::make_shared<MultiLevelTilingWithIntrin>(*this));
  }
  std::string str() const override {
    return defaultRepr("MultiLevelTilingWithIntrin", this);
  }

protected:
  FailureOr<TilingStates> applySubRules(TilingStates states,
                                        std::string &error) override {
    FailureOr<TilingStates> tiled = forEach(
        std::move(states),
        [this](TilingState state, std::string &e) -> FailureOr<TilingStates> {
          ScheduleSteps steps(*state.sch, e);
          FailureOr<Value> outer =
              tileForIntrin(steps, state.block, intrinName, false, e);
          if (failed(outer))
            return failure();
          TilingStates result;
          if (*outer) {
            state.block = *outer;
            result.push_back(std::move(state));
          }
          return result;
        },
        error);
    if (failed(tiled))
      return failure();
    return MultiLevelTiling::applySubRules(std::move(*tiled), error);
  }

private:
  std::string intrinName;
};

} // namespace

FailureOr<std::shared_ptr<ScheduleRule>>
mlir::tir::ms::createMultiLevelTilingWithIntrin(std::string intrinName,
                                                MultiLevelTilingOptions options,
                                                std::string &error) {
  if (!isTensorIntrinRegistered(intrinName)) {
    error = "MultiLevelTilingWithIntrin: the tensor intrinsic '" + intrinName +
            "' is not registered";
    return failure();
  }
  // The checks of the structure and bindings.
  if (failed(createMultiLevelTiling(options, error)))
    return failure();
  return std::shared_ptr<ScheduleRule>(
      std::make_shared<MultiLevelTilingWithIntrin>(std::move(intrinName),
                                                   std::move(options)));
}
