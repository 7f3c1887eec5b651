//===- ShapeVars.h - the shape variables that size dimensions ---*- C++ -*-===//
//
// A graph function's tensors and a prim_func's buffers may have dynamic
// dimensions sized by named shape variables (TVM's `n = T.int64()`,
// relax's R.Tensor(("n", 784))): a parameter names them in `tir.dim_vars`,
// and the ops between carry them as index values (tensor.dim of such a
// parameter, the sizes of a tensor.empty or of a tir.call_tir's results).
// These functions find the variable a dimension or a size is, for the
// passes and printers that need its name.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_IR_SHAPEVARS_H
#define TENSORIR_DIALECT_TIR_IR_SHAPEVARS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::tir {

/// The index value sizing the dynamic dimension `dim` of `shaped`, traced
/// through the ops that carry sizes (destination-style ops to their inits,
/// tensor.empty, memref.alloc and tir.call_tir to their size operands);
/// null for a static dimension, a parameter's, or where no op gives it.
Value getDynamicSize(Value shaped, unsigned dim);

/// The name of the shape variable sizing dimension `dim` of `shaped` (a
/// ranked tensor or memref): from a parameter's `tir.dim_vars`, or traced
/// through the ops that carry sizes (destination-style ops to their
/// inits, tensor.empty and tir.call_tir to their size operands). "" when
/// the dimension is static or its size is no named variable.
std::string getShapeVarName(Value shaped, unsigned dim);

/// The name of the shape variable the index `size` is: a tensor.dim or
/// memref.dim of a named dimension, or a scalar parameter's `tir.name`;
/// "" otherwise.
std::string getShapeVarName(Value size);

/// Names the dynamic dimensions of `func`'s buffer parameters after the
/// shape variables of the graph values they take (`graphValues[k]` for
/// parameter k) in `tir.dim_vars`; a dimension the graph names not keeps
/// the name the parameter has, else gets "d<k>_<dim>". Returns each
/// variable's size, read (memref.dim) at `b`'s insertion point from the
/// first parameter it sizes.
llvm::StringMap<Value> bindShapeVars(FunctionOpInterface func,
                                     ArrayRef<Value> graphValues, OpBuilder &b,
                                     Location loc);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_IR_SHAPEVARS_H
