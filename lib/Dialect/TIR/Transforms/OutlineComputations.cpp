//===- OutlineComputations.cpp - graph computations moved out -------------===//
//
// outlineComputations: the steps of a graph function computable from some
// of its parameters and constants, moved into a function of their own
// (TensorIR/Dialect/TIR/Transforms/OutlineComputations.h).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Transforms/OutlineComputations.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tir;

/// Whether `op` is copied wherever it is read rather than moved: a
/// constant, an empty tensor, or a fill of one with a constant (the start
/// of a reduction), none of which is worth a parameter.
static bool isFree(Operation *op) {
  if (!op)
    return false;
  if (isa<arith::ConstantOp>(op))
    return true;
  if (auto empty = dyn_cast<tensor::EmptyOp>(op))
    return empty.getDynamicSizes().empty();
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return llvm::all_of(fill->getOperands(),
                        [](Value v) { return isFree(v.getDefiningOp()); });
  return false;
}

static bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

func::FuncOp
tir::outlineComputations(func::FuncOp func,
                         function_ref<bool(BlockArgument)> isSource,
                         StringRef name) {
  // A tuple parameter's tensors are arguments one by one; their nesting
  // would not survive arguments leaving.
  if (func.isExternal() || !func.getBody().hasOneBlock() ||
      func->hasAttr(TIRDialect::kParamNestingAttrName))
    return {};
  // A function other functions call keeps its signature: the calls pass
  // what it takes now.
  ModuleOp module = func->getParentOfType<ModuleOp>();
  if (auto uses = SymbolTable::getSymbolUses(func, module))
    for (const SymbolTable::SymbolUse &use : *uses)
      if (isa<func::CallOp>(use.getUser()))
        return {};
  Block &body = func.getBody().front();
  // Values known ahead: the sources, the free ops' and the moved ops'.
  llvm::DenseSet<Value> ahead;
  for (BlockArgument arg : body.getArguments())
    if (isStaticTensor(arg.getType()) && isSource(arg))
      ahead.insert(arg);
  SmallVector<Operation *> moved;
  llvm::DenseSet<Operation *> movedSet;
  for (Operation &op : body.without_terminator()) {
    if (isFree(&op)) {
      for (Value result : op.getResults())
        ahead.insert(result);
      continue;
    }
    // What the op reads: its operands, and the values its regions use
    // from outside (a linalg body's scalar constant).
    SmallVector<Value> reads(op.getOperands());
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op.getRegions(), captured);
    reads.append(captured.begin(), captured.end());
    bool computable =
        op.getNumResults() > 0 && isMemoryEffectFree(&op) &&
        llvm::all_of(op.getResultTypes(), isStaticTensor) &&
        llvm::all_of(reads, [&](Value v) { return ahead.count(v); });
    // At least one operand worth the move: a source, a moved step's value
    // or a constant tensor (not only empty tensors and fills).
    bool fed = llvm::any_of(op.getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return !def || movedSet.count(def) ||
             (isa<arith::ConstantOp>(def) && isa<TensorType>(v.getType()));
    });
    if (!computable || !fed)
      continue;
    moved.push_back(&op);
    movedSet.insert(&op);
    for (Value result : op.getResults())
      ahead.insert(result);
  }
  if (moved.empty())
    return {};

  // Whether a use is in a moved step (a region's op counts as its step).
  auto inMoved = [&](Operation *user) {
    Operation *step = body.findAncestorOpInBlock(*user);
    return step && movedSet.count(step);
  };
  // What the rest of the function reads of the moved steps.
  llvm::SetVector<Value> outputs;
  for (Operation *op : moved)
    for (Value result : op->getResults())
      for (OpOperand &use : result.getUses())
        if (!inMoved(use.getOwner()))
          outputs.insert(result);
  // Steps whose values nothing else reads are left where they are.
  if (outputs.empty())
    return {};
  // The sources the moved steps read, in order.
  SmallVector<BlockArgument> inputs;
  for (BlockArgument arg : body.getArguments())
    if (llvm::any_of(arg.getUsers(), inMoved))
      inputs.push_back(arg);

  MLIRContext *context = func.getContext();
  SymbolTable symbols(module);
  std::string unique = name.str();
  for (unsigned k = 1; symbols.lookup(unique); ++k)
    unique = name.str() + std::to_string(k);
  OpBuilder b(func);
  SmallVector<Type> inputTypes, outputTypes;
  for (BlockArgument arg : inputs)
    inputTypes.push_back(arg.getType());
  for (Value v : outputs)
    outputTypes.push_back(v.getType());
  auto outlined = func::FuncOp::create(
      b, func.getLoc(), unique, b.getFunctionType(inputTypes, outputTypes));
  outlined.setPrivate();
  outlined->setAttr(TIRDialect::kTupleResultAttrName, UnitAttr::get(context));
  Block *entry = outlined.addEntryBlock();
  IRMapping map;
  for (auto [k, arg] : llvm::enumerate(inputs)) {
    map.map(arg, entry->getArgument(k));
    if (auto hint =
            func.getArgAttr(arg.getArgNumber(), TIRDialect::kNameAttrName))
      outlined.setArgAttr(k, TIRDialect::kNameAttrName, hint);
  }
  OpBuilder inner = OpBuilder::atBlockEnd(entry);
  // A free op is copied where it is first read, its own operands first.
  std::function<void(Value)> copyFree = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (map.contains(v) || !isFree(def))
      return;
    for (Value operand : def->getOperands())
      copyFree(operand);
    inner.clone(*def, map);
  };
  for (Operation *op : moved) {
    for (Value operand : op->getOperands())
      copyFree(operand);
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value v : captured)
      copyFree(v);
    inner.clone(*op, map);
  }
  SmallVector<Value> results;
  for (Value v : outputs)
    results.push_back(map.lookup(v));
  func::ReturnOp::create(inner, func.getLoc(), results);

  // The function takes the outputs instead, after its parameters, named
  // apart from them.
  llvm::StringSet<> taken;
  for (unsigned k = 0, e = func.getNumArguments(); k < e; ++k)
    if (auto hint =
            func.getArgAttrOfType<StringAttr>(k, TIRDialect::kNameAttrName))
      taken.insert(hint.getValue());
  unsigned counter = 0;
  for (Value v : outputs) {
    std::string hint;
    do {
      hint = counter == 0 ? "lifted" : "lifted" + std::to_string(counter);
      ++counter;
    } while (!taken.insert(hint).second);
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(
            index, v.getType(),
            b.getDictionaryAttr(b.getNamedAttr(TIRDialect::kNameAttrName,
                                               b.getStringAttr(hint))),
            v.getLoc())))
      return {};
    v.replaceUsesWithIf(func.getArgument(index), [&](OpOperand &use) {
      return !inMoved(use.getOwner());
    });
  }
  for (Operation *op : llvm::reverse(moved))
    op->erase();
  // Free ops only the moved steps read.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isFree(&op) && op.use_empty())
      op.erase();
  llvm::BitVector unused(func.getNumArguments());
  for (BlockArgument arg : inputs)
    if (arg.use_empty())
      unused.set(arg.getArgNumber());
  if (failed(func.eraseArguments(unused)))
    return {};
  return outlined;
}
