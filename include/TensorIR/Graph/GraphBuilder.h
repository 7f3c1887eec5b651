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

#include "llvm/ADT/StringMap.h"

#include <string>
#include <utility>

namespace mlir::tir {

/// The high-level operators buildGraphOperator knows, by relax's name
/// without "relax." ("matmul", "nn.conv2d", ...).
ArrayRef<StringRef> getGraphOperatorNames();

/// Whether `name` is one of getGraphOperatorNames().
bool isGraphOperator(StringRef name);

/// Whether operator `name` takes tensors with dynamic dimensions (the
/// element-wise operators, matmul, permute_dims, nn.softmax, reshape, take
/// and the reductions sum, mean, max, min and prod over static axes);
/// the others take statically shaped tensors only.
bool graphOperatorTakesDynamicShapes(StringRef name);

/// Builds the operator `name` on `args` at `b`'s insertion point: its
/// result of type `resultType`, as linalg / tensor / arith ops; `dims`
/// sizes the result's dynamic dimensions, one index per '?' in order.
/// `attrs` holds the operator's attributes under relax's names (integers
/// as IntegerAttr, floats as FloatAttr, lists of integers as
/// DenseI64ArrayAttr). Fails with an error at `loc` naming the operator
/// and the rule when the operator is unknown, an attribute is missing or
/// mistyped, or the operands do not fit it (a dynamic dimension of an
/// operand is taken to equal the result's dimension it stands for, which
/// the front end's shape inference checked).
FailureOr<Value> buildGraphOperator(OpBuilder &b, Location loc, StringRef name,
                                    ValueRange args,
                                    RankedTensorType resultType,
                                    ValueRange dims, DictionaryAttr attrs);

/// A parameter of a graph function: its name, its tensor type and, for
/// each dimension, the shape variable that sizes it ("" where the
/// dimension is static; TVM's R.Tensor(("n", 784))).
struct GraphParameter {
  std::string name;
  /// A tensor's type; null for an opaque object (!tir.object, R.Object) or
  /// a scalar.
  RankedTensorType type;
  SmallVector<std::string> dimVars;
  /// An integer (index; Relax's R.Prim(value="n")): the shape variable of
  /// its name.
  bool scalar = false;
};

/// Builds one graph function, step by step. Each step returns the values
/// it defines; finish() returns the module holding the function.
class GraphBuilder {
public:
  /// Starts function `name`, taking `params`; each parameter keeps its
  /// name in `tir.name` and its dimensions' shape variables in
  /// `tir.dim_vars`. A shape variable's size is the scalar parameter of its
  /// name, else read (tensor.dim) from the first parameter it sizes, at the
  /// function's start.
  GraphBuilder(MLIRContext *context, StringRef name,
               ArrayRef<GraphParameter> params, bool isPrivate, Location loc);

  /// The function's `index`-th parameter.
  Value getParameter(unsigned index);

  /// The size (an index) of the shape variable `name`, or of an affine
  /// form of them ("n + m", computed at the builder's insertion point), or
  /// failure when no parameter's dimension is such a variable.
  FailureOr<Value> getShapeVar(StringRef name);

  /// A constant tensor (arith.constant of `value`).
  Value constant(DenseElementsAttr value, Location loc);

  /// A tir.call_tir of the prim_func `callee` on `inputs`, giving
  /// `resultTypes` whose dynamic dimensions `dims` sizes (the callee is
  /// looked up when the function joins a module with it).
  /// With `inplace` (Relax's R.call_tir_inplace), result k whose entry is
  /// j >= 0 is input j written in place.
  ValueRange callTir(StringRef callee, ValueRange inputs, TypeRange resultTypes,
                     ValueRange dims, Location loc,
                     ArrayRef<int64_t> inplace = {});

  /// A call of the packed function `callee` (relax's R.call_dps_packed,
  /// or with `returns` R.call_pure_packed, whose function returns its
  /// result): a tir.call_tir of a private declaration taking the inputs'
  /// and results' buffers, declared here once (`tir.packed`). The runtime
  /// runs it by name (`--tir-lower-packed-calls`).
  ValueRange callExternal(StringRef callee, ValueRange inputs,
                          TypeRange resultTypes, ValueRange dims, bool returns,
                          Location loc);

  /// A call of graph function `callee` (func.call; Relax's cls.f(x)),
  /// giving `resultTypes` (the callee is looked up when the function joins
  /// a module with it).
  ValueRange callFunction(StringRef callee, ValueRange args,
                          TypeRange resultTypes, Location loc);

  /// A shape or an integer computed from the shape variables (Relax's
  /// R.shape([n * 2, m]), R.prim_value(n * n)): `dims` are expressions as
  /// buildSizeExpression reads them. A shape is a tensor<N x i64>, an
  /// integer (`scalar`, one expression) a tensor<i64>, built by a
  /// tensor.from_elements marked `tir.shape_value`. Fails, with an error
  /// at `loc`, on an expression of unknown variables or of another form.
  FailureOr<Value> shapeValue(ArrayRef<std::string> dims, bool scalar,
                              Location loc);

  /// An object holding nothing (tir.null_value, Relax's R.null_value()).
  Value nullValue(Location loc);

  /// A high-level operator (buildGraphOperator).
  FailureOr<Value> callOperator(StringRef name, ValueRange args,
                                RankedTensorType resultType, ValueRange dims,
                                DictionaryAttr attrs, Location loc);

  /// Starts the high-level operator `name` kept whole (a tir.composite
  /// with `attrs` on `inputs`, giving `resultTypes`): the steps until
  /// endComposite build its parts inside it, on the values this returns
  /// (its block's arguments, standing for the inputs).
  ValueRange beginComposite(StringRef name, ValueRange inputs,
                            TypeRange resultTypes, DictionaryAttr attrs,
                            Location loc);

  /// Ends the composite begun last, its parts giving `results`: the
  /// composite's results. Fails, with an error at `loc`, when none is
  /// open or the parts give other types than the composite's.
  FailureOr<ValueRange> endComposite(ValueRange results, Location loc);

  /// Ends the function with `return outputs`; the module holding it. The
  /// module is not verified here: its call_tir ops name prim_funcs that
  /// verify only once the function shares a module with them. Null, with
  /// an error at `loc`, while a composite is open.
  OwningOpRef<ModuleOp> finish(ValueRange outputs, Location loc);

private:
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  OpBuilder builder;
  llvm::StringMap<Value> shapeVars;
  /// The composites begun and not ended, innermost last.
  SmallVector<Operation *> openComposites;
};

} // namespace mlir::tir

#endif // TENSORIR_GRAPH_GRAPHBUILDER_H
