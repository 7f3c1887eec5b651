//===- LiftTransformParams.cpp - weights' computations done ahead ---------===//
//
// --tir-lift-transform-params (Relax's LiftTransformParams): the steps of a
// graph function computed from its weights (the parameters after
// num_input) move into `<name>_transform_params` (outlineComputations).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/OutlineComputations.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRLIFTTRANSFORMPARAMSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
struct LiftTransformParams
    : public tir::impl::TIRLiftTransformParamsPassBase<LiftTransformParams> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal() && isGraphFunction(func))
        funcs.push_back(func);
    for (func::FuncOp func : funcs) {
      auto attrs =
          func->getAttrOfType<DictionaryAttr>(TIRDialect::kFuncAttrsAttrName);
      auto numInput =
          attrs ? attrs.getAs<IntegerAttr>("num_input") : IntegerAttr();
      if (!numInput)
        continue;
      int64_t inputs = numInput.getInt();
      func::FuncOp transform = outlineComputations(
          func,
          [&](BlockArgument arg) {
            return static_cast<int64_t>(arg.getArgNumber()) >= inputs;
          },
          (func.getName() + "_transform_params").str());
      // Callers run it: public, as the function it serves.
      if (transform)
        transform.setPublic();
    }
  }
};
} // namespace
