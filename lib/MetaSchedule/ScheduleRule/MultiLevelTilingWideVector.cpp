//===- MultiLevelTilingWideVector.cpp - TVM's MultiLevelTilingWideVector --===//
//
// MultiLevelTiling for targets of wide vectors (Hexagon's HVX): the loop
// over the innermost dimension of the block's output is always split so
// that its innermost tile is one whole vector (vector_length_in_bits over
// the element's bits), the rest tiled by a sampled perfect tiling; a loop
// no longer than a vector is one innermost tile. Other loops are tiled as
// MultiLevelTiling tiles them.
//
//===----------------------------------------------------------------------===//

#include "MultiLevelTiling.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

class MultiLevelTilingWideVector : public MultiLevelTiling {
public:
  MultiLevelTilingWideVector(int64_t vectorBits,
                             MultiLevelTilingOptions options)
      : MultiLevelTiling(std::move(options)), vectorBits(vectorBits) {}

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(
        std::make_shared<MultiLevelTilingWideVector>(*this));
  }
  std::string str() const override {
    return defaultRepr("MultiLevelTilingWideVector", this);
  }

protected:
  FailureOr<std::pair<SmallVector<Value>, SmallVector<Value>>>
  splitLoop(ScheduleSteps &steps, Value block, Value loop,
            int64_t n) const override {
    std::optional<int64_t> lanes = vectorLanes(steps, block, loop);
    if (!lanes)
      return MultiLevelTiling::splitLoop(steps, block, loop, n);
    std::optional<int64_t> extent = steps.getForOp(loop).getConstantExtent();
    if (extent && *extent > *lanes) {
      // A whole vector innermost, the rest sampled.
      SmallVector<std::optional<int64_t>> byVector = {std::nullopt, *lanes};
      FailureOr<SmallVector<Value>> inner = steps.split(loop, byVector);
      if (failed(inner))
        return failure();
      if (n == 2)
        return std::make_pair(SmallVector<Value>(2, Value()),
                              std::move(*inner));
      FailureOr<SmallVector<Value>> factors = steps.samplePerfectTile(
          inner->front(), n - 1, options.maxInnermostFactor);
      if (failed(factors))
        return failure();
      FailureOr<SmallVector<Value>> outer =
          steps.split(inner->front(), *factors);
      if (failed(outer))
        return failure();
      factors->push_back(Value());
      outer->push_back(inner->back());
      return std::make_pair(std::move(*factors), std::move(*outer));
    }
    // No longer than a vector: the whole loop innermost.
    SmallVector<std::optional<int64_t>> ones(n - 1, int64_t(1));
    ones.push_back(extent);
    FailureOr<SmallVector<Value>> split = steps.split(loop, ones);
    if (failed(split))
      return failure();
    return std::make_pair(SmallVector<Value>(n, Value()), std::move(*split));
  }

private:
  /// The lanes of a vector of the block's output elements when `loop`
  /// walks the innermost dimension of its output (its variable is the
  /// binding of the variable indexing that dimension); nullopt otherwise.
  std::optional<int64_t> vectorLanes(ScheduleSteps &steps, Value block,
                                     Value loop) const {
    BlockOp op = steps.getBlockOp(block);
    ForOp forOp = steps.getForOp(loop);
    Refusal why;
    FailureOr<BlockAccessRegions> regions =
        op && forOp ? getAccessRegions(op, why)
                    : FailureOr<BlockAccessRegions>(failure());
    if (failed(regions) || regions->writes.size() != 1)
      return std::nullopt;
    auto &[buffer, region] = regions->writes.front();
    auto type = cast<MemRefType>(buffer.getType());
    if (region.starts.empty() || !type.getElementType().isIntOrFloat())
      return std::nullopt;
    auto var = dyn_cast<AffineDimExpr>(region.starts.back());
    if (!var || var.getPosition() >= op.getNumIterVars())
      return std::nullopt;
    auto binding =
        dyn_cast<AffineDimExpr>(op.getBindingExprs()[var.getPosition()]);
    if (!binding ||
        op.getBindingValues()[binding.getPosition()] != forOp.getInductionVar())
      return std::nullopt;
    int64_t bits = type.getElementType().getIntOrFloatBitWidth();
    return std::max<int64_t>(1, vectorBits / bits);
  }

  int64_t vectorBits;
};

} // namespace

FailureOr<std::shared_ptr<ScheduleRule>>
mlir::tir::ms::createMultiLevelTilingWideVector(int64_t vectorLengthInBits,
                                                MultiLevelTilingOptions options,
                                                std::string &error) {
  if (vectorLengthInBits < 1) {
    error = "MultiLevelTilingWideVector: vector_length_in_bits is positive, "
            "got " +
            std::to_string(vectorLengthInBits);
    return failure();
  }
  if (failed(createMultiLevelTiling(options, error)))
    return failure();
  return std::shared_ptr<ScheduleRule>(
      std::make_shared<MultiLevelTilingWideVector>(vectorLengthInBits,
                                                   std::move(options)));
}
