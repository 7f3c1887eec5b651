//===- GraphBuilder.cpp - graph functions built step by step --------------===//
//
// The function, its parameters, constants, call_tir steps and return; the
// operators' lowering is Operators.cpp.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Graph/GraphBuilder.h"

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tir;

GraphBuilder::GraphBuilder(MLIRContext *context, StringRef name,
                           ArrayRef<GraphParameter> params, bool isPrivate,
                           Location loc)
    : builder(context) {
  // What the steps build.
  context->loadDialect<func::FuncDialect, arith::ArithDialect,
                       linalg::LinalgDialect, math::MathDialect,
                       tensor::TensorDialect, TIRDialect>();
  module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> types;
  for (const GraphParameter &param : params)
    types.push_back(param.scalar ? builder.getIndexType()
                    : param.type ? Type(param.type)
                                 : ObjectType::get(context));
  func = func::FuncOp::create(builder, loc, name,
                              builder.getFunctionType(types, {}));
  if (isPrivate)
    func.setPrivate();
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  // A scalar named by a variable defines it (its first); one named by a
  // form of variables ("n * 2", a shape's dimension) defines none: the
  // runtime checks it against the variables' values.
  for (auto [index, param] : llvm::enumerate(params)) {
    std::optional<AffineSize> form = parseAffineSize(param.name);
    if (param.scalar && form && form->isVariable())
      shapeVars.try_emplace(param.name, func.getArgument(index));
  }
  for (auto [index, param] : llvm::enumerate(params)) {
    func.setArgAttr(index, TIRDialect::kNameAttrName,
                    builder.getStringAttr(param.name));
    if (llvm::all_of(param.dimVars,
                     [](const std::string &var) { return var.empty(); }))
      continue;
    SmallVector<StringRef> names(param.dimVars.begin(), param.dimVars.end());
    func.setArgAttr(index, TIRDialect::kDimVarsAttrName,
                    builder.getStrArrayAttr(names));
    // A dimension named by a variable defines it (its first); one named by
    // an affine form of variables ("n + 1") defines none: the runtime
    // checks it against the variables' sizes.
    for (auto [d, var] : llvm::enumerate(param.dimVars)) {
      std::optional<AffineSize> form = parseAffineSize(var);
      if (!var.empty() && form && form->isVariable() && !shapeVars.count(var))
        shapeVars[var] =
            tensor::DimOp::create(builder, loc, func.getArgument(index), d);
    }
  }
}

Value GraphBuilder::getParameter(unsigned index) {
  return func.getArgument(index);
}

FailureOr<Value> GraphBuilder::getShapeVar(StringRef name) {
  auto it = shapeVars.find(name);
  if (it != shapeVars.end())
    return it->second;
  // An affine form of the variables ("n + m"): computed where it is asked
  // for.
  std::optional<AffineSize> form = parseAffineSize(name);
  if (!form || form->isVariable() || form->terms.empty())
    return failure();
  return buildSizeExpression(
      builder, func.getLoc(), name,
      [&](StringRef var) -> Value { return shapeVars.lookup(var); });
}

Value GraphBuilder::constant(DenseElementsAttr value, Location loc) {
  return arith::ConstantOp::create(builder, loc, value);
}

ValueRange GraphBuilder::callTir(StringRef callee, ValueRange inputs,
                                 TypeRange resultTypes, ValueRange dims,
                                 Location loc, ArrayRef<int64_t> inplace) {
  return CallTirOp::create(
             builder, loc, resultTypes,
             FlatSymbolRefAttr::get(builder.getContext(), callee), inputs, dims,
             inplace.empty() ? DenseI64ArrayAttr()
                             : builder.getDenseI64ArrayAttr(inplace))
      .getOutputs();
}

