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
#include "LayoutPadding.h"
#include "Relayout.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kPrimitive = "transform_layout";

/// For a parameter, records the layout the user declared (composed with
/// an earlier record), so that a build can keep the declared signature
/// (--tir-restore-declared-layouts).
static void recordDeclaredLayout(RewriterBase &rewriter, Operation *scope,
                                 Value buffer, MemRefType oldType,
                                 AffineMap indexMap, Attribute padValue) {
  auto func = dyn_cast<FunctionOpInterface>(scope);
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!func || !arg)
    return;
  unsigned i = arg.getArgNumber();
  StringRef key = TIRDialect::kDeclaredLayoutAttrName;
  Type declared = oldType;
  AffineMap map = indexMap;
  Attribute pad = padValue;
  if (auto earlier = func.getArgAttrOfType<DictionaryAttr>(i, key)) {
    declared = earlier.getAs<TypeAttr>("type").getValue();
    map =
        indexMap.compose(earlier.getAs<AffineMapAttr>("index_map").getValue());
    // An earlier constant pad value still holds in the new padding; one
    // computed from the earlier indices does not.
    if (!pad && isa_and_present<TypedAttr>(earlier.get("pad_value")))
      pad = earlier.get("pad_value");
  }
  SmallVector<NamedAttribute> fields = {
      rewriter.getNamedAttr("type", TypeAttr::get(declared)),
      rewriter.getNamedAttr("index_map", AffineMapAttr::get(map))};
  if (pad)
    fields.push_back(rewriter.getNamedAttr("pad_value", pad));
  rewriter.modifyOpInPlace(func, [&] {
    func.setArgAttr(i, key, rewriter.getDictionaryAttr(fields));
  });
}

