//===- MergeCallees.cpp - the prim_funcs of several calls as one ----------===//

#include "TensorIR/Dialect/TIR/Transforms/MergeCallees.h"
#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tir;

/// `value` as a buffer of `type`: itself, or a memref.cast where the types
/// differ only in what one leaves dynamic; null otherwise.
static Value asType(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (!memref::CastOp::areCastCompatible(value.getType(), type))
    return {};
  return memref::CastOp::create(b, loc, type, value);
}

/// Moves the intermediate buffers to the start of `entry` (after the sizes
/// they take), as TVM's root block allocates them.
static void hoistAllocations(Block *entry) {
  Operation *firstBody = nullptr;
  for (Operation &op : *entry)
    if (!isa<memref::DimOp, arith::ConstantOp, AllocBufferOp>(op)) {
      firstBody = &op;
      break;
    }
  if (!firstBody)
    return;
  // (A size a callee read of its parameter moves with the allocation.)
  auto hoist = [&](Operation *op) {
    if (op && op->getBlock() == entry && firstBody->isBeforeInBlock(op))
      op->moveBefore(firstBody);
  };
  for (Operation &op : llvm::make_early_inc_range(*entry)) {
    if (!isa<AllocBufferOp>(op) || !firstBody->isBeforeInBlock(&op))
      continue;
    bool movable = true;
    for (Value size : op.getOperands()) {
      auto dim = size.getDefiningOp<memref::DimOp>();
      movable &= dim && isa<BlockArgument>(dim.getSource()) &&
                 dim.getIndex().getDefiningOp<arith::ConstantOp>();
    }
    if (!movable)
      continue;
    for (Value size : op.getOperands()) {
      auto dim = size.getDefiningOp<memref::DimOp>();
      hoist(dim.getIndex().getDefiningOp());
      hoist(dim);
    }
    op.moveBefore(firstBody);
  }
}

