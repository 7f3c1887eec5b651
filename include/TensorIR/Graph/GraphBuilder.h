//===- GraphBuilder.h - graph functions built step by step ------*- C++ -*-===//
//
// A graph function (TVM's relax.Function) is a func.func on tensors whose
// steps are tir.call_tir ops, constants and high-level operators written
// as upstream linalg and tensor ops, which --tir-legalize-ops turns into
// prim_funcs and calls. GraphBuilder builds one from a front end's calls
// (TVM's BlockBuilder: the Python package's relax.BlockBuilder and
// @R.function parser, or another MLIR-based front end) without going
// through MLIR text; buildGraphOperator is the operators' one lowering to
// linalg, which the builder and any pass may call.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_GRAPH_GRAPHBUILDER_H
#define TENSORIR_GRAPH_GRAPHBUILDER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <utility>

namespace mlir::tir {

/// The high-level operators buildGraphOperator knows, by relax's name
/// without "relax." ("matmul", "nn.conv2d", ...).
ArrayRef<StringRef> getGraphOperatorNames();

/// Whether `name` is one of getGraphOperatorNames().
bool isGraphOperator(StringRef name);

/// Builds the operator `name` on `args` at `b`'s insertion point: its
/// result of type `resultType`, as linalg / tensor / arith ops. `attrs`
/// holds the operator's attributes under relax's names (integers as
/// IntegerAttr, floats as FloatAttr, lists of integers as
/// DenseI64ArrayAttr). Fails with an error at `loc` naming the operator
/// and the rule when the operator is unknown, an attribute is missing or
/// mistyped, or the operands do not fit it.
FailureOr<Value> buildGraphOperator(OpBuilder &b, Location loc, StringRef name,
                                    ValueRange args,
                                    RankedTensorType resultType,
                                    DictionaryAttr attrs);

/// Builds one graph function, step by step. Each step returns the values
/// it defines; finish() returns the module holding the function.
class GraphBuilder {
public:
  /// Starts function `name`, taking `params` (name, statically shaped
  /// tensor type); each parameter keeps its name in `tir.name`.
  GraphBuilder(MLIRContext *context, StringRef name,
               ArrayRef<std::pair<std::string, RankedTensorType>> params,
               bool isPrivate, Location loc);

  /// The function's `index`-th parameter.
  Value getParameter(unsigned index);

  /// A constant tensor (arith.constant of `value`).
  Value constant(DenseElementsAttr value, Location loc);

  /// A tir.call_tir of the prim_func `callee` on `inputs`, giving
  /// `resultTypes` (the callee is looked up when the function joins a
  /// module with it).
  ValueRange callTir(StringRef callee, ValueRange inputs, TypeRange resultTypes,
                     Location loc);

  /// A high-level operator (buildGraphOperator).
  FailureOr<Value> callOperator(StringRef name, ValueRange args,
                                RankedTensorType resultType,
                                DictionaryAttr attrs, Location loc);

  /// Ends the function with `return outputs`; the module holding it. The
  /// module is not verified here: its call_tir ops name prim_funcs that
  /// verify only once the function shares a module with them.
  OwningOpRef<ModuleOp> finish(ValueRange outputs, Location loc);

private:
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  OpBuilder builder;
};

} // namespace mlir::tir

#endif // TENSORIR_GRAPH_GRAPHBUILDER_H
