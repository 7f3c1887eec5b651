//===- FactorList.h - factor lists of split and loop_partition --*- C++ -*-===//
//
// split and loop_partition take a list of factors, each a
// `#tir.split_factor` (inferred, a positive constant, an affine map of
// vscale, or a parameter operand), written `[?, 4, %p, affine_map<...>]`.
// What both ops do with the list (parse, print, verify, resolve the
// parameters to integers, print as Python) is here, once.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_DIALECT_TIR_TRANSFORMOPS_FACTORLIST_H
#define TENSORIR_LIB_DIALECT_TIR_TRANSFORMOPS_FACTORLIST_H

#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleOpInterface.h"

#include "mlir/IR/OpImplementation.h"

namespace mlir::tir {

/// `[?, 4, %p, affine_map<()[s0] -> (s0 * 4)>]`: the factors in order, a
/// parameter factor as its operand.
ParseResult
parseFactorList(OpAsmParser &parser, ArrayAttr &factors,
                SmallVectorImpl<OpAsmParser::UnresolvedOperand> &params);
void printFactorList(OpAsmPrinter &printer, Operation *op, ArrayAttr factors,
                     OperandRange params);

/// Parameter factors take the parameter operands in order, each once.
LogicalResult verifyFactorList(Operation *op, ArrayAttr factors,
                               unsigned numParams);

/// The factors, in order; a parameter factor takes the one integer its
/// operand holds (operand `firstParam` + its index). `primitive` names the
/// op in the refusal.
FailureOr<SmallVector<SplitFactor>>
resolveFactorList(ArrayAttr factors, const SchedulePayload &payload,
                  unsigned firstParam, StringRef primitive,
                  ScheduleError &error);

/// TVM's Python form `factors=[None, 4, T.vscale() * 4, v1]`; a parameter
/// factor is `operands[firstParam + index]`.
void printPythonFactorList(ArrayAttr factors, ArrayRef<std::string> operands,
                           unsigned firstParam, llvm::raw_ostream &os);

} // namespace mlir::tir

#endif // TENSORIR_LIB_DIALECT_TIR_TRANSFORMOPS_FACTORLIST_H
