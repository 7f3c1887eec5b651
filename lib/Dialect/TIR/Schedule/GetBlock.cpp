//===- GetBlock.cpp - TVM's get_block and sample_perfect_tile -------------===//

#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;

FailureOr<Operation *> mlir::tir::getBlockIn(ArrayRef<Operation *> scopes,
                                             StringRef name,
                                             std::optional<StringRef> funcName,
                                             ScheduleError &error) {
  if (scopes.size() != 1) {
    error = {"get_block expects a handle to exactly one function or module, "
             "got " +
                 std::to_string(scopes.size()) + " payload ops",
             nullptr};
    return failure();
  }
  Operation *scope = scopes.front();
  if (funcName) {
    Operation *func = nullptr;
    scope->walk([&](FunctionOpInterface candidate) {
      if (candidate.getName() == *funcName)
        func = candidate;
    });
    if (!func) {
      error = {("no function named '" + *funcName + "'").str(), scope};
      return failure();
    }
    scope = func;
  }
  // TVM's root block, which tir does not spell (or spells as the
  // function's one block "root"): the function.
  auto isExplicitRoot = [](BlockOp block) {
    auto func = dyn_cast<FunctionOpInterface>(block->getParentOp());
    return func && getExplicitRootBlock(func) == block;
  };
  if (name == "root" &&
      llvm::all_of(findBlocksByName(scope, name), isExplicitRoot)) {
    if (isa<FunctionOpInterface>(scope))
      return scope;
    SmallVector<Operation *> funcs;
    // The functions with a body, not a transform script's sequences.
    scope->walk([&](FunctionOpInterface func) {
      if (!func.isExternal() &&
          func->getName().getDialectNamespace() != "transform")
        funcs.push_back(func);
    });
    if (funcs.size() == 1)
      return funcs.front();
    error = {"get_block(\"root\") does not know which function to be "
             "working on: the module has " +
                 std::to_string(funcs.size()) +
                 " functions; give func_name or call work_on",
             nullptr};
    return failure();
  }
  FailureOr<BlockOp> block = getBlock(scope, name, error);
  if (failed(block)) {
    // Point at each candidate of an ambiguous name.
    SmallVector<BlockOp> candidates = findBlocksByName(scope, name);
    error.culprit = nullptr;
    if (candidates.size() > 1) {
      for (BlockOp candidate : candidates) {
        auto func = candidate->getParentOfType<FunctionOpInterface>();
        error.notes.emplace_back(
            candidate,
            ("in function '" + (func ? func.getName() : StringRef("?")) + "'")
                .str());
      }
    }
  }
  if (failed(block))
    return failure();
  return block->getOperation();
}
