//===- TIRAttrs.cpp - TensorIR attributes ---------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;

#define GET_ATTRDEF_CLASSES
#include "TensorIR/Dialect/TIR/IR/TIRAttrs.cpp.inc"

void TIRDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TensorIR/Dialect/TIR/IR/TIRAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// SplitFactorAttr
//===----------------------------------------------------------------------===//

SplitFactorAttr SplitFactorAttr::getInferred(MLIRContext *context) {
  return get(context, SplitFactorKind::Inferred, 0, AffineMap());
}

SplitFactorAttr SplitFactorAttr::getConstant(MLIRContext *context,
                                             int64_t value) {
  return get(context, SplitFactorKind::Constant, value, AffineMap());
}

SplitFactorAttr SplitFactorAttr::getScalable(AffineMap expr) {
  return get(expr.getContext(), SplitFactorKind::Scalable, 0, expr);
}

SplitFactorAttr SplitFactorAttr::getParam(MLIRContext *context, int64_t index) {
  return get(context, SplitFactorKind::Param, index, AffineMap());
}

LogicalResult
SplitFactorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        SplitFactorKind kind, int64_t value, AffineMap expr) {
  if ((kind == SplitFactorKind::Scalable) != static_cast<bool>(expr))
    return emitError() << "a split factor has an affine map exactly when it "
                          "is scalable";
  switch (kind) {
  case SplitFactorKind::Inferred:
    break;
  case SplitFactorKind::Constant:
    if (value < 1)
      return emitError() << "a constant split factor is positive, got "
                         << value;
    break;
  case SplitFactorKind::Scalable:
    if (expr.getNumDims() != 0 || expr.getNumSymbols() != 1 ||
        expr.getNumResults() != 1)
      return emitError() << "a scalable split factor is an affine map "
                            "'()[s0] -> (expr)' of vscale, got "
                         << AffineMapAttr::get(expr);
    break;
  case SplitFactorKind::Param:
    if (value < 0)
      return emitError() << "a split factor's parameter index is not "
                            "negative, got "
                         << value;
    break;
  }
  return success();
}

void SplitFactorAttr::printFactor(AsmPrinter &printer) const {
  switch (getKind()) {
  case SplitFactorKind::Inferred:
    printer << "?";
    return;
  case SplitFactorKind::Constant:
    printer << getValue();
    return;
  case SplitFactorKind::Scalable:
    printer.printAttribute(AffineMapAttr::get(getExpr()));
    return;
  case SplitFactorKind::Param:
    printer << "param " << getValue();
    return;
  }
}

FailureOr<SplitFactorAttr> SplitFactorAttr::parseFactor(AsmParser &parser) {
  MLIRContext *context = parser.getContext();
  if (succeeded(parser.parseOptionalQuestion()))
    return getInferred(context);
  int64_t value;
  llvm::SMLoc valueLoc = parser.getCurrentLocation();
  OptionalParseResult constant = parser.parseOptionalInteger(value);
  if (constant.has_value()) {
    if (failed(*constant))
      return failure();
    return getChecked([&] { return parser.emitError(valueLoc); }, context,
                      SplitFactorKind::Constant, value, AffineMap());
  }
  AffineMapAttr map;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseAttribute(map)))
    return parser.emitError(loc, "expected a split factor: '?', a positive "
                                 "integer or an affine map of vscale");
  SplitFactorAttr factor =
      getChecked([&] { return parser.emitError(loc); }, context,
                 SplitFactorKind::Scalable, 0, map.getValue());
  if (!factor)
    return failure();
  return factor;
}

Attribute SplitFactorAttr::parse(AsmParser &parser, Type) {
  if (failed(parser.parseLess()))
    return {};
  FailureOr<SplitFactorAttr> factor;
  if (succeeded(parser.parseOptionalKeyword("param"))) {
    int64_t index;
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (failed(parser.parseInteger(index)))
      return {};
    factor =
        getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                   SplitFactorKind::Param, index, AffineMap());
    if (!*factor)
      return {};
  } else {
    factor = parseFactor(parser);
  }
  if (failed(factor) || failed(parser.parseGreater()))
    return {};
  return *factor;
}

void SplitFactorAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printFactor(printer);
  printer << ">";
}
