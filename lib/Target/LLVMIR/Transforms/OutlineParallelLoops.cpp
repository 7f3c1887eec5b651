//===- OutlineParallelLoops.cpp - parallel bodies as functions ------------===//

#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIROUTLINEPARALLELLOOPSPASS
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;

/// The buffer a memref value views: itself, or the source of a view op.
static Value rootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

static void outline(scf::ParallelOp loop, func::FuncOp parent, unsigned index) {
  Region &body = loop.getRegion();
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(body, captured);

  // Constants are cloned in; everything else becomes a parameter.
  SmallVector<Value> params;
  SmallVector<Operation *> constants;
  for (Value v : captured) {
    Operation *def = v.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(def);
    else
      params.push_back(v);
  }

  OpBuilder b(parent);
  b.setInsertionPointAfter(parent);
  SmallVector<Type> types(ValueRange(loop.getInductionVars()).getTypes());
  for (Value v : params)
    types.push_back(v.getType());
  std::string name = (parent.getName() + "_parallel" + Twine(index)).str();
  auto func = func::FuncOp::create(b, loop.getLoc(), name,
                                   b.getFunctionType(types, {}));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  IRMapping mapping;
  for (auto [iv, arg] :
       llvm::zip(loop.getInductionVars(), entry->getArguments()))
    mapping.map(iv, arg);
  for (auto [v, arg] :
       llvm::zip(params, entry->getArguments().drop_front(loop.getNumLoops())))
    mapping.map(v, arg);
  b.setInsertionPointToStart(entry);
  for (Operation *c : constants)
    b.clone(*c, mapping);
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, mapping);
  func::ReturnOp::create(b, loop.getLoc());

  // Memref parameters that are distinct buffers (no other parameter views
  // the same buffer) do not alias each other.
  SmallVector<unsigned> distinct;
  for (unsigned i = 0; i < params.size(); ++i) {
    Value v = params[i];
    if (!isa<MemRefType>(v.getType()) || rootBuffer(v) != v)
      continue;
    bool shared = llvm::any_of(params, [&](Value other) {
      return other != v && isa<MemRefType>(other.getType()) &&
             rootBuffer(other) == v;
    });
    if (!shared)
      distinct.push_back(loop.getNumLoops() + i);
  }
  tir::recordNoAliasBuffers(func, distinct);

  // The loop body becomes the call.
  Block *loopBody = loop.getBody();
  Operation *terminator = loopBody->getTerminator();
  SmallVector<Operation *> moved = llvm::map_to_vector(
      loopBody->without_terminator(), [](Operation &op) { return &op; });
  for (Operation *op : llvm::reverse(moved))
    op->erase();
  b.setInsertionPoint(terminator);
  SmallVector<Value> operands(loop.getInductionVars());
  operands.append(params.begin(), params.end());
  func::CallOp::create(b, loop.getLoc(), func, operands);
}

namespace {
struct TIROutlineParallelLoopsPass
    : public tir::impl::TIROutlineParallelLoopsPassBase<
          TIROutlineParallelLoopsPass> {
  void runOnOperation() override {
    for (auto parent : llvm::to_vector(getOperation().getOps<func::FuncOp>())) {
      if (parent.isExternal())
        continue;
      SmallVector<scf::ParallelOp> loops;
      parent.walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
        loops.push_back(loop);
        return WalkResult::skip();
      });
      for (auto [i, loop] : llvm::enumerate(loops)) {
        if (loop.getNumReductions() != 0)
          continue;
        outline(loop, parent, i);
      }
    }
  }
};
} // namespace
