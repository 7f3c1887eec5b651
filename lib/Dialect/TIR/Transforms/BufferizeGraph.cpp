//===- BufferizeGraph.cpp - graph functions to buffers --------------------===//
//
// --tir-bufferize-graph: one-shot bufferization of the module across function
// boundaries, results of public graph functions as out-parameters marked
// tir.result, and MLIR's ownership-based deallocation in the graph
// functions.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRBUFFERIZEGRAPHPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
struct TIRBufferizeGraphPass
    : public tir::impl::TIRBufferizeGraphPassBase<TIRBufferizeGraphPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> graphs;
    for (auto func : module.getOps<func::FuncOp>())
      if (isGraphFunction(func))
        graphs.push_back(func);
    if (graphs.empty())
      return;

    // How many results each public graph function returns: they become its
    // trailing out-parameters.
    llvm::DenseMap<Operation *, unsigned> numResults;
    // (Only tensor results become out-parameters.)
    for (func::FuncOp func : graphs)
      if (func.isPublic())
        numResults[func] = llvm::count_if(
            func.getResultTypes(), [](Type t) { return isa<TensorType>(t); });

    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.setFunctionBoundaryTypeConversion(
        bufferization::LayoutMapOption::IdentityLayoutMap);
    // Buffers of at least a cache line's alignment, as TVM allocates them.
    options.bufferAlignment = 64;
    bufferization::BufferizationState state;
    if (failed(
            bufferization::runOneShotModuleBufferize(module, options, state)))
      return signalPassFailure();

    // A buffer returned twice is copied for its later results: each
    // result becomes an out-parameter of its own (and upstream's promotion,
    // which moves an allocation into the out-parameter, handles each
    // allocation once).
    for (auto [op, count] : numResults) {
      auto func = cast<func::FuncOp>(op);
      func.walk([&](func::ReturnOp ret) {
        OpBuilder b(ret);
        llvm::SmallPtrSet<Value, 4> seen;
        for (OpOperand &operand : ret->getOpOperands()) {
          Value v = operand.get();
          auto type = dyn_cast<MemRefType>(v.getType());
          if (!type || seen.insert(v).second || !type.hasStaticShape())
            continue;
          Value copy = memref::AllocOp::create(
              b, ret.getLoc(),
              MemRefType::get(type.getShape(), type.getElementType()));
          memref::CopyOp::create(b, ret.getLoc(), v, copy);
          operand.set(copy);
        }
      });
    }

    bufferization::BufferResultsToOutParamsOpts outParams;
    outParams.filterFn = [&](func::FuncOp *func) {
      return numResults.count(func->getOperation()) != 0;
    };
    outParams.modifyPublicFunctions = true;
    outParams.hoistStaticAllocs = true;
    if (failed(
            bufferization::promoteBufferResultsToOutParams(module, outParams)))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    for (auto [op, count] : numResults) {
      auto func = cast<func::FuncOp>(op);
      unsigned first = func.getNumArguments() - count;
      for (unsigned i = 0; i < count; ++i) {
        func.setArgAttr(first + i, TIRDialect::kResultAttrName,
                        UnitAttr::get(ctx));
        func.setArgAttr(
            first + i, TIRDialect::kNameAttrName,
            StringAttr::get(ctx, i == 0 ? std::string("output")
                                        : "output" + std::to_string(i)));
      }
    }

    // Frees for the intermediates, in the graph functions only.
    OpPassManager pm(func::FuncOp::getOperationName());
    bufferization::buildBufferDeallocationPipeline(pm);
    pm.addPass(createCanonicalizerPass());
    for (func::FuncOp func : graphs)
      if (failed(runPipeline(pm, func)))
        return signalPassFailure();
  }
};
} // namespace
