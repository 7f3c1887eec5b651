//===- VectorizeLoops.cpp - vector code for loops tir marked vectorized ---===//
//
// TVM's VectorizeLoop for the scf form of a tir program. The iterations of a
// `vectorized` loop are independent (the schedule guarantees it), so the loop
// is rewritten to step by `lanes` iterations, each step a straight run of
// vector ops:
//
//   - a value that does not depend on the loop variable ("uniform") stays
//     scalar and is computed once per step;
//   - an index expression that moves linearly with the loop variable is kept
//     as its lane-0 scalar, so that contiguous accesses become
//     vector.load / vector.store at that scalar;
//   - every other value that depends on the loop variable gets a vector of
//     `lanes` elements: element-wise arith/math ops are re-created on
//     vectors, other accesses become gathers and scatters.
//
// Per-lane conditions (a partial last step, a block predicate under the
// loop) become lane masks on the loads and stores they guard.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"
#include "TensorIR/Dialect/TIR/Transforms/SoftwarePipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRVECTORIZELOOPSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
class LoopVectorizer {
public:
  LoopVectorizer(RewriterBase &rewriter, scf::ForOp loop)
      : rewriter(rewriter), loop(loop), iv(loop.getInductionVar()) {}

  LogicalResult run(unsigned maxLanes, Refusal &reason);

private:
  // Analysis of the original loop body.
  bool isVarying(Value v);
  std::optional<int64_t> coefficient(Value v);

  // Emission.
  LogicalResult vectorizeBlock(Block &block, Value mask);
  LogicalResult vectorizeOp(Operation *op, Value mask);
  LogicalResult vectorizeLoad(memref::LoadOp load, Value mask);
  LogicalResult vectorizeStore(memref::StoreOp store, Value mask);
  SmallVector<Value> laneIndices(ValueRange indices, int64_t lane,
                                 Location loc);
  LogicalResult vectorizeIf(scf::IfOp ifOp, Value mask);
  LogicalResult vectorizeInnerLoop(scf::ForOp inner, Value mask);

  Value lane0(Value v);
  bool allLane0(ValueRange values) {
    return llvm::all_of(values, [&](Value v) { return bool(lane0(v)); });
  }
  Value vector(Value v);
  Value broadcast(Value scalar, Type elementType);
  Value allTrue();
  VectorType vectorOf(Type element) {
    return VectorType::get({lanes}, element);
  }
  /// True when the access is contiguous along the loop: only the innermost
  /// index moves, by one element per iteration, on a unit-stride dimension.
  bool isContiguous(MemRefType type, ValueRange indices);
  /// For a gather or scatter: the buffer viewed as one dimension (it must be
  /// contiguous, i.e. have the identity layout) and the element offsets of
  /// every lane in it. Null when the buffer is not contiguous.
  std::pair<Value, Value> flatAccess(Value buffer, ValueRange indices,
                                     Location loc);
  LogicalResult fail(Operation *op, const Twine &why) {
    return reason.set(op, "'" + op->getName().getStringRef() + "' " + why);
  }

  RewriterBase &rewriter;
  scf::ForOp loop;
  Value iv;
  int64_t lanes = 0;
  int64_t step = 1;
  scf::ForOp vectorLoop;
  Value ivVector;
  IRMapping lane0Map;
  DenseMap<Value, Value> vectors;
  DenseMap<Value, bool> varying;
  Refusal reason;
};
} // namespace

bool LoopVectorizer::isVarying(Value v) {
  if (v == iv)
    return true;
  Operation *def = v.getDefiningOp();
  // Block arguments inside the body are induction variables of inner loops
  // (which have no iteration arguments): uniform.
  if (!def || !loop->isProperAncestor(def))
    return false;
  auto it = varying.find(v);
  if (it != varying.end())
    return it->second;
  bool result = false;
  if (auto load = dyn_cast<memref::LoadOp>(def)) {
    // A load from a location that moves is varying; a load from a fixed
    // location is uniform.
    result =
        llvm::any_of(load.getIndices(), [&](Value i) { return isVarying(i); });
  } else {
    result =
        llvm::any_of(def->getOperands(), [&](Value o) { return isVarying(o); });
  }
  varying[v] = result;
  return result;
}

