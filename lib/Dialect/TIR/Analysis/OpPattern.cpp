//===- OpPattern.cpp - how a prim_func's outputs depend on its inputs -----===//

#include "TensorIR/Dialect/TIR/Analysis/OpPattern.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tir;

/// The indices an access (`map` of `operands`) reads or writes, as
/// expressions of `block`'s iteration variables (dimension k: variable k);
/// nullopt when an index depends on anything else (a loaded value, a
/// loop's variable).
static std::optional<SmallVector<AffineExpr>>
accessIndices(BlockOp block, AffineMap map, ValueRange operands) {
  MLIRContext *ctx = map.getContext();
  SmallVector<AffineExpr> operandExprs;
  for (Value operand : operands) {
    ValueIndexExpr index = getIndexExprOf(operand);
    SmallVector<AffineExpr> vars;
    for (Value input : index.inputs) {
      auto arg = dyn_cast<BlockArgument>(input);
      if (!arg || arg.getOwner() != block.getBody() ||
          arg.getArgNumber() >= block.getNumIterVars())
        return std::nullopt;
      vars.push_back(getAffineDimExpr(arg.getArgNumber(), ctx));
    }
    operandExprs.push_back(index.expr.replaceDims(vars));
  }
  SmallVector<AffineExpr> result;
  for (AffineExpr e : map.getResults())
    result.push_back(e.replaceDimsAndSymbols(operandExprs, {}));
  return result;
}

/// Whether a read at `load` of a buffer shaped `loadShape` broadcasts to
/// the write at `store`: its indices are some of the written ones in order
/// (a size-1 dimension read at 0 aside).
static bool isBroadcast(ArrayRef<AffineExpr> store, ArrayRef<AffineExpr> load,
                        ArrayRef<int64_t> loadShape) {
  size_t j = 0;
  for (auto [i, index] : llvm::enumerate(load)) {
    auto constant = dyn_cast<AffineConstantExpr>(index);
    if (loadShape[i] == 1 && constant && constant.getValue() == 0)
      continue;
    while (j < store.size() && store[j] != index)
      ++j;
    if (j == store.size())
      return false;
  }
  return true;
}

/// Whether the read at `load` uses only variables the write at `store`
/// indexes by (each of the written indices a variable).
static bool isInjective(ArrayRef<AffineExpr> store, ArrayRef<AffineExpr> load) {
  if (!llvm::all_of(store, [](AffineExpr e) { return isa<AffineDimExpr>(e); }))
    return false;
  return llvm::all_of(load, [&](AffineExpr index) {
    bool inside = true;
    index.walk([&](AffineExpr e) {
      if (isa<AffineDimExpr>(e) && !llvm::is_contained(store, e))
        inside = false;
    });
    return inside;
  });
}

/// Whether `store` accumulates a product into what it reads at its own
/// place: C[i] = C[i] + A * B (a matmul, a convolution).
static bool isMultiplyAccumulate(StoreOp store) {
  Operation *add = store.getValue().getDefiningOp();
  if (!isa_and_present<arith::AddFOp, arith::AddIOp>(add))
    return false;
  for (unsigned k = 0; k < 2; ++k) {
    auto self = add->getOperand(k).getDefiningOp<LoadOp>();
    Operation *mul = add->getOperand(1 - k).getDefiningOp();
    if (self && self.getBuffer() == store.getBuffer() &&
        self.getMap() == store.getMap() &&
        self.getIndices() == store.getIndices() &&
        isa_and_present<arith::MulFOp, arith::MulIOp>(mul))
      return true;
  }
  return false;
}