ValueRange GraphBuilder::callExternal(StringRef callee, ValueRange inputs,
                                      TypeRange resultTypes, ValueRange dims,
                                      bool returns, Location loc) {
  if (!module->lookupSymbol(callee)) {
    // Buffers of the tensors' shapes, in default memory.
    SmallVector<Type> params;
    for (Type type : llvm::concat<const Type>(TypeRange(inputs), resultTypes)) {
      auto tensor = cast<RankedTensorType>(type);
      params.push_back(
          MemRefType::get(tensor.getShape(), tensor.getElementType()));
    }
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(func);
    auto decl = func::FuncOp::create(builder, loc, callee,
                                     builder.getFunctionType(params, {}));
    decl.setPrivate();
    decl->setAttr(TIRDialect::kPackedAttrName,
                  builder.getI64IntegerAttr(inputs.size()));
    if (returns)
      decl->setAttr(TIRDialect::kPackedReturnsAttrName, builder.getUnitAttr());
  }
  return callTir(callee, inputs, resultTypes, dims, loc);
}

ValueRange GraphBuilder::callFunction(StringRef callee, ValueRange args,
                                      TypeRange resultTypes, Location loc) {
  return func::CallOp::create(builder, loc, callee, resultTypes, args)
      .getResults();
}

FailureOr<Value> GraphBuilder::shapeValue(ArrayRef<std::string> dims,
                                          bool scalar, Location loc) {
  if (scalar && dims.size() != 1)
    return emitError(loc, "R.prim_value takes one integer"), failure();
  SmallVector<Value> elements;
  for (const std::string &dim : dims) {
    FailureOr<Value> size =
        buildSizeExpression(builder, loc, dim, [&](StringRef name) -> Value {
          FailureOr<Value> var = getShapeVar(name);
          return succeeded(var) ? *var : Value();
        });
    if (failed(size))
      return emitError(loc)
                 << (scalar ? "R.prim_value" : "R.shape") << ": '" << dim
                 << "' is not an integer expression (+, -, *, //, %) of the "
                    "function's shape variables",
             failure();
    elements.push_back(
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), *size));
  }
  auto type = RankedTensorType::get(
      scalar ? ArrayRef<int64_t>{} : ArrayRef<int64_t>{int64_t(dims.size())},
      builder.getI64Type());
  auto op = tensor::FromElementsOp::create(builder, loc, type, elements);
  op->setAttr(TIRDialect::kShapeValueAttrName, builder.getUnitAttr());
  return op.getResult();
}

Value GraphBuilder::nullValue(Location loc) {
  return NullValueOp::create(builder, loc,
                             ObjectType::get(builder.getContext()));
}

FailureOr<Value> GraphBuilder::callOperator(StringRef name, ValueRange args,
                                            RankedTensorType resultType,
                                            ValueRange dims,
                                            DictionaryAttr attrs,
                                            Location loc) {
  return buildGraphOperator(builder, loc, name, args, resultType, dims, attrs);
}

ValueRange GraphBuilder::beginComposite(StringRef name, ValueRange inputs,
                                        TypeRange resultTypes,
                                        DictionaryAttr attrs, Location loc) {
  auto op = CompositeOp::create(builder, loc, resultTypes, name, inputs, attrs);
  openComposites.push_back(op);
  Block &body = op.getBody().front();
  builder.setInsertionPointToEnd(&body);
  return body.getArguments();
}

FailureOr<ValueRange> GraphBuilder::endComposite(ValueRange results,
                                                 Location loc) {
  if (openComposites.empty())
    return emitError(loc, "no composite operator is open to end"), failure();
  auto op = cast<CompositeOp>(openComposites.back());
  if (TypeRange(results) != op.getResultTypes()) {
    InFlightDiagnostic diag = emitError(loc);
    diag << "relax." << op.getName() << ": its parts give (";
    llvm::interleaveComma(TypeRange(results), diag);
    diag << "), the operator (";
    llvm::interleaveComma(op.getResultTypes(), diag);
    return diag << ")", failure();
  }
  YieldOp::create(builder, loc, results);
  openComposites.pop_back();
  builder.setInsertionPointAfter(op);
  return ValueRange(op.getResults());
}

OwningOpRef<ModuleOp> GraphBuilder::finish(ValueRange outputs, Location loc) {
  if (!openComposites.empty()) {
    emitError(loc) << "relax."
                   << cast<CompositeOp>(openComposites.back()).getName()
                   << " is begun and not ended (endComposite) when the "
                      "function ends";
    return nullptr;
  }
  func::ReturnOp::create(builder, loc, outputs);
  func.setFunctionType(builder.getFunctionType(
      func.getFunctionType().getInputs(), outputs.getTypes()));
  return std::move(module);
}