std::optional<int64_t> LoopVectorizer::coefficient(Value v) {
  if (!isVarying(v))
    return 0;
  if (v == iv)
    return 1;
  Operation *def = v.getDefiningOp();
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    auto lhs = coefficient(def->getOperand(0));
    auto rhs = coefficient(def->getOperand(1));
    if (!lhs || !rhs)
      return std::nullopt;
    return isa<arith::AddIOp>(def) ? *lhs + *rhs : *lhs - *rhs;
  }
  if (auto mul = dyn_cast<arith::MulIOp>(def)) {
    for (int side = 0; side < 2; ++side) {
      Value factor = mul->getOperand(side);
      Value other = mul->getOperand(1 - side);
      APInt constant;
      if (!isVarying(factor) && matchPattern(factor, m_ConstantInt(&constant)))
        if (auto c = coefficient(other))
          return *c * constant.getSExtValue();
    }
    return std::nullopt;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return coefficient(def->getOperand(0));
  return std::nullopt;
}

Value LoopVectorizer::lane0(Value v) {
  if (Value mapped = lane0Map.lookupOrNull(v))
    return mapped;
  Operation *def = v.getDefiningOp();
  bool inside = def ? loop->isProperAncestor(def)
                    : loop->isAncestor(v.getParentBlock()->getParentOp());
  return inside ? Value() : v;
}

Value LoopVectorizer::broadcast(Value scalar, Type elementType) {
  return vector::BroadcastOp::create(rewriter, scalar.getLoc(),
                                     vectorOf(elementType), scalar);
}

Value LoopVectorizer::allTrue() {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(vectorLoop.getBody());
  return arith::ConstantOp::create(
      rewriter, loop.getLoc(),
      DenseElementsAttr::get(vectorOf(rewriter.getI1Type()), true));
}

Value LoopVectorizer::vector(Value v) {
  if (Value known = vectors.lookup(v))
    return known;
  OpBuilder::InsertionGuard guard(rewriter);
  Value result;
  if (v == iv) {
    result = ivVector;
  } else if (!isVarying(v)) {
    // Broadcast next to the scalar (at the top of the step when the scalar
    // comes from outside the loop), so the vector dominates every use.
    // An inner loop's variable is broadcast at the top of that loop's body.
    Value scalar = lane0(v);
    Operation *def = scalar.getDefiningOp();
    Block *owner = scalar.getParentBlock();
    if (def && vectorLoop->isProperAncestor(def))
      rewriter.setInsertionPointAfter(def);
    else if (!def && vectorLoop->isProperAncestor(owner->getParentOp()))
      rewriter.setInsertionPointToStart(owner);
    else
      rewriter.setInsertionPointToStart(vectorLoop.getBody());
    result = broadcast(scalar, v.getType());
  } else {
    // A varying pure op whose operands all had lane-0 scalars: its vector
    // form goes right after that scalar clone.
    Operation *def = v.getDefiningOp();
    SmallVector<Value> operands;
    for (Value operand : def->getOperands())
      operands.push_back(vector(operand));
    rewriter.setInsertionPointAfter(lane0(v).getDefiningOp());
    OperationState state(def->getLoc(), def->getName(), operands,
                         {vectorOf(v.getType())}, def->getAttrs());
    result = rewriter.create(state)->getResult(0);
  }
  vectors[v] = result;
  return result;
}

