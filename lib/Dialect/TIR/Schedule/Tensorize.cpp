//===- Tensorize.cpp - TVM's tensorize
//-------------------------------------===//
//
// A block (or the subtree under a loop, blockized first) that computes what
// a tensor intrinsic's description computes gets the intrinsic's
// implementation as its body:
//
//   block C_o(vi_o, vj_o)                   block C_o(vi_o, vj_o)
//     reads(A[vi_o*16 : +16, ...])     =>     reads(A[vi_o*16 : +16, ...])
//     for i, j: block C(...) ...              %A_1 = tir.match_buffer
//                                                 %A[vi_o*16 : +16, ...]
//                                             tir.call "mma"(%A_1, ...)
//
// Each parameter of the implementation is matched (tir.match_buffer) to the
// region of the block's buffer that stands for it: from the buffer's base
// (TensorizeMatch.h), with the extents of the implementation's own region
// (extent 1 in the dimensions the intrinsic does not have). The view keeps
// the buffer's strides, and its offset is dynamic, so the implementation's
// `.elem_offset` and `.strides` read where the region lies.
//
// A loop is blockized first on a copy of its function, matched there, and
// only blockized and tensorized for real when that matches: a refused
// tensorize leaves the IR as it was.
//
//===----------------------------------------------------------------------===//

#include "TensorizeMatch.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

constexpr StringLiteral kPrimitive = "tensorize";

/// The view of `source` with `shape`: the source's strides for the last
/// dimensions, a dynamic offset.
MemRefType viewType(MemRefType source, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(source.getStridesAndOffset(strides, offset))) {
    strides.assign(source.getRank(), ShapedType::kDynamic);
  }
  ArrayRef<int64_t> tail = ArrayRef<int64_t>(strides).take_back(shape.size());
  auto layout =
      StridedLayoutAttr::get(source.getContext(), ShapedType::kDynamic, tail);
  return MemRefType::get(shape, source.getElementType(), layout,
                         source.getMemorySpace());
}

/// The regions of `block` (`what` names it in the refusal).
FailureOr<BlockAccessRegions> regionsOf(BlockOp block, StringRef what,
                                        Operation *culprit,
                                        ScheduleError &error) {
  Refusal analysis;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, analysis);
  if (failed(regions))
    return refuse(error, culprit,
                  Twine(kPrimitive) + ": the regions of " + what +
                      " cannot be inferred: " + analysis.message);
  return regions;
}

/// The extents of the region `impl`'s root block lists for `param` (its
/// reads first, as TVM), or of the whole parameter when it lists none.
FailureOr<SmallVector<int64_t>> implExtents(BlockOp root, Value param,
                                            ScheduleError &error,
                                            Operation *culprit) {
  FailureOr<BlockAccessRegions> regions =
      regionsOf(root, "the intrinsic's implementation", culprit, error);
  if (failed(regions))
    return failure();
  for (auto *list : {&regions->reads, &regions->writes}) {
    for (const auto &[buffer, region] : *list) {
      if (buffer != param)
        continue;
      SmallVector<int64_t> extents;
      for (AffineExpr e : region.extents) {
        auto c = dyn_cast<AffineConstantExpr>(e);
        if (!c)
          return refuse(error, culprit,
                        Twine(kPrimitive) +
                            ": the intrinsic's implementation lists a region "
                            "of '" +
                            getBufferName(param) +
                            "' whose extents are not constants");
        extents.push_back(c.getValue());
      }
      return extents;
    }
  }
  return SmallVector<int64_t>(cast<MemRefType>(param.getType()).getShape());
}

/// How one implementation parameter is matched in the block.
struct View {
  Value source;
  RegionExprs region;
  MemRefType type;
};

