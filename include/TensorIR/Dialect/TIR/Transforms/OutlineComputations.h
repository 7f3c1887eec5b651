//===- OutlineComputations.h - graph computations moved out ------*- C++
//-*-===//
//
// The part of a graph function computed from some of its parameters (or
// from constants alone) moved into a function of its own, which Relax's
// LiftTransformParams (the weights' transforms done once, ahead) and
// FoldConstant (the constants' computations done at compile time) are made
// of.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMS_OUTLINECOMPUTATIONS_H
#define TENSORIR_DIALECT_TIR_TRANSFORMS_OUTLINECOMPUTATIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tir {

/// The steps of graph function `func` (tir.call_tir ops and operators on
/// tensors, pure, of static shapes) whose operands all come from the
/// parameters `isSource` accepts and from constants, moved into a new
/// private function `name` (numbered when taken) before `func`: it takes
/// those parameters, in order, and returns the values the rest of `func`
/// reads, in the order they are computed (a tuple, tir.tuple_result).
/// `func` takes them instead, as parameters `lifted`, `lifted1`, ... (names
/// no parameter has) after its own, and
/// loses the source parameters nothing reads any more. The constants and
/// empty tensors the moved steps read are copied. Returns the new function,
/// or a null one when no step is moved (none fits, none's value is read,
/// or other functions call `func`: their calls keep its signature).
func::FuncOp outlineComputations(func::FuncOp func,
                                 function_ref<bool(BlockArgument)> isSource,
                                 StringRef name);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMS_OUTLINECOMPUTATIONS_H
