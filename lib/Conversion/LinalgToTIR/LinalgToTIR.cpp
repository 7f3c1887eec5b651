//===- LinalgToTIR.cpp - linalg ops as TensorIR blocks --------------------===//
//
// buildLinalgBlock, and --convert-linalg-to-tir, which replaces linalg ops
// on buffers by their blocks where they stand.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/LinalgToTIR/LinalgToTIR.h"
#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/IR/TIRBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

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

BlockOp mlir::tir::buildLinalgBlock(OpBuilder &builder, Location loc,
                                    linalg::LinalgOp op, StringRef name,
                                    ValueRange inputs, ValueRange outputs,
                                    ArrayRef<TypedAttr> inits) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Value> loops = createLoopNest(builder, loc, ranges, "i");
  SmallVector<IterVarSpec> vars;
  for (auto [d, range] : llvm::enumerate(ranges))
    vars.push_back({kinds[d] == utils::IteratorType::reduction
                        ? IterType::Reduce
                        : IterType::Spatial,
                    builder.getIndexAttr(0), builder.getIndexAttr(range),
                    getAffineDimExpr(d, ctx)});
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
        StoreOp::create(b, l, c, outputs[k], op.getMatchingIndexingMap(out), v);
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
      map.map(arg, LoadOp::create(b, l, buffer,
                                  op.getMatchingIndexingMap(&operand), v)
                       .getResult());
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
          StoreOp::create(b, l, map.lookupOrDefault(value), outputs[k],
                          op.getMatchingIndexingMap(out), v);
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

namespace {
struct ConvertLinalgToTIRPass
    : public tir::impl::ConvertLinalgToTIRPassBase<ConvertLinalgToTIRPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      std::string why = checkLinalgForTIR(op);
      if (!why.empty()) {
        op->emitError("has no TensorIR block: ") << why;
        return signalPassFailure();
      }
      OpBuilder builder(op);
      std::string name = op->getName().stripDialect().str();
      std::replace(name.begin(), name.end(), '.', '_');
      buildLinalgBlock(builder, op.getLoc(), op, name, op.getDpsInputs(),
                       op.getDpsInits());
      op->erase();
    }
  }
};
} // namespace
