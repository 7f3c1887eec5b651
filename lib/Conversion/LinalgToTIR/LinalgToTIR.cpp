//===- LinalgToTIR.cpp - linalg ops as TensorIR blocks --------------------===//
//
// buildLinalgBlock, and --convert-linalg-to-tir, which replaces linalg ops
// on buffers by their blocks where they stand.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/LinalgToTIR/LinalgToTIR.h"
#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/IR/TIRBuilders.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tir {
#define GEN_PASS_DEF_CONVERTLINALGTOTIRPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

std::string mlir::tir::checkLinalgForTIR(linalg::LinalgOp op) {
  for (int64_t range : op.getStaticLoopRanges())
    if (ShapedType::isDynamic(range))
      return "its loop ranges are not static";
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return "it has no body to compute";
  Region &region = op->getRegion(0);
  for (Operation &inner : region.front()) {
    if (isa<linalg::YieldOp, linalg::IndexOp>(inner))
      continue;
    if (inner.getNumRegions() != 0 ||
        !isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()))
      return "its body holds '" + inner.getName().getStringRef().str() +
             "', which is not scalar arith or math";
  }
  // Values from outside the body: constants only (canonicalization hoists a
  // body's constants out of it), which the block clones.
  for (Operation &inner : region.front())
    for (Value operand : inner.getOperands())
      if (!region.isAncestor(operand.getParentRegion()) &&
          !matchPattern(operand, m_Constant()))
        return "its body uses a value defined outside it that is not a "
               "constant";
  // A scalar operand (linalg.fill's value) must be a constant, which the
  // block makes.
  for (OpOperand &operand : op->getOpOperands())
    if (!isa<ShapedType>(operand.get().getType()) &&
        op.getMatchingBlockArgument(&operand) &&
        !op.getMatchingBlockArgument(&operand).use_empty() &&
        !matchPattern(operand.get(), m_Constant()))
      return "it takes a scalar operand that is not a constant";
  return "";
}

/// An access's map over the loop variables `vars` as tir writes it: over
/// the variables its indices use only (a reduction's store then has no
/// reduce variable among its operands).
static std::pair<AffineMap, SmallVector<Value>> usedIndices(AffineMap map,
                                                            ValueRange vars) {
  llvm::SmallBitVector unused = getUnusedDimsBitVector({map});
  SmallVector<Value> used;
  for (auto [d, v] : llvm::enumerate(vars))
    if (!unused.test(d))
      used.push_back(v);
  return {compressUnusedDims(map), used};
}

BlockOp mlir::tir::buildLinalgBlock(OpBuilder &builder, Location loc,
                                    linalg::LinalgOp op, StringRef name,
                                    ValueRange inputs, ValueRange outputs,
                                    ArrayRef<TypedAttr> inits,
                                    ArrayRef<std::string> axes) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Value> loops;
  if (axes.empty()) {
    loops = createLoopNest(builder, loc, ranges, "i");
  } else {
    for (auto [range, axis] : llvm::zip(ranges, axes)) {
      auto loop = ForOp::create(builder, loc, builder.getIndexAttr(0),
                                builder.getIndexAttr(range), axis);
      builder.setInsertionPointToStart(loop.getBody());
      loops.push_back(loop.getInductionVar());
    }
  }
  SmallVector<std::string> varNames;
  for (const std::string &axis : axes)
    varNames.push_back("v_" + axis);
  SmallVector<IterVarSpec> vars;
  for (auto [d, range] : llvm::enumerate(ranges))
    vars.push_back(
        {kinds[d] == utils::IteratorType::reduction ? IterType::Reduce
                                                    : IterType::Spatial,
         builder.getIndexAttr(0), builder.getIndexAttr(range),
         getAffineDimExpr(d, ctx),
         d < varNames.size() ? StringRef(varNames[d]) : StringRef()});
  Block &body = op->getRegion(0).front();
  auto build = [&](OpBuilder &b, Location l, ValueRange v) {
    if (llvm::any_of(inits, [](TypedAttr a) { return bool(a); })) {
      auto init = InitOp::create(b, l);
      OpBuilder::InsertionGuard initGuard(b);
      b.setInsertionPointToStart(&init->getRegion(0).emplaceBlock());
      for (auto [k, value] : llvm::enumerate(inits)) {
        if (!value)
          continue;
        OpOperand *out = op.getDpsInitOperand(k);
        Value c = arith::ConstantOp::create(b, l, value);
        auto [m, indices] = usedIndices(op.getMatchingIndexingMap(out), v);
        StoreOp::create(b, l, c, outputs[k], m, indices);
      }
    }
    IRMapping map;
    // Operands whose values the body uses are loaded at their indices.
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(&operand);
      if (!arg || arg.use_empty())
        continue;
      if (!isa<ShapedType>(operand.get().getType())) {
        map.map(arg, b.clone(*operand.get().getDefiningOp())->getResult(0));
        continue;
      }
      bool isInput = op.isDpsInput(&operand);
      unsigned index = isInput ? operand.getOperandNumber()
                               : op.getDpsInitOperand(0)->getOperandNumber();
      Value buffer =
          isInput ? inputs[index] : outputs[operand.getOperandNumber() - index];
      auto [m, indices] = usedIndices(op.getMatchingIndexingMap(&operand), v);
      map.map(arg, LoadOp::create(b, l, buffer, m, indices).getResult());
    }
    // Constants the body takes from outside it are made in the block.
    for (Operation &inner : body)
      for (Value operand : inner.getOperands())
        if (!op->getRegion(0).isAncestor(operand.getParentRegion()) &&
            !map.contains(operand))
          map.map(operand, b.clone(*operand.getDefiningOp())->getResult(0));
    for (Operation &inner : body) {
      if (auto idx = dyn_cast<linalg::IndexOp>(inner)) {
        map.map(idx.getResult(), v[idx.getDim()]);
        continue;
      }
      if (auto yield = dyn_cast<linalg::YieldOp>(inner)) {
        for (auto [k, value] : llvm::enumerate(yield.getValues())) {
          OpOperand *out = op.getDpsInitOperand(k);
          auto [m, indices] = usedIndices(op.getMatchingIndexingMap(out), v);
          StoreOp::create(b, l, map.lookupOrDefault(value), outputs[k], m,
                          indices);
        }
        continue;
      }
      b.clone(inner, map);
    }
  };
  BlockOp block = BlockOp::create(builder, loc, name, vars, loops, build);
  (void)inferAccessRegions(block);
  return block;
}