bool LoopVectorizer::isContiguous(MemRefType type, ValueRange indices) {
  if (indices.empty() || !type.isLastDimUnitStride())
    return false;
  for (Value index : indices.drop_back())
    if (isVarying(index))
      return false;
  // Lanes are `step` iterations apart: contiguous when that moves the
  // innermost index by exactly one element.
  std::optional<int64_t> last = coefficient(indices.back());
  return last && *last * step == 1 && lane0(indices.back());
}

std::pair<Value, Value>
LoopVectorizer::flatAccess(Value buffer, ValueRange indices, Location loc) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.getLayout().isIdentity())
    return {};
  Type indexType = rewriter.getIndexType();
  // Row-major strides, innermost first, from the (possibly dynamic) sizes.
  Value total;
  Value stride;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    Value term = vector(indices[d]);
    if (stride)
      term = arith::MulIOp::create(rewriter, loc, term,
                                   broadcast(stride, indexType));
    total = total ? arith::AddIOp::create(rewriter, loc, total, term) : term;
    Value size =
        type.isDynamicDim(d)
            ? memref::DimOp::create(rewriter, loc, buffer, d).getResult()
            : arith::ConstantIndexOp::create(rewriter, loc, type.getDimSize(d))
                  .getResult();
    stride =
        stride ? arith::MulIOp::create(rewriter, loc, stride, size).getResult()
               : size;
  }
  Value flat = buffer;
  if (type.getRank() != 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < type.getRank(); ++d)
      all[0].push_back(d);
    flat = memref::CollapseShapeOp::create(rewriter, loc, buffer, all);
  }
  return {flat, total};
}

/// Whether `buffer` is a stack allocation (a compacted local buffer) small
/// enough for the vector registers (2 KiB, what AVX-512's 32 hold): its
/// non-contiguous accesses go lane by lane rather than through a gather or
/// scatter. LLVM keeps such a buffer in registers when every access has
/// constant indices (after unrolling), and the lanes then become shuffles
/// of those registers; a gather or scatter would keep it in memory (a
/// register tile written back transposed, conv2d's NCHW output of a tile
/// vectorized along channels). A larger buffer stays in memory anyway,
/// where one gather beats a load per lane.
static bool isRegisterTile(Value buffer) {
  auto alloca = buffer.getDefiningOp<memref::AllocaOp>();
  if (!alloca)
    return false;
  MemRefType type = alloca.getType();
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return false;
  int64_t bits = type.getNumElements() *
                 int64_t(type.getElementType().getIntOrFloatBitWidth());
  return bits <= 2048 * 8;
}

/// The indices `indices` take in `lane`.
SmallVector<Value> LoopVectorizer::laneIndices(ValueRange indices, int64_t lane,
                                               Location loc) {
  return llvm::map_to_vector(indices, [&](Value i) -> Value {
    if (!isVarying(i))
      return lane0(i);
    return vector::ExtractOp::create(rewriter, loc, vector(i), lane);
  });
}

LogicalResult LoopVectorizer::vectorizeLoad(memref::LoadOp load, Value mask) {
  Location loc = load.getLoc();
  MemRefType type = load.getMemRefType();
  Type element = type.getElementType();
  if (!isVarying(load.getResult()) && !mask && allLane0(load.getIndices())) {
    // Same element in every lane: one scalar load.
    lane0Map.map(load.getResult(),
                 rewriter.clone(*load, lane0Map)->getResult(0));
    return success();
  }
  // A bool buffer holds a byte per element, a vector of i1 packed bits.
  if (element.isInteger(1))
    return fail(load, "reads a bool buffer (a byte per element, not the bits "
                      "of an i1 vector)");
  Value passThru = broadcast(
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element)),
      element);
  Value result;
  if (isContiguous(type, load.getIndices())) {
    SmallVector<Value> base = llvm::map_to_vector(
        load.getIndices(), [&](Value i) { return lane0(i); });
    if (mask)
      result =
          vector::MaskedLoadOp::create(rewriter, loc, vectorOf(element),
                                       load.getMemRef(), base, mask, passThru);
    else
      result = vector::LoadOp::create(rewriter, loc, vectorOf(element),
                                      load.getMemRef(), base);
  } else if (!mask && isRegisterTile(load.getMemRef())) {
    SmallVector<Value> elements;
    for (int64_t lane = 0; lane < lanes; ++lane)
      elements.push_back(
          memref::LoadOp::create(rewriter, loc, load.getMemRef(),
                                 laneIndices(load.getIndices(), lane, loc)));
    result = vector::FromElementsOp::create(rewriter, loc, vectorOf(element),
                                            elements);
  } else {
    auto [flat, offsets] = flatAccess(load.getMemRef(), load.getIndices(), loc);
    if (!flat)
      return fail(load, "gathers from a buffer that is not contiguous");
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    result =
        vector::GatherOp::create(rewriter, loc, vectorOf(element), flat, zero,
                                 offsets, mask ? mask : allTrue(), passThru);
  }
  vectors[load.getResult()] = result;
  return success();
}

