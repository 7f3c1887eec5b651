//===- tir-fuzz-parse.cpp - fuzz parsing, verifying and printing ----------===//
//
// libFuzzer target: the input is MLIR text, parsed with what tir-opt
// registers (tir, the upstream dialects, transform and transform.tir), then
// verified. A module that verifies must survive a round trip: printed in
// the custom form and in the generic form, each must parse again and
// verify. A failed round trip is a finding (reported as a crash).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tir::fuzz;

/// Prints `module` (generic form when `generic`), parses the text again and
/// verifies it; a failure is a finding.
static void checkRoundTrip(FuzzContext &context, ModuleOp module,
                           bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);

  context.setCapture(true);
  ParserConfig config(&context.get());
  OwningOpRef<ModuleOp> again =
      parseSourceString<ModuleOp>(text, config, "printed");
  if (!again)
    reportFinding(generic ? "the generic form of a verified module does not "
                            "parse"
                          : "the printed form of a verified module does not "
                            "parse",
                  module, context.takeDiagnostics());
  if (failed(verify(*again)))
    reportFinding(generic ? "the generic form of a verified module parses but "
                            "does not verify"
                          : "the printed form of a verified module parses but "
                            "does not verify",
                  module, context.takeDiagnostics());
  context.setCapture(false);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzContext context(Registration::Schedule);
  OwningOpRef<ModuleOp> module = parseInput(context.get(), data, size);
  if (!module || failed(verify(*module)))
    return 0;
  checkRoundTrip(context, *module, /*generic=*/false);
  checkRoundTrip(context, *module, /*generic=*/true);
  return 0;
}