/// transform_layout where the map uses runtime values (`symbolNames`, the
/// function's scalar parameters or shape variables) or the buffer has a
/// runtime shape: with `assumeInjective` only (the map is not analysed),
/// without padding, for a parameter (an allocation would need its runtime
/// size). The new shape's runtime extents are `?`; the parameter keeps its
/// new type in the signature, as in TVM.
static LogicalResult
transformRuntimeLayout(RewriterBase &rewriter, BlockOp block, Operation *scope,
                       Value buffer, AffineMap indexMap,
                       ArrayRef<StringRef> symbolNames, Attribute padValue,
                       bool assumeInjective, ScheduleError &error) {
  std::string name = getBufferName(buffer);
  auto type = cast<MemRefType>(buffer.getType());
  auto func = isa<FunctionOpInterface>(scope)
                  ? cast<FunctionOpInterface>(scope)
                  : scope->getParentOfType<FunctionOpInterface>();
  SmallVector<FunctionVariable> symbols;
  for (StringRef symbol : symbolNames) {
    std::optional<FunctionVariable> v = findFunctionVariable(func, symbol);
    if (!v)
      return refuse(error, block,
                    Twine(kPrimitive) + ": the index map uses '" + symbol +
                        "', which is neither a scalar parameter nor a shape "
                        "variable of function '" +
                        func.getName() + "'");
    symbols.push_back(*v);
  }
  if (!assumeInjective)
    return refuse(error, block,
                  Twine(kPrimitive) +
                      ": an index map over runtime values, or "
                      "a buffer of runtime shape ('" +
                      name +
                      "'), needs assume_injective_transform=True (analysing "
                      "such a map is not supported yet)");
  if (padValue)
    return refuse(error, block,
                  Twine(kPrimitive) +
                      ": padding with an index map over "
                      "runtime values, or a buffer of runtime "
                      "shape ('" +
                      name + "'), is not supported yet");
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || !isa<FunctionOpInterface>(scope))
    return refuse(error, block,
                  Twine(kPrimitive) + ": allocated buffer '" + name +
                      "' would have a runtime shape (only a parameter's "
                      "layout can have one yet)");
  // The buffer's runtime extents as symbols: the map's own where
  // tir.dim_vars names one, else new ones.
  MLIRContext *ctx = block.getContext();
  SmallVector<StringRef> dimVars = getDimVarNames(func, arg.getArgNumber());
  unsigned numSymbols = symbolNames.size();
  // Each symbol's variable: the map's, then the buffer's dimensions' (""
  // where a dimension names none, or names a form).
  SmallVector<StringRef> symbolVars(symbolNames);
  SmallVector<AffineExpr> extents;
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size)) {
      extents.push_back(getAffineConstantExpr(size, ctx));
      continue;
    }
    StringRef var = d < dimVars.size() ? dimVars[d] : StringRef();
    const auto *named = llvm::find(symbolNames, var);
    if (!var.empty() && named != symbolNames.end()) {
      extents.push_back(getAffineSymbolExpr(named - symbolNames.begin(), ctx));
      continue;
    }
    std::optional<AffineSize> form = parseAffineSize(var);
    symbolVars.push_back(form && form->isVariable() ? var : StringRef());
    extents.push_back(getAffineSymbolExpr(numSymbols++, ctx));
  }
  AffineMap widened = AffineMap::get(indexMap.getNumDims(), numSymbols,
                                     indexMap.getResults(), ctx);
  Refusal why;
  FailureOr<SmallVector<AffineExpr>> extentsOut =
      getSymbolicMappedShape(widened, extents, why);
  if (failed(extentsOut))
    return refuse(error, block, Twine(kPrimitive) + ": " + why.message);
  SmallVector<int64_t> shape;
  for (AffineExpr e : *extentsOut)
    shape.push_back(isa<AffineConstantExpr>(e)
                        ? cast<AffineConstantExpr>(e).getValue()
                        : ShapedType::kDynamic);
  if (failed(checkRelayoutUses(buffer, kPrimitive, block, error)))
    return failure();
  SmallVector<Value> values;
  for (const FunctionVariable &v : symbols)
    values.push_back(materializeFunctionVariable(rewriter, v));
  if (failed(relayoutBuffer(rewriter, scope, buffer, indexMap, shape,
                            /*simplify=*/true, kPrimitive, block, error,
                            values)))
    return failure();
  // A new runtime dimension is named by its extent where that is an affine
  // form of named variables, the map's or the buffer's (`n * 32`:
  // "32 * n"); the others name no variable.
  SmallVector<Attribute> names;
  bool anyNamed = false;
  for (auto [d, e] : llvm::enumerate(*extentsOut)) {
    std::optional<AffineSize> form;
    if (ShapedType::isDynamic(shape[d])) {
      AffineTerms terms = AffineTerms::get(e);
      form = AffineSize{terms.constant, {}};
      for (auto &[term, coeff] : terms.terms) {
        auto sym = dyn_cast<AffineSymbolExpr>(term);
        if (!sym || symbolVars[sym.getPosition()].empty()) {
          form.reset();
          break;
        }
        form->terms.push_back({symbolVars[sym.getPosition()].str(), coeff});
      }
    }
    anyNamed |= form && !form->terms.empty();
    names.push_back(rewriter.getStringAttr(
        form && !form->terms.empty() ? form->str() : ""));
  }
  if (!dimVars.empty() || anyNamed)
    rewriter.modifyOpInPlace(func, [&] {
      func.setArgAttr(arg.getArgNumber(), TIRDialect::kDimVarsAttrName,
                      rewriter.getArrayAttr(names));
    });
  return success();
}

