//===- FuzzSupport.h - what the tir libFuzzer targets share -----*- C++ -*-===//
//
// The pieces every fuzz target under tools/tir-fuzz uses: a context, fresh
// per input or one per process (single-threaded, diagnostics swallowed),
// parsing the input as a module, the narrow filter for crashes known to be
// in upstream MLIR, and how a target reports a finding that is not a
// sanitizer report (an abort with a message, which libFuzzer records as a
// crash).
//
//===----------------------------------------------------------------------===//

#ifndef TIR_FUZZ_FUZZSUPPORT_H
#define TIR_FUZZ_FUZZSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace mlir::tir::fuzz {

/// What a target registers besides tir and the dialects of
/// InitAllDialects.h (which every target registers, as tir-opt does).
enum class Registration {
  Dialects,        // InitAllDialects.h: tir and the upstream dialects
  Schedule,        // + InitAllScheduleExtensions.h (transform, transform.tir)
  LLVMTranslation, // + the dialects' LLVM IR translations
};

/// A context for fuzzing: multithreading off (no thread pool; libFuzzer's
/// -jobs parallelize instead) and every diagnostic swallowed (a refused input
/// is not a finding). Either fresh for one input (the constructor: dialects
/// load as the input needs them) or one for the whole process (shared()).
class FuzzContext {
public:
  explicit FuzzContext(Registration what);

  /// The context of every input of this process, made on the first call
  /// with every dialect of `what` loaded (the same `what` on every call).
  /// For the targets whose inputs load many dialects: a fresh context per
  /// input spent most of each execution loading them (the transform dialect
  /// and its extensions, the LLVM dialect). Every input, the first one
  /// included, starts from the same loaded dialects; an input parses into
  /// its own module, which is gone when the next one starts, and leaves
  /// behind only uniqued attributes and types, which are immutable. So a
  /// crash still reproduces from its file alone, run through the target
  /// in a new process.
  static FuzzContext &shared(Registration what);

  MLIRContext &get() { return *context; }
  /// The diagnostics since the last call, when capture is on (off by
  /// default: most inputs are refused and formatting costs time).
  void setCapture(bool on) { capture = on; }
  std::string takeDiagnostics() { return std::move(captured); }

private:
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<ScopedDiagnosticHandler> silence;
  bool capture = false;
  std::string captured;
};

/// Whether `text` reaches a crash known to be in MLIR 22's own code (listed
/// with reproducers in docs/reliability.md, "Upstream crashes"); such inputs
/// are skipped before parsing. The filter is as narrow as the crash.
bool reachesKnownUpstreamCrash(llvm::StringRef text);

/// Parses `data` as a module (null when it does not parse, or when it is
/// skipped by reachesKnownUpstreamCrash). Inputs over `maxBytes` are
/// skipped too, whatever -max_len says.
OwningOpRef<ModuleOp> parseInput(MLIRContext &context, const uint8_t *data,
                                 size_t size, size_t maxBytes = 16384);

/// Reports a finding that no sanitizer sees (a module that verified no
/// longer verifies, a round trip that fails): prints `what` and the module,
/// with `details` (the diagnostics that explain it, if any), then aborts, so
/// that libFuzzer saves the input as a crash.
[[noreturn]] void reportFinding(llvm::StringRef what, Operation *op,
                                llvm::StringRef details = {});

} // namespace mlir::tir::fuzz

#endif // TIR_FUZZ_FUZZSUPPORT_H
