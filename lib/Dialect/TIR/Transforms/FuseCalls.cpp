//===- FuseCalls.cpp - chains of prim_func calls as one prim_func ---------===//
//
// --tir-fuse-calls (Relax's FuseOps and FuseTIR over call_tir): in each
// graph function, a call and the calls consuming its result in turn become
// one call of a new prim_func `fused_<callees>` whose body is the callees'
// bodies one after the other, the values between them its
// tir.alloc_buffers. Which calls join follows the callees' operator
// patterns (TensorIR/Dialect/TIR/Analysis/OpPattern.h), as TVM's fusion
// rules do along a chain:
// - element-wise and broadcast work follows a matmul-like function (an
//   output-element-wise-fusable one);
// - element-wise, broadcast and injective functions fuse with one another;
// - element-wise and broadcast work before a reduction or a matmul-like
//   function fuses into it (and what may follow that function, then);
// - nothing follows a reduction, nothing joins an opaque function.
// A value between two calls must have no other use.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/OpPattern.h"
#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRFUSECALLSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// What a chain of calls may take next.
struct ChainState {
  /// The least fusible pattern in the chain.
  OpPattern pattern;

  /// Whether a call of pattern `next` may join; updates the state.
  bool join(OpPattern next) {
    if (pattern == OpPattern::Opaque || next == OpPattern::Opaque)
      return false;
    if (pattern == OpPattern::OutEWiseFusable) {
      // Element-wise work after a matmul-like function.
      return next <= OpPattern::Broadcast;
    }
    if (pattern == OpPattern::CommReduce)
      return false;
    if (pattern <= OpPattern::Broadcast &&
        (next == OpPattern::CommReduce || next == OpPattern::OutEWiseFusable)) {
      pattern = next; // Element-wise work before a reduction.
      return true;
    }
    if (next <= OpPattern::Injective) {
      pattern = std::max(pattern, next);
      return true;
    }
    return false;
  }
};

struct TIRFuseCallsPass
    : public tir::impl::TIRFuseCallsPassBase<TIRFuseCallsPass> {
  void runOnOperation() override;

  func::FuncOp calleeOf(CallTirOp call) {
    return functions->getSymbols().lookup<func::FuncOp>(call.getCallee());
  }
  OpPattern patternOf(CallTirOp call) {
    func::FuncOp callee = calleeOf(call);
    if (!callee || callee.isExternal())
      return OpPattern::Opaque;
    auto [it, inserted] = patterns.try_emplace(callee, OpPattern::Opaque);
    if (inserted)
      it->second = getOpPattern(callee);
    return it->second;
  }
  /// The calls from `call` on that fuse with it (itself first).
  SmallVector<CallTirOp> chainFrom(CallTirOp call);
  /// The prim_func computing `chain`, created or reused; `inputs` gets what
  /// its call passes. Null when the callees' bodies cannot be put
  /// together (a value between them whose size no parameter gives).
  func::FuncOp fuse(ArrayRef<CallTirOp> chain, SmallVectorImpl<Value> &inputs);

  std::optional<CreatedFunctions> functions;
  DenseMap<Operation *, OpPattern> patterns;
};

} // namespace

SmallVector<CallTirOp> TIRFuseCallsPass::chainFrom(CallTirOp call) {
  SmallVector<CallTirOp> chain{call};
  ChainState state{patternOf(call)};
  while (true) {
    CallTirOp last = chain.back();
    if (last->getNumResults() != 1 || !last->getResult(0).hasOneUse())
      break;
    auto user = dyn_cast<CallTirOp>(*last->getResult(0).getUsers().begin());
    if (!user || user->getBlock() != call->getBlock() ||
        user->getNumResults() != 1 || !state.join(patternOf(user)))
      break;
    chain.push_back(user);
  }
  return chain;
}

/// `value` as a buffer of `type`: itself, or a memref.cast where the types
/// differ only in what one leaves dynamic; null otherwise.
static Value asType(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (!memref::CastOp::areCastCompatible(value.getType(), type))
    return {};
  return memref::CastOp::create(b, loc, type, value);
}

