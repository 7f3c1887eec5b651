//===- FuseTIR.cpp - fused group functions as one prim_func each ----------===//
//
// --tir-fuse-tir (Relax's FuseTIR): a Primitive graph function made of
// prim_func calls (FuseOps's groups) becomes one prim_func of its name, the
// callees' bodies one after the other (MergeCallees.h), and its calls
// tir.call_tir ops of it.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/FusionGroups.h"
#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/MergeCallees.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRFUSETIRPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// A group function's prim_func, and which of its parameters that takes.
struct FusedGroup {
  func::FuncOp prim;
  SmallVector<unsigned> params;
};

/// The value `size` (a size computed in `callee` from its parameters) at
/// `b`'s insertion point, its parameters mapped by `map` (the ops cloned for
/// it appended to `created`); null when it is computed from anything else.
static Value sizeAt(OpBuilder &b, Value size, IRMapping &map,
                    SmallVectorImpl<Operation *> &created) {
  if (Value mapped = map.lookupOrNull(size))
    return mapped;
  Operation *def = size.getDefiningOp();
  if (!def || !isSizeComputation(def))
    return {};
  for (Value operand : def->getOperands())
    if (!sizeAt(b, operand, map, created))
      return {};
  created.push_back(b.clone(*def, map));
  return created.back()->getResult(cast<OpResult>(size).getResultNumber());
}

struct TIRFuseTIRPass : public tir::impl::TIRFuseTIRPassBase<TIRFuseTIRPass> {
  void runOnOperation() override;
};

} // namespace

/// The prim_func computing group function `group`; nullopt when its body
/// is not prim_func calls alone, or they cannot be merged.
static std::optional<FusedGroup> mergeGroup(func::FuncOp group,
                                            SymbolTable &symbols) {
  Block &body = group.getBody().front();
  SmallVector<CallTirOp> calls;
  for (Operation &op : body.without_terminator()) {
    auto call = dyn_cast<CallTirOp>(op);
    // (A call writing inputs in place is not merged.)
    if (call && !call.getInplaceIndices())
      calls.push_back(call);
    else if (call || !isSizeComputation(&op))
      return std::nullopt;
  }
  SmallVector<Value> inputs(body.getArguments().begin(),
                            body.getArguments().end());
  SmallVector<Value> outputs(body.getTerminator()->getOperands());
  SmallVector<Value> read;
  func::FuncOp prim =
      mergeCallees(calls, inputs, outputs, group.getName(), symbols, read);
  if (!prim)
    return std::nullopt;
  FusedGroup fused{prim, {}};
  for (Value v : read)
    fused.params.push_back(cast<BlockArgument>(v).getArgNumber());
  return fused;
}

void TIRFuseTIRPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  llvm::MapVector<Operation *, FusedGroup> fused;
  for (auto group : module.getOps<func::FuncOp>())
    if (!group.isExternal() && isPrimitiveFunction(group) &&
        group.getBody().hasOneBlock())
      if (std::optional<FusedGroup> f = mergeGroup(group, symbols))
        fused[group] = *f;

  // The calls of each group function; a group some call of which cannot
  // take the prim_func (a result size it cannot compute) stays.
  llvm::MapVector<Operation *, SmallVector<func::CallOp>> callsOf;
  module.walk([&](func::CallOp call) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (callee && fused.count(callee))
      callsOf[callee].push_back(call);
  });
  llvm::SetVector<Operation *> callees;
  for (auto &[op, entry] : fused) {
    auto group = cast<func::FuncOp>(op);
    Block &body = group.getBody().front();
    SmallVector<func::CallOp> calls = callsOf.lookup(group);
    bool ok = true;
    OpBuilder b(&getContext());
    SmallVector<Operation *> created;
    SmallVector<std::pair<func::CallOp, CallTirOp>> replacements;
    for (func::CallOp call : calls) {
      b.setInsertionPoint(call);
      IRMapping map;
      for (auto [arg, operand] :
           llvm::zip(body.getArguments(), call.getOperands()))
        map.map(arg, operand);
      SmallVector<Value> dims;
      for (Value output : body.getTerminator()->getOperands()) {
        auto type = cast<ShapedType>(output.getType());
        for (int64_t d = 0; d < type.getRank() && ok; ++d) {
          if (!type.isDynamicDim(d))
            continue;
          Value size = getDynamicSize(output, d);
          Value at = size ? sizeAt(b, size, map, created) : Value();
          ok &= static_cast<bool>(at);
          dims.push_back(at);
        }
      }
      if (!ok)
        break;
      SmallVector<Value> inputs;
      for (unsigned k : entry.params)
        inputs.push_back(call.getOperand(k));
      auto tirCall = CallTirOp::create(b, call.getLoc(), call.getResultTypes(),
                                       group.getName(), inputs, dims);
      replacements.push_back({call, tirCall});
    }
    if (!ok) {
      // The calls stay as they are: what was built for them goes.
      for (auto [call, tirCall] : replacements)
        tirCall->erase();
      for (Operation *size : llvm::reverse(created))
        size->erase();
      entry.prim->erase();
      entry.prim = {};
      continue;
    }
    for (auto [call, tirCall] : replacements) {
      call->replaceAllUsesWith(tirCall->getResults());
      call->erase();
    }
    // The prim_func takes the group function's place and name.
    body.walk([&](CallTirOp call) {
      if (Operation *callee = symbols.lookup(call.getCallee()))
        callees.insert(callee);
    });
    std::string name = group.getName().str();
    module.getBody()->getOperations().insert(Block::iterator(group),
                                             entry.prim);
    symbols.erase(group);
    entry.prim.setSymName(name);
    symbols.insert(entry.prim);
  }
  // The prim_funcs only the groups called.
  for (Operation *callee : callees) {
    auto func = cast<func::FuncOp>(callee);
    if (func.isPrivate() && SymbolTable::symbolKnownUseEmpty(func, module))
      symbols.erase(func);
  }
}
