//===- BufferizableOpInterfaceImpl.cpp - tir ops in bufferization ---------===//
//
// tir.call_tir reads its inputs and writes nothing of them; each result is a
// new buffer. Bufferized, the op becomes an allocation per result and a
// func.call of the prim_func on the inputs' buffers and those allocations.
// A result written in place (inplace_indices) is its input's buffer, which
// the call writes (one-shot bufferization copies the input first when its
// value is read after the call).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Transforms/BufferizableOpInterfaceImpl.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::bufferization;

namespace {

struct CallTirOpInterface
    : public BufferizableOpInterface::ExternalModel<CallTirOpInterface,
                                                    CallTirOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &operand,
                              const AnalysisState &) const {
    // (The result sizes are indices, not tensors.)
    return isa<TensorType>(operand.get().getType());
  }

  /// The result written into input `operand`, if any.
  static std::optional<unsigned> inplaceResult(CallTirOp call,
                                               OpOperand &operand) {
    if (operand.getOperandNumber() >= call.getInputs().size())
      return std::nullopt;
    for (unsigned k = 0, e = call.getNumResults(); k < e; ++k)
      if (call.getInplaceInput(k) == operand.getOperandNumber())
        return k;
    return std::nullopt;
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &) const {
    return inplaceResult(cast<CallTirOp>(op), operand).has_value();
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    auto call = cast<CallTirOp>(op);
    if (std::optional<unsigned> k = inplaceResult(call, operand))
      return {{call.getResult(*k), BufferRelation::Equivalent}};
    return {};
  }

  bool bufferizesToAllocation(Operation *op, Value value) const {
    auto result = dyn_cast<OpResult>(value);
    return !result ||
           !cast<CallTirOp>(op).getInplaceInput(result.getResultNumber());
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto call = cast<CallTirOp>(op);
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, call.getCalleeAttr());
    if (!callee)
      return op->emitOpError("callee '@") << call.getCallee() << "' is not a "
                                          << "function of the module";
    FunctionType type = callee.getFunctionType();
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    // The buffers of the inputs, row-major (a result written in place is
    // its input's).
    SmallVector<Value> inputBuffers;
    // An input's buffer goes in as it is, or cast to the parameter's layout
    // (the verifier checked that shapes and element types agree).
    for (auto [index, input] : llvm::enumerate(call.getInputs())) {
      FailureOr<Value> buffer = getBuffer(rewriter, input, options, state);
      if (failed(buffer))
        return failure();
      auto param = cast<MemRefType>(type.getInput(index));
      Value value = *buffer;
      auto bufferType = cast<MemRefType>(value.getType());
      if (!bufferType.getLayout().isIdentity()) {
        // A view (a slice, say) is copied into a row-major buffer: a cast
        // to the parameter's layout would drop its offset and strides.
        SmallVector<Value> dynamicSizes;
        for (int64_t d = 0; d < bufferType.getRank(); ++d)
          if (bufferType.isDynamicDim(d))
            dynamicSizes.push_back(
                memref::DimOp::create(rewriter, loc, value, d));
        FailureOr<Value> copy = options.createAlloc(
            rewriter, loc,
            MemRefType::get(bufferType.getShape(), bufferType.getElementType()),
            dynamicSizes);
        if (failed(copy) ||
            failed(options.createMemCpy(rewriter, loc, value, *copy)))
          return failure();
        value = *copy;
      }
      inputBuffers.push_back(value);
      if (value.getType() != param) {
        // Row-major to the parameter's layout (the verifier checked that
        // it takes row-major buffers).
        if (!memref::CastOp::areCastCompatible(value.getType(), param))
          return op->emitOpError("input ")
                 << index << " bufferizes to " << value.getType()
                 << ", which parameter " << index << " of '@"
                 << call.getCallee() << "' (" << param << ") cannot take";
        value = memref::CastOp::create(rewriter, loc, param, value);
      }
      operands.push_back(value);
    }
    // One new buffer per result, in the layout the callee writes.
    SmallVector<Value> results;
    unsigned numInputs = call.getInputs().size();
    unsigned next = numInputs;
    for (auto [index, result] : llvm::enumerate(call.getResults())) {
      if (std::optional<unsigned> j = call.getInplaceInput(index)) {
        results.push_back(inputBuffers[*j]);
        continue;
      }
      auto tensor = cast<RankedTensorType>(result.getType());
      auto param = cast<MemRefType>(type.getInput(next++));
      auto allocType =
          MemRefType::get(tensor.getShape(), tensor.getElementType());
      FailureOr<Value> alloc = options.createAlloc(rewriter, loc, allocType,
                                                   call.getResultDims(index));
      if (failed(alloc))
        return failure();
      results.push_back(*alloc);
      operands.push_back(param == allocType ? *alloc
                                            : memref::CastOp::create(
                                                  rewriter, loc, param, *alloc)
                                                  .getResult());
    }
    func::CallOp::create(rewriter, loc, callee, operands);
    replaceOpWithBufferizedValues(rewriter, op, results);
    return success();
  }
};

} // namespace

void mlir::tir::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, TIRDialect *) {
    CallTirOp::attachInterface<CallTirOpInterface>(*ctx);
  });
}
