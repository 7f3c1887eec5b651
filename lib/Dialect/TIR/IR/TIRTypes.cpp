//===- TIRTypes.cpp - TensorIR types --------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;

#define GET_TYPEDEF_CLASSES
#include "TensorIR/Dialect/TIR/IR/TIRTypes.cpp.inc"

void TIRDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "TensorIR/Dialect/TIR/IR/TIRTypes.cpp.inc"
      >();
}
