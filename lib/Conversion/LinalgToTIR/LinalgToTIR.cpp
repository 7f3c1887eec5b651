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
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tir {
#define GEN_PASS_DEF_CONVERTLINALGTOTIRPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// The input operand of `op` whose value `extract` reads, or null.
static OpOperand *gatheredOperand(linalg::LinalgOp op,
                                  tensor::ExtractOp extract) {
  for (OpOperand *input : op.getDpsInputOperands())
    if (input->get() == extract.getTensor())
      return input;
  return nullptr;
}

bool mlir::tir::isGatheredInput(linalg::LinalgOp op, OpOperand *input) {
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return false;
  for (Operation &inner : op->getRegion(0).front())
    if (auto extract = dyn_cast<tensor::ExtractOp>(inner))
      if (extract.getTensor() == input->get())
        return true;
  return false;
}

/// Per loop of `op`, an operand and its dimension that the loop runs along
/// (the operand's map reads that dimension at the loop's variable), or
/// (null, 0) where none does: a dynamic loop range is that dimension's
/// size. Gathered inputs, read at computed indices, size nothing.
static SmallVector<std::pair<OpOperand *, unsigned>>
sizingOperands(linalg::LinalgOp op) {
  SmallVector<std::pair<OpOperand *, unsigned>> sizing(op.getNumLoops(),
                                                       {nullptr, 0});
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<ShapedType>(operand.get().getType()) ||
        (op.isDpsInput(&operand) && isGatheredInput(op, &operand)))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [k, e] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        if (!sizing[dim.getPosition()].first)
          sizing[dim.getPosition()] = {&operand, static_cast<unsigned>(k)};
  }
  return sizing;
}

