//===- TIRCompositeOp.cpp - high-level operators kept whole ---------------===//
//
// tir.composite: a Relax operator of several parts kept as one step of a
// graph function until legalization; its region computes it from the
// block arguments standing for its inputs.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;

void CompositeOp::build(OpBuilder &builder, OperationState &state,
                        TypeRange outputs, StringRef name, ValueRange inputs,
                        DictionaryAttr opAttrs) {
  state.addTypes(outputs);
  state.addOperands(inputs);
  state.addAttribute(getNameAttrName(state.name), builder.getStringAttr(name));
  if (opAttrs && !opAttrs.empty())
    state.addAttribute(getOpAttrsAttrName(state.name), opAttrs);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), state.location);
}

YieldOp CompositeOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult CompositeOp::verifyRegions() {
  Block &block = getBody().front();
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(&block.back());
  if (!yield)
    return emitOpError("ends its body with tir.yield of its results");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields ")
           << yield.getValues().size()
           << " value(s) of other types than its results";
  return success();
}

void CompositeOp::replaceByParts(RewriterBase &rewriter) {
  SmallVector<Value> results(getYield().getValues());
  rewriter.eraseOp(getYield());
  rewriter.inlineBlockBefore(&getBody().front(), *this, getInputs());
  rewriter.replaceOp(*this, results);
}

LogicalResult CompositeOp::verify() {
  if (getName().empty())
    return emitOpError("names the operator it stands for");
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("has ")
           << getInputs().size() << " input(s) but its block takes "
           << block.getNumArguments();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getInputs(), block.getArguments())))
    if (std::get<0>(pair).getType() != std::get<1>(pair).getType())
      return emitOpError("input ")
             << index << " is a " << std::get<0>(pair).getType()
             << " but the block's argument a " << std::get<1>(pair).getType();
  return success();
}
