//===- AnnotateOpPattern.cpp - prim_funcs with their operator pattern -----===//
//
// --tir-annotate-op-pattern (Relax's AnnotateTIROpPattern): each prim_func
// with a body gets `tir.op_pattern` (TensorIR/Dialect/TIR/Analysis/
// OpPattern.h).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/OpPattern.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRANNOTATEOPPATTERNPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
struct TIRAnnotateOpPatternPass
    : public tir::impl::TIRAnnotateOpPatternPassBase<TIRAnnotateOpPatternPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && !isGraphFunction(func))
        func->setAttr(
            TIRDialect::kOpPatternAttrName,
            b.getI64IntegerAttr(static_cast<int64_t>(analyzeOpPattern(func))));
  }
};
} // namespace
