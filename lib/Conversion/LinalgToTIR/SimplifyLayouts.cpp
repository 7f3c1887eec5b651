//===- SimplifyLayouts.cpp - fewer copies between a graph's layouts -------===//
//
// --tir-simplify-layouts: in graph functions, the chains of transposes and
// reshapes importers write (PyTorch's attention splits heads with a view,
// a transpose, another transpose back) are made as short as the layouts
// allow, before LegalizeOps makes a kernel of every transpose:
//  - a transpose of a transpose is one transpose; one that permutes nothing
//    is its input (upstream's linalg.transpose canonicalizations);
//  - a transpose that moves only dimensions of extent 1 is a reshape (a
//    view once bufferized, no kernel);
//  - a reshape of a reshape is one reshape, and none where they cancel
//    (upstream's tensor.collapse_shape / expand_shape canonicalizations).
// Operators kept whole (tir.composite) are first replaced by their parts
// (with keep-composites, left whole).
// The values the graph computes do not change, nor its interface.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/LinalgToTIR/LinalgToTIR.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRSIMPLIFYLAYOUTSPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// A transpose whose dimensions of extent other than 1 keep their order:
/// the same elements in the same order, so a reshape (collapsed to those
/// dimensions, then expanded to the result's shape).
struct TransposeOfUnitDims : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto from = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!from || !from.hasStaticShape() || op->getNumResults() != 1)
      return failure();
    auto to = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<int64_t> kept;
    int64_t last = -1;
    for (int64_t d : op.getPermutation()) {
      if (from.getDimSize(d) == 1)
        continue;
      if (d < last)
        return rewriter.notifyMatchFailure(op, "moves a dimension over 1");
      last = d;
      kept.push_back(from.getDimSize(d));
    }
    auto inner = RankedTensorType::get(kept, from.getElementType());
    std::optional<SmallVector<ReassociationIndices>> in =
        getReassociationIndicesForCollapse(from.getShape(), kept);
    std::optional<SmallVector<ReassociationIndices>> out =
        getReassociationIndicesForCollapse(to.getShape(), kept);
    if (!in || !out)
      return failure();
    Location loc = op.getLoc();
    Value value = op.getInput();
    if (from != inner)
      value = tensor::CollapseShapeOp::create(rewriter, loc, inner, value, *in);
    if (to != inner)
      value = tensor::ExpandShapeOp::create(rewriter, loc, to, value, *out);
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct TIRSimplifyLayoutsPass
    : public tir::impl::TIRSimplifyLayoutsPassBase<TIRSimplifyLayoutsPass> {
  using TIRSimplifyLayoutsPassBase::TIRSimplifyLayoutsPassBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<TransposeOfUnitDims>(ctx);
    linalg::TransposeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Only the layout ops and those the patterns make are visited (folded
    // too): the bodies of the other ops stay as the importer wrote them.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    IRRewriter rewriter(ctx);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !isGraphFunction(func))
        continue;
      // Operators kept whole first become their parts, whose layouts
      // chain with the graph's (attention's heads split and merged back).
      // (Or, kept, are left alone with their insides.)
      SmallVector<CompositeOp> composites;
      func.walk([&](CompositeOp op) { composites.push_back(op); });
      if (!keepComposites)
        for (CompositeOp op : composites)
          op.replaceByParts(rewriter);
      SmallVector<Operation *> layouts;
      func.walk([&](Operation *op) {
        if (keepComposites && isa<CompositeOp>(op->getParentOp()))
          return;
        if (isa<linalg::TransposeOp, tensor::CollapseShapeOp,
                tensor::ExpandShapeOp>(op))
          layouts.push_back(op);
      });
      // Converging is not required: what was simplified stays correct.
      (void)applyOpPatternsGreedily(layouts, frozen, config);
      // The outputs of the transposes that went.
      func.walk([](tensor::EmptyOp empty) {
        if (empty->use_empty())
          empty->erase();
      });
    }
  }
};

} // namespace