std::string mlir::tir::checkLinalgForTIR(linalg::LinalgOp op) {
  SmallVector<std::pair<OpOperand *, unsigned>> sizing = sizingOperands(op);
  for (auto [loop, range] : llvm::enumerate(op.getStaticLoopRanges())) {
    if (ShapedType::isDynamic(range) && !sizing[loop].first)
      return "a dynamic loop range is no operand's dimension";
    if (range == 0)
      return "a loop range is empty";
  }
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return "it has no body to compute";
  Region &region = op->getRegion(0);
  for (Operation &inner : region.front()) {
    if (isa<linalg::YieldOp, linalg::IndexOp>(inner))
      continue;
    if (auto extract = dyn_cast<tensor::ExtractOp>(inner)) {
      if (!gatheredOperand(op, extract))
        return "its body reads a tensor with tensor.extract that is not one "
               "of its inputs";
      continue;
    }
    if (inner.getNumRegions() != 0 ||
        !isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()))
      return "its body holds '" + inner.getName().getStringRef().str() +
             "', which is not scalar arith or math";
  }
  // Values from outside the body: constants only (canonicalization hoists a
  // body's constants out of it), which the block clones.
  for (Operation &inner : region.front())
    for (OpOperand &use : inner.getOpOperands()) {
      Value operand = use.get();
      bool gathered =
          isa<tensor::ExtractOp>(inner) && use.getOperandNumber() == 0;
      if (!gathered && !region.isAncestor(operand.getParentRegion()) &&
          !matchPattern(operand, m_Constant()))
        return "its body uses a value defined outside it that is not a "
               "constant";
    }
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
  SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
  OpBuilder::InsertionGuard guard(builder);
  // Static ranges are numbers; a dynamic one the size of a buffer dimension
  // the loop runs along, read before the nest.
  SmallVector<OpFoldResult> ranges;
  SmallVector<std::pair<OpOperand *, unsigned>> sizing = sizingOperands(op);
  for (auto [loop, range] : llvm::enumerate(op.getStaticLoopRanges())) {
    if (!ShapedType::isDynamic(range)) {
      ranges.push_back(builder.getIndexAttr(range));
      continue;
    }
    auto [operand, dim] = sizing[loop];
    Value buffer =
        op.isDpsInput(operand)
            ? inputs[operand->getOperandNumber()]
            : outputs[operand->getOperandNumber() - op.getNumDpsInputs()];
    ranges.push_back(
        memref::DimOp::create(builder, loc, buffer, dim).getResult());
  }
  SmallVector<Value> loops;
  for (auto [d, range] : llvm::enumerate(ranges)) {
    std::string axis = axes.empty() ? "i" + std::to_string(d) : axes[d];
    auto loop =
        ForOp::create(builder, loc, builder.getIndexAttr(0), range, axis);
    builder.setInsertionPointToStart(loop.getBody());
    loops.push_back(loop.getInductionVar());
  }
  SmallVector<std::string> varNames;
  for (const std::string &axis : axes)
    varNames.push_back("v_" + axis);
  SmallVector<IterVarSpec> vars;
  for (auto [d, range] : llvm::enumerate(ranges))
    vars.push_back(
        {kinds[d] == utils::IteratorType::reduction ? IterType::Reduce
                                                    : IterType::Spatial,
         builder.getIndexAttr(0), range, getAffineDimExpr(d, ctx),
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
    // Constants the body takes from outside it are made in the block (a
    // gathered input is loaded from instead).
    for (Operation &inner : body)
      for (Value operand : inner.getOperands())
        if (!op->getRegion(0).isAncestor(operand.getParentRegion()) &&
            !map.contains(operand) && !isa<tensor::ExtractOp>(inner))
          map.map(operand, b.clone(*operand.getDefiningOp())->getResult(0));
    for (Operation &inner : body) {
      if (auto extract = dyn_cast<tensor::ExtractOp>(inner)) {
        OpOperand *input = gatheredOperand(op, extract);
        SmallVector<Value> at;
        for (Value index : extract.getIndices())
          at.push_back(map.lookupOrDefault(index));
        map.map(extract.getResult(),
                LoadOp::create(b, l, inputs[input->getOperandNumber()], at)
                    .getResult());
        continue;
      }
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

/// `base`, or `base_1`, `base_2`, ... the first not in `taken` (now taken).
static std::string takeUniqueName(llvm::StringSet<> &taken, StringRef base) {
  std::string name = base.str();
  for (int n = 1; taken.contains(name); ++n)
    name = (base + "_" + Twine(n)).str();
  taken.insert(name);
  return name;
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
  // Each buffer is named after the block that writes it first.
  llvm::DenseMap<Value, std::string> firstWriter;
  func->walk([&](StoreOp store) {
    if (auto block = store->getParentOfType<BlockOp>())
      firstWriter.try_emplace(store.getBuffer(), block.getBlockName().str());
  });
  OpBuilder builder = OpBuilder::atBlockBegin(&body);
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace())
      continue;
    bool used = false;
    bool onlyTIR = llvm::all_of(alloc->getUsers(), [&](Operation *user) {
      used |= !isa<memref::DeallocOp>(user);
      return isa<LoadOp, StoreOp, BlockOp, memref::DeallocOp>(user);
    });
    if (!onlyTIR || !used)
      continue;
    std::string writer = firstWriter.lookup(alloc.getResult());
    std::string name =
        takeUniqueName(taken, writer.empty() ? "buffer" : writer);
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

/// Whether `op`, or an op inside it, uses a buffer of memory `storage`
/// (through any view).
static bool touches(Operation *op, Value storage) {
  WalkResult found = op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (isa<BaseMemRefType>(v.getType()) && getBufferStorage(v) == storage)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// The last op before `op` in its block that touches the memory of
/// `buffer` (through any view), or null.
static Operation *previousUser(Operation *op, Value buffer) {
  Value storage = getBufferStorage(buffer);
  for (Operation *p = op->getPrevNode(); p; p = p->getPrevNode())
    if (touches(p, storage))
      return p;
  return nullptr;
}

/// The constant a linalg.fill writes into exactly `buffer` (not a view of
/// it, not another buffer), or null.
static TypedAttr fillOf(Operation *op, Value buffer) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  TypedAttr value;
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getOutputs()[0] != buffer ||
      !matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return {};
  return value;
}

/// TVM's reduction with T.init: where the output `op` starts from was
/// filled with a constant by the last op that touched its memory (a
/// linalg.fill of exactly that buffer, or a memref.copy into it from a
/// buffer only filled for that copy, as one-shot bufferization writes a
/// fill and then a matmul into it), the op reads it through no input, and
/// its map indexes every element of it by parallel loops (so that the init
/// runs once per element), the block starts from that constant (its init)
/// and the fill (and copy) go. Returns, per output, the init value (null:
/// none); `dead` gets the ops to erase.
static SmallVector<TypedAttr>
foldFillsIntoInits(linalg::LinalgOp op, SmallVectorImpl<Operation *> &dead) {
  SmallVector<TypedAttr> inits(op.getNumDpsInits());
  if (op.getNumReductionLoops() == 0)
    return inits;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Value buffer = init.get();
    auto type = dyn_cast<MemRefType>(buffer.getType());
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!type || !type.hasStaticShape() || !map.isProjectedPermutation())
      continue;
    bool covers = true;
    for (auto [d, e] : llvm::enumerate(map.getResults())) {
      unsigned loop = cast<AffineDimExpr>(e).getPosition();
      covers = covers && kinds[loop] == utils::IteratorType::parallel &&
               ranges[loop] == type.getDimSize(d);
    }
    Value storage = getBufferStorage(buffer);
    for (Value input : op.getDpsInputs())
      if (isa<BaseMemRefType>(input.getType()) &&
          getBufferStorage(input) == storage)
        covers = false;
    if (!covers)
      continue;
    unsigned k = init.getOperandNumber() - op.getNumDpsInputs();
    Operation *before = previousUser(op, buffer);
    if (TypedAttr value = fillOf(before, buffer)) {
      inits[k] = value;
      dead.push_back(before);
      continue;
    }
    auto copy = dyn_cast_or_null<memref::CopyOp>(before);
    if (!copy || copy.getTarget() != buffer)
      continue;
    Value source = copy.getSource();
    Operation *filled = previousUser(copy, source);
    TypedAttr value = fillOf(filled, source);
    // The filled buffer must serve the copy only (then it goes too).
    auto alloc = source.getDefiningOp<memref::AllocOp>();
    if (!value || !alloc || !llvm::all_of(source.getUsers(), [&](Operation *u) {
          return u == copy || u == filled || isa<memref::DeallocOp>(u);
        }))
      continue;
    inits[k] = value;
    dead.push_back(copy);
    dead.push_back(filled);
    for (Operation *u : source.getUsers())
      if (isa<memref::DeallocOp>(u))
        dead.push_back(u);
    dead.push_back(alloc);
  }
  return inits;
}

/// The part of a buffer a copy reads or writes: the buffer (static,
/// identity layout) and per dimension the offset and stride of a
/// rank-preserving memref.subview of it (0 and 1 for the buffer itself).
struct CopySide {
  Value buffer;
  SmallVector<int64_t> offsets, strides;
};

static std::optional<CopySide> copySide(Value v) {
  auto isPlain = [](Value b) {
    auto t = dyn_cast<MemRefType>(b.getType());
    return t && t.hasStaticShape() && t.getLayout().isIdentity();
  };
  if (isPlain(v)) {
    unsigned rank = cast<MemRefType>(v.getType()).getRank();
    return CopySide{v, SmallVector<int64_t>(rank, 0),
                    SmallVector<int64_t>(rank, 1)};
  }
  auto view = v.getDefiningOp<memref::SubViewOp>();
  if (!view || !isPlain(view.getSource()) ||
      view.getSourceType().getRank() != view.getType().getRank() ||
      ShapedType::isDynamicShape(view.getStaticOffsets()) ||
      ShapedType::isDynamicShape(view.getStaticStrides()))
    return std::nullopt;
  return CopySide{view.getSource(), llvm::to_vector(view.getStaticOffsets()),
                  llvm::to_vector(view.getStaticStrides())};
}

/// A memref.copy between static buffers or windows of them (what
/// bufferization makes of tensor.pad and tensor.insert_slice) as a block
/// "T_copy" over the copied shape; false (and nothing built) otherwise.
static bool buildCopyBlock(memref::CopyOp copy) {
  auto type = dyn_cast<MemRefType>(copy.getSource().getType());
  std::optional<CopySide> from = copySide(copy.getSource());
  std::optional<CopySide> to = copySide(copy.getTarget());
  if (!type || !type.hasStaticShape() || !from || !to)
    return false;
  MLIRContext *ctx = copy.getContext();
  auto sideMap = [&](const CopySide &side) {
    SmallVector<AffineExpr> results;
    for (auto [d, off] : llvm::enumerate(side.offsets))
      results.push_back(getAffineDimExpr(d, ctx) * side.strides[d] + off);
    return AffineMap::get(side.offsets.size(), 0, results, ctx);
  };
  OpBuilder builder(copy);
  BlockOp block = createSpatialNest(
      builder, copy.getLoc(), "T_copy", type.getShape(), "ax", "v_ax",
      [&](OpBuilder &b, Location l, ValueRange v) {
        Value x = LoadOp::create(b, l, from->buffer, sideMap(*from), v);
        StoreOp::create(b, l, x, to->buffer, sideMap(*to), v);
      });
  (void)inferAccessRegions(block);
  return true;
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
    llvm::SetVector<Operation *> converted;
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
      names.block = takeUniqueName(taken, names.block);
      buildLinalgBlock(builder, op.getLoc(), op, names.block, op.getDpsInputs(),
                       op.getDpsInits(), inits[op], names.axes);
      converted.insert(func);
      op->erase();
    }
    // Copies between buffers and windows of them (padding) become blocks
    // where the function had linalg ops converted; their views go when
    // unused.
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (converted.contains(copy->getParentOfType<FunctionOpInterface>()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      if (!buildCopyBlock(copy))
        continue;
      SmallVector<Value> views{copy.getSource(), copy.getTarget()};
      copy->erase();
      for (Value v : views)
        if (auto view = v.getDefiningOp<memref::SubViewOp>();
            view && view->use_empty())
          view->erase();
    }
    for (Operation *func : converted)
      allocsToBuffers(cast<FunctionOpInterface>(func));
    // Ops on tensors wait for bufferization.
    getOperation()->walk([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        if (!linalgOp.hasPureBufferSemantics())
          op->emitRemark("left as it is: it computes on tensors "
                         "(bufferize first, as --tir-from-tensors does)");
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