LogicalResult LoopVectorizer::vectorizeStore(memref::StoreOp store,
                                             Value mask) {
  Location loc = store.getLoc();
  MemRefType type = store.getMemRefType();
  bool movingIndex =
      llvm::any_of(store.getIndices(), [&](Value i) { return isVarying(i); });
  if (!movingIndex && !isVarying(store.getValue()) && !mask &&
      allLane0(store->getOperands())) {
    rewriter.clone(*store, lane0Map);
    return success();
  }
  if (!movingIndex && isVarying(store.getValue()))
    return fail(store, "stores to the same element from every iteration (a "
                       "reduction over the vectorized loop)");
  if (type.getElementType().isInteger(1))
    return fail(store, "writes a bool buffer (a byte per element, not the "
                       "bits of an i1 vector)");
  Value value = vector(store.getValue());
  if (isContiguous(type, store.getIndices())) {
    SmallVector<Value> base = llvm::map_to_vector(
        store.getIndices(), [&](Value i) { return lane0(i); });
    if (mask)
      vector::MaskedStoreOp::create(rewriter, loc, store.getMemRef(), base,
                                    mask, value);
    else if (auto vectorStore = vector::StoreOp::create(
                 rewriter, loc, value, store.getMemRef(), base);
             store->hasAttr(kAsyncCopyAttr))
      // An asynchronous pipeline's copy, whole vectors at a time.
      vectorStore->setAttr(kAsyncCopyAttr, rewriter.getUnitAttr());
    return success();
  }
  if (!mask && isRegisterTile(store.getMemRef())) {
    for (int64_t lane = 0; lane < lanes; ++lane) {
      Value element = vector::ExtractOp::create(rewriter, loc, value, lane);
      memref::StoreOp::create(rewriter, loc, element, store.getMemRef(),
                              laneIndices(store.getIndices(), lane, loc));
    }
    return success();
  }
  auto [flat, offsets] = flatAccess(store.getMemRef(), store.getIndices(), loc);
  if (!flat)
    return fail(store, "scatters to a buffer that is not contiguous");
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  vector::ScatterOp::create(rewriter, loc, Type(), flat, ValueRange{zero},
                            offsets, mask ? mask : allTrue(), value,
                            IntegerAttr());
  return success();
}

