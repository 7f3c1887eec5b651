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
/// the text of an affine form of such (getAffineSize: "n + m") that is no
/// constant; "" otherwise.
std::string getShapeVarName(Value size);

/// A size that is an affine form of shape variables, `constant + sum(coeff *
/// variable)` (relax's R.Tensor(("n + m",)), a concatenation's length; or
/// "h - 2", a convolution's height): its text names a dimension as a
/// variable's name does (tir.dim_vars), and passes and the runtime read it
/// back.
struct AffineSize {
  int64_t constant = 0;
  /// (variable, coefficient), in the order the text names them; no
  /// coefficient is 0.
  SmallVector<std::pair<std::string, int64_t>> terms;

  /// The form's text: "n", "n + m - 1", "2 * n + 1", "-1 * n + 8"; a
  /// number alone for a constant.
  std::string str() const;
  /// Adds `scale` times `other`, keeping the terms' order (a term whose
  /// coefficient becomes 0 goes).
  void add(const AffineSize &other, int64_t scale = 1);
  /// Whether the form is one variable (its name is its text).
  bool isVariable() const {
    return constant == 0 && terms.size() == 1 && terms[0].second == 1;
  }
};

/// Reads `text` as an affine form: names, integers, `+`, `-` and
/// multiplication by an integer (`2 * n`, `n * 2`); nullopt for anything
/// else (a floor division, a product of variables).
std::optional<AffineSize> parseAffineSize(llvm::StringRef text);

/// The affine form of shape variables the index `size` is: a variable
/// (getShapeVarName), a constant, or arith.addi / subi / muli (by a
/// constant) of such forms; nullopt otherwise.
std::optional<AffineSize> getAffineSize(Value size);

/// Builds the integer expression `text` of shape variables (Relax's
/// R.shape([n * n, m + 1]), R.prim_value(n // 2)): names, integers, `+`,
/// `-`, `*`, `//` (floor division), `%` (floor modulo) and parentheses, as
/// index arith ops at `b`'s insertion point; a name's value is
/// `lookup(name)` (null when it is no variable the function has). Fails
/// for text of another form, an unknown name, or a division by a
/// non-positive constant.
FailureOr<Value>
buildSizeExpression(OpBuilder &b, Location loc, llvm::StringRef text,
                    function_ref<Value(llvm::StringRef)> lookup);

/// The text of the index `size` as buildSizeExpression reads it: a
/// constant, a shape variable (getShapeVarName), or arith.addi / subi /
/// muli / floordivsi of such (a floor modulo as a - a // b * b prints so);
/// "" otherwise.
std::string getSizeExpressionText(Value size);

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