func::FuncOp TIRFuseCallsPass::fuse(ArrayRef<CallTirOp> chain,
                                    SmallVectorImpl<Value> &inputs) {
  MLIRContext *ctx = &getContext();
  CallTirOp last = chain.back();
  Location loc = last.getLoc();
  // fused_<callees>, a fused callee's names in place of its own.
  std::string name = "fused";
  for (CallTirOp call : chain) {
    StringRef callee = call.getCallee();
    callee.consume_front("fused_");
    name += "_" + callee.str();
  }
  llvm::DenseSet<Value> internal;
  for (CallTirOp call : chain.drop_back())
    internal.insert(call->getResult(0));

  // Parameters: the graph values the calls take from outside the chain
  // (each once, as the first callee taking it declares it), then the last
  // call's results.
  SmallVector<Type> params;
  SmallVector<DictionaryAttr> paramAttrs;
  SmallVector<Value> paramValues;
  llvm::DenseMap<Value, unsigned> inputParam;
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
  for (CallTirOp call : chain) {
    func::FuncOp callee = calleeOf(call);
    for (auto [k, input] : llvm::enumerate(call.getInputs())) {
      if (internal.contains(input))
        continue;
      // One parameter per value, unless two callees take it as buffers of
      // different types.
      auto it = inputParam.find(input);
      if (it != inputParam.end() &&
          params[it->second] == callee.getArgumentTypes()[k])
        continue;
      inputParam[input] = params.size();
      addParam(input, callee, k);
      inputs.push_back(input);
    }
  }
  unsigned firstOutput = params.size();
  func::FuncOp lastCallee = calleeOf(last);
  for (unsigned k = 0; k < last->getNumResults(); ++k)
    addParam(last->getResult(k), lastCallee, last.getInputs().size() + k);

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
  for (auto [value, k] : inputParam)
    buffers[value] = entry->getArgument(k);
  llvm::StringSet<> blockNames;
  for (CallTirOp call : chain) {
    func::FuncOp callee = calleeOf(call);
    unsigned numInputs = call.getInputs().size();
    IRMapping map;
    for (auto [k, input] : llvm::enumerate(call.getInputs())) {
      Value buffer = buffers.lookup(input);
      auto param = inputParam.find(input);
      if (param != inputParam.end() &&
          params[param->second] == callee.getArgumentTypes()[k])
        buffer = entry->getArgument(param->second);
      buffer = buffer
                   ? asType(builder, loc, buffer, callee.getArgumentTypes()[k])
                   : Value();
      if (!buffer)
        return fail();
      map.map(callee.getArgument(k), buffer);
    }
    Value output;
    if (call == last) {
      output = entry->getArgument(firstOutput);
    } else {
      Value result = call->getResult(0);
      auto type = dyn_cast<MemRefType>(callee.getArgumentTypes()[numInputs]);
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
      output = AllocBufferOp::create(builder, call.getLoc(), type, sizes,
                                     builder.getStringAttr(call.getCallee()),
                                     DenseI64ArrayAttr())
                   .getBuffer();
      buffers[result] = output;
    }
    map.map(callee.getArgument(numInputs), output);
    for (unsigned k = 1; k < call->getNumResults(); ++k)
      map.map(callee.getArgument(numInputs + k),
              entry->getArgument(firstOutput + k));
    for (Operation &op : callee.getFunctionBody().front().without_terminator())
      builder.clone(op, map);
  }
  func::ReturnOp::create(builder, loc);
  // The intermediates allocated at the function's start (after the sizes
  // they take), as TVM's root block allocates them.
  Operation *firstBody = nullptr;
  for (Operation &op : *entry)
    if (!isa<memref::DimOp, arith::ConstantOp, AllocBufferOp>(op)) {
      firstBody = &op;
      break;
    }
  // (A size a callee read of its parameter moves with the allocation.)
  auto hoist = [&](Operation *op) {
    if (op && op->getBlock() == entry && firstBody->isBeforeInBlock(op))
      op->moveBefore(firstBody);
  };
  for (Operation &op : llvm::make_early_inc_range(*entry)) {
    if (!isa<AllocBufferOp>(op) || !firstBody ||
        !firstBody->isBeforeInBlock(&op))
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
  if (!shapeVars.empty())
    unifySizeReads(func);
  // Block names unique in the function (two callees' "compute").
  func.walk([&](BlockOp block) {
    std::string base = block.getBlockName().str();
    std::string unique = base;
    for (unsigned n = 1; !blockNames.insert(unique).second; ++n)
      unique = base + "_" + std::to_string(n);
    if (unique != base)
      block.setBlockName(unique);
  });
  return functions->install(func, name, last);
}

void TIRFuseCallsPass::runOnOperation() {
  ModuleOp module = getOperation();
  functions.emplace(module);
  llvm::DenseSet<Operation *> fusedCallees;
  for (auto graph : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (!isGraphFunction(graph))
      continue;
    SmallVector<CallTirOp> calls;
    graph.walk([&](CallTirOp call) { calls.push_back(call); });
    llvm::DenseSet<Operation *> done;
    for (CallTirOp call : calls) {
      if (done.contains(call))
        continue;
      SmallVector<CallTirOp> chain = chainFrom(call);
      for (CallTirOp member : chain)
        done.insert(member);
      if (chain.size() < 2)
        continue;
      SmallVector<Value> inputs;
      func::FuncOp fused = fuse(chain, inputs);
      if (!fused)
        continue;
      CallTirOp last = chain.back();
      OpBuilder builder(last);
      auto replacement =
          CallTirOp::create(builder, last.getLoc(), last->getResultTypes(),
                            fused.getSymName(), inputs, last.getDims());
      last->replaceAllUsesWith(replacement->getResults());
      for (CallTirOp member : llvm::reverse(chain)) {
        if (func::FuncOp callee = calleeOf(member))
          fusedCallees.insert(callee);
        member->erase();
      }
    }
  }
  // The callees fusion took that nothing calls any more go.
  for (Operation *callee : fusedCallees) {
    auto func = cast<func::FuncOp>(callee);
    if (func.isPrivate() && SymbolTable::symbolKnownUseEmpty(func, module))
      func->erase();
  }
}