LogicalResult LoopVectorizer::vectorizeIf(scf::IfOp ifOp, Value mask) {
  if (ifOp.getNumResults() != 0)
    return fail(ifOp, "yields values");
  Location loc = ifOp.getLoc();
  if (!isVarying(ifOp.getCondition()) && lane0(ifOp.getCondition())) {
    auto newIf = scf::IfOp::create(rewriter, loc, lane0(ifOp.getCondition()),
                                   !ifOp.getElseRegion().empty());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(newIf.thenBlock()->getTerminator());
    if (failed(vectorizeBlock(*ifOp.thenBlock(), mask)))
      return failure();
    if (ifOp.elseBlock()) {
      rewriter.setInsertionPoint(newIf.elseBlock()->getTerminator());
      return vectorizeBlock(*ifOp.elseBlock(), mask);
    }
    return success();
  }
  // A per-lane condition: both branches run, each under its lanes.
  Value cond = vector(ifOp.getCondition());
  Value thenMask =
      mask ? arith::AndIOp::create(rewriter, loc, mask, cond) : cond;
  if (failed(vectorizeBlock(*ifOp.thenBlock(), thenMask)))
    return failure();
  if (!ifOp.elseBlock())
    return success();
  Value notCond = arith::XOrIOp::create(rewriter, loc, cond, allTrue());
  Value elseMask =
      mask ? arith::AndIOp::create(rewriter, loc, mask, notCond) : notCond;
  return vectorizeBlock(*ifOp.elseBlock(), elseMask);
}

LogicalResult LoopVectorizer::vectorizeInnerLoop(scf::ForOp inner, Value mask) {
  if (inner.getNumRegionIterArgs() != 0)
    return fail(inner, "carries values between iterations");
  if (isVarying(inner.getLowerBound()) || isVarying(inner.getUpperBound()) ||
      isVarying(inner.getStep()) ||
      !allLane0(
          {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()}))
    return fail(inner, "has bounds that depend on the vectorized loop");
  auto newLoop =
      scf::ForOp::create(rewriter, inner.getLoc(), lane0(inner.getLowerBound()),
                         lane0(inner.getUpperBound()), lane0(inner.getStep()));
  newLoop->setDiscardableAttrs(inner->getDiscardableAttrDictionary());
  // Lanes already run in parallel: an inner vectorized loop stays scalar
  // inside each lane.
  auto kind =
      newLoop->getAttrOfType<ForKindAttr>(TIRDialect::kLoopKindAttrName);
  if (kind && kind.getValue() == ForKind::Vectorized)
    newLoop->removeAttr(TIRDialect::kLoopKindAttrName);
  lane0Map.map(inner.getInductionVar(), newLoop.getInductionVar());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(newLoop.getBody()->getTerminator());
  return vectorizeBlock(*inner.getBody(), mask);
}

LogicalResult LoopVectorizer::vectorizeOp(Operation *op, Value mask) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return vectorizeLoad(load, mask);
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return vectorizeStore(store, mask);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return vectorizeIf(ifOp, mask);
  if (auto inner = dyn_cast<scf::ForOp>(op))
    return vectorizeInnerLoop(inner, mask);
  if (isa<memref::AllocaOp, memref::AllocOp>(op))
    return fail(op, "allocates a buffer in every iteration");
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return fail(op, "has no vector form");
  // Under a mask every lane computes, active or not: an op that may trap
  // (an integer division by a lane's zero) must not run there.
  if (mask && !isSpeculatable(op))
    return fail(op, "may trap in lanes its condition turns off");

  bool anyVarying =
      llvm::any_of(op->getResults(), [&](Value r) { return isVarying(r); });
  if (allLane0(op->getOperands())) {
    // Uniform values, and index arithmetic that can still be followed at
    // lane 0 (unused clones fold away); vector forms are made on demand.
    if (anyVarying && !OpTrait::hasElementwiseMappableTraits(op))
      return fail(op, "has no vector form");
    rewriter.clone(*op, lane0Map);
    return success();
  }
  if (!OpTrait::hasElementwiseMappableTraits(op) || op->getNumResults() != 1)
    return fail(op, "has no vector form");
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(vector(operand));
  OperationState state(op->getLoc(), op->getName(), operands,
                       {vectorOf(op->getResult(0).getType())}, op->getAttrs());
  vectors[op->getResult(0)] = rewriter.create(state)->getResult(0);
  return success();
}

LogicalResult LoopVectorizer::vectorizeBlock(Block &block, Value mask) {
  for (Operation &op : block.without_terminator())
    if (failed(vectorizeOp(&op, mask)))
      return failure();
  return success();
}