/// The buffers bufferization allocated in a function's body for values
/// between converted ops become the function's tir.alloc_buffer (TVM's
/// intermediates), named after the block that writes them: memref.alloc
/// ops of static shape in the function's own body whose uses are all tir
/// accesses (and deallocs).
static void allocsToBuffers(FunctionOpInterface func) {
  if (func.isExternal())
    return;
  Block &body = func.getFunctionBody().front();
  llvm::StringSet<> taken;
  for (Operation &op : body)
    if (auto alloc = dyn_cast<AllocBufferOp>(op))
      taken.insert(getBufferName(alloc.getBuffer()));
  SmallVector<memref::AllocOp> allocs;
  for (Operation &op : body)
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      allocs.push_back(alloc);
  OpBuilder builder = OpBuilder::atBlockBegin(&body);
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace())
      continue;
    std::string writer;
    bool onlyTIR = llvm::all_of(alloc->getUsers(), [&](Operation *user) {
      if (auto store = dyn_cast<StoreOp>(user)) {
        if (auto block = store->getParentOfType<BlockOp>();
            block && writer.empty())
          writer = block.getBlockName().str();
        return true;
      }
      return isa<LoadOp, BlockOp, memref::DeallocOp>(user);
    });
    if (!onlyTIR)
      continue;
    std::string name = writer.empty() ? "buffer" : writer;
    for (int n = 1; taken.contains(name); ++n)
      name = (writer.empty() ? "buffer" : writer) + "_" + std::to_string(n);
    taken.insert(name);
    auto buffer =
        AllocBufferOp::create(builder, alloc.getLoc(), type, ValueRange(),
                              builder.getStringAttr(name), nullptr);
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.replaceAllUsesWith(buffer.getBuffer());
    alloc.erase();
  }
}

/// The constant a linalg.fill on buffers writes, or null.
static TypedAttr fillValue(Operation *op) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  TypedAttr value;
  if (!fill || !fill.hasPureBufferSemantics() ||
      !matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return {};
  return value;
}

/// The op before `op` in its block that has `buffer` as an operand, or null.
static Operation *previousUser(Operation *op, Value buffer) {
  for (Operation *p = op->getPrevNode(); p; p = p->getPrevNode())
    if (llvm::is_contained(p->getOperands(), buffer) || p->getNumRegions() != 0)
      return p;
  return nullptr;
}

