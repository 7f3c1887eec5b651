//===- TIRDialect.cpp - TensorIR dialect ----------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;

#include "TensorIR/Dialect/TIR/IR/TIREnums.cpp.inc"
#include "TensorIR/Dialect/TIR/IR/TIROpsDialect.cpp.inc"
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
  if (attribute.getName() == kAxisSeparatorsAttrName) {
    // TVM's axis_separators: ascending dimension indices inside the rank
    // of the buffer argument.
    auto seps = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
    auto func = dyn_cast<FunctionOpInterface>(op);
    auto type = func
                    ? dyn_cast<MemRefType>(func.getArgument(argIndex).getType())
                    : MemRefType();
    int64_t previous = 0;
    bool ok = seps && type;
    for (int64_t x : ok ? seps.asArrayRef() : ArrayRef<int64_t>()) {
      ok &= x > previous && x < type.getRank();
      previous = x;
    }
    if (!ok)
      return op->emitError("'tir.axis_separators' of argument ")
             << argIndex
             << " must be an array<i64> of ascending dimension indices "
                "between 1 and the rank - 1 of a buffer argument";
    return success();
  }
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
