//===- DisallowAsyncStridedMemCopy.cpp - async copies must be contiguous --===//
//
// TVM's DisallowAsyncStridedMemCopy: a schedule is rejected when a copy in
// an asynchronous stage of a software pipeline (a loop annotated
// "software_pipeline_async_stages") is strided: the innermost loop of the
// copy (of more than one iteration) does not walk both the buffer it reads
// and the one it writes one element at a time, in row-major order. Such
// copies cannot become the DMA / cp.async transfers asynchronous stages
// are for. TVM lowers the function and looks at the flattened copies; the
// same strides are read here off the schedule's blocks.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/Postprocs.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// The row-major flattened index of an access (`map` over `operands`, the
/// block's variables and other values) as an expression of `loops`' variables
/// (dimension k: loop k); other inputs are symbols. Null where a buffer's
/// shape is not static.
AffineExpr flattenedIndex(BlockOp block, AffineMap map, ValueRange operands,
                          MemRefType type, ArrayRef<ForOp> loops) {
  if (!type.hasStaticShape())
    return AffineExpr();
  MLIRContext *ctx = block.getContext();
  SmallVector<Value> others;
  auto exprOfInput = [&](Value v) -> AffineExpr {
    for (auto [k, loop] : llvm::enumerate(loops))
      if (v == ForOp(loop).getInductionVar())
        return getAffineDimExpr(k, ctx);
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return getAffineConstantExpr(*c, ctx);
    auto it = llvm::find(others, v);
    if (it == others.end()) {
      others.push_back(v);
      it = std::prev(others.end());
    }
    return getAffineSymbolExpr(it - others.begin(), ctx);
  };
  // The block's variables through their bindings.
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  SmallVector<AffineExpr> bindingInputs;
  for (Value v : block.getBindingValues())
    bindingInputs.push_back(exprOfInput(v));
  SmallVector<AffineExpr> inputs;
  for (Value operand : operands) {
    auto arg = dyn_cast<BlockArgument>(operand);
    if (arg && arg.getOwner() == block.getBody() &&
        arg.getArgNumber() < block.getNumIterVars())
      inputs.push_back(bindings[arg.getArgNumber()].replaceDims(bindingInputs));
    else
      inputs.push_back(exprOfInput(operand));
  }
  AffineExpr flat = getAffineConstantExpr(0, ctx);
  int64_t stride = 1;
  ArrayRef<int64_t> shape = type.getShape();
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    flat = flat + map.getResult(d).replaceDimsAndSymbols(inputs, {}) * stride;
    stride *= shape[d];
  }
  return simplifyIndexExpr(flat, loops.size(), others.size());
}

/// Whether `e` moves by exactly 1 when loop dimension `dim` does (the loop
/// appears only linearly, with coefficient 1).
bool isUnitStride(AffineExpr e, unsigned dim) {
  AffineTerms terms = AffineTerms::get(e);
  int64_t coefficient = 0;
  for (auto &[term, k] : terms.terms) {
    if (term == getAffineDimExpr(dim, e.getContext()))
      coefficient += k;
    else if (term.isFunctionOfDim(dim))
      return false;
  }
  return coefficient == 1;
}

/// Whether the copy `block` (one store of one load) inside the pipelined
/// `loop` is strided.
bool isStridedCopy(ForOp pipelined, BlockOp block, StoreOp store, LoadOp load) {
  SmallVector<ForOp> loops;
  for (Operation *p = block->getParentOp(); p && p != pipelined;
       p = p->getParentOp())
    if (auto loop = dyn_cast<ForOp>(p))
      loops.insert(loops.begin(), loop);
  // The innermost loop of more than one iteration walks the copy.
  std::optional<unsigned> walker;
  for (unsigned k = loops.size(); k-- > 0;) {
    std::optional<int64_t> extent = loops[k].getConstantExtent();
    if (!extent || *extent > 1) {
      walker = k;
      break;
    }
  }
  if (!walker)
    return false; // one element
  AffineExpr to = flattenedIndex(block, store.getMap(), store.getIndices(),
                                 store.getBufferType(), loops);
  AffineExpr from = flattenedIndex(block, load.getMap(), load.getIndices(),
                                   load.getBufferType(), loops);
  return !to || !from || !isUnitStride(to, *walker) ||
         !isUnitStride(from, *walker);
}

/// The one store of a block that copies a load (nullptr otherwise).
std::pair<StoreOp, LoadOp> copyOf(BlockOp block) {
  StoreOp store;
  for (Operation &op : block.getBody()->without_terminator()) {
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (store)
        return {};
      store = s;
    } else if (op.getNumRegions() != 0) {
      return {};
    }
  }
  if (!store)
    return {};
  auto load = store.getValue().getDefiningOp<LoadOp>();
  if (!load)
    return {};
  return {store, load};
}

class DisallowAsyncStridedMemCopy : public Postproc {
public:
  FailureOr<bool> apply(const Schedule &sch, std::string &) override {
    for (FunctionOpInterface func : getScheduledFunctions(sch->getPayload())) {
      WalkResult found = func->walk([](ForOp loop) {
        DictionaryAttr annotations = loop.getAnnotationsAttr();
        if (!annotations)
          return WalkResult::advance();
        std::optional<SmallVector<int64_t>> async =
            readIntegerList(annotations.get("software_pipeline_async_stages"));
        std::optional<SmallVector<int64_t>> stages =
            readIntegerList(annotations.get("software_pipeline_stage"));
        if (!async || !stages)
          return WalkResult::advance();
        SmallVector<Operation *> statements = getLoopStatements(loop);
        // A malformed pipeline does not lower (TVM: rejected).
        if (statements.size() != stages->size())
          return WalkResult::interrupt();
        for (auto [statement, stage] : llvm::zip(statements, *stages)) {
          if (!llvm::is_contained(*async, stage))
            continue;
          WalkResult strided = statement->walk([&](BlockOp block) {
            auto [store, load] = copyOf(block);
            if (store && isStridedCopy(loop, block, store, load))
              return WalkResult::interrupt();
            return WalkResult::advance();
          });
          if (strided.wasInterrupted())
            return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (found.wasInterrupted())
        return false;
    }
    return true;
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    return std::shared_ptr<Postproc>(
        std::make_shared<DisallowAsyncStridedMemCopy>());
  }

  std::string str() const override {
    return defaultRepr("DisallowAsyncStridedMemCopy", this);
  }
};

} // namespace

std::shared_ptr<Postproc> mlir::tir::ms::createDisallowAsyncStridedMemCopy() {
  return std::make_shared<DisallowAsyncStridedMemCopy>();
}
