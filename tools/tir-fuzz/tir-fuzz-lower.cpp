//===- tir-fuzz-lower.cpp - fuzz the CPU lowering -------------------------===//
//
// libFuzzer target: the input is MLIR text; once it parses and verifies, it
// runs through the tir-lower-to-llvm pipeline (lib/Pipelines, the pipeline
// tir-translate and the runtime use) and, when that succeeds, is translated
// to LLVM IR (no machine code, to keep each input fast). The LLVM module
// must pass LLVM's verifier (otherwise a finding, reported as a crash). All
// inputs share one context (FuzzContext::shared), which loads its dialects
// once.
//
// Unrolling works in proportion to trip counts: inputs whose unrolled loops
// would make more than kMaxUnrolledCopies copies of a body are skipped (a
// fuzzer writes `tir.for unrolled %i = 0 to 1000000000` easily; the cost,
// not a crash, is what such an input finds).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Pipelines/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::fuzz;

/// The most copies of a loop body that unrolling may make in one input.
static constexpr uint64_t kMaxUnrolledCopies = 4096;
/// What the unroll pass's dynamic-factor option is (TIRUnrollLoopsPass).
static constexpr uint64_t kDynamicUnrollFactor = 4;

/// How many copies unrolling a loop from `lower` to `upper` makes (an
/// over-estimate: the step is taken as 1); the dynamic factor when a bound
/// is not a constant.
static uint64_t unrolledCopies(OpFoldResult lower, OpFoldResult upper) {
  std::optional<int64_t> lo = getConstantIntValue(lower);
  std::optional<int64_t> hi = getConstantIntValue(upper);
  if (!lo || !hi)
    return kDynamicUnrollFactor;
  if (*hi <= *lo)
    return 1;
  // Both are int64_t: the difference fits in uint64_t.
  return static_cast<uint64_t>(*hi) - static_cast<uint64_t>(*lo);
}

/// Whether unrolling every loop marked unrolled (tir.for unrolled, or an
/// scf.for carrying tir.loop_kind = unrolled) makes more than
/// kMaxUnrolledCopies copies in all: the product over nested unrolled loops,
/// summed over the outermost ones, bounded by the same product taken over
/// all of them.
static bool exceedsUnrollBudget(ModuleOp module) {
  uint64_t total = 1;
  bool over = false;
  auto account = [&](uint64_t copies) {
    if (copies > kMaxUnrolledCopies || total > kMaxUnrolledCopies / copies)
      over = true;
    else
      total *= copies;
  };
  module->walk([&](Operation *op) {
    if (over)
      return WalkResult::interrupt();
    if (auto loop = dyn_cast<ForOp>(op)) {
      if (loop.getKind() == ForKind::Unrolled)
        account(unrolledCopies(loop.getMixedLowerBound(),
                               loop.getMixedUpperBound()));
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      auto kind =
          loop->getAttrOfType<ForKindAttr>(TIRDialect::kLoopKindAttrName);
      if (kind && kind.getValue() == ForKind::Unrolled)
        account(unrolledCopies(loop.getLowerBound(), loop.getUpperBound()));
    }
    return WalkResult::advance();
  });
  return over;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzContext &context = FuzzContext::shared(Registration::LLVMTranslation);
  OwningOpRef<ModuleOp> module = parseInput(context.get(), data, size);
  if (!module || failed(verify(*module)) || exceedsUnrollBudget(*module))
    return 0;

  PassManager pm(&context.get(), ModuleOp::getOperationName());
  LowerToLLVMOptions options;
  buildLowerToLLVMPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 0;

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  if (!llvmModule)
    return 0;
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*llvmModule, &os))
    reportFinding("the LLVM IR translated from a lowered module does not "
                  "verify",
                  *module, problems);
  return 0;
}
