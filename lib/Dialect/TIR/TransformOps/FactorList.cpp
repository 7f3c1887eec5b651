//===- FactorList.cpp - factor lists of split and loop_partition ----------===//

#include "FactorList.h"

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"

using namespace mlir;
using namespace mlir::tir;

ParseResult mlir::tir::parseFactorList(
    OpAsmParser &parser, ArrayAttr &factors,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &params) {
  SmallVector<Attribute> parsed;
  auto parseOne = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand param;
    OptionalParseResult isParam = parser.parseOptionalOperand(param);
    if (isParam.has_value()) {
      if (failed(*isParam))
        return failure();
      parsed.push_back(
          SplitFactorAttr::getParam(parser.getContext(), params.size()));
      params.push_back(param);
      return success();
    }
    FailureOr<SplitFactorAttr> factor = SplitFactorAttr::parseFactor(parser);
    if (failed(factor))
      return failure();
    parsed.push_back(*factor);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  factors = parser.getBuilder().getArrayAttr(parsed);
  return success();
}

void mlir::tir::printFactorList(OpAsmPrinter &printer, Operation *,
                                ArrayAttr factors, OperandRange params) {
  printer << "[";
  llvm::interleaveComma(factors, printer, [&](Attribute attr) {
    auto factor = cast<SplitFactorAttr>(attr);
    if (factor.getKind() == SplitFactorKind::Param &&
        factor.getValue() < static_cast<int64_t>(params.size()))
      printer.printOperand(params[factor.getValue()]);
    else
      factor.printFactor(printer);
  });
  printer << "]";
}

LogicalResult mlir::tir::verifyFactorList(Operation *op, ArrayAttr factors,
                                          unsigned numParams) {
  int64_t params = 0;
  for (Attribute attr : factors) {
    auto factor = dyn_cast<SplitFactorAttr>(attr);
    if (!factor)
      return op->emitOpError("expects #tir.split_factor factors, got ") << attr;
    if (factor.getKind() != SplitFactorKind::Param)
      continue;
    if (factor.getValue() != params)
      return op->emitOpError("expects parameter factors to take the "
                             "parameter operands in order: factor ")
             << factor << " where param " << params << " comes next";
    ++params;
  }
  if (params != static_cast<int64_t>(numParams))
    return op->emitOpError("has ") << numParams << " parameter operands but "
                                   << params << " parameter factors";
  return success();
}

FailureOr<SmallVector<SplitFactor>>
mlir::tir::resolveFactorList(ArrayAttr factors, const SchedulePayload &payload,
                             unsigned firstParam, StringRef primitive,
                             ScheduleError &error) {
  SmallVector<SplitFactor> resolved;
  for (auto factor : factors.getAsRange<SplitFactorAttr>()) {
    switch (factor.getKind()) {
    case SplitFactorKind::Inferred:
      resolved.push_back(SplitFactor::inferred());
      break;
    case SplitFactorKind::Constant:
      resolved.push_back(SplitFactor::of(factor.getValue()));
      break;
    case SplitFactorKind::Scalable:
      resolved.push_back(
          SplitFactor::ofScalable(factor.getExpr().getResult(0)));
      break;
    case SplitFactorKind::Param: {
      ArrayRef<transform::MappedValue> values =
          payload.operands[firstParam + factor.getValue()];
      auto value = values.size() == 1
                       ? dyn_cast_if_present<IntegerAttr>(
                             dyn_cast_if_present<Attribute>(values.front()))
                       : IntegerAttr();
      if (!value) {
        error = {(primitive + ": parameter factor " + Twine(factor.getValue()) +
                  " does not hold one integer")
                     .str(),
                 nullptr};
        return failure();
      }
      resolved.push_back(SplitFactor::of(value.getInt()));
      break;
    }
    }
  }
  return resolved;
}

void mlir::tir::printPythonFactorList(ArrayAttr factors,
                                      ArrayRef<std::string> operands,
                                      unsigned firstParam,
                                      llvm::raw_ostream &os) {
  // TVM's factors: None, ints, T.vscale() expressions, ExprRVs.
  os << "factors=[";
  llvm::interleaveComma(factors.getAsRange<SplitFactorAttr>(), os,
                        [&](SplitFactorAttr factor) {
                          switch (factor.getKind()) {
                          case SplitFactorKind::Inferred:
                            os << "None";
                            return;
                          case SplitFactorKind::Constant:
                            os << factor.getValue();
                            return;
                          case SplitFactorKind::Scalable:
                            printPythonExpr(factor.getExpr().getResult(0), os);
                            return;
                          case SplitFactorKind::Param:
                            os << operands[firstParam + factor.getValue()];
                            return;
                          }
                        });
  os << "]";
}