/// TVM's reduction with T.init: where the output `op` starts from was
/// filled with a constant just before (linalg.fill, possibly into another
/// buffer copied over, as one-shot bufferization writes `fill` then a
/// matmul into it), and `op` writes every element of it, the block starts
/// from that constant (its init) and the fill and copy go. Returns, per
/// output, the init value (null: none); `dead` gets the ops to erase.
static SmallVector<TypedAttr>
foldFillsIntoInits(linalg::LinalgOp op, SmallVectorImpl<Operation *> &dead) {
  SmallVector<TypedAttr> inits(op.getNumDpsInits());
  if (op.getNumReductionLoops() == 0)
    return inits;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Value buffer = init.get();
    auto type = dyn_cast<MemRefType>(buffer.getType());
    AffineMap map = op.getMatchingIndexingMap(&init);
    // Every element written: the map picks distinct loops over its
    // whole shape.
    if (!type || !type.hasStaticShape() || !map.isProjectedPermutation())
      continue;
    bool covers = true;
    for (auto [d, e] : llvm::enumerate(map.getResults()))
      covers = covers && ranges[cast<AffineDimExpr>(e).getPosition()] ==
                             type.getDimSize(d);
    if (!covers)
      continue;
    Operation *before = previousUser(op, buffer);
    if (TypedAttr value = fillValue(before)) {
      inits[init.getOperandNumber() - op.getNumDpsInputs()] = value;
      dead.push_back(before);
      continue;
    }
    auto copy = dyn_cast_or_null<memref::CopyOp>(before);
    if (!copy || copy.getTarget() != buffer)
      continue;
    Value source = copy.getSource();
    Operation *filled = previousUser(copy, source);
    TypedAttr value = fillValue(filled);
    // The filled buffer must serve the copy only (then it goes too).
    auto alloc = source.getDefiningOp<memref::AllocOp>();
    if (!value || !alloc || !llvm::all_of(source.getUsers(), [&](Operation *u) {
          return u == copy || u == filled || isa<memref::DeallocOp>(u);
        }))
      continue;
    inits[init.getOperandNumber() - op.getNumDpsInputs()] = value;
    dead.push_back(copy);
    dead.push_back(filled);
    for (Operation *u : source.getUsers())
      if (isa<memref::DeallocOp>(u))
        dead.push_back(u);
    dead.push_back(alloc);
  }
  return inits;
}

namespace {
struct ConvertLinalgToTIRPass
    : public tir::impl::ConvertLinalgToTIRPassBase<ConvertLinalgToTIRPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    // Fills that only start a reduction become its T.init, first.
    llvm::DenseMap<Operation *, SmallVector<TypedAttr>> inits;
    llvm::SmallPtrSet<Operation *, 8> dead;
    for (linalg::LinalgOp op : ops) {
      if (dead.contains(op) || !checkLinalgForTIR(op).empty())
        continue;
      SmallVector<Operation *> gone;
      inits[op] = foldFillsIntoInits(op, gone);
      dead.insert(gone.begin(), gone.end());
    }
    llvm::erase_if(ops, [&](linalg::LinalgOp op) { return dead.contains(op); });
    llvm::DenseMap<Operation *, llvm::StringSet<>> blockNames;
    // The allocations last: the fills, copies and deallocs use them.
    for (bool allocs : {false, true})
      for (Operation *op : dead)
        if (isa<memref::AllocOp>(op) == allocs)
          op->erase();
    for (linalg::LinalgOp op : ops) {
      // What TensorIR cannot express stays as it is, saying why.
      std::string why = checkLinalgForTIR(op);
      if (!why.empty()) {
        op->emitRemark("left as it is: no TensorIR block computes it (")
            << why << ")";
        continue;
      }
      OpBuilder builder(op);
      LinalgBlockNames names = getTVMNames(op);
      // Block names are unique in a function (sch.get_block finds one):
      // the second matmul is matmul_1.
      Operation *func = op->getParentOfType<FunctionOpInterface>();
      llvm::StringSet<> &taken = blockNames[func];
      if (taken.empty() && func)
        func->walk([&](BlockOp block) { taken.insert(block.getBlockName()); });
      std::string unique = names.block;
      for (int n = 1; taken.contains(unique); ++n)
        unique = names.block + "_" + std::to_string(n);
      taken.insert(unique);
      names.block = unique;
      buildLinalgBlock(builder, op.getLoc(), op, names.block, op.getDpsInputs(),
                       op.getDpsInits(), inits[op], names.axes);
      op->erase();
    }
    getOperation()->walk(
        [](FunctionOpInterface func) { allocsToBuffers(func); });
    // Ops on tensors wait for bufferization.
    getOperation()->walk([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        if (!linalgOp.hasPureBufferSemantics())
          op->emitRemark("left as it is: it computes on tensors "
                         "(bufferize first: --one-shot-bufferize, or "
                         "--tir-from-tensors)");
      } else if (isa<linalg::LinalgDialect>(op->getDialect()) &&
                 !op->hasTrait<OpTrait::IsTerminator>() &&
                 !op->getParentOfType<linalg::LinalgOp>()) {
        op->emitRemark("left as it is: not a structured op (no loop nest "
                       "and body that a TensorIR block could take)");
      }
    });
  }
};
} // namespace
