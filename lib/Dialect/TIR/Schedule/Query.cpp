//===- Query.cpp - schedule queries (get_block, get_loops) ----------------===//

#include "TensorIR/Dialect/TIR/Schedule/Query.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tir;

SmallVector<BlockOp> mlir::tir::findBlocksByName(Operation *scope,
                                                 StringRef name) {
  SmallVector<BlockOp> found;
  scope->walk<WalkOrder::PreOrder>([&](BlockOp block) {
    if (block.getBlockName() == name)
      found.push_back(block);
  });
  return found;
}

/// "@main, file:3:5" for a diagnostic naming a candidate.
static std::string describeCandidate(BlockOp block) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto func = block->getParentOfType<FunctionOpInterface>())
    os << "@" << func.getName();
  if (auto loc = block->getLoc()->findInstanceOf<FileLineColLoc>())
    os << " at " << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
       << loc.getColumn();
  return text;
}

FailureOr<BlockOp> mlir::tir::getBlock(Operation *scope, StringRef name,
                                       ScheduleError &error) {
  SmallVector<BlockOp> found = findBlocksByName(scope, name);
  if (found.size() == 1)
    return found.front();
  error.culprit = found.empty() ? scope : found.front().getOperation();
  if (found.empty()) {
    error.message = ("Cannot find a block with the name: " + name).str();
    error.summary = "Cannot find a block with the specified name";
    return failure();
  }
  std::string list;
  for (auto [i, block] : llvm::enumerate(found))
    list += (i ? "; " : "") + describeCandidate(block);
  error.message =
      ("block name '" + name + "' is ambiguous: " + Twine(found.size()) +
       " blocks have it (" + list + ")")
          .str();
  error.summary = "Found multiple blocks with the specified name";
  return failure();
}

SmallVector<ForOp> mlir::tir::getLoops(BlockOp block) {
  SmallVector<ForOp> loops;
  for (Operation *p = block->getParentOp(); p && !isa<BlockOp>(p);
       p = p->getParentOp()) {
    if (auto loop = dyn_cast<ForOp>(p))
      loops.push_back(loop);
    else if (p->hasTrait<OpTrait::IsIsolatedFromAbove>())
      break;
  }
  std::reverse(loops.begin(), loops.end());
  return loops;
}

BlockOp mlir::tir::getExplicitRootBlock(FunctionOpInterface func) {
  if (func.isExternal())
    return {};
  BlockOp root;
  for (Operation &op : func.getFunctionBody().front().without_terminator()) {
    auto block = dyn_cast<BlockOp>(op);
    if (root || !block || block.getBlockName() != "root" ||
        block.getNumIterVars() != 0)
      return {};
    root = block;
  }
  return root;
}

SmallVector<BlockOp> mlir::tir::getChildBlocks(Operation *parent) {
  if (auto func = dyn_cast<FunctionOpInterface>(parent))
    if (BlockOp root = getExplicitRootBlock(func))
      return collectChildBlocks(root);
  return collectChildBlocks(parent);
}

SmallVector<BlockOp> mlir::tir::getProducers(BlockOp block) {
  return getProducersIn(block, getScopeBlocks(getScopeRoot(block)));
}

SmallVector<BlockOp> mlir::tir::getConsumers(BlockOp block) {
  return getConsumersIn(block, getScopeBlocks(getScopeRoot(block)));
}

bool mlir::tir::isOutputBlock(BlockOp block) {
  Operation *scope = getScopeRoot(block);
  SmallVector<Value> read, written;
  getAccessedBuffers(block, read, written);
  return llvm::any_of(written, [&](Value buffer) {
    return !sched::definedInside(buffer, scope);
  });
}

SmallVector<BlockOp> mlir::tir::getOutputBlocks(Operation *scope) {
  SmallVector<BlockOp> blocks;
  scope->walk<WalkOrder::PreOrder>([&](BlockOp block) {
    if (block != scope && isOutputBlock(block))
      blocks.push_back(block);
  });
  return blocks;
}
