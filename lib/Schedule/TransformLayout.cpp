//===- TransformLayout.cpp - TVM's transform_layout -----------------------===//
//
// A buffer's layout changed by an index map: `lambda i, j: (i floordiv 16,
// j floordiv 16, i mod 16, j mod 16)` makes a 128 x 128 buffer one of 8 x 8
// x 16 x 16 whose element [i / 16, j / 16, i % 16, j % 16] is the old
// [i, j]. The buffer (an allocation or a parameter) gets the new shape, and
// every access to it in the function is rewritten through the map, then
// simplified with the iteration domains (`(vi_o * 16 + vi) floordiv 16` is
// `vi_o` for vi in [0, 16)). Blocks that list the buffer's region get the
// region of the new accesses.
//
//===----------------------------------------------------------------------===//

#include "IndexMap.h"
#include "Relayout.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/RangeSimplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Schedule/Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kPrimitive = "transform_layout";

/// TVM's epilogue padding plan: after the statement of the scope that
/// holds the buffer's last writer, a nest `axis0..` over the new shape
/// whose block `buffer_<name>_padding` stores `padValue` where the point is
/// no old element's image (some input's inverse reaches past its old
/// extent). A buffer nobody writes (an input) is left as it is: its
/// padding is never read.
static void fillPadding(RewriterBase &rewriter, Operation *scope, Value buffer,
                        const IndexMapAnalysis &analysis,
                        ArrayRef<int64_t> oldShape, TypedAttr padValue) {
  MLIRContext *ctx = buffer.getContext();
  Operation *lastWriter = nullptr;
  scope->walk([&](StoreOp store) {
    if (store.getBuffer() == buffer)
      lastWriter = store;
  });
  if (!lastWriter)
    return;
  Block *body = scope->getNumRegions() ? &scope->getRegion(0).front() : nullptr;
  Operation *top = body ? body->findAncestorOpInBlock(*lastWriter) : nullptr;
  if (!top)
    return;
  Location loc = buffer.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(top);
  SmallVector<Value> loopVars;
  for (auto [k, extent] : llvm::enumerate(analysis.shape)) {
    auto loop =
        ForOp::create(rewriter, loc, rewriter.getIndexAttr(0),
                      rewriter.getIndexAttr(extent), ("axis" + Twine(k)).str());
    rewriter.setInsertionPointToStart(loop.getBody());
    loopVars.push_back(loop.getInductionVar());
  }
  SmallVector<std::string> names;
  for (unsigned k = 0; k < analysis.shape.size(); ++k)
    names.push_back("v_axis" + std::to_string(k));
  SmallVector<IterVarSpec> vars;
  for (auto [k, extent] : llvm::enumerate(analysis.shape))
    vars.push_back({IterType::Spatial, rewriter.getIndexAttr(0),
                    rewriter.getIndexAttr(extent), getAffineDimExpr(k, ctx),
                    names[k]});
  SmallVector<Conjunction> predicate;
  for (auto [d, padded] : llvm::enumerate(analysis.inputPadded))
    if (padded) {
      Conjunction c;
      c.constraints.push_back(analysis.inverse[d] - oldShape[d]);
      c.eqFlags.push_back(false);
      predicate.push_back(c);
    }
  std::string name = "buffer_" + getBufferName(buffer) + "_padding";
  auto fill = BlockOp::create(
      rewriter, loc, name, vars, loopVars,
      [&](OpBuilder &b, Location l, ValueRange v) {
        Value value = arith::ConstantOp::create(b, l, padValue);
        StoreOp::create(b, l, value, buffer, v);
      },
      predicate);
  setInferredRegions(fill);
}

LogicalResult mlir::tir::transformLayout(RewriterBase &rewriter, BlockOp block,
                                         int64_t bufferIndex, bool isWrite,
                                         AffineMap indexMap, TypedAttr padValue,
                                         bool assumeInjective,
                                         ScheduleError &error) {
  FailureOr<Value> found =
      getNthAccessBuffer(block, bufferIndex, isWrite, kPrimitive, error);
  if (failed(found))
    return failure();
  Value buffer = *found;
  std::string name = getBufferName(buffer);
  FailureOr<Operation *> scope =
      getBufferScope(buffer, block, kPrimitive, error);
  if (failed(scope))
    return failure();
  auto type = cast<MemRefType>(buffer.getType());
  if (indexMap.getNumDims() != type.getRank() || indexMap.getNumSymbols() != 0)
    return refuse(error, block,
                  Twine(kPrimitive) + ": the index map takes " +
                      Twine(indexMap.getNumDims()) + " indices, but buffer '" +
                      name + "' has " + Twine(type.getRank()) + " dimensions");
  if (padValue && padValue.getType() != type.getElementType()) {
    std::string have, want;
    llvm::raw_string_ostream(have) << padValue.getType();
    llvm::raw_string_ostream(want) << type.getElementType();
    return refuse(error, block,
                  Twine(kPrimitive) + ": the pad value is of type " + have +
                      ", but buffer '" + name + "' holds " + want);
  }
  if (!type.hasStaticShape())
    return refuse(error, block,
                  Twine(kPrimitive) + ": buffer '" + name +
                      "' has a runtime dimension (not supported yet)");
  std::string why;
  SmallVector<int64_t> shape;
  FailureOr<IndexMapAnalysis> padding = failure();
  if (assumeInjective) {
    FailureOr<SmallVector<int64_t>> s =
        getMappedShape(indexMap, type.getShape(), why);
    if (failed(s))
      return refuse(error, block, Twine(kPrimitive) + ": " + why);
    shape = *s;
  } else {
    FailureOr<IndexMapAnalysis> analysis =
        analyzeIndexMap(indexMap, type.getShape(), why);
    if (failed(analysis))
      return refuse(error, block,
                    Twine(kPrimitive) +
                        ": the index map is not an injective "
                        "affine map of buffer '" +
                        name + "' (" + why + ")");
    if (analysis->pads && !padValue)
      return refuse(error, block,
                    Twine(kPrimitive) + ": the index map would pad buffer '" +
                        name +
                        "' (some elements of the new shape are no element's "
                        "image); give a pad_value, or assume_injective_"
                        "transform to leave them undefined");
    if (analysis->pads && !analysis->resultsExact)
      return refuse(error, block,
                    Twine(kPrimitive) +
                        ": padding where the map's results leave gaps "
                        "between their terms (or add a constant) is not "
                        "supported yet");
    shape = analysis->shape;
    if (analysis->pads)
      padding = analysis;
  }

  if (failed(relayoutBuffer(rewriter, *scope, buffer, indexMap, shape,
                            /*simplify=*/true, kPrimitive, block, error)))
    return failure();
  if (succeeded(padding))
    fillPadding(rewriter, *scope, buffer, *padding, type.getShape(), padValue);
  return success();
}
