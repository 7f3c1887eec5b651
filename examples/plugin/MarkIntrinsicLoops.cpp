//===- MarkIntrinsicLoops.cpp - a hardware-adaptation pass as a plugin ----===//
//
// An MLIR pass plugin that marks loops for a custom intrinsic: every
// innermost tir.for whose constant trip count divides by `width` gets the
// loop annotation `pragma_custom_intrin = "<intrinsic>"`, which a back end
// for that hardware would pick up. examples/python/intrinsic_pass.py writes
// the same pass in Python over the IR's nodes; both give the same IR.
//
// The plugin links libMLIR.so only: it sees tir's ops through the generic
// Operation API (their names and inherent attributes), so it does not carry
// a second copy of the tir dialect into the process that loads it.
//
//   tir-opt --load-pass-plugin=build/lib/TIRMarkIntrinsicLoops.so \
//     --pass-pipeline="builtin.module(tir-mark-intrinsic-loops{width=8})"
//     f.mlir
//   tvm.transform.load_pass_plugin(path)
//   tvm.transform.mlir_pass("tir-mark-intrinsic-loops{width=8}")(mod)
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

namespace {

bool isLoop(Operation *op) { return op->getName().getStringRef() == "tir.for"; }

struct MarkIntrinsicLoopsPass
    : PassWrapper<MarkIntrinsicLoopsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MarkIntrinsicLoopsPass)

  MarkIntrinsicLoopsPass() = default;
  MarkIntrinsicLoopsPass(const MarkIntrinsicLoopsPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "tir-mark-intrinsic-loops"; }
  StringRef getDescription() const final {
    return "Annotate innermost loops whose trip count divides by `width` "
           "with pragma_custom_intrin";
  }

  void runOnOperation() override {
    if (width <= 0) {
      getOperation()->emitError("tir-mark-intrinsic-loops: width must be "
                                "positive, got ")
          << static_cast<int64_t>(width);
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    getOperation()->walk([&](Operation *loop) {
      if (!isLoop(loop))
        return;
      bool innermost = true;
      loop->walk([&](Operation *inner) {
        innermost &= inner == loop || !isLoop(inner);
      });
      // Constant bounds are [lower, upper] in `static_bounds`; a dynamic
      // one is ShapedType::kDynamic there.
      auto bounds = loop->getAttrOfType<DenseI64ArrayAttr>("static_bounds");
      if (!innermost || !bounds || bounds.size() != 2 ||
          ShapedType::isDynamic(bounds[0]) || ShapedType::isDynamic(bounds[1]))
        return;
      int64_t extent = bounds[1] - bounds[0];
      if (extent <= 0 || extent % width != 0)
        return;
      NamedAttrList annotations(
          loop->getAttrOfType<DictionaryAttr>("annotations"));
      annotations.set("pragma_custom_intrin",
                      StringAttr::get(ctx, intrinsic.getValue()));
      loop->setAttr("annotations", annotations.getDictionary(ctx));
    });
  }

  Option<int64_t> width{*this, "width",
                        llvm::cl::desc("trip counts that divide by this"),
                        llvm::cl::init(8)};
  Option<std::string> intrinsic{*this, "intrinsic",
                                llvm::cl::desc("the intrinsic's name"),
                                llvm::cl::init("vmac")};
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TIRMarkIntrinsicLoops", LLVM_VERSION_STRING,
          [] { PassRegistration<MarkIntrinsicLoopsPass>(); }};
}