func::FuncOp mlir::tir::mergeCallees(ArrayRef<CallTirOp> callList,
                                     ArrayRef<Value> inputs,
                                     ArrayRef<Value> outputs, StringRef name,
                                     SymbolTable &symbols,
                                     SmallVectorImpl<Value> &callInputs) {
  if (callList.empty())
    return {};
  SmallVector<CallTirOp> calls(callList);
  MLIRContext *ctx = calls.front().getContext();
  Location loc = calls.back().getLoc();
  SmallVector<func::FuncOp> callees;
  for (CallTirOp call : calls) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    // (Calls writing inputs in place are not merged.)
    if (!callee || callee.isExternal() || call.getInplaceIndices())
      return {};
    callees.push_back(callee);
  }

  // The buffer type each input is first read as, and the callee parameter
  // that reads it (for its name).
  llvm::DenseMap<Value, std::pair<func::FuncOp, unsigned>> firstReader;
  llvm::DenseSet<Value> computed;
  for (auto [call, callee] : llvm::zip(calls, callees)) {
    for (auto [k, input] : llvm::enumerate(call.getInputs())) {
      if (!computed.contains(input))
        firstReader.try_emplace(input, callee, k);
    }
    for (Value result : call->getResults())
      computed.insert(result);
  }
  for (auto &[value, reader] : firstReader)
    if (!llvm::is_contained(inputs, value))
      return {}; // Read, but neither given nor computed.
  // Each output is a result of some call.
  llvm::DenseMap<Value, std::pair<func::FuncOp, unsigned>> writer;
  for (auto [call, callee] : llvm::zip(calls, callees))
    for (auto [k, result] : llvm::enumerate(call->getResults()))
      writer.try_emplace(result, callee, call.getInputs().size() + k);
  for (Value output : outputs)
    if (!writer.count(output))
      return {};

  SmallVector<Type> params;
  SmallVector<DictionaryAttr> paramAttrs;
  SmallVector<Value> paramValues;
  llvm::StringSet<> names;
  auto addParam = [&](Value graphValue, func::FuncOp callee, unsigned k) {
    params.push_back(callee.getArgumentTypes()[k]);
    paramValues.push_back(graphValue);
    NamedAttrList attrs(callee.getArgAttrDict(k));
    // Names unique in the function, shape variables the graph's.
    std::string base = getBufferName(callee.getArgument(k));
    std::string unique = base.empty() ? "p" : base;
    for (unsigned n = 1; !names.insert(unique).second; ++n)
      unique = base + "_" + std::to_string(n);
    attrs.set(TIRDialect::kNameAttrName, StringAttr::get(ctx, unique));
    paramAttrs.push_back(attrs.getDictionary(ctx));
  };
  llvm::DenseMap<Value, unsigned> paramOf;
  for (Value input : inputs) {
    auto it = firstReader.find(input);
    if (it == firstReader.end() || paramOf.count(input))
      continue;
    paramOf[input] = params.size();
    addParam(input, it->second.first, it->second.second);
    callInputs.push_back(input);
  }
  for (Value output : outputs) {
    if (paramOf.count(output))
      return {}; // An output twice.
    paramOf[output] = params.size();
    auto [callee, k] = writer.lookup(output);
    addParam(output, callee, k);
  }

  OpBuilder builder(ctx);
  auto func = func::FuncOp::create(builder, loc, name,
                                   FunctionType::get(ctx, params, {}));
  func.setPrivate();
  for (auto [k, attrs] : llvm::enumerate(paramAttrs))
    func.setArgAttrs(k, attrs);
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  auto fail = [&]() -> func::FuncOp {
    func->erase();
    return {};
  };

  // The parameters' dimensions named as the graph's, and the sizes of the
  // shape variables, read from the parameters they size.
  llvm::StringMap<Value> shapeVars =
      bindShapeVars(func, paramValues, builder, loc);

  // Where each graph value lives inside: a parameter, or an intermediate
  // buffer of the type its producer writes.
  llvm::DenseMap<Value, Value> buffers;
  for (auto [value, k] : paramOf)
    buffers[value] = entry->getArgument(k);
  for (auto [call, callee] : llvm::zip(calls, callees)) {
    unsigned numInputs = call.getInputs().size();
    IRMapping map;
    SmallVector<Operation *> intermediates;
    for (auto [k, input] : llvm::enumerate(call.getInputs())) {
      Value buffer = buffers.lookup(input);
      buffer = buffer
                   ? asType(builder, loc, buffer, callee.getArgumentTypes()[k])
                   : Value();
      if (!buffer)
        return fail();
      map.map(callee.getArgument(k), buffer);
    }
    for (auto [k, result] : llvm::enumerate(call->getResults())) {
      Type argType = callee.getArgumentTypes()[numInputs + k];
      Value output = buffers.lookup(result);
      if (!output) {
        auto type = dyn_cast<MemRefType>(argType);
        if (!type || !type.getLayout().isIdentity() || type.getMemorySpace())
          return fail();
        SmallVector<Value> sizes;
        for (int64_t d = 0; d < type.getRank(); ++d) {
          if (!type.isDynamicDim(d))
            continue;
          Value size = shapeVars.lookup(getShapeVarName(result, d));
          if (!size)
            return fail();
          sizes.push_back(size);
        }
        auto alloc = AllocBufferOp::create(
            builder, call.getLoc(), type, sizes,
            builder.getStringAttr(call.getCallee()), DenseI64ArrayAttr());
        intermediates.push_back(alloc);
        output = alloc.getBuffer();
        buffers[result] = output;
      } else if (!(output = asType(builder, loc, output, argType))) {
        return fail();
      }
      map.map(callee.getArgument(numInputs + k), output);
    }
    // The callee's own buffers come first, as TVM allocates a producer's
    // before what it produces.
    Operation *lastLeadingAlloc = nullptr;
    bool leading = true;
    for (Operation &op :
         callee.getFunctionBody().front().without_terminator()) {
      Operation *copy = builder.clone(op, map);
      leading &= isa<AllocBufferOp, arith::ConstantOp, memref::DimOp>(op);
      if (leading && isa<AllocBufferOp>(op))
        lastLeadingAlloc = copy;
    }
    if (lastLeadingAlloc)
      for (Operation *alloc : llvm::reverse(intermediates))
        alloc->moveAfter(lastLeadingAlloc);
  }
  func::ReturnOp::create(builder, loc);
  hoistAllocations(entry);
  if (!shapeVars.empty()) {
    // A shape variable is read from the first parameter it sizes, whichever
    // parameter a callee read it from (TVM's one variable).
    SmallVector<memref::DimOp> reads;
    func.walk([&](memref::DimOp dim) { reads.push_back(dim); });
    for (memref::DimOp dim : reads) {
      auto arg = dyn_cast<BlockArgument>(dim.getSource());
      std::optional<int64_t> index = dim.getConstantIndex();
      if (!arg || arg.getOwner() != entry || !index)
        continue;
      Value canonical = shapeVars.lookup(getShapeVarName(arg, *index));
      if (!canonical || canonical == dim.getResult())
        continue;
      dim.replaceAllUsesWith(canonical);
      dim->erase();
    }
    unifySizeReads(func);
  }
  // Block names unique in the function (two callees' "compute").
  llvm::StringSet<> blockNames;
  func.walk([&](BlockOp block) {
    std::string base = block.getBlockName().str();
    std::string unique = base;
    for (unsigned n = 1; !blockNames.insert(unique).second; ++n)
      unique = base + "_" + std::to_string(n);
    if (unique != base)
      block.setBlockName(unique);
  });
  return func;
}
