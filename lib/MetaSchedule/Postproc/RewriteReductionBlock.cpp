//===- RewriteReductionBlock.cpp - inits out of the reduction loops -------===//
//
// TVM's RewriteReductionBlock. Every block with a tir.init whose reduce
// variables no threadIdx / blockIdx loop feeds (those are cross-thread
// reductions, which the lowering handles) is decomposed
// (decompose_reduction) at its outermost loop that is not spatial, as TVM's
// GetLoopIterType judges loops; a block whose loops are all spatial is left
// as it is. Rounds repeat until one decomposes nothing (a decomposed block
// has no init left).
//
// A block annotated "meta_schedule.auto_tensorize" hands it to its init
// block as the init's intrinsic: the init gets the block's
// "meta_schedule.auto_tensorize_init" ("" when it has none) as its
// "meta_schedule.auto_tensorize", and "meta_schedule.auto_tensorize_init"
// is removed from both.
//
// A refused step rejects the schedule (TVM's throws, and the search counts
// the schedule as failed).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"
#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

constexpr StringLiteral kAutoTensorize = "meta_schedule.auto_tensorize";
constexpr StringLiteral kAutoTensorizeInit =
    "meta_schedule.auto_tensorize_init";

/// Whether no reduce variable of `block` is fed by one of `threadVars`
/// (the variables of loops bound to threadIdx / blockIdx).
bool reduceVarsAreUnbound(BlockOp block, ArrayRef<Value> threadVars) {
  if (threadVars.empty())
    return true;
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  ValueRange values = block.getBindingValues();
  for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
    if (block.getIterType(i) != IterType::Reduce)
      continue;
    for (auto [position, value] : llvm::enumerate(values))
      if (bindings[i].isFunctionOfDim(position) &&
          dependsOnAny(value, threadVars))
        return false;
  }
  return true;
}

/// The blocks to decompose, with their functions, in program order.
SmallVector<std::pair<BlockOp, std::string>> findReductionBlocks(ModuleOp mod) {
  SmallVector<std::pair<BlockOp, std::string>> found;
  for (FunctionOpInterface func : getScheduledFunctions(mod)) {
    std::string funcName = func.getName().str();
    SmallVector<Value> threadVars;
    func->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto loop = dyn_cast<ForOp>(op)) {
        if (isBoundToThreadOrBlockIdx(loop))
          threadVars.push_back(loop.getInductionVar());
      } else if (auto block = dyn_cast<BlockOp>(op)) {
        if (block.getInitOp() && reduceVarsAreUnbound(block, threadVars))
          found.emplace_back(block, funcName);
      }
    });
  }
  return found;
}

/// TVM's FindDecomposePoint: the position of the outermost loop above
/// `block` that is not spatial, or std::nullopt.
std::optional<unsigned> findDecomposePoint(BlockOp block) {
  for (auto [i, loop] : llvm::enumerate(getLoops(block)))
    if (getLoopIterType(loop) != IterType::Spatial)
      return i;
  return std::nullopt;
}

class RewriteReductionBlock : public Postproc {
public:
  FailureOr<bool> apply(const Schedule &sch, std::string &) override {
    std::string refusal;
    ScheduleSteps steps(*sch, refusal);
    while (true) {
      int64_t rewritten = 0;
      for (auto &[block, funcName] : findReductionBlocks(sch->getPayload())) {
        std::optional<unsigned> point = findDecomposePoint(block);
        if (!point)
          continue;
        DictionaryAttr annotations = block.getAnnotationsAttr();
        FailureOr<Value> handle =
            steps.getBlock(block.getBlockName(), funcName);
        if (failed(handle))
          return false;
        FailureOr<SmallVector<Value>> loops = steps.getLoops(*handle);
        if (failed(loops) || *point >= loops->size())
          return false;
        FailureOr<Value> init =
            steps.decomposeReduction(*handle, (*loops)[*point]);
        if (failed(init) || failed(moveTensorizeAnnotations(steps, annotations,
                                                            *handle, *init)))
          return false;
        ++rewritten;
      }
      if (rewritten == 0)
        return true;
    }
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    return std::shared_ptr<Postproc>(std::make_shared<RewriteReductionBlock>());
  }

  std::string str() const override {
    return defaultRepr("RewriteReductionBlock", this);
  }

private:
  /// The auto-tensorize annotations of a decomposed block (`annotations`,
  /// as they were) on its update and init blocks.
  static LogicalResult moveTensorizeAnnotations(ScheduleSteps &steps,
                                                DictionaryAttr annotations,
                                                Value update, Value init) {
    if (!annotations ||
        !isa_and_present<StringAttr>(annotations.get(kAutoTensorize)))
      return success();
    MLIRContext *ctx = steps.getState().getContext();
    // The init block has the block's annotations; its intrinsic is the
    // init's one.
    if (failed(steps.unannotate(init, kAutoTensorize)))
      return failure();
    auto initIntrin =
        dyn_cast_if_present<StringAttr>(annotations.get(kAutoTensorizeInit));
    if (failed(
            steps.annotate(init, kAutoTensorize,
                           initIntrin ? initIntrin : StringAttr::get(ctx, ""))))
      return failure();
    if (!initIntrin)
      return success();
    if (failed(steps.unannotate(update, kAutoTensorizeInit)) ||
        failed(steps.unannotate(init, kAutoTensorizeInit)))
      return failure();
    return success();
  }
};

} // namespace

std::shared_ptr<Postproc> mlir::tir::ms::createRewriteReductionBlock() {
  return std::make_shared<RewriteReductionBlock>();
}
