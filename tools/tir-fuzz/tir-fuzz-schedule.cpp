//===- tir-fuzz-schedule.cpp - fuzz the transform interpreter -------------===//
//
// libFuzzer target: the input is a module holding payload IR and a
// `transform.named_sequence @__transform_main`, as the test/Schedule files
// do. Once it parses and verifies, the transform interpreter runs the
// sequence over the whole module, as `tir-opt --transform-interpreter`
// does (expensive handle checks on). A refused step is fine; a sequence
// that succeeds must leave a module that verifies (otherwise a finding,
// reported as a crash). All inputs share one context (FuzzContext::shared):
// loading the transform dialect and its extensions took most of each
// execution when every input had its own.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::tir::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzContext &context = FuzzContext::shared(Registration::Schedule);
  OwningOpRef<ModuleOp> module = parseInput(context.get(), data, size);
  if (!module || failed(verify(*module)))
    return 0;
  transform::TransformOpInterface entry =
      transform::detail::findTransformEntryPoint(*module, /*module=*/nullptr);
  if (!entry)
    return 0;
  transform::TransformOptions options;
  options.enableExpensiveChecks(true);
  if (failed(transform::applyTransformNamedSequence(*module, entry,
                                                    /*transformModule=*/{},
                                                    options)))
    return 0;
  context.setCapture(true);
  if (failed(verify(*module)))
    reportFinding("a transform sequence succeeded but left a module that "
                  "does not verify",
                  *module, context.takeDiagnostics());
  context.setCapture(false);
  return 0;
}
