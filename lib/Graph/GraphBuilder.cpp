//===- GraphBuilder.cpp - graph functions built step by step --------------===//
//
// The function, its parameters, constants, call_tir steps and return; the
// operators' lowering is Operators.cpp.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Graph/GraphBuilder.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tir;

GraphBuilder::GraphBuilder(
    MLIRContext *context, StringRef name,
    ArrayRef<std::pair<std::string, RankedTensorType>> params, bool isPrivate,
    Location loc)
    : builder(context) {
  // What the steps build.
  context->loadDialect<func::FuncDialect, arith::ArithDialect,
                       linalg::LinalgDialect, math::MathDialect,
                       tensor::TensorDialect, TIRDialect>();
  module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> types;
  for (const auto &param : params)
    types.push_back(param.second);
  func = func::FuncOp::create(builder, loc, name,
                              builder.getFunctionType(types, {}));
  if (isPrivate)
    func.setPrivate();
  for (auto [index, param] : llvm::enumerate(params))
    func.setArgAttr(index, "tir.name", builder.getStringAttr(param.first));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
}

Value GraphBuilder::getParameter(unsigned index) {
  return func.getArgument(index);
}

Value GraphBuilder::constant(DenseElementsAttr value, Location loc) {
  return arith::ConstantOp::create(builder, loc, value);
}

ValueRange GraphBuilder::callTir(StringRef callee, ValueRange inputs,
                                 TypeRange resultTypes, Location loc) {
  return CallTirOp::create(builder, loc, resultTypes,
                           FlatSymbolRefAttr::get(builder.getContext(), callee),
                           inputs)
      .getOutputs();
}

FailureOr<Value> GraphBuilder::callOperator(StringRef name, ValueRange args,
                                            RankedTensorType resultType,
                                            DictionaryAttr attrs,
                                            Location loc) {
  return buildGraphOperator(builder, loc, name, args, resultType, attrs);
}

OwningOpRef<ModuleOp> GraphBuilder::finish(ValueRange outputs, Location loc) {
  func::ReturnOp::create(builder, loc, outputs);
  func.setFunctionType(builder.getFunctionType(
      func.getFunctionType().getInputs(), outputs.getTypes()));
  return std::move(module);
}