/// The views of `impl`'s parameters for `block` (which matched); refuses,
/// blaming `culprit`, what keeps the implementation from replacing the
/// body. Changes nothing.
FailureOr<SmallVector<View>> planViews(BlockOp block,
                                       const TensorizeMatch &match,
                                       func::FuncOp impl, Operation *culprit,
                                       ScheduleError &error) {
  BlockOp root = getIntrinsicRoot(impl);
  if (!root)
    return refuse(error, culprit,
                  Twine(kPrimitive) + ": the intrinsic's implementation has "
                                      "no root block");
  for (Operation &op : impl.getBody().front())
    if (&op != root.getOperation() && !isa<func::ReturnOp>(op))
      return refuse(error, culprit,
                    Twine(kPrimitive) +
                        ": the intrinsic's implementation "
                        "computes something outside its root "
                        "block ('" +
                        op.getName().getStringRef() + "')");
  SmallVector<View> views;
  MLIRContext *ctx = block.getContext();
  for (auto [k, param] : llvm::enumerate(impl.getArguments())) {
    Value source = match.buffers[k];
    if (!source)
      return refuse(error, culprit,
                    Twine(kPrimitive) +
                        ": the intrinsic's description does "
                        "not use its parameter " +
                        Twine(k));
    FailureOr<SmallVector<int64_t>> extents =
        implExtents(root, param, error, culprit);
    if (failed(extents))
      return failure();
    auto found = match.bases.find(source);
    if (found == match.bases.end())
      return refuse(error, culprit,
                    Twine(kPrimitive) + ": buffer '" + getBufferName(source) +
                        "' stands for a parameter of the intrinsic but is not "
                        "in the block's regions");
    const SmallVector<AffineExpr> &base = found->second;
    ArrayRef<int64_t> paramShape = cast<MemRefType>(param.getType()).getShape();
    if (ArrayRef<int64_t>(*extents) != paramShape)
      return refuse(error, culprit,
                    Twine(kPrimitive) +
                        ": the intrinsic's implementation "
                        "lists a region of parameter " +
                        Twine(k) + " that is not its whole shape");
    if (base.size() < extents->size())
      return refuse(error, culprit,
                    Twine(kPrimitive) + ": buffer '" + getBufferName(source) +
                        "' has fewer dimensions than the intrinsic's region");
    View view{source, {}, {}};
    size_t offset = base.size() - extents->size();
    for (size_t i = 0; i < base.size(); ++i) {
      view.region.starts.push_back(base[i]);
      view.region.extents.push_back(
          getAffineConstantExpr(i < offset ? 1 : (*extents)[i - offset], ctx));
    }
    view.type = viewType(cast<MemRefType>(source.getType()),
                         cast<MemRefType>(param.getType()).getShape());
    views.push_back(std::move(view));
  }
  return views;
}

/// Replaces the body of `block` with `impl`'s, through `views`.
void replaceBody(RewriterBase &rewriter, BlockOp block,
                 const TensorizeMatch &match, func::FuncOp impl,
                 ArrayRef<View> views) {
  MLIRContext *ctx = block.getContext();
  Block *body = block.getBody();
  while (!body->empty())
    rewriter.eraseOp(&body->back());
  rewriter.setInsertionPointToEnd(body);
  IRMapping map;
  for (auto [param, view] : llvm::zip(impl.getArguments(), views)) {
    AffineMap region = buildRegionMap(match.inputs.size(), view.region, ctx);
    auto matched = MatchBufferOp::create(
        rewriter, block.getLoc(), view.type, view.source, match.inputs,
        AffineMapAttr::get(region), DenseI64ArrayAttr());
    map.map(param, matched.getResult());
  }
  BlockOp root = getIntrinsicRoot(impl);
  for (Operation &op : *root.getBody())
    rewriter.clone(op, map);
  // The implementation's annotations join the block's (the block's win).
  if (DictionaryAttr extra = root.getAnnotationsAttr()) {
    NamedAttrList merged(block.getAnnotationsAttr());
    for (NamedAttribute a : extra)
      if (!merged.get(a.getName()))
        merged.set(a.getName(), a.getValue());
    rewriter.modifyOpInPlace(
        block, [&] { block.setAnnotationsAttr(merged.getDictionary(ctx)); });
  }
}

