//===- TIRDialect.cpp - TensorIR dialect ----------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;

#include "TensorIR/Dialect/TIR/IR/TIROpsDialect.cpp.inc"
#include "TensorIR/Dialect/TIR/IR/TIREnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "TensorIR/Dialect/TIR/IR/TIRAttrs.cpp.inc"

void TIRDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TensorIR/Dialect/TIR/IR/TIROps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TensorIR/Dialect/TIR/IR/TIRAttrs.cpp.inc"
      >();
}

LogicalResult TIRDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attribute) {
  if (attribute.getName() != kNameAttrName)
    return op->emitError("unknown tir argument attribute '")
           << attribute.getName().getValue() << "'";
  auto name = dyn_cast<StringAttr>(attribute.getValue());
  auto isNameChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  if (!name || name.getValue().empty() ||
      !llvm::all_of(name.getValue(), isNameChar) ||
      llvm::isDigit(name.getValue().front()))
    return op->emitError("'")
           << kNameAttrName << "' of argument " << argIndex
           << " must be a string that is an identifier (letters, digits, "
              "'_', not starting with a digit)";
  return success();
}
