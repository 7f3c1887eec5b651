//===- TIRCallOp.cpp - opaque calls
//----------------------------------------===//
//
// tir.call: a call the IR does not look into (TVM's call_extern and
// builtins), with SSA and literal arguments in the order written.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tir;

// tir.call "callee"(arg, ...) attr-dict : (operand types) -> result types
// where each arg is an SSA value or a literal attribute.
ParseResult CallOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr callee;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Attribute> args;
  Builder &b = parser.getBuilder();
  if (parser.parseAttribute(callee, b.getNoneType()))
    return failure();
  auto parseArg = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
    if (isOperand.has_value()) {
      if (failed(*isOperand))
        return failure();
      operands.push_back(operand);
      args.push_back(b.getUnitAttr());
      return success();
    }
    Attribute literal;
    if (parser.parseAttribute(literal))
      return failure();
    args.push_back(literal);
    return success();
  };
  SMLoc typesLoc;
  FunctionType type;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseArg) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.getCurrentLocation(&typesLoc) || parser.parseType(type) ||
      parser.resolveOperands(operands, type.getInputs(), typesLoc,
                             result.operands))
    return failure();
  result.addAttribute(getCalleeAttrName(result.name), callee);
  result.addAttribute(getArgsAttrName(result.name), b.getArrayAttr(args));
  result.addTypes(type.getResults());
  return success();
}

void CallOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printAttributeWithoutType(getCalleeAttr());
  p << '(';
  unsigned next = 0;
  llvm::interleaveComma(getArgs(), p, [&](Attribute arg) {
    if (isa<UnitAttr>(arg))
      p.printOperand(getOperands()[next++]);
    else
      p.printAttribute(arg);
  });
  p << ')';
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getCalleeAttrName(), getArgsAttrName()});
  p << " : ";
  p.printFunctionalType(getOperands().getTypes(), getResults().getTypes());
}

LogicalResult CallOp::verify() {
  if (getCallee().empty())
    return emitOpError("needs a callee name");
  size_t operandSlots = llvm::count_if(
      getArgs(), [](Attribute arg) { return isa<UnitAttr>(arg); });
  if (operandSlots != getOperands().size())
    return emitOpError("'args' has ")
           << operandSlots << " operand positions for " << getOperands().size()
           << " operands";
  if (getResults().size() > 1)
    return emitOpError("returns at most one value, got ")
           << getResults().size();
  return success();
}
