//===- FuseOps.cpp - fused groups of steps as functions of their own ------===//
//
// --tir-fuse-ops (Relax's FuseOps): in each graph function, the steps TVM's
// fusion rules group (TensorIR/Dialect/TIR/Analysis/FusionGroups.h: the
// patterns of the called prim_funcs along the post-dominator tree) move
// into a private graph function `fused_<callees>` marked Primitive, called
// where the group's last step was. The new function takes the values the
// group reads (constants too) and returns those read after it. FuseTIR then
// makes each one prim_func.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/FusionGroups.h"
#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRFUSEOPSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

struct TIRFuseOpsPass : public tir::impl::TIRFuseOpsPassBase<TIRFuseOpsPass> {
  void runOnOperation() override;
  void fuseIn(func::FuncOp graph);
  /// The pattern of the step `op` (opaque but for prim_func calls).
  OpPattern patternOf(Operation *op);
  /// Moves `members` (steps of one block, in order) into a new function.
  void outline(ArrayRef<Operation *> members);

  std::optional<CreatedFunctions> functions;
  DenseMap<Operation *, OpPattern> patterns;
  /// The group functions made, by their text without parameter names.
  llvm::StringMap<func::FuncOp> created;
};

} // namespace

OpPattern TIRFuseOpsPass::patternOf(Operation *op) {
  auto call = dyn_cast<CallTirOp>(op);
  // A call writing inputs in place stays a step of its own.
  if (!call || call.getInplaceIndices())
    return OpPattern::Opaque;
  auto callee = functions->getSymbols().lookup<func::FuncOp>(call.getCallee());
  if (!callee || callee.isExternal())
    return OpPattern::Opaque;
  auto [it, inserted] = patterns.try_emplace(callee, OpPattern::Opaque);
  if (inserted)
    it->second = getOpPattern(callee);
  return it->second;
}

void TIRFuseOpsPass::fuseIn(func::FuncOp graph) {
  Block &body = graph.getBody().front();
  Operation *terminator = body.getTerminator();
  FusionGraph fusion;
  DenseMap<Value, unsigned> nodeOf;
  SmallVector<Operation *> stepOf; // Per node; null for a parameter.
  for (BlockArgument arg : body.getArguments()) {
    nodeOf[arg] = fusion.addNode(OpPattern::Opaque, /*externRef=*/true);
    stepOf.push_back(nullptr);
  }
  for (Operation &op : body.without_terminator()) {
    if (isSizeComputation(&op))
      continue;
    OpPattern pattern = patternOf(&op);
    // A value the function returns is read outside (a relax output var).
    bool returned = llvm::any_of(op.getUsers(), [&](Operation *user) {
      return body.findAncestorOpInBlock(*user) == terminator;
    });
    unsigned node = fusion.addNode(pattern, returned);
    stepOf.push_back(&op);
    llvm::SetVector<Value> read(op.operand_begin(), op.operand_end());
    getUsedValuesDefinedAbove(op.getRegions(), read);
    for (Value operand : read) {
      auto it = nodeOf.find(operand);
      if (it != nodeOf.end())
        fusion.addEdge(it->second, node, pattern);
    }
    for (Value result : op.getResults())
      nodeOf[result] = node;
  }

  SmallVector<unsigned> groupOf = partitionFusionGraph(fusion);
  llvm::MapVector<unsigned, SmallVector<Operation *>> groups;
  for (auto [node, step] : llvm::enumerate(stepOf))
    if (step)
      groups[groupOf[node]].push_back(step);
  for (auto &[root, members] : groups)
    if (members.size() > 1)
      outline(members);
  if (!sortTopologically(&body, body.without_terminator())) {
    graph.emitError("fuse-ops: the fused groups depend on one another in "
                    "a cycle");
    signalPassFailure();
  }
}

