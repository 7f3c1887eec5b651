//===- GetBlock.cpp - TVM's get_block and sample_perfect_tile -------------===//

#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;

FailureOr<BlockOp> mlir::tir::getBlockIn(ArrayRef<Operation *> scopes,
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
  return block;
}

LogicalResult mlir::tir::checkPerfectTile(ForOp loop,
                                          ArrayRef<int64_t> decision,
                                          int64_t maxInnermostFactor,
                                          ScheduleError &error) {
  std::optional<int64_t> lower = loop.getConstantLowerBound();
  std::optional<int64_t> upper = loop.getConstantUpperBound();
  if (lower != 0 || !upper) {
    error = {"sample_perfect_tile needs a loop that starts at 0 and has a "
             "constant extent",
             loop};
    return failure();
  }
  int64_t product = 1;
  for (int64_t factor : decision) {
    if (factor < 1) {
      product = -1;
      break;
    }
    product *= factor;
  }
  bool innermostOk = decision.empty() || maxInnermostFactor <= 0 ||
                     decision.back() <= maxInnermostFactor;
  if (product != *upper || !innermostOk) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "sample_perfect_tile: decision [";
    llvm::interleaveComma(decision, os);
    os << "] is not " << decision.size() << " factors of the extent " << *upper
       << " with the innermost at most " << maxInnermostFactor;
    error = {text, loop};
    return failure();
  }
  return success();
}
