//===- ApproximateMath.cpp - math functions as inline polynomials ---------===//
//
// Upstream's approximations are accurate over normal floats only: exp
// flushes results below the smallest normal float (x < -87.34) to zero, and
// log / log2 treat subnormal inputs as the smallest normal. Both are
// widened here, per lane: exp computes such x as exp(x / 2)^2, log and log2
// such inputs as log(x * 2^24) - 24 ln 2 (and log2(x * 2^24) - 24); the
// scalings are exact (an added 24 ln 2 would round at |x| ~ 70 and cost
// 30 ulp).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cfloat>

namespace mlir::tir {
#define GEN_PASS_DEF_TIRAPPROXIMATEMATHPASS
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;

ArrayRef<StringRef> mlir::tir::getDefaultApproximatedMathFunctions() {
  static const StringRef functions[] = {"exp", "log", "log2", "tanh", "erf"};
  return functions;
}

/// A constant of `type` (f32 or a vector of it) holding `value`.
static Value splat(OpBuilder &b, Location loc, Type type, float value) {
  auto element = b.getF32FloatAttr(value);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vector, element));
  return arith::ConstantOp::create(b, loc, element);
}

/// Rewrites `op` (math.exp, math.log or math.log2 on f32) so that the lanes
/// outside the approximation's normal range go through a scaled argument.
static void widenToSubnormals(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  Type type = x.getType();
  constexpr float kLn2 = 0.693147180559945309f;
  constexpr float kScale = 16777216.0f; // 2^24
  Value scaledIn, limit, fix;
  bool isExp = isa<math::ExpOp>(op);
  if (isExp) {
    // Below log(FLT_MIN) the result is subnormal.
    limit = splat(b, loc, type, -87.3365448f);
    scaledIn = arith::MulFOp::create(b, loc, x, splat(b, loc, type, 0.5f));
  } else {
    limit = splat(b, loc, type, FLT_MIN);
    scaledIn = arith::MulFOp::create(b, loc, x, splat(b, loc, type, kScale));
  }
  Value low =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, limit);
  Value in = arith::SelectOp::create(b, loc, low, scaledIn, x);
  Operation *inner = b.clone(*op);
  inner->setOperand(0, in);
  Value r = inner->getResult(0);
  if (isExp)
    fix = arith::MulFOp::create(b, loc, r, r);
  else
    fix = arith::SubFOp::create(
        b, loc, r,
        splat(b, loc, type, isa<math::LogOp>(op) ? 24.0f * kLn2 : 24.0f));
  Value out = arith::SelectOp::create(b, loc, low, fix, r);
  op->getResult(0).replaceAllUsesWith(out);
  op->erase();
}

namespace {
struct TIRApproximateMathPass
    : public tir::impl::TIRApproximateMathPassBase<TIRApproximateMathPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::string> names(functions.begin(), functions.end());
    if (names.empty())
      for (StringRef f : tir::getDefaultApproximatedMathFunctions())
        names.push_back(f.str());
    // The patterns ask by operation name ("math.exp").
    auto chosen = [&](StringRef name) {
      name.consume_front("math.");
      return llvm::is_contained(names, name);
    };
    SmallVector<Operation *> widen;
    getOperation().walk([&](Operation *op) {
      if (isa<math::ExpOp, math::LogOp, math::Log2Op>(op) &&
          chosen(op->getName().getStringRef()) &&
          getElementTypeOrSelf(op->getResult(0).getType()).isF32())
        widen.push_back(op);
    });
    for (Operation *op : widen)
      widenToSubnormals(op);
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, chosen);
    populateMathPolynomialApproximationPatterns(patterns, chosen);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