/// Refuses, blaming `target`, with why the block does not match.
LogicalResult refuseMismatch(ScheduleError &error, Operation *target,
                             StringRef name, const Refusal &mismatch) {
  return refuse(error, target,
                Twine(kPrimitive) +
                    ": the block does not match tensor "
                    "intrinsic '" +
                    name + "': " + mismatch.message);
}

} // namespace

FailureOr<BlockOp>
mlir::tir::tensorize(RewriterBase &rewriter, Operation *target,
                     const TensorIntrin &intrin, StringRef intrinName,
                     bool preserveUnitIters, ScheduleError &error) {
  Refusal mismatch;
  if (auto block = dyn_cast<BlockOp>(target)) {
    // Regions the body implies are listed before the body goes.
    FailureOr<BlockAccessRegions> regions =
        regionsOf(block, "the block", block, error);
    if (failed(regions))
      return failure();
    FailureOr<TensorizeMatch> match =
        matchTensorIntrin(block, intrin.desc, mismatch);
    if (failed(match))
      return refuseMismatch(error, mismatch.culprit ? mismatch.culprit : block,
                            intrinName, mismatch);
    FailureOr<SmallVector<View>> views =
        planViews(block, *match, intrin.impl, block, error);
    if (failed(views))
      return failure();
    if (!block.hasAccessRegions())
      rewriter.modifyOpInPlace(block, [&] { setRegions(block, *regions); });
    replaceBody(rewriter, block, *match, intrin.impl, *views);
    return block;
  }
  auto loop = dyn_cast<ForOp>(target);
  if (!loop)
    return refuse(error, target,
                  Twine(kPrimitive) + " takes a tir.for or a tir.block");
  auto func = loop->getParentOfType<func::FuncOp>();
  if (!func)
    return refuse(error, loop,
                  Twine(kPrimitive) + " needs a loop inside a function");

  // The dry run, on a copy.
  IRMapping copyMap;
  Operation *copy = func->clone(copyMap);
  {
    IRRewriter scratch(rewriter.getContext());
    ScheduleError ignored;
    FailureOr<BlockOp> outer =
        blockize(scratch, cast<ForOp>(copyMap.lookup(loop.getOperation())),
                 preserveUnitIters, ignored);
    bool blockized = succeeded(outer);
    FailureOr<TensorizeMatch> match = failure();
    bool planned = false;
    if (blockized) {
      match = matchTensorIntrin(*outer, intrin.desc, mismatch);
      planned = succeeded(match) &&
                succeeded(planViews(*outer, *match, intrin.impl, loop, error));
    }
    copy->erase();
    if (!blockized) {
      // Blockize refuses the original the same way, unchanged.
      (void)blockize(rewriter, loop, preserveUnitIters, error);
      return failure();
    }
    if (failed(match))
      return refuseMismatch(error, loop, intrinName, mismatch);
    if (!planned)
      return failure();
  }

  FailureOr<BlockOp> outer = blockize(rewriter, loop, preserveUnitIters, error);
  if (failed(outer))
    return failure();
  FailureOr<TensorizeMatch> match =
      matchTensorIntrin(*outer, intrin.desc, mismatch);
  FailureOr<SmallVector<View>> views =
      succeeded(match) ? planViews(*outer, *match, intrin.impl, loop, error)
                       : FailureOr<SmallVector<View>>(failure());
  if (failed(views)) {
    // The copy matched: the same steps on the original cannot differ.
    error = {"internal error: tensorize matched a copy of the IR but not the "
             "IR itself",
             *outer};
    return failure();
  }
  replaceBody(rewriter, *outer, *match, intrin.impl, *views);
  return *outer;
}