LogicalResult LoopVectorizer::run(unsigned maxLanes, Refusal &why) {
  auto failWith = [&](const Twine &message) { return why.set(loop, message); };
  if (loop.getNumRegionIterArgs() != 0)
    return failWith("the loop carries values between iterations");
  APInt stepValue;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&stepValue)) ||
      !stepValue.isStrictlyPositive())
    return failWith("the loop step is not a positive constant");
  step = stepValue.getSExtValue();
  std::optional<APInt> tripCount = loop.getStaticTripCount();
  bool needMask;
  if (tripCount && tripCount->getZExtValue() <= maxLanes) {
    lanes = tripCount->getZExtValue();
    needMask = false;
  } else {
    lanes = maxLanes;
    needMask = !tripCount || tripCount->getZExtValue() % maxLanes != 0;
  }
  if (lanes < 2)
    return failWith("the loop has fewer than two iterations");

  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Value vectorStep =
      arith::ConstantIndexOp::create(rewriter, loc, step * lanes);
  vectorLoop = scf::ForOp::create(rewriter, loc, loop.getLowerBound(),
                                  loop.getUpperBound(), vectorStep);
  rewriter.setInsertionPointToStart(vectorLoop.getBody());
  Value base = vectorLoop.getInductionVar();
  lane0Map.map(iv, base);
  Type indexType = rewriter.getIndexType();
  SmallVector<APInt> laneOffsets;
  for (int64_t lane = 0; lane < lanes; ++lane)
    laneOffsets.push_back(APInt(64, lane * step));
  Value offsets = arith::ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(
          vectorOf(indexType), llvm::map_to_vector(laneOffsets, [&](APInt v) {
            return Attribute(rewriter.getIndexAttr(v.getSExtValue()));
          })));
  ivVector =
      arith::AddIOp::create(rewriter, loc, broadcast(base, indexType), offsets);
  Value mask;
  if (needMask)
    mask = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                 ivVector,
                                 broadcast(loop.getUpperBound(), indexType));
  if (failed(vectorizeBlock(*loop.getBody(), mask))) {
    rewriter.eraseOp(vectorLoop);
    rewriter.eraseOp(vectorStep.getDefiningOp());
    // The op named is the scalar loop's (its copy was erased).
    why.message = reason.message;
    why.culprit = nullptr;
    return failure();
  }
  rewriter.eraseOp(loop);
  (void)vectorLoop.promoteIfSingleIteration(rewriter);
  return success();
}

LogicalResult mlir::tir::vectorizeLoop(RewriterBase &rewriter, scf::ForOp loop,
                                       unsigned maxLanes, Refusal &reason) {
  return LoopVectorizer(rewriter, loop).run(maxLanes, reason);
}

namespace {
struct TIRVectorizeLoopsPass
    : public tir::impl::TIRVectorizeLoopsPassBase<TIRVectorizeLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Outermost first, one at a time: vectorizing a loop replaces the loops
    // nested in it (an inner vectorized loop loses its marker there).
    while (true) {
      scf::ForOp loop;
      getOperation()->walk<WalkOrder::PreOrder>([&](scf::ForOp candidate) {
        auto kind = candidate->getAttrOfType<ForKindAttr>(
            TIRDialect::kLoopKindAttrName);
        if (!kind || kind.getValue() != ForKind::Vectorized)
          return WalkResult::advance();
        loop = candidate;
        return WalkResult::interrupt();
      });
      if (!loop)
        break;
      Refusal reason;
      Location loc = loop.getLoc();
      if (failed(vectorizeLoop(rewriter, loop, maxLanes, reason))) {
        loop->removeAttr(TIRDialect::kLoopKindAttrName);
        emitWarning(loc, "vectorized loop left scalar: ") << reason.message;
      }
    }
  }
};
} // namespace