static OpPattern blockPattern(BlockOp block) {
  SmallVector<StoreOp> stores;
  SmallVector<LoadOp> loads;
  // The block's own body: not its init, not the blocks inside it.
  block.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<InitOp, BlockOp>(op))
      return WalkResult::skip();
    if (auto store = dyn_cast<StoreOp>(op))
      stores.push_back(store);
    if (auto load = dyn_cast<LoadOp>(op))
      loads.push_back(load);
    return WalkResult::advance();
  });
  if (stores.empty())
    return OpPattern::Opaque;
  StoreOp store = stores.front();
  auto written = accessIndices(block, store.getMap(), store.getIndices());
  if (!written)
    return OpPattern::Opaque;
  // Several stores (a reduction of two values at once) at the same indices
  // are as one.
  for (StoreOp other : llvm::drop_begin(stores)) {
    auto at = accessIndices(block, other.getMap(), other.getIndices());
    if (!at || *at != *written)
      return OpPattern::Opaque;
  }
  SmallVector<unsigned> reduceVars;
  for (unsigned k = 0; k < block.getNumIterVars(); ++k)
    if (block.getIterType(k) == IterType::Reduce)
      reduceVars.push_back(k);
  if (!reduceVars.empty()) {
    if (stores.size() == 1 && isMultiplyAccumulate(store))
      return OpPattern::OutEWiseFusable;
    // A read at an expression of a reduction variable (a pooling window's
    // i * 2 + k) is not a plain reduction either.
    for (LoadOp load : loads) {
      auto read = accessIndices(block, load.getMap(), load.getIndices());
      if (!read)
        return OpPattern::Opaque;
      for (AffineExpr index : *read)
        if (!isa<AffineDimExpr>(index) &&
            llvm::any_of(reduceVars,
                         [&](unsigned k) { return index.isFunctionOfDim(k); }))
          return OpPattern::OutEWiseFusable;
    }
    return OpPattern::CommReduce;
  }
  OpPattern pattern = OpPattern::ElemWise;
  bool anyElemWise = false;
  for (LoadOp load : loads) {
    auto read = accessIndices(block, load.getMap(), load.getIndices());
    if (!read)
      return OpPattern::Opaque;
    OpPattern kind;
    if (*read == *written) {
      kind = OpPattern::ElemWise;
      anyElemWise = true;
    } else if (isBroadcast(
                   *written, *read,
                   cast<MemRefType>(load.getBuffer().getType()).getShape())) {
      kind = OpPattern::Broadcast;
    } else if (isInjective(*written, *read)) {
      kind = OpPattern::Injective;
    } else {
      return OpPattern::Opaque;
    }
    pattern = std::max(pattern, kind);
  }
  // A read at the written indices beside broadcast ones (a bias add:
  // C[i, j] = A[i, j] + B[j]) keeps the block element-wise, as TVM has it.
  if (pattern == OpPattern::Broadcast && anyElemWise)
    return OpPattern::ElemWise;
  return pattern;
}

OpPattern mlir::tir::analyzeOpPattern(func::FuncOp func) {
  if (func.isExternal())
    return OpPattern::Opaque;
  // A kernel already scheduled for a GPU (a loop bound to threads) keeps
  // its schedule: fused with other functions it would lose it.
  if (func.walk([](ForOp loop) {
            return loop.getThread() ? WalkResult::interrupt()
                                    : WalkResult::advance();
          })
          .wasInterrupted())
    return OpPattern::Opaque;
  OpPattern pattern = OpPattern::ElemWise;
  bool any = false;
  func.walk([&](BlockOp block) {
    // Blocks that hold blocks (the root, blockize's) write through them.
    bool outer = false;
    block.getBody()->walk([&](BlockOp) { outer = true; });
    if (outer)
      return;
    any = true;
    OpPattern kind = blockPattern(block);
    // A reduction's results then a spatial block writing the function's
    // output (softmax's normalization) is matmul-like, as TVM has it.
    bool writesOutput = false;
    block.getBody()->walk([&](StoreOp store) {
      auto arg = dyn_cast<BlockArgument>(store.getBuffer());
      writesOutput |= arg && arg.getOwner() == &func.getFunctionBody().front();
    });
    if (kind <= OpPattern::Injective && writesOutput &&
        pattern == OpPattern::CommReduce)
      pattern = OpPattern::OutEWiseFusable;
    else
      pattern = std::max(pattern, kind);
  });
  return any ? pattern : OpPattern::Opaque;
}

OpPattern mlir::tir::getOpPattern(func::FuncOp func) {
  if (auto attr =
          func->getAttrOfType<IntegerAttr>(TIRDialect::kOpPatternAttrName)) {
    int64_t value = attr.getInt();
    if (value >= 0 && value <= 4)
      return static_cast<OpPattern>(value);
    return OpPattern::Opaque;
  }
  return analyzeOpPattern(func);
}
