//===- BufferizeGraph.cpp - graph functions to buffers --------------------===//
//
// --tir-bufferize-graph: one-shot bufferization of the module across function
// boundaries, results of public graph functions as out-parameters marked
// tir.result, and MLIR's ownership-based deallocation in the graph
// functions.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
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
    for (func::FuncOp func : graphs)
      func->setAttr(TIRDialect::kGraphAttrName,
                    UnitAttr::get(module.getContext()));

    // A declaration a graph function calls is a packed function, which
    // the runtime runs by name (--tir-lower-packed-calls).
    module.walk([&](CallTirOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
      if (callee && callee.isExternal() &&
          !callee->hasAttr(TIRDialect::kPackedAttrName))
        callee->setAttr(
            TIRDialect::kPackedAttrName,
            Builder(module).getI64IntegerAttr(call.getInputs().size()));
    });

    // How many results each public graph function returns: they become its
    // trailing out-parameters.
    llvm::DenseMap<Operation *, unsigned> numResults;
    // (Only tensor results become out-parameters.)
    for (func::FuncOp func : graphs)
      if (func.isPublic())
        numResults[func] = llvm::count_if(
            func.getResultTypes(), [](Type t) { return isa<TensorType>(t); });

    // The shape variables sizing the results' dynamic dimensions: the
    // out-parameters name them (tir.dim_vars), so that a caller allocates
    // them from the sizes of the arguments.
    llvm::DenseMap<Operation *, SmallVector<Attribute>> resultDimVars;
    for (auto [op, count] : numResults) {
      auto func = cast<func::FuncOp>(op);
      auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
      for (auto [k, result] : llvm::enumerate(ret.getOperands())) {
        auto type = dyn_cast<RankedTensorType>(result.getType());
        if (!type)
          continue;
        SmallVector<StringRef> vars;
        SmallVector<std::string> names;
        for (int64_t d = 0; d < type.getRank(); ++d) {
          names.push_back(getShapeVarName(result, d));
          if (type.isDynamicDim(d) && names.back().empty()) {
            func.emitError("result ")
                << k << " of @" << func.getName() << " has dynamic dimension "
                << d
                << " that no shape variable of the parameters sizes; a "
                   "caller could not allocate it";
            return signalPassFailure();
          }
        }
        for (const std::string &name : names)
          vars.push_back(name);
        resultDimVars[func].push_back(
            type.hasStaticShape() ? Attribute()
                                  : Builder(func).getStrArrayAttr(vars));
      }
    }

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

    // A result that is a parameter's buffer (the function returns its
    // argument, or an input a call wrote in place) is that argument: the
    // caller gives it back (as TVM gives back the same array) and there is
    // no out-parameter for it. The results' nesting names it -1 - the
    // parameter's index, the others by their out-parameters' order.
    for (auto &[op, count] : numResults) {
      auto func = cast<func::FuncOp>(op);
      Block &entry = func.getBody().front();
      auto ret = cast<func::ReturnOp>(entry.getTerminator());
      if (!SymbolTable::symbolKnownUseEmpty(func, module) ||
          !llvm::any_of(ret.getOperands(), [&](Value v) {
            auto arg = dyn_cast<BlockArgument>(v);
            return arg && arg.getOwner() == &entry &&
                   isa<MemRefType>(v.getType());
          }))
        continue;
      SmallVector<int64_t> place;
      SmallVector<Value> kept;
      SmallVector<Attribute> keptVars;
      for (auto [k, v] : llvm::enumerate(ret.getOperands())) {
        auto arg = dyn_cast<BlockArgument>(v);
        if (arg && arg.getOwner() == &entry && isa<MemRefType>(v.getType())) {
          place.push_back(-1 - static_cast<int64_t>(arg.getArgNumber()));
          continue;
        }
        place.push_back(kept.size());
        kept.push_back(v);
        if (k < resultDimVars[func].size())
          keptVars.push_back(resultDimVars[func][k]);
      }
      Builder b(func);
      std::function<Attribute(Attribute)> remap = [&](Attribute a) {
        if (auto inner = dyn_cast<ArrayAttr>(a)) {
          SmallVector<Attribute> items;
          for (Attribute item : inner)
            items.push_back(remap(item));
          return Attribute(b.getArrayAttr(items));
        }
        return Attribute(
            b.getI64IntegerAttr(place[cast<IntegerAttr>(a).getInt()]));
      };
      ArrayAttr nesting =
          func->getAttrOfType<ArrayAttr>(TIRDialect::kResultNestingAttrName);
      SmallVector<Attribute> flat;
      for (int64_t p : place)
        flat.push_back(b.getI64IntegerAttr(p));
      func->setAttr(TIRDialect::kResultNestingAttrName,
                    nesting ? remap(nesting) : b.getArrayAttr(flat));
      ret->setOperands(kept);
      func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                     ValueRange(kept).getTypes()));
      count = kept.size();
      resultDimVars[func] = keptVars;
    }

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
          if (!type || seen.insert(v).second)
            continue;
          SmallVector<Value> sizes;
          for (int64_t d = 0; d < type.getRank(); ++d)
            if (type.isDynamicDim(d))
              sizes.push_back(memref::DimOp::create(b, ret.getLoc(), v, d));
          Value copy = memref::AllocOp::create(
              b, ret.getLoc(),
              MemRefType::get(type.getShape(), type.getElementType()), sizes);
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
        if (Attribute vars = resultDimVars[func][i])
          func.setArgAttr(first + i, TIRDialect::kDimVarsAttrName, vars);
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