void TIRFuseOpsPass::outline(ArrayRef<Operation *> members) {
  MLIRContext *ctx = &getContext();
  Operation *last = members.back();
  Block *body = last->getBlock();
  llvm::SmallPtrSet<Operation *, 8> inGroup(members.begin(), members.end());
  auto isMember = [&](Operation *user) {
    Operation *step = body->findAncestorOpInBlock(*user);
    return step && inGroup.contains(step);
  };

  // fused_<callees>: a prim_func's name, a fused function's without its
  // "fused_".
  std::string name = "fused";
  for (Operation *op : members) {
    StringRef part;
    if (auto call = dyn_cast<CallTirOp>(op))
      part = call.getCallee();
    else if (auto call = dyn_cast<func::CallOp>(op))
      part = call.getCallee();
    else
      part = op->getName().stripDialect();
    part.consume_front("fused_");
    name += "_" + part.str();
  }

  // What the group reads from outside, in the order its steps read it;
  // sizes are recomputed inside from the tensors they measure.
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> sizeOps;
  std::function<void(Value)> read = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (def && inGroup.contains(def))
      return;
    if (def && isSizeComputation(def) && def->getBlock() == body) {
      for (Value operand : def->getOperands())
        read(operand);
      sizeOps.insert(def);
      return;
    }
    inputs.insert(value);
  };
  for (Operation *op : members) {
    llvm::SetVector<Value> used(op->operand_begin(), op->operand_end());
    getUsedValuesDefinedAbove(op->getRegions(), used);
    for (Value v : used)
      read(v);
  }
  // What is read after it: the values the function returns, then the
  // others in the order the rest of the function reads them.
  llvm::SetVector<Value> outputs;
  Operation *terminator = body->getTerminator();
  for (Operation *op : members)
    for (Value result : op->getResults())
      if (llvm::is_contained(terminator->getOperands(), result))
        outputs.insert(result);
  for (Operation &op : *body) {
    if (inGroup.contains(&op))
      continue;
    llvm::SetVector<Value> used(op.operand_begin(), op.operand_end());
    getUsedValuesDefinedAbove(op.getRegions(), used);
    for (Value v : used)
      if (Operation *def = v.getDefiningOp(); def && inGroup.contains(def))
        outputs.insert(v);
  }
  if (outputs.empty())
    return; // Nothing reads it: dead code FuseOps leaves alone.

  // The function: parameters named after the values they take.
  auto graph = cast<func::FuncOp>(body->getParentOp());
  OpBuilder b(ctx);
  auto fused = func::FuncOp::create(
      b, last->getLoc(), name,
      b.getFunctionType(ValueRange(inputs.getArrayRef()).getTypes(),
                        ValueRange(outputs.getArrayRef()).getTypes()));
  fused.setPrivate();
  fused->setAttr(
      TIRDialect::kFuncAttrsAttrName,
      b.getDictionaryAttr(b.getNamedAttr("Primitive", b.getBoolAttr(true))));
  if (outputs.size() > 1)
    fused->setAttr(TIRDialect::kTupleResultAttrName, b.getUnitAttr());
  llvm::StringSet<> taken;
  unsigned lvCount = 0, constCount = 0;
  for (auto [k, v] : llvm::enumerate(inputs)) {
    std::string hint;
    auto arg = dyn_cast<BlockArgument>(v);
    if (arg && arg.getOwner() == &graph.getBody().front())
      if (auto attr = graph.getArgAttrOfType<StringAttr>(
              arg.getArgNumber(), TIRDialect::kNameAttrName))
        hint = attr.str();
    while (hint.empty() || !taken.insert(hint).second) {
      if (isa_and_nonnull<arith::ConstantOp>(v.getDefiningOp())) {
        hint = "param_" + std::to_string(constCount++);
      } else {
        hint = lvCount == 0 ? "lv" : "lv" + std::to_string(lvCount);
        ++lvCount;
      }
    }
    fused.setArgAttr(k, TIRDialect::kNameAttrName, b.getStringAttr(hint));
    // The shape variables of its dynamic dimensions, as the graph names them.
    if (auto type = dyn_cast<RankedTensorType>(v.getType());
        type && !type.hasStaticShape()) {
      SmallVector<StringRef> vars;
      SmallVector<std::string> storage;
      for (int64_t d = 0; d < type.getRank(); ++d)
        storage.push_back(getShapeVarName(v, d));
      for (const std::string &s : storage)
        vars.push_back(s);
      fused.setArgAttr(k, TIRDialect::kDimVarsAttrName,
                       b.getStrArrayAttr(vars));
    }
  }
  Block *entry = fused.addEntryBlock();
  IRMapping map;
  for (auto [k, v] : llvm::enumerate(inputs))
    map.map(v, entry->getArgument(k));
  OpBuilder inner = OpBuilder::atBlockEnd(entry);
  for (Operation &op : *body)
    if (sizeOps.contains(&op) || inGroup.contains(&op))
      inner.clone(op, map);
  SmallVector<Value> results;
  for (Value v : outputs)
    results.push_back(map.lookup(v));
  func::ReturnOp::create(inner, last->getLoc(), results);
  // Equal groups (the same steps on the same types; the parameters' names
  // aside) are one function, as TVM's BlockBuilder makes them.
  std::string key;
  {
    llvm::raw_string_ostream os(key);
    fused.getFunctionBody().front().print(os);
    os << fused.getFunctionType();
    for (unsigned k = 0; k < fused.getNumArguments(); ++k)
      if (auto vars = fused.getArgAttr(k, TIRDialect::kDimVarsAttrName))
        os << k << vars;
  }
  auto [it, inserted] = created.try_emplace(key);
  if (inserted)
    it->second = functions->install(fused, name, last);
  else
    fused->erase();
  fused = it->second;

  // The call, where the last step was.
  b.setInsertionPoint(last);
  auto call =
      func::CallOp::create(b, last->getLoc(), fused,
                           SmallVector<Value>(inputs.begin(), inputs.end()));
  for (auto [output, result] : llvm::zip(outputs, call.getResults()))
    Value(output).replaceUsesWithIf(
        result, [&](OpOperand &use) { return !isMember(use.getOwner()); });
  for (Operation *op : llvm::reverse(members))
    op->erase();
}

void TIRFuseOpsPass::runOnOperation() {
  ModuleOp module = getOperation();
  functions.emplace(module);
  for (auto graph : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (graph.isExternal() || !isGraphFunction(graph) ||
        !graph.getBody().hasOneBlock() || isPrimitiveFunction(graph))
      continue;
    fuseIn(graph);
  }
}
