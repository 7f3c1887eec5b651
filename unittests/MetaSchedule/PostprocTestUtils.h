//===- PostprocTestUtils.h - the postprocessor tests' fixture ---*- C++ -*-===//
//
// A schedule of a small module, a postprocessor applied to it, and what it
// left: the trace's instruction kinds and the annotations of loops and
// blocks. Each test file derives its own suite from it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_UNITTESTS_METASCHEDULE_POSTPROCTESTUTILS_H
#define TENSORIR_UNITTESTS_METASCHEDULE_POSTPROCTESTUTILS_H

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"
#include "TensorIR/InitAllScheduleExtensions.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/SpaceGenerator.h"

namespace mlir::tir::test {

using namespace mlir::tir::ms;

class PostprocFixture : public TIRTest {
protected:
  /// A 64^3 matmul with constant loops (what every postprocessor accepts).
  static constexpr StringLiteral kStaticMatmul = R"mlir(
func.func @main(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  tir.for %i = 0 to 64 {
    tir.for %j = 0 to 64 {
      tir.for %k = 0 to 64 {
        tir.block "matmul"(%vi = spatial(64, %i), %vj = spatial(64, %j), %vk = reduce(64, %k)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %C[%vi, %vj] : memref<64x64xf32>
          }
          %c = tir.load %C[%vi, %vj] : memref<64x64xf32>
          %a = tir.load %A[%vi, %vk] : memref<64x64xf32>
          %b = tir.load %B[%vk, %vj] : memref<64x64xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vi, %vj] : memref<64x64xf32>
        }
      }
    }
  }
  return
}
)mlir";

  PostprocFixture() {
    DialectRegistry registry;
    registerScheduleExtensions(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// A schedule of `source` (parsed), or null after a test failure.
  Schedule schedule(StringRef source) {
    OwningOpRef<ModuleOp> mod = parse(source);
    if (!mod)
      return nullptr;
    std::string error;
    FailureOr<Schedule> sch = createTracedSchedule(*mod, 1, error);
    EXPECT_TRUE(succeeded(sch)) << error;
    return succeeded(sch) ? *sch : nullptr;
  }

  /// `postproc` applied to `sch`: whether it accepted it (the test fails
  /// when it errs).
  /// Whether a function of `mod` has a root block with annotations (one
  /// left with none is the function's body again).
  static bool hasRootAnnotations(ModuleOp mod) {
    bool found = false;
    mod.walk([&](FunctionOpInterface func) {
      if (BlockOp root = getExplicitRootBlock(func))
        found |= static_cast<bool>(root.getAnnotationsAttr());
    });
    return found;
  }

  static bool apply(Postproc &postproc, const Schedule &sch) {
    std::string error;
    FailureOr<bool> accepted = postproc.apply(sch, error);
    EXPECT_TRUE(succeeded(accepted)) << error;
    return succeeded(accepted) && *accepted;
  }

  /// The kinds of the trace's instructions, in order.
  static std::vector<std::string> kinds(const Schedule &sch) {
    std::vector<std::string> names;
    for (const InstructionRef &inst : sch->getInstructions().getInstructions())
      names.push_back(inst->kind ? inst->kind->getName().str() : "?");
    return names;
  }

  /// The integer annotation `key` of `loop` (std::nullopt when it has none).
  static std::optional<int64_t> intAnnotation(ForOp loop, StringRef key) {
    DictionaryAttr annotations = loop.getAnnotationsAttr();
    auto value = dyn_cast_if_present<IntegerAttr>(
        annotations ? annotations.get(key) : Attribute());
    return value ? std::optional<int64_t>(value.getInt()) : std::nullopt;
  }

  /// The string annotation `key` of `block` (std::nullopt when it has none).
  static std::optional<std::string> strAnnotation(BlockOp block,
                                                  StringRef key) {
    DictionaryAttr annotations = block.getAnnotationsAttr();
    auto value = dyn_cast_if_present<StringAttr>(
        annotations ? annotations.get(key) : Attribute());
    return value ? std::optional<std::string>(value.str()) : std::nullopt;
  }
};

} // namespace mlir::tir::test

#endif // TENSORIR_UNITTESTS_METASCHEDULE_POSTPROCTESTUTILS_H