LogicalResult mlir::tir::transformLayout(
    RewriterBase &rewriter, BlockOp block, int64_t bufferIndex, bool isWrite,
    AffineMap indexMap, ArrayRef<StringRef> symbolNames, Attribute padValue,
    bool assumeInjective, ScheduleError &error) {
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
  if (indexMap.getNumDims() != type.getRank() ||
      indexMap.getNumSymbols() != symbolNames.size())
    return refuse(error, block,
                  Twine(kPrimitive) + ": the index map takes " +
                      Twine(indexMap.getNumDims()) + " indices, but buffer '" +
                      name + "' has " + Twine(type.getRank()) + " dimensions");
  PadValue pad;
  if (auto map = dyn_cast_if_present<AffineMapAttr>(padValue))
    pad.map = map.getValue();
  else
    pad.constant = dyn_cast_if_present<TypedAttr>(padValue);
  Type elementType = type.getElementType();
  if (pad.constant && pad.constant.getType() != elementType) {
    std::string have, want;
    llvm::raw_string_ostream(have) << pad.constant.getType();
    llvm::raw_string_ostream(want) << elementType;
    return refuse(error, block,
                  Twine(kPrimitive) + ": the pad value is of type " + have +
                      ", but buffer '" + name + "' holds " + want);
  }
  if (pad.map && !elementType.isSignlessInteger()) {
    std::string want;
    llvm::raw_string_ostream(want) << elementType;
    return refuse(error, block,
                  Twine(kPrimitive) +
                      ": a pad value computed from the indices is an "
                      "integer, but buffer '" +
                      name + "' holds " + want);
  }
  if (pad.map && (pad.map.getNumResults() != 1 ||
                  pad.map.getNumDims() != indexMap.getNumResults()))
    return refuse(error, block,
                  Twine(kPrimitive) + ": the pad value takes " +
                      Twine(pad.map.getNumDims()) + " indices and gives " +
                      Twine(pad.map.getNumResults()) +
                      " values, but the new layout of buffer '" + name +
                      "' has " + Twine(indexMap.getNumResults()) +
                      " dimensions (it gives one value from them)");
  if (!symbolNames.empty() || !type.hasStaticShape())
    return transformRuntimeLayout(rewriter, block, *scope, buffer, indexMap,
                                  symbolNames, padValue, assumeInjective,
                                  error);
  Refusal why;
  SmallVector<int64_t> shape;
  FailureOr<IndexMapAnalysis> padding = failure();
  if (assumeInjective) {
    FailureOr<SmallVector<int64_t>> s =
        getMappedShape(indexMap, type.getShape(), why);
    if (failed(s))
      return refuse(error, block, Twine(kPrimitive) + ": " + why.message);
    shape = *s;
  } else {
    FailureOr<IndexMapAnalysis> analysis =
        analyzeIndexMap(indexMap, type.getShape(), why);
    if (failed(analysis))
      return refuse(error, block,
                    Twine(kPrimitive) +
                        ": the index map is not an injective "
                        "affine map of buffer '" +
                        name + "' (" + why.message + ")");
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

  // The identity (TVM's idiom for axis separators alone: `lambda i, j: [i,
  // AXIS_SEPARATOR, j]`): the layout is the buffer's own, nothing to
  // rewrite, views included.
  if (indexMap.isIdentity() && failed(padding) &&
      ArrayRef<int64_t>(shape) == type.getShape())
    return success();
  if (failed(checkRelayoutUses(buffer, kPrimitive, block, error)))
    return failure();
  // TVM's padding plans: writers that visit the old buffer in row-major
  // order are replaced before the accesses go through the map; the
  // prologue and epilogue nests use the new layout.
  std::optional<PaddingPlan> plan;
  if (succeeded(padding)) {
    plan = planPadding(*scope, buffer, *padding, type.getShape());
    if (plan->kind == PaddingPlan::Kind::Replacement)
      replacePaddedWriters(rewriter, *plan, buffer, *padding, type.getShape(),
                           pad);
  }
  if (failed(relayoutBuffer(rewriter, *scope, buffer, indexMap, shape,
                            /*simplify=*/true, kPrimitive, block, error)))
    return failure();
  recordDeclaredLayout(rewriter, *scope, buffer, type, indexMap, padValue);
  if (plan && plan->kind != PaddingPlan::Kind::Replacement)
    addPaddingNest(rewriter, *scope, *plan, buffer, *padding, type.getShape(),
                   pad);
  return success();
}
